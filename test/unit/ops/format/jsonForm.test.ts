import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOperations } from '../../../../src/core/ops/format';

const json = (value: unknown): string => JSON.stringify(value, null, 2);

void describe('parseOperations: the JSON form', () => {
  const remove = { type: 'DELETE_ELEMENT', path: 'src/a.ts/function[old]' };
  const replace = { type: 'REPLACE_ELEMENT', path: 'src/a.ts/function[f]', content: 'function f() {\n  return 1;\n}' };

  void test('a bare array, {"operations": [...]}, a single object, a ```json fence and a wrapper tag all read the same', () => {
    const expected = [
      { type: 'DELETE_ELEMENT', path: 'src/a.ts/function[old]' },
      { type: 'REPLACE_ELEMENT', path: 'src/a.ts/function[f]', content: 'function f() {\n  return 1;\n}' },
    ];
    for (const answer of [
      json([remove, replace]),
      json({ operations: [remove, replace] }),
      '```json\n' + json([remove, replace]) + '\n```',
      'Here you go:\n\n```json\n' + json({ operations: [remove, replace] }) + '\n```\n\nDone.',
      '<operations>\n' + json([remove, replace]) + '\n</operations>',
      '<operations>' + JSON.stringify([remove, replace]) + '</operations>',
    ]) {
      const result = parseOperations(answer);
      assert.deepEqual(result.errors, [], answer);
      assert.deepEqual(
        result.operations.map(({ line: _line, ...rest }) => rest),
        expected,
        answer,
      );
    }
    assert.deepEqual(
      parseOperations(json(remove)).operations.map((operation) => operation.type),
      ['DELETE_ELEMENT'],
    );
  });

  void test('each operation carries the line where its object starts', () => {
    const result = parseOperations(json([remove, replace]));
    assert.deepEqual(
      result.operations.map((operation) => operation.line),
      [2, 6],
    );
  });

  void test('a position may be a keyword, a keyword with its sibling, or {kind, sibling}', () => {
    const create = (position: unknown): unknown => ({
      type: 'CREATE_ELEMENT',
      path: 'src/a.ts/class[A]',
      content: 'x() {}',
      position,
    });
    const result = parseOperations(
      json([
        create('LAST_CHILD'),
        create('AFTER method[validate]'),
        create({ kind: 'before', sibling: 'method[save]' }),
        create({ kind: 'FIRST_CHILD' }),
      ]),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((operation) => operation.type === 'CREATE_ELEMENT' && operation.position),
      [
        { kind: 'LAST_CHILD' },
        { kind: 'AFTER', sibling: 'method[validate]' },
        { kind: 'BEFORE', sibling: 'method[save]' },
        { kind: 'FIRST_CHILD' },
      ],
    );
  });

  void test('elementKind is optional and may be null', () => {
    const result = parseOperations(
      json([
        {
          type: 'CREATE_ELEMENT',
          path: 'src/a.ts',
          content: 'function g() {}',
          position: 'LAST_CHILD',
          elementKind: 'function',
        },
        {
          type: 'CREATE_ELEMENT',
          path: 'src/a.ts',
          content: 'function h() {}',
          position: 'LAST_CHILD',
          elementKind: null,
        },
      ]),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((operation) => operation.type === 'CREATE_ELEMENT' && operation.elementKind),
      ['function', undefined],
    );
  });

  void test('blankLines is optional: "<above>,<below>" or one number; anything else is an error', () => {
    const create = (blankLines: unknown): Record<string, unknown> => ({
      type: 'CREATE_ELEMENT',
      path: 'src/a.ts',
      content: 'function g() {}',
      position: 'LAST_CHILD',
      blankLines,
    });
    const result = parseOperations(json([create('2,0'), create(1), create(null)]));
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((operation) => operation.type === 'CREATE_ELEMENT' && operation.blankLines),
      [{ above: 2, below: 0 }, { above: 1, below: 1 }, undefined],
    );
    const wrong = parseOperations(json([create([1, 0])]));
    assert.equal(wrong.operations.length, 0);
    assert.match(wrong.errors[0]?.message ?? '', /"blankLines" must be a string such as "1,0"/);
  });

  void test('PATCH_ELEMENT takes "patches" or "content" with SEARCH/REPLACE markers, not both', () => {
    const path = 'src/a.ts/function[f]';
    const result = parseOperations(
      json([
        { type: 'PATCH_ELEMENT', path, patches: [{ search: 'return 1;', replace: 'return 2;' }] },
        { type: 'PATCH_ELEMENT', path, content: '<<<<<<< SEARCH\nreturn 1;\n=======\nreturn 2;\n>>>>>>> REPLACE' },
        { type: 'PATCH_ELEMENT', path, content: 'return 2;', patches: [{ search: 'return 1;', replace: 'return 2;' }] },
        { type: 'PATCH_ELEMENT', path, patches: [] },
        { type: 'PATCH_ELEMENT', path, patches: [{ search: '', replace: 'x' }] },
      ]),
    );
    const pairs = [{ search: 'return 1;', replace: 'return 2;' }];
    assert.deepEqual(
      result.operations.map((operation) => operation.type === 'PATCH_ELEMENT' && operation.patches),
      [pairs, pairs],
    );
    assert.deepEqual(
      result.errors.map((error) => error.message),
      [
        'operations[2]: give either "patches" or "content", not both',
        'operations[3]: "patches" must be a non-empty array, not an array',
        'operations[4]: patches[0]: "search" is empty',
      ],
    );
  });

  void test('REMOVE_IMPORT of an import[...] path needs no content', () => {
    const result = parseOperations(json([{ type: 'REMOVE_IMPORT', path: 'src/a.ts/import[./old]' }]));
    assert.deepEqual(result.operations, [
      { type: 'REMOVE_IMPORT', path: 'src/a.ts/import[./old]', content: './old', line: 2 },
    ]);
  });

  void test('CRLF inside JSON strings comes out as LF; type keywords are read in any case; paths are cleaned like in text', () => {
    const result = parseOperations(
      json([{ type: 'replace_file', path: 'file:docs\\guide.md', content: '# A\r\n\r\nB\r\n' }]),
    );
    assert.deepEqual(result.operations, [
      { type: 'REPLACE_FILE', path: 'docs/guide.md', content: '# A\n\nB\n', line: 2 },
    ]);
  });

  void test('a wrong field fails only its own entry, named by index and line', () => {
    const result = parseOperations(
      json([
        remove,
        { type: 'REPLACE_ELEMENT', path: 'src/a.ts/function[f]' },
        { type: 'CREATE_ELEMENT', path: 'src/a.ts', content: 'x' },
      ]),
    );
    assert.deepEqual(
      result.operations.map((operation) => operation.type),
      ['DELETE_ELEMENT'],
    );
    assert.deepEqual(
      result.errors.map(({ line, message }) => ({ line, message })),
      [
        { line: 6, message: 'operations[1]: "content" is missing' },
        { line: 10, message: 'operations[2]: "position" must be a string or an object, not missing' },
      ],
    );
  });

  void test('invalid JSON is an error at the line where it breaks', () => {
    const result = parseOperations(
      '[\n  {"type": "DELETE_ELEMENT", "path": "src/a.ts/function[f]"}\n  {"type": "DELETE_ELEMENT"}\n]',
    );
    assert.deepEqual(
      result.errors.map(({ line, message }) => ({ line, message })),
      [{ line: 3, message: 'invalid JSON: expected "," or "]" after an array element' }],
    );
  });

  void test('whole-answer JSON that is no operation list is an error', () => {
    const result = parseOperations('{ "answer": "I changed nothing" }');
    assert.equal(result.errors[0]?.message, 'the JSON is not a list of operations');
  });

  void test('an answer that only starts with a bracket is still read as the text format', () => {
    const result = parseOperations('[plan] remove the helper\nDELETE_ELEMENT src/a.ts/function[old]');
    assert.deepEqual(result, {
      operations: [{ type: 'DELETE_ELEMENT', path: 'src/a.ts/function[old]', line: 2 }],
      errors: [],
    });
  });
});
