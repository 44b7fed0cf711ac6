import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildContext, ContextBudgetError } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { outlineSource } from '../../../src/core/elements/outline';
import { ElementNotFoundError } from '../../../src/core/elements/resolve';

const fixtures = join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'elements', 'fixtures');
const hard = outlineSource('src/hard.ts', readFileSync(join(fixtures, 'hardCases.ts'), 'utf8'));
const counter = createTokenCounter();
const VALIDATE = 'src/hard.ts/class[UserService]/method[validate]';

function levelOf(result: ReturnType<typeof buildContext>, path: string): string | undefined {
  return result.elements.find((e) => e.path === path)?.level;
}

void describe('focused context', () => {
  const result = buildContext([{ outline: hard, focus: [VALIDATE] }], counter);

  void test('shows the focused element verbatim, labelled with its path', () => {
    assert.ok(
      result.text.includes(
        `  // @ ${VALIDATE}\n  validate(input: string): boolean {\n    return input.length > 0 && path.isAbsolute(this.root);\n  }\n`,
      ),
    );
    assert.equal(levelOf(result, VALIDATE), 'full');
  });

  void test('shows the imports, the container header, the nearest siblings as signatures and the rest by name', () => {
    assert.ok(result.text.includes("import * as path from 'node:path';\n"));
    assert.ok(
      result.text.includes(
        '// @ src/hard.ts/class[UserService]\n/** The service. */\n@Injectable()\nexport class UserService extends Base implements Named {\n',
      ),
    );
    assert.ok(result.text.includes('  set name(value: string) { … } // @ setter[name]\n'));
    assert.ok(result.text.includes('  find(id: string): number | undefined { … } // @ method[find]\n'));
    // Farther members and the rest of the file are named only, in runs on one line with the lines they span.
    assert.ok(result.text.includes('  // @ property[instances], property[cache], '), result.text);
    assert.ok(result.text.includes(', constructor, getter[name] (lines 21-41)\n'), result.text);
    assert.ok(result.text.includes('// @ interface[Shape], type[Point], type[Id], enum[Color], '), result.text);
    assert.ok(!result.text.includes('Math.PI'), 'bodies outside the focus are not sent');
    assert.ok(!result.text.includes('constructor(private readonly root'), 'far members show no signature');
    assert.equal(levelOf(result, 'src/hard.ts/class[UserService]'), 'container');
    assert.equal(levelOf(result, 'src/hard.ts/class[UserService]/setter[name]'), 'signature');
    assert.equal(levelOf(result, 'src/hard.ts/class[UserService]/getter[name]'), 'stub');
    assert.equal(levelOf(result, 'src/hard.ts/enum[Color]'), 'stub');
  });

  void test('keeps the file order', () => {
    const order = [
      'import { Injectable',
      'class[UserService]',
      'method[validate]',
      'interface[Shape]',
      'statement[describe]#2',
    ];
    const positions = order.map((label) => result.text.indexOf(label));
    assert.ok(positions.every((p) => p >= 0));
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
  });

  void test('counts its tokens against the whole file', () => {
    assert.equal(result.tokens, counter.count(result.text));
    assert.equal(result.wholeFileTokens, counter.count(hard.text));
    assert.ok(result.tokens < result.wholeFileTokens);
    assert.equal(result.encoding, 'o200k_base');
  });

  void test('is deterministic: the same input gives byte-identical output', () => {
    const again = buildContext(
      [{ outline: outlineSource('src/hard.ts', hard.text), focus: [VALIDATE] }],
      createTokenCounter(),
    );
    assert.equal(again.text, result.text);
    assert.deepEqual(again, result);
  });

  void test('a small file is sent whole, and full forces whole files', () => {
    const small = outlineSource('src/small.ts', 'export function a(): number {\n  return 1;\n}\nexport const b = 2;\n');
    const smallResult = buildContext([{ outline: small, focus: ['src/small.ts/function[a]'] }], counter);
    assert.equal(smallResult.files[0]?.mode, 'whole');
    assert.ok(smallResult.text.includes('export const b = 2;'));
    const forced = buildContext([{ outline: hard, focus: [VALIDATE] }], counter, { full: true });
    assert.equal(forced.files[0]?.mode, 'whole');
    assert.ok(forced.text.includes(hard.text));
    const threshold = buildContext([{ outline: hard, focus: [VALIDATE] }], counter, { smallFileLines: 200 });
    assert.equal(threshold.files[0]?.mode, 'whole');
  });

  void test('a focused view that would cost as much as the file is replaced by the file itself', () => {
    // The focus covers almost all of the file: its labels and the header would cost more than the rest saves.
    const lines = Array.from({ length: 80 }, (_, i) => `  const value${i} = input * ${i};`).join('\n');
    const text = `export const version = '1.0.0';\nexport function compute(input: number): number {\n${lines}\n  return input;\n}\n`;
    const outline = outlineSource('src/index.ts', text);
    const result = buildContext([{ outline, focus: ['src/index.ts/function[compute]'] }], counter);
    assert.equal(result.files[0]?.mode, 'whole');
    assert.ok(result.text.includes(text));
    assert.ok(result.tokens <= result.wholeFileTokens + 40, `${result.tokens} vs ${result.wholeFileTokens}`);
  });

  void test('several files and several focus elements per file', () => {
    const other = outlineSource('src/other.ts', hard.text.replace(/UserService/g, 'AccountService'));
    const multi = buildContext(
      [
        { outline: other, focus: ['src/other.ts/enum[Color]/member[Green]'] },
        { outline: hard, focus: [VALIDATE, 'src/hard.ts/variable[config]/property[port]'] },
      ],
      counter,
    );
    assert.deepEqual(
      multi.files.map((f) => f.file),
      ['src/hard.ts', 'src/other.ts'],
    );
    assert.ok(multi.text.indexOf('File src/hard.ts') < multi.text.indexOf('File src/other.ts'));
    assert.ok(
      multi.text.includes('  // @ src/hard.ts/variable[config]/property[port]\n  port: 8080,\n'),
      'an object member keeps its comma',
    );
    assert.ok(multi.text.includes('  // @ src/other.ts/enum[Color]/member[Green]\n  Green,\n'));
    assert.equal(multi.wholeFileTokens, counter.count(hard.text) + counter.count(other.text));
  });

  void test('an unknown focus path fails with the nearest paths', () => {
    assert.throws(
      () => buildContext([{ outline: hard, focus: ['src/hard.ts/class[UserService]/method[validat]'] }], counter),
      (error: unknown) => error instanceof ElementNotFoundError && error.suggestions[0] === VALIDATE,
    );
  });
});

