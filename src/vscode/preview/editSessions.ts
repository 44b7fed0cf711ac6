import * as vscode from 'vscode';
import type { FileChange } from '../../core/ops/apply';
import type { Operation } from '../../core/ops/operation';
import { describeOperation } from '../../core/edit/changeLabel';
import type { Ctx } from '../ctx';
import { applyChanges, StaleChangeError } from '../edit/applyChanges';
import type { Conflict, ConflictChoice, IndexedOperation, Resolution } from '../../core/edit/rebase';
import { askConflictChoices } from './conflictChoice';
import { liveSnapshot } from '../edit/workspaceSnapshot';
import type { PendingEdit } from '../pendingEdits';
import { UserFacingError } from '../userError';

const ELEMENT_TARGETING = new Set<Operation['type']>(['REPLACE_ELEMENT', 'PATCH_ELEMENT', 'DELETE_ELEMENT']);

/**
 * What happens to a pending edit between "verified" and "written": which of its operations the user still wants,
 * what they would do to the files as they are now, and accepting or rejecting all or some of them. The preview
 * (diff editors and CodeLenses) renders this state; the accept and reject commands change it.
 */

export interface EditSession {
  readonly edit: PendingEdit;
  /** Per file the text the operations were verified against. */
  readonly baseline: Map<string, string | undefined>;
  /** Operations still proposed and not decided yet. */
  readonly included: Set<number>;
  /**
   * Operations the user accepted one by one. They are written together, with what is accepted last, when nothing is
   * left to decide: one batch, one Undo (issue 14).
   */
  readonly accepted: Set<number>;
  /** The included and accepted operations resolved against the current text; recomputed when the files change. */
  resolution: Resolution;
  /** Bumped on every recomputation; CodeLenses cache per version. */
  version: number;
  /** Under the `ask` conflict policy: the version the user picked per conflicting operation. */
  readonly choices: Map<number, ConflictChoice>;
  /** Operations whose conflict the user was told of already. */
  readonly announced: Set<number>;
}

export interface AcceptResult {
  readonly editId: string;
  /** Indices of the operations written by this call (none while other changes of the batch wait for a choice). */
  readonly applied: readonly number[];
  /** Indices this call accepted; they are written with the last choice of the batch. */
  readonly accepted: readonly number[];
  readonly files: readonly string[];
  readonly conflicts: readonly Conflict[];
  /** True when nothing of the edit is left pending. */
  readonly finished: boolean;
}

export interface RejectResult {
  readonly editId: string;
  readonly rejected: readonly number[];
  /** Indices written by this call: the accepted changes, once rejecting the rest left nothing to decide. */
  readonly applied: readonly number[];
  readonly files: readonly string[];
  readonly conflicts: readonly Conflict[];
  readonly finished: boolean;
}

/** How an edit ended, for a late click on one of its buttons (a chat answer keeps its Apply link). */
export interface EndedEdit {
  readonly title: string;
  readonly outcome: 'applied' | 'rejected' | 'discarded';
}

export class EditSessions implements vscode.Disposable {
  private readonly sessions = new Map<string, EditSession>();
  private readonly ended = new Map<string, EndedEdit>();
  private readonly changed = new vscode.EventEmitter<EditSession>();
  private readonly endedEvent = new vscode.EventEmitter<string>();
  private readonly conflicted = new vscode.EventEmitter<{ session: EditSession; conflicts: readonly Conflict[] }>();
  /** Fires when a session's proposal changed (operations chosen, files edited). */
  readonly onDidChange = this.changed.event;
  /** Fires with the id of an edit that was accepted or rejected completely. */
  readonly onDidEnd = this.endedEvent.event;
  /** Fires when the user's typing made proposed changes conflict while the edit was pending (once per change). */
  readonly onDidConflict = this.conflicted.event;

  constructor(private readonly ctx: Ctx) {}

  all(): EditSession[] {
    return [...this.sessions.values()];
  }

  find(editId: string): EditSession | undefined {
    return this.sessions.get(editId);
  }

