import type { ElementNode, FileOutline } from '../elements/element';
import { isOutlinable, outlineSource } from '../elements/outline';
import { resolveElementPath } from '../elements/resolve';
import { applyOperations, type EditStrategy, type FileChange, type SnapshotReader } from '../ops/apply';
import { dedentElementText, indentationBefore } from '../ops/diff/textLines';
import type { Operation, OperationResult, RenameResolution } from '../ops/operation';

/**
 * The rebase of a verified batch onto the text as it is now: a 3-way merge per element. The base is the text the
 * model saw (the baseline), the user's side is the text now, the model's side its operations. Before anything is
 * written the operations are resolved again against the current text: an element only the model changed takes its
 * change; an element only the user changed stays as they left it; an element both changed is a conflict the policy
 * decides (issue 11):
 * - `user_wins` (default): the operation is dropped and reported; the user's text stays.
 * - `agent_wins`: the model's version of the element replaces the user's; the user's version is kept in the result
 *   (`overridden`) and in the undo.
 * - `ask`: nothing is decided here; the conflict carries both versions for the surface to show, and a second
 *   resolution with the user's `choices` applies what they picked.
 * Deleting an element the user changed is always a conflict: no policy deletes the user's work unasked; only an
 * explicit `agent` choice (ask) does.
 */

export type ConflictPolicy = 'user_wins' | 'agent_wins' | 'ask';

export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['user_wins', 'agent_wins', 'ask'];

export function isConflictPolicy(value: string): value is ConflictPolicy {
  return (CONFLICT_POLICIES as readonly string[]).includes(value);
}

/** The user's pick for one conflicting operation under `ask`. */
export type ConflictChoice = 'user' | 'agent';

export interface IndexedOperation {
  /** Position in the pending edit's batch, the id the preview and the accept commands use. */
  readonly index: number;
  readonly operation: Operation;
}

/**
 * `both-changed`: the user and the model changed the same element (or file); `deleted-changed`: the model deletes an
 * element the user changed; `user-removed`: the user removed or renamed the element the model changes; `stale`: the
 * operation no longer applies to the current text.
 */
export type ConflictKind = 'both-changed' | 'deleted-changed' | 'user-removed' | 'stale';

export interface Conflict {
  readonly index: number;
  readonly operation: Operation;
  /** The file the operation belongs to. */
  readonly path: string;
  readonly reason: string;
  readonly kind?: ConflictKind;
  /** The element (its path in the baseline), when the conflict is about one element; absent for a whole file. */
  readonly element?: string;
  /** The element's (or file's) text in the baseline, now (the user's version) and as the model would have it. */
  readonly baseText?: string;
  readonly userText?: string;
  /** Undefined when the model deletes it. */
  readonly modelText?: string;
  /** `pending`: `ask` without a choice yet; `kept-user`: the operation was dropped; `agent`: applied over the user's. */
  readonly decision?: 'pending' | 'kept-user' | 'agent';
}

export interface Resolution {
  /** Edits of the current text (offsets into it), for the operations in `applied`. */
  readonly changes: readonly FileChange[];
  readonly applied: readonly number[];
  /** Operations not applied: dropped (user_wins), waiting for a choice (ask), or no longer applicable. */
  readonly conflicts: readonly Conflict[];
  /** Applied over the user's own change (agent_wins, or the user picked the model's version): what the user had. */
  readonly overridden?: readonly Conflict[];
}

export interface MergeOptions {
  readonly policy?: ConflictPolicy;
  /** The user's picks under `ask` (or to override the policy for single operations), by operation index. */
  readonly choices?: ReadonlyMap<number, ConflictChoice>;
  /** The batch applied to the baseline (after text per file): the model's version of an element it patched. */
  readonly proposed?: SnapshotReader;
  /**
   * The places each RENAME_ELEMENT was verified with ({@link renamesOf}): they apply again only to files that are as
   * they were; a rename whose files changed is a stale conflict (its places would have to be found again).
   */
  readonly renames?: ReadonlyMap<Operation, RenameResolution>;
}

