import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOperations, serializeOperations, serializeOperationsAsJson } from '../../../../src/core/ops/format';
import type { Operation } from '../../../../src/core/ops/operation';

void describe('serializeOperations', () => {
  void test('writes the canonical format: header, fence with the language of the file, raw code, a blank line between', () => {
    const text = serializeOperations([
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/user.ts/class[User]/method[validate]',
        content: 'validate(): boolean {\n  return true;\n}',
      },
      {
        type: 'CREATE_ELEMENT',
        path: 'src/user.ts/class[User]',
        position: { kind: 'AFTER', sibling: 'method[validate]' },
        content: 'reset(): void {}',
        elementKind: 'method',
      },
      { type: 'DELETE_ELEMENT', path: 'src/user.ts/function[legacy]' },
    ]);
    assert.equal(
      text,
      [
        'REPLACE_ELEMENT src/user.ts/class[User]/method[validate]',
        '```ts',
        'validate(): boolean {',
        '  return true;',
        '}',
        '```',
        '',
        'CREATE_ELEMENT src/user.ts/class[User] AFTER method[validate] KIND=method',
        '```ts',
        'reset(): void {}',
        '```',
        '',
        'DELETE_ELEMENT src/user.ts/function[legacy]',
        '',
      ].join('\n'),
    );
  });

  void test('the fence is longer than the longest backtick run in the code', () => {
    const text = serializeOperations([
      { type: 'REPLACE_FILE', path: 'README.md', content: 'Use:\n````ts\nx\n````\nand `a` or ``b``.' },
    ]);
    assert.ok(text.startsWith('REPLACE_FILE README.md\n`````md\n'));
    assert.ok(text.endsWith('\n`````\n'));
  });

  void test('the info string follows the file extension; a file without one gets a bare fence', () => {
    const fenceOf = (path: string): string =>
      serializeOperations([{ type: 'CREATE_FILE', path, content: 'x' }]).split('\n')[1] ?? '';
    assert.equal(fenceOf('src/a.tsx'), '```tsx');
    assert.equal(fenceOf('lib/a.mjs'), '```js');
    assert.equal(fenceOf('lib/a.cts'), '```ts');
    assert.equal(fenceOf('package.json'), '```json');
    assert.equal(fenceOf('Makefile'), '```');
    assert.equal(fenceOf('app/[id]/page.tsx'), '```tsx');
    assert.equal(
      serializeOperations([{ type: 'REPLACE_ELEMENT', path: 'src/v1.2/app.js/function[f]', content: 'x' }]).split(
        '\n',
      )[1],
      '```js',
    );
  });

  void test('a path with spaces is quoted so that it reads back whole', () => {
    const operations: Operation[] = [
      { type: 'REPLACE_FILE', path: 'docs/my notes.md', content: '# Notes' },
      {
        type: 'CREATE_ELEMENT',
        path: 'src/my app.ts',
        position: { kind: 'BEFORE', sibling: 'src/my app.ts/function[main]' },
        content: 'const a = 1;',
      },
    ];
    const text = serializeOperations(operations);
    assert.match(text, /^REPLACE_FILE `docs\/my notes\.md`$/m);
    assert.deepEqual(
      parseOperations(text).operations.map(({ line: _line, ...rest }) => rest),
      operations,
    );
  });

  void test('PATCH_ELEMENT markers grow when the code holds a line that reads as a marker', () => {
    const text = serializeOperations([
      { type: 'PATCH_ELEMENT', path: 'src/a.ts/function[f]', patches: [{ search: 'a\n=======\nb', replace: 'c' }] },
    ]);
    assert.match(text, /^<{8} SEARCH$/m);
    assert.match(text, /^={8}$/m);
    assert.match(text, /^>{8} REPLACE$/m);
    const [operation] = parseOperations(text).operations;
    assert.deepEqual(operation?.type === 'PATCH_ELEMENT' && operation.patches, [
      { search: 'a\n=======\nb', replace: 'c' },
    ]);
  });

  void test('BLANK_LINES is written after KIND, one count when both sides agree, and reads back the same in both forms', () => {
    const operations: Operation[] = [
      {
        type: 'CREATE_ELEMENT',
        path: 'src/a.ts',
        position: { kind: 'AFTER', sibling: 'variable[x]' },
        content: 'const y = 2;',
        elementKind: 'variable',
        blankLines: { above: 0, below: 2 },
      },
      {
        type: 'CREATE_ELEMENT',
        path: 'src/a.ts',
        position: { kind: 'LAST_CHILD' },
        content: 'const z = 3;',
        blankLines: { above: 1, below: 1 },
      },
    ];
    const text = serializeOperations(operations);
    assert.match(text, /^CREATE_ELEMENT src\/a\.ts AFTER variable\[x\] KIND=variable BLANK_LINES=0,2$/m);
    assert.match(text, /^CREATE_ELEMENT src\/a\.ts LAST_CHILD BLANK_LINES=1$/m);
    const strip = (ops: readonly Operation[]): Operation[] => ops.map(({ line: _line, ...rest }) => rest as Operation);
    assert.deepEqual(strip(parseOperations(text).operations), operations);
    assert.deepEqual(strip(parseOperations(serializeOperationsAsJson(operations)).operations), operations);
  });

  void test('no operations make an empty answer', () => {
    assert.equal(serializeOperations([]), '');
  });
});

void describe('serializeOperationsAsJson', () => {
  void test('writes {type, path, content, elementKind, position}, with a patch as content holding its markers', () => {
    const text = serializeOperationsAsJson([
      {
        type: 'CREATE_ELEMENT',
        path: 'src/a.ts/class[A]',
        position: { kind: 'AFTER', sibling: 'method[x]' },
        content: 'y() {}',
        elementKind: 'method',
      },
      { type: 'PATCH_ELEMENT', path: 'src/a.ts/function[f]', patches: [{ search: 'return 1;', replace: 'return 2;' }] },
      { type: 'DELETE_ELEMENT', path: 'src/a.ts/function[g]', line: 12 },
    ]);
    assert.deepEqual(JSON.parse(text), [
      {
        type: 'CREATE_ELEMENT',
        path: 'src/a.ts/class[A]',
        content: 'y() {}',
        elementKind: 'method',
        position: 'AFTER method[x]',
      },
      {
        type: 'PATCH_ELEMENT',
        path: 'src/a.ts/function[f]',
        content: '<<<<<<< SEARCH\nreturn 1;\n=======\nreturn 2;\n>>>>>>> REPLACE',
      },
      { type: 'DELETE_ELEMENT', path: 'src/a.ts/function[g]' },
    ]);
    assert.ok(text.includes('\n  {\n    "type"'), 'pretty-printed');
  });
});
