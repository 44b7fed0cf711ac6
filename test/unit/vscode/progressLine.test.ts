import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProgressLine } from '../../../src/vscode/edit/progressLine';

// Issue 29, item 4: progress that moves. The line names the phase, counts the seconds since Enter, and while the
// answer streams in, says how many tokens of it arrived.

/** Words as tokens: enough to see that the count follows the text, not the number of pieces. */
const words = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;

function line(checksTypes = true): ProgressLine {
  return new ProgressLine(
    { model: 'gpt-4o-mini', startedAt: 10_000, countTokens: words, checksTypes },
    'reading src/user.ts',
  );
}

void test('the seconds since Enter move while the phase stays the same', () => {
  const progress = line();
  progress.event({ phase: 'code', message: 'asking gpt-4o-mini (312 context tokens instead of 1204 for whole files)' });
  assert.equal(
    progress.render(10_400),
    'waiting for gpt-4o-mini (312 context tokens instead of 1204 for whole files) · 0 s',
  );
  assert.equal(
    progress.render(40_000),
    'waiting for gpt-4o-mini (312 context tokens instead of 1204 for whole files) · 30 s',
  );
});

void test('a streaming answer is counted in tokens of the whole text so far', () => {
  const progress = line();
  progress.event({ phase: 'code', message: 'asking gpt-4o-mini (10 context tokens instead of 20 for whole files)' });
  progress.text('REPLACE_ELEMENT src/user.ts/class[User]/method[canEdit]\n```ts\ncan');
  // Counted piece by piece this would be 7: `can` and `Edit():` are one word of the whole text.
  progress.text('Edit(): boolean {');
  assert.equal(progress.render(12_000), 'receiving the answer from gpt-4o-mini (6 tokens) · 2 s');
  assert.equal(progress.describe({ withTokens: false }), 'receiving the answer from gpt-4o-mini');
});

void test('each phase is named: context, the check with types, and a repair round with what failed', () => {
  const progress = line();
  assert.equal(progress.render(10_000), 'reading src/user.ts · 0 s');
  progress.event({ phase: 'context', message: 'building the focused context' });
  assert.equal(progress.describe(), 'building the focused context');
  progress.event({ phase: 'verify', message: 'verifying 2 operations' });
  assert.equal(progress.describe(), 'verifying 2 operations: parse, then types');
  assert.equal(line(false).describe(), 'reading src/user.ts');
  progress.event({
    phase: 'repair',
    message: 'repair round 1 of 2: src/index.ts:17: TS2554 Expected 3 arguments, but got 2',
  });
  assert.equal(
    progress.render(15_500),
    'repair round 1 of 2: src/index.ts:17: TS2554 Expected 3 arguments, but got 2; waiting for gpt-4o-mini · 5 s',
  );
  progress.text('PATCH_ELEMENT src/index.ts');
  assert.equal(
    progress.describe(),
    'repair round 1 of 2: src/index.ts:17: TS2554 Expected 3 arguments, but got 2; receiving the answer from gpt-4o-mini (2 tokens)',
  );
});

void test('a new request to the model starts its count again', () => {
  const progress = line();
  progress.event({ phase: 'code', message: 'asking gpt-4o-mini (1 context tokens instead of 2 for whole files)' });
  progress.text('one two three');
  progress.event({ phase: 'verify', message: 'verifying 1 operation' });
  progress.event({ phase: 'repair', message: 'repair round 1 of 1: the answer held no operations' });
  assert.equal(progress.describe(), 'repair round 1 of 1: the answer held no operations; waiting for gpt-4o-mini');
});
