import { createTwoFilesPatch } from 'diff';
import type { ApplyResult, FileChange } from '../core/ops/apply';
import type { OperationResult } from '../core/ops/operation';

/** A unified diff of a batch, for the terminal. */
export function unifiedDiff(changes: readonly FileChange[]): string {
  return changes
    .map((change) =>
      createTwoFilesPatch(
        change.before === undefined ? '/dev/null' : `a/${change.path}`,
        `b/${change.path}`,
        change.before ?? '',
        change.after,
        undefined,
        undefined,
        { context: 3 },
      ),
    )
    .join('');
}

export function describeResult(result: OperationResult): string {
  const head = `${result.status.padEnd(7)} ${result.operation.type} ${result.operation.path}`;
  const lines = [head];
  if (result.message !== undefined) lines.push(`        ${result.message}`);
  if (result.hint !== undefined) lines.push(`        hint: ${result.hint}`);
  if (result.suggestions !== undefined && result.suggestions.length > 0)
    lines.push(`        nearest: ${result.suggestions.join(', ')}`);
  return lines.join('\n');
}

export function resultsAsJson(apply: ApplyResult): unknown {
  return apply.results.map((r) => ({
    index: r.index,
    type: r.operation.type,
    path: r.operation.path,
    status: r.status,
    ...(r.message === undefined ? {} : { message: r.message }),
    ...(r.hint === undefined ? {} : { hint: r.hint }),
    ...(r.suggestions === undefined ? {} : { suggestions: r.suggestions }),
  }));
}
