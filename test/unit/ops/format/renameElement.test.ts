import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOperations, serializeOperations } from '../../../../src/core/ops/format';
import { serializeOperationsAsJson } from '../../../../src/core/ops/format/serializeOperations';
import type { Operation } from '../../../../src/core/ops/operation';

// Issue 27: RENAME_ELEMENT <path> <newName>, a header without a code block, in the text and the JSON form.

const FENCE = '```';
const PATH = 'src/store.ts/class[Store]/method[save]';

void describe('RENAME_ELEMENT: the text form', () => {
  void test('reads the path and the new name, and the operation after it', () => {
    const result = parseOperations(
      [`RENAME_ELEMENT ${PATH} persist`, `DELETE_ELEMENT src/store.ts/function[legacy]`].join('\n'),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.operations, [
      { type: 'RENAME_ELEMENT', path: PATH, newName: 'persist', line: 1 },
      { type: 'DELETE_ELEMENT', path: 'src/store.ts/function[legacy]', line: 2 },
    ]);
  });

  void test('takes markdown around the header and a quoted name, as for other headers', () => {
    const result = parseOperations(`**RENAME_ELEMENT** \`${PATH}\` "$persist_2"`);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.operations, [{ type: 'RENAME_ELEMENT', path: PATH, newName: '$persist_2', line: 1 }]);
  });

  void test('a code block after it is not its body: the next operation reads whole', () => {
    const result = parseOperations(
      [
        `RENAME_ELEMENT ${PATH} persist`,
        `REPLACE_ELEMENT src/store.ts/function[f]`,
        `${FENCE}ts`,
        'function f() {}',
        FENCE,
      ].join('\n'),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((o) => o.type),
      ['RENAME_ELEMENT', 'REPLACE_ELEMENT'],
    );
  });

  void test('a missing new name is an error on its line that shows the form', () => {
    const result = parseOperations(['prose', `RENAME_ELEMENT ${PATH}`].join('\n'));
    assert.deepEqual(result.operations, []);
    assert.equal(result.errors.length, 1);
    assert.equal(result.errors[0]?.line, 2);
    assert.equal(result.errors[0]?.message, `RENAME_ELEMENT ${PATH} has no new name`);
    assert.match(result.errors[0]?.expected ?? '', /^RENAME_ELEMENT <path> <newName>/);
  });

  void test('a new name that is no identifier, or a reserved word, is an error that says so', () => {
    for (const [name, why] of [
      ['2fast', 'is not an identifier'],
      ['persist-all', 'is not an identifier'],
      ['class', 'is a reserved word'],
    ] as const) {
      const result = parseOperations(`RENAME_ELEMENT ${PATH} ${name}`);
      assert.deepEqual(result.operations, [], name);
      assert.equal(
        result.errors[0]?.message.startsWith(`the new name "${name}" ${why}`),
        true,
        result.errors[0]?.message,
      );
      assert.match(result.errors[0]?.expected ?? '', /identifier/);
    }
  });

  void test('text after the new name is an error, not a second name', () => {
    const result = parseOperations(`RENAME_ELEMENT ${PATH} persist now`);
    assert.deepEqual(result.operations, []);
    assert.equal(result.errors[0]?.message, 'unexpected text after the new name: "now"');
  });

  void test('serializes to a header that reads back as the same operation', () => {
    const operations: Operation[] = [
      { type: 'RENAME_ELEMENT', path: PATH, newName: 'persist' },
      { type: 'RENAME_ELEMENT', path: 'src/my file.ts/function[go]', newName: 'run' },
    ];
    const text = serializeOperations(operations);
    assert.equal(text.split('\n')[0], `RENAME_ELEMENT ${PATH} persist`);
    assert.deepEqual(
      parseOperations(text).operations.map(({ line: _line, ...operation }) => operation),
      operations,
    );
  });
});

void describe('RENAME_ELEMENT: the JSON form', () => {
  void test('reads {type, path, newName} and writes the same shape', () => {
    const json = serializeOperationsAsJson([{ type: 'RENAME_ELEMENT', path: PATH, newName: 'persist' }]);
    assert.deepEqual(JSON.parse(json), [{ type: 'RENAME_ELEMENT', path: PATH, newName: 'persist' }]);
    const result = parseOperations(json);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.operations, [{ type: 'RENAME_ELEMENT', path: PATH, newName: 'persist', line: 2 }]);
  });

  void test('a missing or invalid newName costs only its entry, with the reason', () => {
    const result = parseOperations(
      JSON.stringify([
        { type: 'RENAME_ELEMENT', path: PATH },
        { type: 'RENAME_ELEMENT', path: PATH, newName: 'new' },
        { type: 'DELETE_ELEMENT', path: 'src/store.ts/function[legacy]' },
      ]),
    );
    assert.deepEqual(
      result.operations.map((o) => o.type),
      ['DELETE_ELEMENT'],
    );
    assert.deepEqual(
      result.errors.map((e) => e.message),
      ['operations[0]: "newName" is missing', 'operations[1]: the new name "new" is a reserved word'],
    );
  });
});
