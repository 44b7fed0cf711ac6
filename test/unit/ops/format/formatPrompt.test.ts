import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { OPERATION_FORMAT_PROMPT, parseOperations } from '../../../../src/core/ops/format';
import { OPERATION_TYPES } from '../../../../src/core/ops/operation';

const repoRoot = join(__dirname, '..', '..', '..', '..', '..');

/** The fenced blocks of a markdown text with the given opening fence line, e.g. "````text". */
function blocks(markdown: string, opening: string): string[] {
  const closing = opening.replace(/[a-z]+$/, '');
  const found: string[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== opening) continue;
    const end = lines.indexOf(closing, index + 1);
    assert.ok(end > index, `unclosed ${opening} block at line ${index + 1}`);
    found.push(lines.slice(index + 1, end).join('\n'));
    index = end;
  }
  return found;
}

void describe('OPERATION_FORMAT_PROMPT', () => {
  void test('its example is an answer the parser reads without errors', () => {
    const example = OPERATION_FORMAT_PROMPT.slice(OPERATION_FORMAT_PROMPT.indexOf('Example:'));
    const result = parseOperations(example);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((operation) => operation.type),
      ['REPLACE_ELEMENT', 'CREATE_ELEMENT', 'PATCH_ELEMENT'],
    );
  });

  void test('it names every operation type and every position', () => {
    for (const word of [...OPERATION_TYPES, 'FIRST_CHILD', 'LAST_CHILD', 'BEFORE', 'AFTER', 'KIND=']) {
      assert.ok(OPERATION_FORMAT_PROMPT.includes(word), word);
    }
  });

  void test('it stays compact: every request pays for it', () => {
    const tokens = encode(OPERATION_FORMAT_PROMPT).length;
    console.log(`OPERATION_FORMAT_PROMPT: ${tokens} o200k_base tokens`);
    assert.ok(tokens <= 450, `${tokens} tokens`);
  });
});

void describe('docs/operations.md', () => {
  const docs = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8');

  void test('its example answers parse without errors, one operation per documented header', () => {
    const examples = blocks(docs, '````text');
    assert.ok(examples.length > 0);
    for (const example of examples) {
      const result = parseOperations(example);
      assert.deepEqual(result.errors, []);
      const headers = example
        .split('\n')
        .filter((line) => (OPERATION_TYPES as readonly string[]).includes(line.split(' ')[0] ?? ''));
      assert.equal(result.operations.length, headers.length);
    }
  });

  void test('its JSON example parses into the operations it shows', () => {
    const [example] = blocks(docs, '```json');
    assert.ok(example !== undefined);
    const result = parseOperations(example);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((operation) => operation.type),
      ['REPLACE_ELEMENT', 'CREATE_ELEMENT', 'PATCH_ELEMENT', 'DELETE_ELEMENT'],
    );
  });
});
