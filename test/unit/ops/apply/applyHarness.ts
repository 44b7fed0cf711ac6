import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Operation, OperationResult } from '../../../../src/core/ops/operation';
import { applyEdits, applyOperations } from '../../../../src/core/ops/apply';
import type { ApplyOptions, ApplyResult, FileChange } from '../../../../src/core/ops/apply';

/** Shared by the apply tests: fixtures, a workspace snapshot in memory, and the checks every result must pass. */

const FIXTURES = join(__dirname, '..', '..', '..', '..', '..', 'test', 'unit', 'ops', 'apply', 'fixtures');

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

export type Files = Readonly<Record<string, string>>;

/** Checks that hold for every result, whatever the operations: the API's promises. */
export function assertWellFormed(files: Files, operations: readonly Operation[], result: ApplyResult): void {
  assert.equal(result.results.length, operations.length, 'one result per operation');
  result.results.forEach((r, i) => {
    assert.equal(r.index, i);
    assert.equal(r.operation, operations[i]);
    if (r.status === 'failed') assert.ok((r.message ?? '').length > 0, `failed result #${i + 1} has a message`);
  });
  assert.equal(
    result.ok,
    result.results.every((r) => r.status === 'ok'),
    'ok exactly when every operation is ok',
  );
  for (const change of result.changes) {
    assert.equal(change.before, files[change.path], `${change.path}: before is the snapshot text`);
    assert.equal(change.created, change.before === undefined);
    let previousEnd = -1;
    for (const edit of change.edits) {
      assert.ok(edit.start >= previousEnd, `${change.path}: edits sorted and non-overlapping`);
      assert.ok(edit.start <= edit.end);
      previousEnd = edit.end;
    }
    assert.equal(applyEdits(change.before ?? '', change.edits), change.after, `${change.path}: edits give after`);
  }
}

function run(files: Files, operations: readonly Operation[], options?: ApplyOptions): ApplyResult {
  const frozen = { ...files };
  const reads: string[] = [];
  const result = applyOperations(
    {
      read: (path) => {
        reads.push(path);
        return files[path];
      },
    },
    operations,
    options,
  );
  assert.deepEqual({ ...files }, frozen, 'the snapshot is untouched');
  assertWellFormed(files, operations, result);
  return result;
}

function describeFailures(result: ApplyResult): string {
  return result.results
    .filter((r) => r.status !== 'ok')
    .map((r) => `#${r.index + 1} ${r.status}: ${r.message ?? ''} | ${r.hint ?? ''}`)
    .join('\n');
}

export interface Applied {
  readonly result: ApplyResult;
  /** The text of a file after the batch (its snapshot text when the batch left it alone). */
  after(path: string): string;
  change(path: string): FileChange;
}

/** Applies a batch that must succeed. */
export function applyOk(files: Files, operations: readonly Operation[], options?: ApplyOptions): Applied {
  const result = run(files, operations, options);
  assert.ok(result.ok, `expected the batch to apply:\n${describeFailures(result)}`);
  return {
    result,
    after: (path) =>
      result.changes.find((c) => c.path === path)?.after ?? files[path] ?? assert.fail(`no file ${path}`),
    change: (path) => result.changes.find((c) => c.path === path) ?? assert.fail(`no change of ${path}`),
  };
}

/** Applies a batch that must fail as a whole: nothing changes. */
export function applyFails(files: Files, operations: readonly Operation[], options?: ApplyOptions): ApplyResult {
  const result = run(files, operations, options);
  assert.equal(result.ok, false, 'expected the batch to fail');
  if (options?.partial !== true) assert.deepEqual(result.changes, [], 'a failed batch changes nothing');
  return result;
}

/** Applies a batch in partial mode. */
export function applyPartial(files: Files, operations: readonly Operation[]): ApplyResult {
  return run(files, operations, { partial: true });
}

export function failure(result: ApplyResult, index: number): OperationResult {
  const found = result.results[index];
  assert.ok(found !== undefined, `no result #${index + 1}`);
  assert.equal(
    found.status,
    'failed',
    `operation #${index + 1} should fail, got ${found.status}: ${found.message ?? ''}`,
  );
  return found;
}

/** Text with `\n` line breaks from lines, with a final newline. */
export function lines(...parts: string[]): string {
  return `${parts.join('\n')}\n`;
}
