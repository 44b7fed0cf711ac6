import assert from 'node:assert/strict';
import { test } from 'node:test';
import { untouchedAfter } from '../../../../src/core/ops/apply/untouchedAfter';
import type { UntouchedMatch } from '../../../../src/core/ops/operation';

// Issue 27: the lines a rename left with the old name, moved to where they read after the batch.

const BEFORE = ['def total():', '    return 1', '', '# total is the sum', 'NAMES = ["total"]; total()', ''].join('\n');

function row(line: number, code: string, where = 'comment'): UntouchedMatch {
  return { file: 'a.py', line, element: '', in: where, code };
}

void test('a line that also held a renamed place reads with the new name; lines after inserted ones move down', () => {
  const renameAt = BEFORE.indexOf('total()', BEFORE.indexOf('NAMES'));
  const edits = [
    // Another operation of the batch adds two lines after the function.
    { start: BEFORE.indexOf('\n\n') + 1, end: BEFORE.indexOf('\n\n') + 1, newText: 'x = 1\ny = 2\n' },
    { start: renameAt, end: renameAt + 'total'.length, newText: 'grand_total' },
  ];
  let after = BEFORE;
  for (const edit of [...edits].reverse()) after = after.slice(0, edit.start) + edit.newText + after.slice(edit.end);
  const rows = untouchedAfter(
    [row(4, '# total is the sum'), row(5, 'NAMES = ["total"]; total()', 'string')],
    [{ path: 'a.py', before: BEFORE, after, edits }],
  );
  assert.deepEqual(
    rows.map((r) => [r.line, r.code]),
    [
      [6, '# total is the sum'],
      [7, 'NAMES = ["total"]; grand_total()'],
    ],
  );
});

void test('a line inside text another operation replaced is found in the replacement, or dropped when gone', () => {
  const start = BEFORE.indexOf('# total');
  const end = BEFORE.indexOf('\n', start) + 1;
  const keep = untouchedAfter(
    [row(4, '# total is the sum')],
    [
      {
        path: 'a.py',
        before: BEFORE,
        after: BEFORE.slice(0, start) + '# new\n# total is the sum\n' + BEFORE.slice(end),
        edits: [{ start: start - 1, end, newText: '\n# new\n# total is the sum\n' }],
      },
    ],
  );
  assert.deepEqual(
    keep.map((r) => r.line),
    [5],
  );
  const gone = untouchedAfter(
    [row(4, '# total is the sum')],
    [
      {
        path: 'a.py',
        before: BEFORE,
        after: BEFORE.slice(0, start) + BEFORE.slice(end),
        edits: [{ start: start - 1, end: end - 1, newText: '' }],
      },
    ],
  );
  assert.deepEqual(gone, []);
});
