import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { outlineSource } from '../../../../src/core/elements/outline';
import { loadAllLanguages } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import type { Operation } from '../../../../src/core/ops/operation';

/**
 * Issue 25: an import added to a file that starts with a byte order mark and has no imports went in front of the
 * mark (Python refused the file, C# got U+FEFF on line 3, Rust and Java "unexpected ''" and the edit refused). The
 * mark stays at byte 0 in every language, and new text goes after it.
 */

const BOM = '\uFEFF';

interface BomCase {
  readonly file: string;
  /** Code without imports. */
  readonly code: string;
  readonly addImport: string;
  /** The file after the import was added (without the mark). */
  readonly withImport: string;
  readonly created: string;
}

const CASES: readonly BomCase[] = [
  {
    file: 'pkg/mod.py',
    code: 'def f():\n    return 1\n',
    addImport: 'import os',
    withImport: 'import os\n\ndef f():\n    return 1\n',
    created: 'X = 1',
  },
  {
    file: 'src/Mod.cs',
    code: 'namespace A {\n    class B {}\n}\n',
    addImport: 'using System;',
    withImport: 'using System;\n\nnamespace A {\n    class B {}\n}\n',
    created: 'class C {}',
  },
  {
    file: 'src/lib.rs',
    code: 'fn f() {}\n',
    addImport: 'use std::fmt;',
    withImport: 'use std::fmt;\n\nfn f() {}\n',
    created: 'const X: i32 = 1;',
  },
  {
    file: 'src/Mod.java',
    code: 'class A {}\n',
    addImport: 'import java.util.List;',
    withImport: 'import java.util.List;\n\nclass A {}\n',
    created: 'class B {}',
  },
  {
    file: 'mod/mod.go',
    code: 'package mod\n\nfunc f() {}\n',
    addImport: 'import "fmt"',
    withImport: 'package mod\n\nimport "fmt"\n\nfunc f() {}\n',
    created: 'const X = 1',
  },
  {
    file: 'src/mod.ts',
    code: 'export function f() {}\n',
    addImport: "import { a } from './a';",
    withImport: "import { a } from './a';\n\nexport function f() {}\n",
    created: 'export const X = 1;',
  },
];

function applied(file: string, text: string, operations: readonly Operation[]): string {
  const result = applyOperations({ read: (path) => (path === file ? text : undefined) }, operations);
  assert.ok(result.ok, JSON.stringify(result.results.map((r) => r.message)));
  const after = result.changes[0]?.after;
  assert.ok(after !== undefined);
  assert.deepEqual(outlineSource(file, after).syntaxErrors, [], after);
  return after;
}

void describe('a byte order mark stays at byte 0', () => {
  before(async () => {
    await loadAllLanguages();
  });

  for (const c of CASES) {
    void test(`${c.file}: ADD_IMPORT to a file without imports goes after the mark`, () => {
      const after = applied(c.file, BOM + c.code, [{ type: 'ADD_IMPORT', path: c.file, content: c.addImport }]);
      assert.equal(after, BOM + c.withImport);
    });

    void test(`${c.file}: an import and code added to a file that is only a mark start after it`, () => {
      const after = applied(c.file, BOM, [
        { type: 'ADD_IMPORT', path: c.file, content: c.addImport },
        { type: 'CREATE_ELEMENT', path: c.file, position: { kind: 'LAST_CHILD' }, content: c.created },
      ]);
      assert.ok(after.startsWith(BOM), JSON.stringify(after));
      assert.equal(after.indexOf(BOM, 1), -1, JSON.stringify(after));
      assert.ok(after.slice(1).startsWith(c.addImport), JSON.stringify(after));
    });

    void test(`${c.file}: FIRST_CHILD of the file goes after the mark`, () => {
      const after = applied(c.file, BOM + c.code, [
        { type: 'CREATE_ELEMENT', path: c.file, position: { kind: 'FIRST_CHILD' }, content: c.created },
      ]);
      assert.ok(after.startsWith(BOM), JSON.stringify(after));
      assert.equal(after.indexOf(BOM, 1), -1, JSON.stringify(after));
    });
  }
});