void describe('token budget', () => {
  const unlimited = buildContext([{ outline: hard, focus: [VALIDATE] }], counter);

  void test('within budget nothing degrades', () => {
    const result = buildContext([{ outline: hard, focus: [VALIDATE] }], counter, { budget: unlimited.tokens });
    assert.equal(result.text, unlimited.text);
    assert.deepEqual(result.dropped, []);
    assert.deepEqual(result.degraded, []);
  });

  void test('over budget, signatures become stubs and the rest of the file goes first; focused bodies stay', () => {
    const budget = unlimited.tokens - 40;
    const result = buildContext([{ outline: hard, focus: [VALIDATE] }], counter, { budget });
    assert.ok(result.tokens <= budget, `${result.tokens} > ${budget}`);
    assert.ok(result.text.includes('return input.length > 0 && path.isAbsolute(this.root);'));
    assert.ok(result.degraded.length > 0 || result.dropped.length > 0);
    for (const path of result.dropped) assert.equal(levelOf(result, path), 'dropped');
  });

  void test('when stubs must go, the ones farthest from the focus go first and the context says so', () => {
    const budget = 200;
    const result = buildContext([{ outline: hard, focus: [VALIDATE] }], counter, { budget });
    assert.ok(result.tokens <= budget);
    assert.ok(result.dropped.includes('src/hard.ts/statement[describe]#2'));
    assert.ok(!result.dropped.includes('src/hard.ts/class[UserService]/method[find]'), 'neighbours are dropped last');
    assert.match(result.text, /\/\/ … \d+ more elements not shown \(token budget\)\n```\n$/);
  });

  void test('if the focused bodies alone exceed the budget, the error says by how much', () => {
    assert.throws(
      () => buildContext([{ outline: hard, focus: [VALIDATE] }], counter, { budget: 60 }),
      (error: unknown) =>
        error instanceof ContextBudgetError &&
        error.budget === 60 &&
        error.required > 60 &&
        error.message.includes(`over by ${error.required - 60}`),
    );
  });
});

void describe('focused-view fidelity', () => {
  const body = (name: string): string =>
    `export function ${name}(a: number): number {\n  const x = a * 2;\n  const y = x + 1;\n  return x * y;\n}\n`;
  const text = [
    "import { a } from './a';",
    "import { b } from './b';",
    '',
    "import { c } from './c';",
    '',
    'export function focus(): number {',
    '  return a + b + c;',
    '}',
    '',
    'export function commented(x: number, url = "http://example.com") // why it takes x',
    '{',
    '  return x;',
    '}',
    'export function next(y: number): number {',
    '  return y;',
    '}',
    '',
    'export const config = {',
    '  port: 8080,',
    "  host: 'localhost',",
    '',
    '  nested: {',
    '    deep: true,',
    '  },',
    '  handler(request: string) {',
    '    return request;',
    '  },',
    '};',
    ...['f0', 'f1', 'f2', 'f3', 'f4', 'f5'].map(body),
  ].join('\n');
  const outline = outlineSource('src/view.ts', text);

  void test('a signature ending in a // comment keeps its { … } stub and its label', () => {
    const result = buildContext([{ outline, focus: ['src/view.ts/function[focus]'] }], counter);
    assert.ok(
      result.text.includes(
        'export function commented(x: number, url = "http://example.com") /* why it takes x */ { … } // @ function[commented]\n',
      ),
      result.text,
    );
  });

  void test('blank-line groups are kept as in the file, imports included', () => {
    const result = buildContext([{ outline, focus: ['src/view.ts/function[focus]'] }], counter);
    assert.ok(result.text.includes("import { b } from './b';\n\nimport { c } from './c';\n"), result.text);
    assert.ok(result.text.includes('}\n\nexport function commented('), 'a blank line after the focused function');
    assert.ok(
      result.text.includes('// @ function[commented]\nexport function next('),
      'no blank line where the file has none',
    );
  });

  void test('object-literal members keep their commas, shown in full or as signatures', () => {
    const result = buildContext([{ outline, focus: ['src/view.ts/variable[config]/property[host]'] }], counter);
    assert.ok(result.text.includes('  port: 8080, // @ property[port]\n'), result.text);
    assert.ok(result.text.includes("  // @ src/view.ts/variable[config]/property[host]\n  host: 'localhost',\n"));
    assert.ok(result.text.includes('\n  nested: {…}, // @ property[nested]\n'), 'the blank line before nested stays');
    assert.ok(result.text.includes('  handler(request: string) { … }, // @ method[handler]\n'));
  });

  void test('a file sent whole names its elements and their lines, its text untouched', () => {
    const big = outlineSource(
      'src/big.ts',
      `${text}\n${Array.from({ length: 30 }, (_, i) => `export function g${i}(a: number): number {\n${Array.from({ length: 30 }, (_, k) => `  a = a * ${k + 2} + Math.floor(a / ${k + 3}) - ${i};`).join('\n')}\n  return a;\n}\n`).join('\n')}`,
    );
    const result = buildContext([{ outline: big, focus: [] }], counter, { full: true });
    assert.ok(
      result.text.startsWith(
        `File src/big.ts (whole file, ${big.lineCount} lines)\nElements: function[focus] 6-8; function[commented] 10-13; function[next] 14-16; ` +
          'variable[config] 18-28 (property[port], property[host], property[nested], method[handler]); function[f0] 29-33;',
      ),
      result.text.slice(0, 400),
    );
    assert.ok(result.text.includes(`\`\`\`ts\n${big.text}\`\`\`\n`), 'the text goes as written');
  });

  void test('an index over its room keeps the paths the code does not spell', () => {
    const result = buildContext([{ outline: hard, focus: [] }], counter, { full: true });
    assert.match(
      result.text,
      /^File src\/hard\.ts \(whole file, \d+ lines\)\nElements: .*statement\[describe\]#2/,
      result.text.slice(0, 400),
    );
    assert.ok(result.text.includes(`\`\`\`ts\n${hard.text}\`\`\`\n`), 'the text goes as written');
  });

  void test("the index of a file sent whole takes at most a tenth of the file's size: members go first, then entries", () => {
    const result = buildContext([{ outline, focus: [] }], counter, { full: true });
    assert.ok(
      result.text.startsWith(
        'File src/view.ts (whole file, 63 lines)\nElements: function[focus] 6-8; function[commented] 10-13; ',
      ),
      result.text.slice(0, 400),
    );
    assert.ok(!result.text.includes('(property[port]'), 'no members: the code names them');
    const bare = counter.count(`File src/view.ts (whole file, 63 lines)\n\`\`\`ts\n${text}\n\`\`\`\n`);
    assert.ok(result.tokens <= Math.floor(bare * 1.1), `${result.tokens} against ${bare}`);
    assert.ok(result.text.includes(`\`\`\`ts\n${text}\`\`\`\n`), 'the text goes as written');
  });
});

