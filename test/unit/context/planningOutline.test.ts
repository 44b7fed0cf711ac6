import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { countLines, outlineSource } from '../../../src/core/elements/outline';
import { DEFAULT_PLANNING_OUTLINE_BUDGET, planningOutline } from '../../../src/core/llm/prompts';
import { loadLanguagesFor } from '../../../src/core/language/languages';
import { loadCorpus, type Corpus } from '../../support/corpus';
import { csharpTestFile } from '../../support/csharpTestFile';
import { corpusFileText, installHint } from '../../support/languageCorpus';

const counter = createTokenCounter();

function tryLoadCorpus(): Corpus | undefined {
  try {
    return loadCorpus();
  } catch (error) {
    // In CI the test command installs the corpus first; a missing corpus there is a failure, not a skip.
    if (process.env['CI'] !== undefined) throw error;
    return undefined;
  }
}

const method = (name: string): string =>
  `  ${name}(input: string, options: { strict: boolean; depth: number }): Promise<string> {\n    return Promise.resolve(input);\n  }\n`;
const big = [
  "import { helper } from './helper';",
  'export class Editor {',
  ...Array.from({ length: 80 }, (_, i) => method(`handle${i}`)),
  method('onKeyDown'),
  '}',
  'export const routes = {',
  ...Array.from({ length: 40 }, (_, i) => `  route${i}: (id: string) => \`/items/\${id}/${i}\`,`),
  '};',
  'export function main(): void {}',
  '',
].join('\n');
const outline = outlineSource('src/editor.ts', big);

