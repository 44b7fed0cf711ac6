import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { repairUserMessage } from '../../../src/core/llm/prompts';
import { applyOperations } from '../../../src/core/ops/apply';
import { parseOperations } from '../../../src/core/ops/format';

// Issue 18's repair messages: a mistyped path gets the nearest valid paths, a JSON answer gets every problem in one
// round, and no message cites a file line number the model never saw.

const FILE = 'src/store.ts';
const STORE = `export class Store {
  private items = new Map<string, number>();

  put(key: string, value: number): void {
    this.items.set(key, value);
  }
}
`;
const snapshot = { read: (path: string): string | undefined => (path === FILE ? STORE : undefined) };

function repairOf(answer: string): string {
  const parsed = parseOperations(answer);
  const applied = applyOperations(snapshot, parsed.operations);
  return repairUserMessage(applied.results, parsed.errors);
}

void describe('repair messages the model can act on', () => {
  void test('a malformed element path (a lost bracket) gets the nearest valid paths, like an unknown one', () => {
    const message = repairOf(
      [`DELETE_ELEMENT ${FILE}/class[Store/method[put]`, '', `DELETE_ELEMENT ${FILE}/class[Store]/method[putt]`].join(
        '\n',
      ),
    );
    const nearby = message.split('\n').filter((line) => line.includes('Existing paths nearby:'));
    assert.equal(nearby.length, 2, message);
    for (const line of nearby) assert.ok(line.includes(`${FILE}/class[Store]/method[put]`), line);
  });

  void test('a JSON operation with several problems gets all of them in one round', () => {
    const parsed = parseOperations(JSON.stringify([{ type: 'CREATE_ELEMENT', elementKind: 'method' }], null, 2));
    assert.equal(parsed.errors.length, 1);
    const message = parsed.errors[0]?.message ?? '';
    assert.match(message, /"path" is missing/);
    assert.match(message, /"content" is missing/);
    assert.match(message, /"position" must be a string or an object, not missing/);
  });

  void test('a patch that breaks the element cites the line of the element, not of the file', () => {
    const message = repairOf(
      [
        `PATCH_ELEMENT ${FILE}/class[Store]/method[put]`,
        '```ts',
        '<<<<<<< SEARCH',
        '    this.items.set(key, value);',
        '=======',
        '    this.items.set(key, value;',
        '>>>>>>> REPLACE',
        '```',
      ].join('\n'),
    );
    assert.match(message, /does not parse: .*\(line 2 of the patched element\)/);
    assert.doesNotMatch(message, /of the file\)/);
  });
});
