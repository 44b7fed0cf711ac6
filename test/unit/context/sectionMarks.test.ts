import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { buildContext } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { outlineSource } from '../../../src/core/elements/outline';
import { loadLanguagesFor } from '../../../src/core/language/languages';
import { type OutlineRow, outlineTable, rowsWithMarks } from '../../../src/core/tools/definitions/outline';
import { jsonTable } from '../../../src/core/tools/table';
import { corpusFileText, installHint } from '../../support/languageCorpus';
import { call, tableRows, toolEnv } from '../tools/toolSupport';

// Issue 26.5: the views show the text that steers where code goes. Section comments standing between elements and
// Python's module and class docstrings are one marked line each (`// § DEPRECATED (line 488)`); Go's and Java's
// `package` line is shown above the imports, where the file has it.

const counter = createTokenCounter();

function focused(file: string, text: string, focus: readonly string[]): string {
  return buildContext([{ outline: outlineSource(file, text), focus: focus.map((f) => `${file}/${f}`) }], counter, {
    smallFileLines: 0,
  }).text;
}

const method = (name: string): string => `  ${name}(a: number): number {\n    return a + 1;\n  }\n`;
const TS = [
  '// Copyright header: the file is licensed under MIT.',
  '',
  "import { x } from './x';",
  '',
  'export class Store {',
  '  // ---- state ----',
  '',
  '  private items: string[] = [];',
  '',
  '  // ---- lifecycle ----',
  '',
  '  open(): void {} // a comment after code on its line',
  '',
  method('first'),
  method('second'),
  method('third'),
  method('fourth'),
  method('fifth'),
  '  // TODO: more methods here',
  '}',
  '',
  '// ===== Deprecated API =====',
  '',
  'export function oldApi(): void {}',
  '',
  'export function older(): number {',
  '  // explains the next line, no section',
  '  const a = 1;',
  '',
  '  // nor this one',
  '  return a;',
  '}',
  '// the end',
  '',
].join('\n');

