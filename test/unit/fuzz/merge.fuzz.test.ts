import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { resolveAgainstCurrent, type ConflictPolicy, type Resolution } from '../../../src/core/edit/rebase';
import { resolveElementPath } from '../../../src/core/elements/resolve';
import { outlineSource } from '../../../src/core/language/languages';
import { applyOperations, type FileChange } from '../../../src/core/ops/apply';
import type { Operation } from '../../../src/core/ops/operation';
import { skeletonOf, userChangesOf } from '../../../src/core/sync/userChanges';
import { checkProperty, fuzzRun } from './fuzzSettings';

/**
 * The 3-way merge per element (issue 11), on random user edits and random model operations against one baseline.
 * Whatever the policy: the result's edits apply to the user's text as it is now, and undoing them (one undo: the
 * inverse edits of the one change per file) gives exactly that text back. Under user_wins, and under ask before any
 * pick, every element the user touched is byte for byte the user's afterwards. Under agent_wins an element both
 * changed carries the model's version, and the user's version is in the result's `overridden`.
 */

const FILE = 'src/calc.ts';
const METHODS = 6;

function methodText(k: number): string {
  return `  m${k}(x: number): number {\n    const a = x + ${k};\n    return a * 2;\n  }\n`;
}

const BASE = `export class Calc {\n${Array.from({ length: METHODS }, (_, k) => methodText(k)).join('\n')}}\n\nexport function top(): number {\n  return 1;\n}\n`;

type UserEdit = { readonly kind: 'body' | 'rename' | 'delete' | 'comment'; readonly k: number; readonly n: number };
type ModelEdit = { readonly kind: 'replace' | 'patch' | 'delete' | 'create'; readonly k: number; readonly n: number };

const methodRange = (text: string, k: number): [number, number] => {
  const outline = outlineSource(FILE, text);
  const found = resolveElementPath(outline, `${FILE}/class[Calc]/method[m${k}]`);
  if (!found.ok) throw new Error(`m${k} not found`);
  return [found.element.range.start, found.element.range.end];
};

function applyUserEdits(edits: readonly UserEdit[]): string {
  let text = BASE;
  const done = new Set<number>();
  for (const edit of edits) {
    if (done.has(edit.k)) continue;
    done.add(edit.k);
    const [start, end] = methodRange(text, edit.k);
    const element = text.slice(start, end);
    let replacement: string;
    switch (edit.kind) {
      case 'body':
        replacement = element.replace('return a * 2;', `return a * 3 + ${edit.n};`);
        break;
      case 'comment':
        replacement = element.replace('{\n', `{\n    // the user's note ${edit.n}\n`);
        break;
      case 'rename':
        replacement = element.replace(`m${edit.k}(`, `u${edit.k}(`);
        break;
      case 'delete': {
        // The element and its line break; the blank line before it stays as a separator.
        text = text.slice(0, start) + text.slice(end + 1);
        continue;
      }
    }
    text = text.slice(0, start) + replacement + text.slice(end);
  }
  return text;
}

function modelOperations(edits: readonly ModelEdit[]): Operation[] {
  const operations: Operation[] = [];
  const done = new Set<number>();
  for (const edit of edits) {
    if (edit.kind !== 'create' && done.has(edit.k)) continue;
    done.add(edit.k);
    const path = `${FILE}/class[Calc]/method[m${edit.k}]`;
    switch (edit.kind) {
      case 'replace':
        operations.push({
          type: 'REPLACE_ELEMENT',
          path,
          content: `m${edit.k}(x: number): number {\n  const a = x + ${edit.k};\n  return a - ${edit.n};\n}`,
        });
        break;
      case 'patch':
        operations.push({
          type: 'PATCH_ELEMENT',
          path,
          patches: [{ search: `const a = x + ${edit.k};`, replace: `const a = x - ${edit.k} * ${edit.n};` }],
        });
        break;
      case 'delete':
        operations.push({ type: 'DELETE_ELEMENT', path });
        break;
      case 'create':
        operations.push({
          type: 'CREATE_ELEMENT',
          path: `${FILE}/class[Calc]`,
          position: { kind: 'AFTER', sibling: `method[m${edit.k}]` },
          content: `n${edit.k}x${edit.n}(): number {\n  return ${edit.n};\n}`,
        });
        break;
    }
  }
  return operations;
}