  /** The session of a pending edit, started on first use (the chat may hand over an edit the preview never saw). */
  sessionOrThrow(editId: string): EditSession {
    const existing = this.sessions.get(editId);
    if (existing !== undefined) return existing;
    const edit = this.ctx.pendingEdits.get(editId);
    if (edit === undefined) throw new UserFacingError(this.goneMessage(editId));
    const baseline = new Map<string, string | undefined>();
    for (const change of edit.changes) baseline.set(change.path, change.before);
    const session: EditSession = {
      edit,
      baseline,
      included: new Set(edit.operations.map((_, index) => index)),
      accepted: new Set(),
      resolution: { changes: [], applied: [], conflicts: [] },
      version: 0,
      choices: new Map(),
      announced: new Set(),
    };
    this.sessions.set(editId, session);
    session.resolution = this.resolve(session, this.proposed(session));
    // What conflicts already when the edit arrives is reported with it; the announcements are for later typing.
    for (const conflict of session.resolution.conflicts) session.announced.add(conflict.index);
    session.version++;
    this.changed.fire(session);
    return session;
  }

  /** Why an edit id no longer works, in words: its title and what became of it, never the internal id. */
  private goneMessage(editId: string): string {
    const ended = this.ended.get(editId);
    if (ended === undefined)
      return 'That Scalpel edit is no longer pending: it was accepted or rejected already, or VS Code was restarted since.';
    switch (ended.outcome) {
      case 'applied':
        return `The Scalpel edit "${ended.title}" was applied already; Undo in its file reverts it.`;
      case 'rejected':
        return `The Scalpel edit "${ended.title}" was rejected already; nothing of it was written.`;
      case 'discarded':
        return `The Scalpel edit "${ended.title}" was discarded for a retry; nothing of it was written.`;
    }
  }

  /** The operations the proposal shows: accepted ones and those still to decide. */
  private proposed(session: EditSession): number[] {
    return [...session.accepted, ...session.included];
  }

  /** Resolves the operations still proposed against the files as they are now. */
  recompute(session: EditSession): Resolution {
    session.resolution = this.resolve(session, this.proposed(session));
    session.version++;
    const fresh = session.resolution.conflicts.filter((c) => !session.announced.has(c.index));
    for (const conflict of fresh) session.announced.add(conflict.index);
    this.changed.fire(session);
    if (fresh.length > 0) this.conflicted.fire({ session, conflicts: fresh });
    return session.resolution;
  }

  private resolve(session: EditSession, indices: readonly number[]): Resolution {
    const operations: IndexedOperation[] = [...indices]
      .sort((a, b) => a - b)
      .flatMap((index) => {
        const operation = session.edit.operations[index];
        return operation === undefined ? [] : [{ index, operation }];
      });
    if (operations.length === 0) return { changes: [], applied: [], conflicts: [] };
    const { strategy, conflictPolicy } = this.ctx.config(session.edit.root);
    const proposed = new Map(session.edit.changes.map((c) => [c.path, c.after] as const));
    const engine = this.ctx.engine();
    return engine.resolveAgainstCurrent(operations, session.baseline, liveSnapshot(session.edit.root), strategy, {
      policy: conflictPolicy,
      choices: session.choices,
      proposed: { read: (path) => proposed.get(path) },
      renames: engine.renamesOf(session.edit.operations, session.edit.results),
    });
  }

  /** Files the session touches, in batch order. */
  filesOf(session: EditSession): string[] {
    return [...session.baseline.keys()];
  }

  /** The text a file would have if the proposal were accepted now. */
  proposedText(session: EditSession, path: string): string | undefined {
    const change = session.resolution.changes.find((c) => c.path === path);
    if (change !== undefined) return change.after;
    return liveSnapshot(session.edit.root).read(path);
  }

