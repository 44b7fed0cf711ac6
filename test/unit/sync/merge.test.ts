import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveAgainstCurrent, type MergeOptions } from '../../../src/core/edit/rebase';
import { applyOperations } from '../../../src/core/ops/apply';
import type { Operation } from '../../../src/core/ops/operation';

const FILE = 'src/calc.ts';
const BASE = `export class Calc {
  a(x: number): number {
    return x + 1;
  }

  b(x: number): number {
    return x + 2;
  }

  c(x: number): number {
    return x + 3;
  }
}
`;
// The user changed a (the model patches it too) and c (the model deletes it); b is the model's alone.
const NOW = BASE.replace('return x + 1;', 'return x + 100; // mine').replace(
  'return x + 3;',
  'return x + 300; // mine',
);
const OPERATIONS: Operation[] = [
  { type: 'PATCH_ELEMENT', path: `${FILE}/class[Calc]/method[a]`, patches: [{ search: 'x + 1', replace: 'x * 10' }] },
  {
    type: 'REPLACE_ELEMENT',
    path: `${FILE}/class[Calc]/method[b]`,
    content: 'b(x: number): number {\n  return x * 20;\n}',
  },
  { type: 'DELETE_ELEMENT', path: `${FILE}/class[Calc]/method[c]` },
];
const proposedText = applyOperations({ read: () => BASE }, OPERATIONS).changes[0]?.after;

function merge(options: MergeOptions) {
  const resolution = resolveAgainstCurrent(
    OPERATIONS.map((operation, index) => ({ index, operation })),
    new Map([[FILE, BASE]]),
    { read: (path) => (path === FILE ? NOW : undefined) },
    'hybrid',
    { ...options, proposed: { read: () => proposedText } },
  );
  return { resolution, text: resolution.changes[0]?.after ?? NOW };
}

void describe('the 3-way merge per element', () => {
  void test('user_wins: only the model-only element changes; both-changed and delete-changed are reported', () => {
    const { resolution, text } = merge({ policy: 'user_wins' });
    assert.deepEqual(resolution.applied, [1]);
    assert.match(text, /return x \+ 100; \/\/ mine/);
    assert.match(text, /return x \* 20;/);
    assert.match(text, /return x \+ 300; \/\/ mine/);
    assert.deepEqual(
      resolution.conflicts.map((c) => [c.index, c.kind, c.decision]),
      [
        [0, 'both-changed', 'kept-user'],
        [2, 'deleted-changed', 'kept-user'],
      ],
    );
    assert.equal(
      resolution.conflicts[0]?.userText,
      '  a(x: number): number {\n    return x + 100; // mine\n  }'.trimStart(),
    );
  });

  void test("agent_wins: the model's version replaces the user's, whose version is kept in the result; no delete of the user's work", () => {
    const { resolution, text } = merge({ policy: 'agent_wins' });
    assert.deepEqual(resolution.applied, [0, 1]);
    assert.match(text, /return x \* 10;/);
    assert.doesNotMatch(text, /x \+ 100/);
    assert.match(text, /return x \+ 300; \/\/ mine/);
    assert.equal(resolution.overridden?.length, 1);
    assert.match(resolution.overridden?.[0]?.userText ?? '', /return x \+ 100; \/\/ mine/);
    assert.deepEqual(
      resolution.conflicts.map((c) => [c.index, c.kind]),
      [[2, 'deleted-changed']],
    );
  });

  void test('ask: both versions wait for a pick; the picks then apply', () => {
    const asked = merge({ policy: 'ask' });
    assert.deepEqual(asked.resolution.applied, [1]);
    const pending = asked.resolution.conflicts.filter((c) => c.decision === 'pending');
    assert.equal(pending.length, 2);
    assert.match(pending[0]?.userText ?? '', /x \+ 100/);
    assert.match(pending[0]?.modelText ?? '', /x \* 10/);
    assert.equal(pending[1]?.modelText, undefined, 'a delete has no model version');
    const picked = merge({
      policy: 'ask',
      choices: new Map([
        [0, 'user'],
        [2, 'agent'],
      ]),
    });
    assert.deepEqual(picked.resolution.applied, [1, 2]);
    assert.match(picked.text, /x \+ 100; \/\/ mine/);
    assert.doesNotMatch(picked.text, /c\(x/);
  });
});
