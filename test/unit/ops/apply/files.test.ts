import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyFails, applyOk, failure, fixture, lines } from './applyHarness';

const SERVICE = 'src/service.ts';
const service = fixture('service.ts');
const readme = '# Title\n\nSome text.\n';
const files = { [SERVICE]: service, 'README.md': readme };

void describe('CREATE_FILE and REPLACE_FILE', () => {
  void test('CREATE_FILE writes a new file with a final newline; the change says it was created', () => {
    const { change } = applyOk(files, [{ type: 'CREATE_FILE', path: 'src/new.ts', content: 'export const a = 1;' }]);
    const created = change('src/new.ts');
    assert.equal(created.after, 'export const a = 1;\n');
    assert.equal(created.created, true);
    assert.equal(created.before, undefined);
  });

  void test('CREATE_FILE of an existing file is refused with a pointer to REPLACE_FILE', () => {
    const result = applyFails(files, [{ type: 'CREATE_FILE', path: SERVICE, content: 'export const a = 1;' }]);
    assert.match(failure(result, 0).hint ?? '', /REPLACE_FILE/);
  });

  void test('REPLACE_FILE needs the file to exist, keeps its line breaks, BOM and final newline, and edits only what differs', () => {
    const missing = applyFails(files, [{ type: 'REPLACE_FILE', path: 'src/none.ts', content: 'export const a = 1;' }]);
    assert.match(failure(missing, 0).hint ?? '', /CREATE_FILE/);
    const original = '\uFEFFexport const a = 1;\r\nexport const b = 2;';
    const { change } = applyOk({ 'src/w.ts': original }, [
      { type: 'REPLACE_FILE', path: 'src/w.ts', content: 'export const a = 1;\nexport const b = 3;\n' },
    ]);
    const replaced = change('src/w.ts');
    assert.equal(replaced.after, '\uFEFFexport const a = 1;\r\nexport const b = 3;');
    assert.deepEqual(replaced.edits, [{ start: original.length - 2, end: original.length - 1, newText: '3' }]);
  });

  void test('REPLACE_FILE works on files the element model cannot read', () => {
    const { after } = applyOk(files, [{ type: 'REPLACE_FILE', path: 'README.md', content: '# Title\n\nOther text.' }]);
    assert.equal(after('README.md'), '# Title\n\nOther text.\n');
  });

  void test('content that does not parse, a placeholder, or nothing at all is refused', () => {
    const broken = applyFails(files, [{ type: 'REPLACE_FILE', path: SERVICE, content: 'export class {' }]);
    assert.match(failure(broken, 0).message ?? '', /does not parse/);
    const lazy = applyFails(files, [
      {
        type: 'REPLACE_FILE',
        path: SERVICE,
        content: "import * as path from 'node:path';\n\n// ... rest of the file unchanged ...\n",
      },
    ]);
    assert.match(failure(lazy, 0).message ?? '', /placeholder/);
    const empty = applyFails(files, [{ type: 'REPLACE_FILE', path: SERVICE, content: '' }]);
    assert.match(failure(empty, 0).message ?? '', /has no content/);
    const newBroken = applyFails(files, [{ type: 'CREATE_FILE', path: 'src/b.ts', content: 'export function (' }]);
    assert.match(failure(newBroken, 0).message ?? '', /does not parse/);
  });

  void test('element operations on a file created in the same batch point into its content', () => {
    const result = applyFails(files, [
      { type: 'CREATE_FILE', path: 'src/new.ts', content: 'export class A {}' },
      { type: 'CREATE_ELEMENT', path: 'src/new.ts/class[A]', position: { kind: 'LAST_CHILD' }, content: 'x = 1;' },
    ]);
    assert.match(failure(result, 1).message ?? '', /created by operation #1/);
    assert.match(failure(result, 1).hint ?? '', /CREATE_FILE content/);
  });

  void test('whole-file and element operations on one file, or two whole-file operations, conflict', () => {
    const mixed = applyFails(files, [
      { type: 'DELETE_ELEMENT', path: `${SERVICE}/class[UserService]` },
      { type: 'REPLACE_FILE', path: SERVICE, content: 'export const a = 1;' },
    ]);
    assert.match(failure(mixed, 1).message ?? '', /conflicts with operation #1, which edits elements/);
    const twice = applyFails(files, [
      { type: 'CREATE_FILE', path: 'src/n.ts', content: 'export const a = 1;' },
      { type: 'CREATE_FILE', path: 'src/n.ts', content: 'export const a = 1;' },
    ]);
    assert.match(failure(twice, 1).message ?? '', /repeats operation #1/);
  });
});

void describe('paths', () => {
  const refused: [string, RegExp][] = [
    ['/etc/passwd', /absolute paths are not accepted/],
    ['C:/Windows/win.ini', /absolute paths are not accepted/],
    ['file:///tmp/x.ts', /absolute paths are not accepted/],
    ['../outside.ts', /".." may not appear/],
    ['src/../../outside.ts', /".." may not appear/],
    ['src\\..\\..\\outside.ts', /".." may not appear/],
    ['', /empty/],
    ['   ', /empty/],
  ];
  for (const [path, reason] of refused) {
    void test(`"${path}" is refused for every operation`, () => {
      const operations: Operation[] = [
        { type: 'CREATE_FILE', path, content: 'x' },
        { type: 'REPLACE_FILE', path, content: 'x' },
        { type: 'ADD_IMPORT', path, content: "import { a } from './a';" },
      ];
      const result = applyFails(files, operations);
      operations.forEach((_, i) => assert.match(failure(result, i).message ?? '', reason));
    });
  }

  void test('`./` and `file:` prefixes and backslashes are read as the same workspace path', () => {
    const { change } = applyOk(files, [
      {
        type: 'PATCH_ELEMENT',
        path: `file:./src\\service.ts/class[UserService]/method[validate]`,
        patches: [{ search: '> 0', replace: '> 1' }],
      },
    ]);
    assert.equal(change(SERVICE).path, SERVICE);
  });
});

void describe('edit strategies', () => {
  const patch: Operation = {
    type: 'PATCH_ELEMENT',
    path: `${SERVICE}/class[UserService]/method[validate]`,
    patches: [{ search: '> 0', replace: '> 1' }],
  };
  const replaceFile: Operation = { type: 'REPLACE_FILE', path: SERVICE, content: 'export const a = 1;' };

  void test('"element" refuses REPLACE_FILE on code files but not on other files', () => {
    const result = applyFails(files, [replaceFile], { strategy: 'element' });
    assert.match(failure(result, 0).hint ?? '', /element operations/);
    applyOk(files, [{ type: 'REPLACE_FILE', path: 'README.md', content: '# New' }], { strategy: 'element' });
  });

  void test('"file" refuses element operations', () => {
    const result = applyFails(files, [patch], { strategy: 'file' });
    assert.match(failure(result, 0).message ?? '', /strategy is "file"/);
    applyOk(files, [replaceFile], { strategy: 'file' });
  });

  void test('"hybrid" takes both; element operations on a file without elements point to REPLACE_FILE', () => {
    applyOk(files, [patch, { type: 'REPLACE_FILE', path: 'README.md', content: '# New' }]);
    for (const path of ['README.md/section[Title]', 'README.md/function[title]']) {
      const result = applyFails(files, [{ type: 'DELETE_ELEMENT', path }]);
      assert.match(failure(result, 0).hint ?? '', /REPLACE_FILE README\.md/, path);
    }
    const notThere = applyFails(files, [{ type: 'DELETE_ELEMENT', path: 'src/none.ts/class[A]' }]);
    assert.match(failure(notThere, 0).message ?? '', /there is no file src\/none\.ts/);
  });

  void test('an unparseable code file can still be replaced whole in hybrid mode, and edited by element when the edit adds no error', () => {
    const broken = lines('export function ok(): number {', '  return 1;', '}', '', 'export function bad( {');
    applyOk({ 'src/b.ts': broken }, [
      { type: 'REPLACE_FILE', path: 'src/b.ts', content: 'export function ok(): number {\n  return 2;\n}' },
    ]);
    applyOk({ 'src/b.ts': broken }, [
      {
        type: 'PATCH_ELEMENT',
        path: 'src/b.ts/function[ok]',
        patches: [{ search: 'return 1;', replace: 'return 2;' }],
      },
    ]);
  });
});