  /** Where each proposed operation lands in the proposed text of `path`: operation index → offset. */
  operationOffsets(session: EditSession, path: string): Map<number, number> {
    const offsets = new Map<number, number>();
    const batch = session.resolution.changes.find((c) => c.path === path);
    if (batch === undefined) return offsets;
    const engine = this.ctx.engine();
    const current = liveSnapshot(session.edit.root);
    const strategy = this.ctx.config(session.edit.root).strategy;
    const text = current.read(path);
    const outline = text !== undefined && engine.isOutlinable(path) ? engine.outlineSource(path, text) : undefined;
    for (const index of session.resolution.applied) {
      const operation = session.edit.operations[index];
      if (operation === undefined || engine.fileOfOperation(operation, session.baseline.keys()) !== path) continue;
      // An operation on an existing element sits where that element starts, even when its first changed line is
      // further down.
      if (outline !== undefined && ELEMENT_TARGETING.has(operation.type)) {
        const target = engine.resolveElementPath(outline, engine.operationPath(operation));
        if (target.ok) {
          offsets.set(index, mapOffset(batch, target.element.range.start));
          continue;
        }
      }
      // Applied alone, the operation says which part of the file it touches; an operation that needs another one
      // of the batch (a patch of an element the batch creates) cannot say, and gets no place of its own.
      const alone = engine.applyOperations(current, [operation], {
        strategy,
        renames: engine.renamesOf(session.edit.operations, session.edit.results),
      });
      const first = alone.changes.find((c) => c.path === path)?.edits[0];
      if (first !== undefined) offsets.set(index, mapOffset(batch, first.start));
    }
    return offsets;
  }

  /**
   * Accepts these operations (all still proposed when none are given). While other changes of the batch wait for a
   * choice nothing is written; the last choice writes every accepted change as one edit.
   */
  async accept(editId: string, indices?: readonly number[]): Promise<AcceptResult> {
    const session = this.sessionOrThrow(editId);
    const wanted = (indices ?? [...session.included]).filter((i) => session.included.has(i));
    for (const index of wanted) {
      session.included.delete(index);
      session.accepted.add(index);
    }
    if (session.included.size > 0) {
      this.ctx.log.info(`${editId}: accepted ${wanted.length} operation(s); written with the rest of the batch`);
      this.recompute(session);
      return { editId, applied: [], accepted: wanted, files: [], conflicts: [], finished: false };
    }
    const written = await this.writeOrReopen(session);
    return { editId, accepted: wanted, ...written, finished: true };
  }

  /** Rejects these operations (all still proposed when none are given); the last choice writes what was accepted. */
  async reject(editId: string, indices?: readonly number[]): Promise<RejectResult> {
    const session = this.sessionOrThrow(editId);
    const rejected = (indices ?? [...session.included]).filter((i) => session.included.has(i));
    for (const index of rejected) session.included.delete(index);
    this.ctx.log.info(`${editId}: rejected ${rejected.length} operation(s)`);
    if (session.included.size > 0) {
      this.recompute(session);
      return { editId, rejected, applied: [], files: [], conflicts: [], finished: false };
    }
    if (session.accepted.size === 0) {
      this.end(editId, 'rejected');
      return { editId, rejected, applied: [], files: [], conflicts: [], finished: true };
    }
    const written = await this.writeOrReopen(session);
    return { editId, rejected, ...written, finished: true };
  }

  /**
   * The batch write; when it is refused (a protected file the user did not allow, a gate refusal) nothing was written,
   * so the accepted changes are proposed again. A later Reject then writes nothing instead of asking again.
   */
  private async writeOrReopen(session: EditSession): ReturnType<EditSessions['write']> {
    try {
      return await this.write(session);
    } catch (error) {
      if (this.sessions.get(session.edit.id) === session) {
        for (const index of session.accepted) session.included.add(index);
        session.accepted.clear();
        this.recompute(session);
      }
      throw error;
    }
  }

  /** Ends the edit without writing anything, accepted changes included (a retry replaces it). */
  discard(editId: string): void {
    if (this.sessions.has(editId) || this.ctx.pendingEdits.get(editId) !== undefined) this.end(editId, 'discarded');
  }