void describe('section comments and docstrings in the focused context', () => {
  before(() => loadLanguagesFor(['a.go', 'a.py', 'a.java', 'a.cs', 'a.rs']));

  void test('TypeScript: a marked line where a comment stands apart between members; none for a licence, a trailing or an inner comment', () => {
    const text = focused('src/store.ts', TS, ['class[Store]/method[fifth]']);
    assert.ok(text.includes('export class Store {\n  // § state (line 6)\n  // @ property[items] (line 8)\n'), text);
    assert.ok(text.includes('\n  // § lifecycle (line 10)\n'), text);
    assert.ok(text.includes('\n  // § TODO: more methods here (line 34)\n}\n'), text);
    assert.ok(text.includes('\n// § Deprecated API (line 37)\n// @ function[oldApi], function[older] (lines 39-47)\n'), text);
    assert.ok(text.includes('\n// § the end (line 48)\n```'), text);
    for (const absent of ['Copyright', 'after code', 'explains', 'nor this'])
      assert.ok(!text.includes(absent), `${absent}:\n${text}`);
  });

  void test('real Go: the test in focus shows the "DEPRECATED" section it is in, and `package` heads the file', (t) => {
    const real = corpusFileText('go', 'spf13/cobra/args_test.go');
    if (real === undefined) return t.skip(installHint('go'));
    const text = focused(real.path, real.text, ['function[TestExactValidArgs]']);
    assert.ok(text.includes(`\n// § DEPRECATED (line 488)\n// @ ${real.path}/function[TestExactValidArgs]\n`), text);
    assert.ok(text.includes('\n// § NoArgs (line 110)\n// @ function[TestNoArgs], '), text);
    assert.match(text, /^```go\npackage cobra \/\/ @ statement\[package\]\n\nimport \(\n/m);
  });

  void test('Java: the package declaration comes before the imports', () => {
    const file = 'src/main/java/com/acme/Shop.java';
    const java = [
      'package com.acme;',
      '',
      'import java.util.List;',
      'import java.util.Map;',
      '',
      'public class Shop {',
      ...Array.from({ length: 40 }, (_, i) => `    public int price${i}(int a) {\n        return a * ${i};\n    }\n`),
      '}',
      '',
    ].join('\n');
    const text = focused(file, java, ['class[Shop]/method[price3]']);
    assert.match(text, /^```java\npackage com\.acme; \/\/ @ statement\[package\]\n\nimport java\.util\.List;\nimport java\.util\.Map;\n/m);
    assert.equal(text.match(/package com\.acme/g)?.length, 1, 'once');
  });

  void test('Python: module and class docstrings are marked when their body is not shown', () => {
    const file = 'pkg/shapes.py';
    const python = [
      '"""Shapes and their areas.',
      '',
      'More words about shapes.',
      '"""',
      'import math',
      '',
      '',
      'class Shape:',
      '    """A shape: something with an area.',
      '',
      '    Subclasses give the area.',
      '    """',
      '',
      ...Array.from({ length: 40 }, (_, i) => `    def area${i}(self) -> float:\n        return math.pi * ${i}\n`),
    ].join('\n');
    const text = focused(file, python, ['class[Shape]/method[area5]']);
    assert.match(text, /^```python\n# § docstring: Shapes and their areas\. \(lines 1-4\)\nimport math\n/m);
    assert.ok(
      text.includes(`# @ ${file}/class[Shape]\nclass Shape:\n    # § docstring: A shape: something with an area. (lines 9-12)\n`),
      text,
    );
  });

  void test('real Python: click\'s OptionParser keeps a mark of its docstring in its container view', (t) => {
    const real = corpusFileText('python', 'click/parser.py');
    if (real === undefined) return t.skip(installHint('python'));
    const text = focused(real.path, real.text, ['class[OptionParser]/method[add_option]']);
    assert.match(text, /\nclass OptionParser:\n {4}# § docstring: The option parser is an internal class that is ultimately used to \(lines \d+-\d+\)\n/);
    assert.match(text, /^# § docstring: This module started out as largely a copy paste from the stdlib's \(lines 1-19\)$/m);
  });

  void test('under a tight budget a mark goes with the element it heads, and the context fits', () => {
    const outline = outlineSource('src/store.ts', TS);
    const budget = 150;
    const result = buildContext([{ outline, focus: ['src/store.ts/class[Store]/method[fifth]'] }], counter, {
      smallFileLines: 0,
      budget,
    });
    assert.ok(result.tokens <= budget, `${result.tokens}`);
    assert.ok(result.dropped.includes('src/store.ts/function[oldApi]'), result.text);
    assert.ok(!result.text.includes('Deprecated API'), 'the mark went with the run it headed');
  });
});

void describe('section comments in the outline tool', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-marks-'));
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('src/store.ts', TS);
  const env = toolEnv(root);

  void test('a file outline has a row for each mark, at its depth; a folder outline leaves them out', async () => {
    const run = await call(env, 'outline', { paths: ['src/store.ts'] });
    assert.equal(run.isError, false, run.text);
    const rows = tableRows(run.text);
    const at = (needle: string): number => rows.findIndex((row) => row.includes(needle));
    assert.equal(rows[at('state') + 1]?.trim().startsWith('8 property[items]'), true, rows.join('\n'));
    assert.ok(rows.includes(' 6 § state'), rows.join('\n'));
    assert.ok(rows.includes('37 § Deprecated API'), rows.join('\n'));
    assert.ok(rows.includes(' 34 § TODO: more methods here'), 'the comment closing the class body, in it');
    assert.match(run.text, /rows \(elements and § marks\)/);
    const folder = await call(env, 'outline', { paths: ['src'] });
    assert.ok(!folder.text.includes('§'), folder.text);
  });

  void test('without signatures a mark is its lines and words; as JSON, its kind, lines and words', async () => {
    const run = await call(env, 'outline', { paths: ['src/store.ts'], signatures: false });
    assert.match(run.text, /^ 10 § lifecycle$/m);
    const rows: OutlineRow[] = [];
    rowsWithMarks('src/store.ts', outlineSource('src/store.ts', TS), undefined, 0, 9, rows);
    assert.ok(
      jsonTable(outlineTable(true), rows).includes('{"kind":"comment","startLine":37,"endLine":37,"text":"Deprecated API"}'),
    );
  });
});
