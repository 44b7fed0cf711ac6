import { createTwoFilesPatch } from 'diff';
import type { ApplyResult, FileChange } from '../core/ops/apply';
import type { OperationResult, RenamePlaces } from '../core/ops/operation';

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
  if (result.rename !== undefined && result.status === 'ok') lines.push(...renameLines(result.rename));
  return lines.join('\n');
}

/** Lines of the old name a rename left, at most this many; --json has them all. */
const MAX_UNTOUCHED_LINES = 20;

/** What a RENAME_ELEMENT changed, file by file, and the lines with the old name it left as they are. */
function renameLines(rename: RenamePlaces): string[] {
  const changed = rename.files.map((f) => `${f.path} (${f.edits.length})`).join(', ');
  const left = rename.untouched
    .slice(0, MAX_UNTOUCHED_LINES)
    .map((u) => `          ${u.file}:${u.line} (${u.in}) ${u.code}`);
  const byName = rename.byName ?? [];
  const tied = byName.slice(0, MAX_UNTOUCHED_LINES).map((p) => `          ${p.file}:${p.line} ${p.code}`);
  return [
    `        changed: ${changed}`,
    ...(tied.length === 0
      ? []
      : [
          `        changed by name only (${byName.length}; the syntax does not tell the value's type, or a subclass's base: check they mean the renamed declaration):`,
          ...tied,
        ]),
    ...(byName.length > tied.length ? [`          ${byName.length - tied.length} more`] : []),
    ...(left.length === 0 ? [] : ['        not changed (decide whether they mean the renamed declaration):', ...left]),
    ...(rename.untouched.length > left.length ? [`          ${rename.untouched.length - left.length} more`] : []),
  ];
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
    ...(r.rename === undefined
      ? {}
      : {
          rename: {
            renamedTo: r.rename.renamedTo,
            places: r.rename.files.reduce((sum, f) => sum + f.edits.length, 0),
            files: r.rename.files.map((f) => f.path),
            byName: r.rename.byName ?? [],
            untouched: r.rename.untouched,
            notes: r.rename.notes,
          },
        }),
  }));
}
