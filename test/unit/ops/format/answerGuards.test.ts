import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOperations } from '../../../../src/core/ops/format';

/**
 * What an untrusted answer must not do to the parser (issue 17): a fence inside a file's content cutting it short, a
 * JSON example in prose failing the batch, and answers too large to read in reasonable time.
 */

const FENCE = '```';
const answer = (...lines: string[]): string => lines.join('\n');

const README_LINES = ['# Title', '', 'Install:', '', FENCE, 'npm install scalpel', FENCE, '', 'Then run it.'];

void describe('fences inside the content', () => {
  void test('a README whose bare ``` blocks sit inside a ``` fence is refused, asking for a longer fence', () => {
    const result = parseOperations(answer('REPLACE_FILE README.md', `${FENCE}md`, ...README_LINES, FENCE, ''));
    assert.deepEqual(result.operations, []);
    assert.equal(result.errors.length, 1);
    const [error] = result.errors;
    assert.equal(error?.line, 2);
    assert.match(error?.message ?? '', /closes at line 7.*fences of its own/);
    assert.match(error?.expected ?? '', /longer than every fence inside the content, e\.g\. ````md/);
  });

  void test('the same README inside a four-backtick fence is read whole', () => {
    const result = parseOperations(answer('REPLACE_FILE README.md', '````md', ...README_LINES, '````', ''));
    assert.deepEqual(result.errors, []);
    assert.equal(
      result.operations[0]?.type === 'REPLACE_FILE' && result.operations[0].content,
      README_LINES.join('\n'),
    );
  });

  void test('a fence closes only with one at least as long: ``` inside ````` stays content', () => {
    const body = ['a', '````', 'b', FENCE, 'c'];
    const result = parseOperations(answer('CREATE_FILE notes.txt', '`````', ...body, '`````'));
    assert.deepEqual(result.errors, []);
    assert.equal(result.operations[0]?.type === 'CREATE_FILE' && result.operations[0].content, body.join('\n'));
  });

  void test('code cut at a ``` line of its own is refused when the code goes on right under the fence', () => {
    const result = parseOperations(
      answer(
        'REPLACE_ELEMENT src/help.ts/variable[usage]',
        `${FENCE}ts`,
        'export const usage = `',
        FENCE,
        'scalpel edit',
        FENCE,
        '`;',
        FENCE,
      ),
    );
    assert.deepEqual(result.operations, []);
    assert.match(result.errors[0]?.message ?? '', /fences of its own/);
  });

  void test('the next operation after a refused body is still read', () => {
    const result = parseOperations(
      answer('REPLACE_FILE README.md', FENCE, ...README_LINES, FENCE, '', 'DELETE_ELEMENT src/a.ts/function[old]'),
    );
    assert.equal(result.errors.length, 1);
    assert.deepEqual(
      result.operations.map((o) => o.type),
      ['DELETE_ELEMENT'],
    );
  });

  void test('prose after an operation with its own code block is still prose', () => {
    const result = parseOperations(
      answer(
        'REPLACE_FILE README.md',
        `${FENCE}md`,
        '# Title',
        FENCE,
        '',
        'Now run:',
        `${FENCE}bash`,
        'npm test',
        FENCE,
        'and check the output.',
      ),
    );
    assert.deepEqual(result.errors, []);
    assert.equal(result.operations[0]?.type === 'REPLACE_FILE' && result.operations[0].content, '# Title');
  });

  void test('a bare fence around the whole answer is no sign of a cut', () => {
    const result = parseOperations(answer(FENCE, 'REPLACE_FILE README.md', `${FENCE}md`, '# Title', FENCE, FENCE));
    assert.deepEqual(result.errors, []);
    assert.equal(result.operations.length, 1);
  });
});

void describe('JSON in prose', () => {
  void test('a ```json example in the prose of an answer with operations does not fail the batch', () => {
    const result = parseOperations(
      answer(
        'The payload looks like this:',
        `${FENCE}json`,
        '[{ "type": "user", "path": "/users/1" }]',
        FENCE,
        '',
        'REPLACE_ELEMENT src/a.ts/function[f]',
        `${FENCE}ts`,
        'function f(): void {}',
        FENCE,
      ),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((o) => o.path),
      ['src/a.ts/function[f]'],
    );
  });

  void test('an answer with no header may still carry its operations in a ```json block', () => {
    const result = parseOperations(
      answer('Here you go:', `${FENCE}json`, '[{ "type": "DELETE_ELEMENT", "path": "src/a.ts/function[f]" }]', FENCE),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((o) => o.type),
      ['DELETE_ELEMENT'],
    );
  });
});

void describe('limits', () => {
  void test('an answer over the size limit is refused whole, with both sizes in the message', () => {
    const big = answer('CREATE_FILE big.txt', FENCE, 'x'.repeat(3 * 1024 * 1024), FENCE);
    const result = parseOperations(big);
    assert.deepEqual(result.operations, []);
    assert.match(result.errors[0]?.message ?? '', /the answer is 3 MB, over the limit of 2 MB/);
    const raised = parseOperations(big, { maxAnswerBytes: 4 * 1024 * 1024 });
    assert.deepEqual(raised.errors, []);
    assert.equal(raised.operations.length, 1);
  });

  void test('the size counts UTF-8 bytes, not characters', () => {
    const text = answer('CREATE_FILE a.txt', FENCE, 'é'.repeat(600), FENCE);
    assert.equal(parseOperations(text, { maxAnswerBytes: 1_000 }).operations.length, 0);
    assert.equal(parseOperations(text, { maxAnswerBytes: 1_300 }).operations.length, 1);
  });

  void test('an answer with more operations than the limit is refused whole', () => {
    const many = Array.from({ length: 1_001 }, (_, i) => `DELETE_ELEMENT src/a.ts/function[f${i}]`).join('\n');
    const result = parseOperations(many);
    assert.deepEqual(result.operations, []);
    assert.equal(result.errors.length, 1);
    assert.match(result.errors[0]?.message ?? '', /holds 1001 operations, over the limit of 1000/);
    assert.equal(result.errors[0]?.line, 1_001);
    assert.equal(parseOperations(many, { maxOperations: 2_000 }).operations.length, 1_001);
  });
});