void describe('appendix', () => {
  void test("a file's appendix (its references) follows its view, inside the token count", () => {
    const appendix =
      'References to src/hard.ts/class[UserService]/method[validate] (1 in 1 file):\n- src/app.ts/function[main]: service.validate(x);';
    const result = buildContext([{ outline: hard, focus: [VALIDATE], appendix }], counter);
    assert.ok(result.text.endsWith(`\`\`\`\n${appendix}\n`), result.text.slice(-300));
    assert.equal(result.tokens, counter.count(result.text));
  });
});

void describe('far elements by name', () => {
  const names = Array.from({ length: 20 }, (_, i) => `f${i + 1}`);
  const text = names.map((n) => `export function ${n}(a: number): number {\n  return a + 1;\n}\n`).join('\n');
  const outline = outlineSource('src/many.ts', text);
  const focus = 'src/many.ts/function[f10]';
  const result = buildContext([{ outline, focus: [focus] }], counter);

  void test('the two siblings on each side are signatures, the others are named in runs with their lines', () => {
    for (const n of ['f8', 'f9', 'f11', 'f12']) {
      assert.ok(result.text.includes(`export function ${n}(a: number): number { … } // @ function[${n}]\n`), n);
      assert.equal(levelOf(result, `src/many.ts/function[${n}]`), 'signature');
    }
    assert.ok(
      result.text.includes(
        '// @ function[f1], function[f2], function[f3], function[f4], function[f5], function[f6], function[f7] (lines 1-27)\n',
      ),
      result.text,
    );
    assert.ok(result.text.includes('// @ function[f13], function[f14], '), result.text);
    assert.ok(!result.text.includes('function f3('), 'no signature of a far element');
  });

  void test('every element is accounted for, and every named label resolves as a path', () => {
    assert.deepEqual(
      result.elements.map((e) => e.path),
      names.map((n) => `src/many.ts/function[${n}]`),
    );
    for (const n of ['f1', 'f7', 'f13', 'f20']) {
      const shown = buildContext([{ outline, focus: [`src/many.ts/function[${n}]`] }], counter);
      assert.equal(shown.elements.find((e) => e.path === `src/many.ts/function[${n}]`)?.level, 'full');
    }
  });

  void test('a budget drops whole runs, farthest first, and lists every element it dropped', () => {
    // More than the four signatures save as stubs: a run must go.
    const budget = result.tokens - 60;
    const tight = buildContext([{ outline, focus: [focus] }], counter, { budget });
    assert.ok(tight.tokens <= budget);
    assert.ok(tight.dropped.includes('src/many.ts/function[f1]'), tight.text);
    assert.ok(tight.dropped.includes('src/many.ts/function[f7]'), 'the whole run goes');
    for (const path of tight.dropped) assert.equal(levelOf(tight, path), 'dropped');
    assert.ok(tight.text.includes('return a + 1;'));
  });
});
