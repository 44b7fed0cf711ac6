import type { Operation, OperationResult, RenameResolution } from '../operation';

/** What the apply engine reads: the workspace as it was when the batch was asked for. */
export interface SnapshotReader {
  /** Workspace-relative path (forward slashes) → text, or undefined when there is no such file. */
  read(path: string): string | undefined;
}

/**
 * `element`: element operations only (REPLACE_FILE refused on files the element model can outline);
 * `file`: whole-file operations only; `hybrid` (default): both, REPLACE_FILE being the fallback for files the element
 * model cannot outline or parse.
 */
export type EditStrategy = 'hybrid' | 'element' | 'file';

export interface ApplyOptions {
  readonly strategy?: EditStrategy;
  /** Apply the operations that verified and report the rest, instead of all or nothing. */
  readonly partial?: boolean;
  /**
   * The files the request sent to the model (workspace-relative). An operation on an existing file outside this set
   * fails as "not part of this request", quoting none of it. Undefined: every file is visible (a pasted answer).
   */
  readonly visibleFiles?: ReadonlySet<string>;
  /**
   * The places of each RENAME_ELEMENT of the batch, found beforehand by its language's rename (the engine is pure and
   * runs no compiler). A RENAME_ELEMENT without an entry fails, saying so.
   */
  readonly renames?: ReadonlyMap<Operation, RenameResolution>;
}

/** A replacement of `before.slice(start, end)` by `newText`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

export interface FileChange {
  /** Workspace-relative path, forward slashes. */
  readonly path: string;
  /** The snapshot text; undefined for a created file. */
  readonly before: string | undefined;
  readonly after: string;
  /** Sorted, non-overlapping edits of `before` (offsets into it) that turn it into `after`. */
  readonly edits: readonly TextEdit[];
  readonly created: boolean;
}

export interface ApplyResult {
  /** True when every operation applied and verified. */
  readonly ok: boolean;
  /** One result per operation, in batch order. */
  readonly results: readonly OperationResult[];
  /** Empty unless `ok`, or `partial` and some operations verified. */
  readonly changes: readonly FileChange[];
}
