import type { FileOutline } from '../elements/element';
import { isOutlinable, outlineSource } from '../elements/outline';
import { resolveElementPath } from '../elements/resolve';
import { applyOperations, type EditStrategy, type FileChange, type SnapshotReader } from '../ops/apply';
import type { Operation } from '../ops/operation';

/**
 * The rebase of a verified batch onto the text as it is now. Operations are verified against the text the model saw
 * (the baseline); by the time the user accepts, they may have typed into the same files. Before anything is written,
 * the operations are resolved again against the current text: an element the user changed since the baseline is a
 * conflict and is left alone; everything else applies to the current text, the user's other changes included.
 */

export interface IndexedOperation {
  /** Position in the pending edit's batch, the id the preview and the accept commands use. */
  readonly index: number;
  readonly operation: Operation;
}

export interface Conflict {
  readonly index: number;
  readonly operation: Operation;
  /** The file the operation belongs to. */
  readonly path: string;
  readonly reason: string;
}

export interface Resolution {
  /** Edits of the current text (offsets into it), for the operations in `applied`. */
  readonly changes: readonly FileChange[];
  readonly applied: readonly number[];
  readonly conflicts: readonly Conflict[];
}

/** The element path of an operation without the `file:` marker some answers put in front. */
export function operationPath(operation: Operation): string {
  return operation.path.replace(/^file:/i, '');
}

/** The file an operation belongs to: the longest known file path that is its path or a prefix of it. */
export function fileOfOperation(operation: Operation, files: Iterable<string>): string | undefined {
  const path = operationPath(operation);
  let best: string | undefined;
  for (const file of files) {
    if ((path === file || path.startsWith(`${file}/`)) && (best === undefined || file.length > best.length))
      best = file;
  }
  return best;
}

export const ELEMENT_TARGETING = new Set<Operation['type']>(['REPLACE_ELEMENT', 'PATCH_ELEMENT', 'DELETE_ELEMENT']);

export function resolveAgainstCurrent(
  operations: readonly IndexedOperation[],
  baseline: ReadonlyMap<string, string | undefined>,
  current: SnapshotReader,
  strategy: EditStrategy,
): Resolution {
  const conflicts: Conflict[] = [];
  const candidates: IndexedOperation[] = [];
  const outlines = new Map<string, FileOutline | undefined>();
  const outlineOf = (key: string, path: string, text: string): FileOutline | undefined => {
    if (!outlines.has(key)) outlines.set(key, isOutlinable(path) ? outlineSource(path, text) : undefined);
    return outlines.get(key);
  };

  for (const entry of operations) {
    const path = fileOfOperation(entry.operation, baseline.keys());
    const reason = path === undefined ? undefined : conflictReason(entry.operation, path);
    if (path !== undefined && reason !== undefined) conflicts.push({ ...entry, path, reason });
    else candidates.push(entry);
  }

  function conflictReason(operation: Operation, path: string): string | undefined {
    const before = baseline.get(path);
    const now = current.read(path);
    if (before === now) return undefined;
    if (before === undefined) return `${path} was created meanwhile; the new file would replace it`;
    if (now === undefined) return `${path} was deleted or renamed meanwhile`;
    if (operation.type === 'REPLACE_FILE' || operation.type === 'CREATE_FILE') {
      return `you changed ${path} meanwhile; replacing the whole file would undo your change`;
    }
    if (!ELEMENT_TARGETING.has(operation.type)) return undefined;
    const target = operationPath(operation);
    const beforeOutline = outlineOf(`before:${path}`, path, before);
    const nowOutline = outlineOf(`now:${path}`, path, now);
    if (beforeOutline === undefined || nowOutline === undefined) return `you changed ${path} meanwhile`;
    const then = resolveElementPath(beforeOutline, target);
    // Not in the baseline: an element an earlier operation of the batch creates; the re-apply decides.
    if (!then.ok) return undefined;
    const still = resolveElementPath(nowOutline, then.path);
    if (!still.ok) return `you removed or renamed ${then.path} meanwhile`;
    const textThen = before.slice(then.element.range.start, then.element.range.end);
    const textNow = now.slice(still.element.range.start, still.element.range.end);
    return textThen === textNow ? undefined : `you changed ${then.path} meanwhile`;
  }

  if (candidates.length === 0) return { changes: [], applied: [], conflicts };
  const result = applyOperations(
    current,
    candidates.map((c) => c.operation),
    { strategy, partial: true },
  );
  const applied: number[] = [];
  for (const r of result.results) {
    const entry = candidates[r.index];
    if (entry === undefined) continue;
    if (r.status === 'ok') {
      applied.push(entry.index);
    } else {
      // Failed, or skipped because it shares an element with one that failed: either way not written.
      const path = fileOfOperation(entry.operation, baseline.keys()) ?? operationPath(entry.operation);
      conflicts.push({ ...entry, path, reason: `it no longer applies to the current text: ${r.message ?? r.status}` });
    }
  }
  conflicts.sort((a, b) => a.index - b.index);
  return { changes: applied.length === 0 ? [] : result.changes, applied, conflicts };
}

export function describeConflicts(conflicts: readonly Conflict[]): string {
  const shown = conflicts.slice(0, 3).map((c) => `${c.operation.type} ${operationPath(c.operation)} (${c.reason})`);
  if (conflicts.length > 3) shown.push(`${conflicts.length - 3} more`);
  return shown.join('; ');
}