/** Applies sorted, non-overlapping edits; returns the text and the inverse edits (offsets into the result). */
function applyAndInvert(change: FileChange): { after: string; undone: string } {
  const before = change.before ?? '';
  let after = '';
  let at = 0;
  const inverse: { start: number; end: number; text: string }[] = [];
  for (const edit of change.edits) {
    assert.ok(edit.start >= at, 'edits are sorted and do not overlap');
    after += before.slice(at, edit.start);
    inverse.push({
      start: after.length,
      end: after.length + edit.newText.length,
      text: before.slice(edit.start, edit.end),
    });
    after += edit.newText;
    at = edit.end;
  }
  after += before.slice(at);
  let undone = '';
  at = 0;
  for (const edit of inverse) {
    undone += after.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  undone += after.slice(at);
  return { after, undone };
}

/** An element's text; a container's own text (its members are compared one by one as elements of their own). */
function elementText(text: string, path: string): string | undefined {
  const found = resolveElementPath(outlineSource(FILE, text), path);
  if (!found.ok) return undefined;
  if (found.element.children.length > 0) return skeletonOf(text, found.element);
  return text.slice(found.element.range.start, found.element.range.end);
}

const userEdit = fc.record({
  kind: fc.constantFrom<UserEdit['kind']>('body', 'rename', 'delete', 'comment'),
  k: fc.integer({ min: 0, max: METHODS - 1 }),
  n: fc.integer({ min: 1, max: 99 }),
});
const modelEdit = fc.record({
  kind: fc.constantFrom<ModelEdit['kind']>('replace', 'patch', 'delete', 'create'),
  k: fc.integer({ min: 0, max: METHODS - 1 }),
  n: fc.integer({ min: 1, max: 99 }),
});

void test('merge per element: the user keeps what they touched, and one undo restores their text, under every policy', () => {
  checkProperty(
    'merge',
    fuzzRun('merge', 150),
    fc.property(
      fc.array(userEdit, { minLength: 1, maxLength: 4 }),
      fc.array(modelEdit, { minLength: 1, maxLength: 4 }),
      fc.constantFrom<ConflictPolicy>('user_wins', 'agent_wins', 'ask'),
      (userEdits, modelEdits, policy) => {
        const now = applyUserEdits(userEdits);
        const operations = modelOperations(modelEdits);
        const verified = applyOperations({ read: (p) => (p === FILE ? BASE : undefined) }, operations);
        // The model's batch verified against what it saw, as every batch that reaches the merge has.
        fc.pre(verified.ok);
        const proposed = verified.changes.find((c) => c.path === FILE)?.after;
        const resolution: Resolution = resolveAgainstCurrent(
          operations.map((operation, index) => ({ index, operation })),
          new Map([[FILE, BASE]]),
          { read: (p) => (p === FILE ? now : undefined) },
          'hybrid',
          { policy, proposed: { read: (p) => (p === FILE ? proposed : undefined) } },
        );
        const change = resolution.changes.find((c) => c.path === FILE);
        const result = change === undefined ? now : applyAndInvert(change).after;
        if (change !== undefined) {
          assert.equal(change.before, now, 'the merge edits the text as it is now');
          assert.equal(change.after, result);
          assert.equal(applyAndInvert(change).undone, now, 'one undo restores the text from before the apply');
        }
        const touched = userChangesOf(FILE, BASE, now).changes.filter((c) => c.change !== 'deleted');
        const overridden = new Set((resolution.overridden ?? []).map((c) => c.element));
        for (const element of touched) {
          const mine = elementText(now, element.path);
          if (policy === 'agent_wins' && overridden.has(element.previousPath ?? element.path)) {
            const conflict = resolution.overridden?.find((c) => c.element === (element.previousPath ?? element.path));
            assert.equal(conflict?.userText, mine, "the user's version is kept in the result");
            continue;
          }
          assert.equal(elementText(result, element.path), mine, `${element.path} is the user's, byte for byte`);
        }
        for (const conflict of resolution.conflicts) {
          if (policy === 'ask' && conflict.kind === 'both-changed') assert.equal(conflict.decision, 'pending');
        }
      },
    ),
  );
});