  /** Writes the accepted operations as one edit and ends the session: what conflicts is reported, never forced in. */
  private async write(
    session: EditSession,
  ): Promise<{ applied: readonly number[]; files: readonly string[]; conflicts: readonly Conflict[] }> {
    const editId = session.edit.id;
    const wanted = [...session.accepted];
    let resolution = this.resolve(session, wanted);
    // `ask`: both versions of each element both sides changed, one pick each, before anything is written.
    const waiting = resolution.conflicts.filter((c) => c.decision === 'pending');
    if (waiting.length > 0) {
      for (const [index, choice] of await askConflictChoices(waiting)) session.choices.set(index, choice);
      resolution = this.resolve(session, wanted);
    }
    const { root, undoLabel, userNamed } = session.edit;
    const writeResolved = (changes: typeof resolution.changes): Promise<void> =>
      applyChanges(root, changes, undoLabel, this.ctx.engine(), userNamed);
    if (resolution.applied.length > 0) {
      try {
        await writeResolved(resolution.changes);
      } catch (error) {
        if (!(error instanceof StaleChangeError)) throw error;
        // The user typed between the resolution and the write: resolve once more against that text, once the
        // extension host has heard of it.
        await new Promise((resolve) => setTimeout(resolve, 100));
        resolution = this.resolve(session, wanted);
        if (resolution.applied.length > 0) await writeResolved(resolution.changes);
      }
    }
    this.ctx.log.info(
      `${editId}: applied ${resolution.applied.length} operation(s) in ${resolution.changes.length} file(s)` +
        (resolution.conflicts.length > 0
          ? `; ${resolution.conflicts.length} conflict(s): ${this.ctx.engine().describeConflicts(resolution.conflicts)}`
          : ''),
    );
    this.end(editId, resolution.applied.length > 0 ? 'applied' : 'rejected');
    return {
      applied: resolution.applied,
      files: resolution.changes.map((c) => c.path),
      conflicts: resolution.conflicts,
    };
  }

  /** Keeps exactly these operations in the proposal (those not accepted yet). */
  choose(editId: string, indices: readonly number[]): EditSession {
    const session = this.sessionOrThrow(editId);
    session.included.clear();
    for (const index of indices) {
      if (index >= 0 && index < session.edit.operations.length && !session.accepted.has(index))
        session.included.add(index);
    }
    this.recompute(session);
    return session;
  }

  private end(editId: string, outcome: EndedEdit['outcome']): void {
    const edit = this.sessions.get(editId)?.edit ?? this.ctx.pendingEdits.get(editId);
    if (edit !== undefined) this.ended.set(editId, { title: edit.title, outcome });
    this.sessions.delete(editId);
    this.ctx.pendingEdits.delete(editId);
    this.endedEvent.fire(editId);
  }

  dispose(): void {
    this.changed.dispose();
    this.endedEvent.dispose();
    this.conflicted.dispose();
    this.sessions.clear();
  }
}

/** An offset into a change's `before` moved to where the same text sits in its `after`. */
export function mapOffset(change: FileChange, offset: number): number {
  let shift = 0;
  for (const edit of change.edits) {
    if (edit.start >= offset) break;
    if (edit.end > offset) return edit.start + shift;
    shift += edit.newText.length - (edit.end - edit.start);
  }
  return offset + shift;
}

/** An operation of the session as the preview names it, with the rename its verification reported. */
export function describeChange(session: EditSession, index: number, file?: string): string {
  const operation = session.edit.operations[index];
  if (operation === undefined) return `change ${index + 1}`;
  const result = session.edit.results.find((r) => r.index === index && r.status === 'ok');
  // The element as it was found, not the model's spelling of its path (issue 29).
  return describeOperation(operation, {
    ...(file === undefined ? {} : { file }),
    ...(result?.renamedTo === undefined ? {} : { renamedTo: result.renamedTo }),
    ...(result?.readAs === undefined ? {} : { readAs: result.readAs }),
  });
}
