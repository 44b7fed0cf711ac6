import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadAllLanguages } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import type { Operation } from '../../../../src/core/ops/operation';

/**
 * Issue 25: in a file whose lines end with a lone CR (classic Mac OS line breaks), new elements were written with LF,
 * and an import went onto the same line as the last one (`import os import sys`). The file's own line break is kept,
 * everywhere Scalpel writes, in the languages whose compilers end a line at a lone CR (Rust and Go read it as
 * whitespace: there the file is verified as it is, see compilerRules.test.ts).
 */

const CR_FILES: ReadonlyArray<{ file: string; text: string; operations: readonly Operation[]; expected: string }> = [
  {
    file: 'pkg/mod.py',
    text: 'import os\r\rdef f():\r    return 1\r',
    operations: [
      { type: 'ADD_IMPORT', path: 'pkg/mod.py', content: 'import sys' },
      {
        type: 'CREATE_ELEMENT',
        path: 'pkg/mod.py',
        position: { kind: 'LAST_CHILD' },
        content: 'def g():\n    return 2',
      },
      {
        type: 'PATCH_ELEMENT',
        path: 'pkg/mod.py/function[f]',
        patches: [{ search: '    return 1', replace: '    x = 1\n    return x' }],
      },
    ],
    expected: 'import os\rimport sys\r\rdef f():\r    x = 1\r    return x\r\rdef g():\r    return 2\r',
  },
  {
    file: 'src/A.java',
    text: 'import java.util.List;\r\rclass A {\r  int f() {\r    return 1;\r  }\r}\r',
    operations: [
      { type: 'ADD_IMPORT', path: 'src/A.java', content: 'import java.util.Map;' },
      {
        type: 'CREATE_ELEMENT',
        path: 'src/A.java/class[A]',
        position: { kind: 'LAST_CHILD' },
        content: 'int g() {\n  return 2;\n}',
      },
    ],
    expected:
      'import java.util.List;\rimport java.util.Map;\r\rclass A {\r  int f() {\r    return 1;\r  }\r\r  int g() {\r    return 2;\r  }\r}\r',
  },
  {
    file: 'src/mod.ts',
    text: "import { a } from './a';\r\rexport function f(): number {\r  return a;\r}\r",
    operations: [
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/mod.ts/function[f]',
        content: 'export function f(): number {\n  const b = a;\n  return b;\n}',
      },
    ],
    expected: "import { a } from './a';\r\rexport function f(): number {\r  const b = a;\r  return b;\r}\r",
  },
];

function appliedOrThrow(file: string, text: string, operations: readonly Operation[]): string {
  const result = applyOperations({ read: (path) => (path === file ? text : undefined) }, operations);
  assert.ok(result.ok, JSON.stringify(result.results.map((r) => r.message)));
  const after = result.changes[0]?.after;
  assert.ok(after !== undefined);
  return after;
}

void describe('a file of lone CR line breaks keeps them', () => {
  before(async () => {
    await loadAllLanguages();
  });

  for (const c of CR_FILES) {
    void test(`${c.file}: new and patched lines end with CR, imports on their own lines`, () => {
      const after = appliedOrThrow(c.file, c.text, c.operations);
      assert.equal(JSON.stringify(after), JSON.stringify(c.expected));
    });
  }

  void test('REPLACE_FILE of a lone-CR file writes CR line breaks', () => {
    const after = appliedOrThrow('pkg/mod.py', 'x = 1\ry = 2\r', [
      { type: 'REPLACE_FILE', path: 'pkg/mod.py', content: 'x = 1\ny = 3\n' },
    ]);
    assert.equal(JSON.stringify(after), JSON.stringify('x = 1\ry = 3\r'));
  });
});