/** The places of the batch's verified renames, by operation, from their results. */
export function renamesOf(
  operations: readonly Operation[],
  results: readonly OperationResult[],
): Map<Operation, RenameResolution> {
  const found = new Map<Operation, RenameResolution>();
  for (const result of results) {
    const operation = operations[result.index];
    if (operation !== undefined && result.rename !== undefined)
      found.set(operation, { ok: true, places: result.rename });
  }
  return found;
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

/** What the 3-way check found for one operation. */
type Verdict =
  | { readonly clean: true }
  | {
      readonly clean: false;
      readonly kind: ConflictKind;
      readonly reason: string;
      /** The operation that applies the model's version to the current text, when there is one. */
      readonly agentOperation?: Operation;
      readonly element?: string;
      readonly baseText?: string;
      readonly userText?: string;
      readonly modelText?: string;
    };

export function resolveAgainstCurrent(
  operations: readonly IndexedOperation[],
  baseline: ReadonlyMap<string, string | undefined>,
  current: SnapshotReader,
  strategy: EditStrategy,
  merge: MergeOptions = {},
): Resolution {
  const policy = merge.policy ?? 'user_wins';
  const conflicts: Conflict[] = [];
  const overridden: Conflict[] = [];
  const candidates: IndexedOperation[] = [];
  const outlines = new Map<string, FileOutline | undefined>();
  const outlineOf = (key: string, path: string, text: string): FileOutline | undefined => {
    if (!outlines.has(key)) {
      const outline = isOutlinable(path) ? outlineSource(path, text) : undefined;
      outlines.set(key, outline !== undefined && outline.syntaxErrors.length === 0 ? outline : undefined);
    }
    return outlines.get(key);
  };

  for (const entry of operations) {
    const path = fileOfOperation(entry.operation, baseline.keys());
    const verdict: Verdict = path === undefined ? { clean: true } : check(entry.operation, path);
    if (path === undefined || verdict.clean) {
      candidates.push(entry);
      continue;
    }
    const { clean: _clean, agentOperation, ...found } = verdict;
    const conflict: Conflict = { ...entry, path, ...found };
    const choice = merge.choices?.get(entry.index);
    const agent =
      choice === 'agent' || (choice === undefined && policy === 'agent_wins' && verdict.kind !== 'deleted-changed');
    if (agent && agentOperation !== undefined) {
      overridden.push({ ...conflict, decision: 'agent' });
      candidates.push({ index: entry.index, operation: agentOperation });
    } else {
      const pending = choice === undefined && policy === 'ask' && verdict.kind !== 'stale';
      conflicts.push({ ...conflict, decision: pending ? 'pending' : 'kept-user' });
    }
  }

  function check(operation: Operation, path: string): Verdict {
    const before = baseline.get(path);
    const now = current.read(path);
    if (before === now) return { clean: true };
    if (before === undefined)
      return {
        clean: false,
        kind: 'both-changed',
        reason: `${path} was created meanwhile; the new file would replace it`,
        ...(now === undefined ? {} : { userText: now }),
        ...(operation.type === 'CREATE_FILE'
          ? { modelText: operation.content, agentOperation: { ...operation, type: 'REPLACE_FILE' } }
          : {}),
      };
    if (now === undefined)
      return {
        clean: false,
        kind: 'user-removed',
        reason: `${path} was deleted or renamed meanwhile`,
        baseText: before,
      };
    if (operation.type === 'REPLACE_FILE' || operation.type === 'CREATE_FILE') {
      return {
        clean: false,
        kind: 'both-changed',
        reason: `you changed ${path} meanwhile; replacing the whole file would undo your change`,
        baseText: before,
        userText: now,
        modelText: operation.content,
        agentOperation: { type: 'REPLACE_FILE', path: operation.path, content: operation.content },
      };
    }
    if (!ELEMENT_TARGETING.has(operation.type)) return { clean: true };
    const target = operationPath(operation);
    const beforeOutline = outlineOf(`before:${path}`, path, before);
    const nowOutline = outlineOf(`now:${path}`, path, now);
    if (beforeOutline === undefined || nowOutline === undefined)
      return { clean: false, kind: 'stale', reason: `you changed ${path} meanwhile`, baseText: before, userText: now };
    const then = resolveElementPath(beforeOutline, target);
    // Not in the baseline: an element an earlier operation of the batch creates; the re-apply decides.
    if (!then.ok) return { clean: true };
    const still = resolveElementPath(nowOutline, then.path);
    const textThen = before.slice(then.element.range.start, then.element.range.end);
    if (!still.ok)
      return {
        clean: false,
        kind: 'user-removed',
        reason: `you removed or renamed ${then.path} meanwhile`,
        element: then.path,
        baseText: textThen,
        ...modelVersion(operation, path, then.path),
      };
    const textNow = now.slice(still.element.range.start, still.element.range.end);
    if (textThen === textNow) return { clean: true };
    if (operation.type === 'DELETE_ELEMENT')
      return {
        clean: false,
        kind: 'deleted-changed',
        reason: `you changed ${then.path} meanwhile and the model deletes it`,
        element: then.path,
        baseText: textThen,
        userText: textNow,
        agentOperation: { type: 'DELETE_ELEMENT', path: still.path },
      };
    const model = modelVersion(operation, path, then.path);
    return {
      clean: false,
      kind: 'both-changed',
      reason: `you changed ${then.path} meanwhile`,
      element: then.path,
      baseText: textThen,
      userText: textNow,
      ...model,
      ...(model.modelText === undefined
        ? {}
        : {
            agentOperation: {
              type: 'REPLACE_ELEMENT',
              path: still.path,
              content: model.modelText,
            },
          }),
    };
  }

  /** The model's version of the element: its REPLACE content, or the element in the batch applied to the baseline. */
  function modelVersion(operation: Operation, path: string, elementPath: string): { modelText?: string } {
    if (operation.type === 'REPLACE_ELEMENT') return { modelText: operation.content };
    if (operation.type !== 'PATCH_ELEMENT') return {};
    const after = merge.proposed?.read(path);
    if (after === undefined) return {};
    const outline = outlineOf(`proposed:${path}`, path, after);
    const found = outline === undefined ? undefined : resolveElementPath(outline, elementPath);
    if (found === undefined || !found.ok) return {};
    return { modelText: asModelWritesIt(after, found.element) };
  }

  if (candidates.length === 0) return { changes: [], applied: [], conflicts: sorted(conflicts), overridden };
  const result = applyOperations(
    current,
    candidates.map((c) => c.operation),
    { strategy, partial: true, ...(merge.renames === undefined ? {} : { renames: merge.renames }) },
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
      const wasOverride = overridden.findIndex((o) => o.index === entry.index);
      if (wasOverride >= 0) overridden.splice(wasOverride, 1);
      conflicts.push({
        ...entry,
        path,
        kind: 'stale',
        decision: 'kept-user',
        reason: `it no longer applies to the current text: ${r.message ?? r.status}`,
      });
    }
  }
  applied.sort((a, b) => a - b);
  return {
    changes: applied.length === 0 ? [] : result.changes,
    applied,
    conflicts: sorted(conflicts),
    overridden: sorted(overridden),
  };
}

function sorted(conflicts: Conflict[]): Conflict[] {
  return conflicts.sort((a, b) => a.index - b.index);
}

/** An element's text as a model writes it: first line at column 0, later lines without the element's indentation. */
function asModelWritesIt(text: string, element: ElementNode): string {
  const elementText = text.slice(element.range.start, element.range.end);
  return dedentElementText(elementText, indentationBefore(text, element.range.start) ?? '');
}

export function describeConflicts(conflicts: readonly Conflict[]): string {
  const shown = conflicts.slice(0, 3).map((c) => `${c.operation.type} ${operationPath(c.operation)} (${c.reason})`);
  if (conflicts.length > 3) shown.push(`${conflicts.length - 3} more`);
  return shown.join('; ');
}