void describe('planning outline', () => {
  void test('within its budget: every element on its own line, path and signature, members indented', () => {
    const small = outlineSource('src/a.ts', 'export class A {\n  run(x: number): void {}\n}\nexport const b = 1;\n');
    assert.equal(
      planningOutline(small),
      [
        'File src/a.ts (4 lines)',
        '  src/a.ts/class[A]  export class A',
        '    src/a.ts/class[A]/method[run]  run(x: number): void',
        '  src/a.ts/variable[b]  export const b = 1',
      ].join('\n'),
    );
  });

  void test('over budget, the members of large containers fold to their labels; those the task names stay whole', () => {
    const unlimited = planningOutline(outline, { budget: Number.POSITIVE_INFINITY, counter });
    const budget = Math.floor(counter.count(unlimited) / 3);
    const text = planningOutline(outline, { budget, counter, instruction: 'fix the onKeyDown handler' });
    assert.ok(counter.count(text) <= budget, `${counter.count(text)} > ${budget}`);
    assert.ok(
      text.includes('    src/editor.ts/class[Editor]/method[onKeyDown]  onKeyDown(input: string'),
      'the member the task names keeps its line',
    );
    assert.match(text, /\n {4}members: method\[handle0\], method\[handle1\], /);
    assert.ok(text.includes('  src/editor.ts/function[main]  export function main(): void'), 'top level stays');
  });

  void test('tighter, folded members become a count with the path to NEED', () => {
    const text = planningOutline(outline, { budget: 120, counter });
    assert.ok(counter.count(text) <= 120, text);
    assert.ok(text.includes('… 81 more members (NEED src/editor.ts/class[Editor] to see them)'), text);
  });

  void test('a file of hundreds of top-level elements lists the rest by label on one line', () => {
    const many = Array.from(
      { length: 400 },
      (_, i) => `export function step${i}(value: number, label: string): number { return value; }`,
    );
    const text = planningOutline(outlineSource('src/steps.ts', many.join('\n')), { budget: 800, counter });
    assert.ok(counter.count(text) <= 800, String(counter.count(text)));
    assert.match(text, /\n {2}also in src\/steps\.ts: function\[step\d+\], /);
    assert.match(text, /… and \d+ more$/);
  });

  void test('every test call has one layout: labels with their notes, several to a line, in a describe or not', () => {
    const tests = (n: number): string =>
      Array.from({ length: n }, (_, i) => `  it('case ${i}', () => {\n    expect(run(${i})).toBe(${i});\n  });`).join(
        '\n',
      );
    const text = [
      "import { run } from './run';",
      "describe('small', () => {",
      tests(3),
      '});',
      "describe('large', () => {",
      tests(60),
      '});',
      "test('top level', () => {",
      '  expect(run(0)).toBe(0);',
      '});',
      "test('escape key closes', () => {",
      '  expect(run(99)).toBe(99);',
      '});',
      '',
    ].join('\n');
    const file = outlineSource('src/run.test.ts', text);
    const unlimited = planningOutline(file, { budget: Number.POSITIVE_INFINITY, counter, instruction: 'escape' });
    const tight = planningOutline(file, { budget: 400, counter, instruction: 'escape' });
    assert.match(
      unlimited,
      /\n {4}call\[it 'case 0'\], call\[it 'case 1'\], call\[it 'case 2'\], call\[it 'case 3'\], /,
    );
    assert.ok(counter.count(unlimited) < 700, `${counter.count(unlimited)} tokens for 65 tests`);
    for (const view of [unlimited, tight]) {
      assert.ok(view.includes("    call[it 'case 0'], call[it 'case 1'], call[it 'case 2']\n"), view);
      assert.match(view, /\n {2}statement\[test\]#1 'top level', statement\[test\]#2 'escape key closes'/);
      assert.ok(!view.includes("it('case"), 'no signature repeats a test name');
      assert.ok(!view.includes('members:'), view);
    }
    assert.ok(counter.count(tight) <= 400, `${counter.count(tight)}`);
  });

  const corpus = tryLoadCorpus();
  const title = `the largest corpus files fit the default budget (${DEFAULT_PLANNING_OUTLINE_BUDGET} tokens)`;
  void test(title, { skip: corpus === undefined ? 'the corpus is not installed' : false }, () => {
    const files = (corpus?.corpusFiles() ?? [])
      .map((file) => ({ file, text: readFileSync(file.absPath, 'utf8') }))
      .sort((a, b) => countLines(b.text) - countLines(a.text))
      .slice(0, 10);
    for (const { file, text } of files) {
      const tokens = counter.count(planningOutline(outlineSource(file.relPath, text), { counter }));
      assert.ok(tokens <= DEFAULT_PLANNING_OUTLINE_BUDGET, `${file.pkg} ${file.relPath}: ${tokens}`);
    }
  });
});

void describe('planning outline: no container hidden behind one label (issue 26)', () => {
  before(() => loadLanguagesFor(['a.cs', 'a.go', 'a.py']));

  void test('a C# test class in a block namespace is outlined with its members, not as "members: class[...]"', () => {
    const file = 'tests/WidgetParserTests.cs';
    const text = csharpTestFile(73);
    const csharp = outlineSource(file, text);
    const unlimited = planningOutline(csharp, { budget: Number.POSITIVE_INFINITY, counter });
    const budget = Math.floor(counter.count(unlimited) / 2);
    const planned = planningOutline(csharp, { budget, counter });
    assert.ok(counter.count(planned) <= budget, `${counter.count(planned)} > ${budget}`);
    const lines = planned.split('\n');
    assert.equal(lines[2], `    ${file}/namespace[Acme.Widgets.Tests]/class[WidgetParserTests]  public class WidgetParserTests`);
    assert.match(lines[3] ?? '', /^ {6}members: property\[_parser\], method\[Parse_Case0_ReturnsTheExpectedWidget\], /);
    assert.equal((lines[3]?.match(/method\[Parse_Case\d+_ReturnsTheExpectedWidget\]/g) ?? []).length, 73);
    assert.ok(!planned.includes('members: class['), planned);
  });

  void test('real code: ReactShadowNode.cs (1,401 lines in a block namespace) lists its class members', (t) => {
    const real = corpusFileText('csharp', 'ReactNative.Shared/UIManager/ReactShadowNode.cs');
    if (real === undefined) return t.skip(installHint('csharp'));
    const text = planningOutline(outlineSource(real.path, real.text), { counter });
    assert.ok(counter.count(text) <= DEFAULT_PLANNING_OUTLINE_BUDGET);
    assert.ok(!text.includes('members: class[ReactShadowNode]'), text.slice(0, 400));
    assert.match(text, /\n {4}\S+\/class\[ReactShadowNode\] {2}public class ReactShadowNode : IDisposable\n {6}members: .*method\[CalculateLayout\]/);
  });

  void test('section comments stand where the file has them: the new test goes above "DEPRECATED", not below', (t) => {
    const real = corpusFileText('go', 'spf13/cobra/args_test.go');
    if (real === undefined) return t.skip(installHint('go'));
    const lines = planningOutline(outlineSource(real.path, real.text), { counter }).split('\n');
    const at = lines.indexOf('  § DEPRECATED (line 488)');
    assert.ok(at > 0, lines.join('\n'));
    assert.match(lines[at - 1] ?? '', /function\[TestMatchAll\]/);
    assert.match(lines[at + 1] ?? '', /function\[TestExactValidArgs\]/);
    assert.ok(lines.includes('  § NoArgs (line 110)'));
    assert.ok(!lines.some((line) => line.includes('Copyright')), 'the licence above the package is no section');
  });

  void test('Python: the module docstring and class docstrings are marked; comments inside a function are not', () => {
    const file = 'pkg/shapes.py';
    const text = [
      '"""Shapes and their areas.',
      '',
      'More words.',
      '"""',
      'import math',
      '',
      '',
      'class Shape:',
      '    """A shape: something with an area."""',
      '',
      '    def area(self) -> float:',
      '        raise NotImplementedError',
      '',
      '    # ---- deprecated ----',
      '',
      '    def size(self) -> float:',
      '        return self.area()',
      '',
      '',
      'def outer():',
      '    """Not a class: its docstring is its code."""',
      '    # explains the next line',
      '    x = 1',
      '',
      '    def inner():',
      '        return x',
      '    return inner',
      '',
    ].join('\n');
    assert.equal(
      planningOutline(outlineSource(file, text), { counter }),
      [
        `File ${file} (27 lines)`,
        '  § docstring: Shapes and their areas. (lines 1-4)',
        `  ${file}/class[Shape]  class Shape`,
        '    § docstring: A shape: something with an area. (line 9)',
        `    ${file}/class[Shape]/method[area]  def area(self) -> float`,
        '    § deprecated (line 14)',
        `    ${file}/class[Shape]/method[size]  def size(self) -> float`,
        `  ${file}/function[outer]  def outer()`,
        `    ${file}/function[outer]/function[inner]  def inner()`,
      ].join('\n'),
    );
  });
});
