import type * as vscode from 'vscode';
import type { NewTypeError } from '../core/check/typeCheck';
import type { FileChange } from '../core/ops/apply';
import type { Operation, OperationResult } from '../core/ops/operation';

/**
 * Edits that verified but are not applied yet: the preview, the chat's buttons and the accept commands all refer
 * to one by its id. Nothing is written until the user accepts.
 */
export interface PendingEdit {
  readonly id: string;
  /** What the user asked, for titles (the core's editTitleOf). */
  readonly title: string;
  /** What Undo names the edit once applied (the core's undoLabelOf, the same on every surface). */
  readonly undoLabel: string;
  readonly operations: readonly Operation[];
  readonly results: readonly OperationResult[];
  readonly changes: readonly FileChange[];
  /** Workspace folder the paths are relative to. */
  readonly root: vscode.Uri;
  readonly createdAt: number;
  /**
   * Type errors the edit adds that the model's repair rounds did not fix (`scalpel.verify: types`; TypeScript's,
   * pyright's): the preview marks them and accepting says how many it adds.
   */
  readonly typeErrors?: readonly NewTypeError[];
  /** Which checker checked each language (`types checked with pyright 1.1.414 (bundled with Scalpel)`), one line each. */
  readonly typeChecks?: readonly string[];
  /** What the model said beside its operations (issue 18), shown with the preview. */
  readonly notes?: readonly string[];
  /** The request again, for Retry (the instruction on the current text); absent for pasted or agent operations. */
  readonly retry?: RetrySpec;
  /**
   * Files the user named for the request (the palette's file, the chat's `#` references): protected ones among them
   * are written on Accept without asking, as the CLI writes the files on its command line.
   */
  readonly userNamed?: readonly string[];
  /** Token usage of the request(s) that produced it. */
  readonly usage?: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly wholeFileInputTokens: number;
  };
}

/** What asking again needs: the file, the elements in focus and the instruction. */
export interface RetrySpec {
  readonly uri: vscode.Uri;
  readonly instruction: string;
  readonly focus: readonly string[];
}

export class PendingEdits {
  private readonly edits = new Map<string, PendingEdit>();
  private next = 1;

  add(edit: Omit<PendingEdit, 'id' | 'createdAt'>): PendingEdit {
    const stored: PendingEdit = { ...edit, id: `edit-${this.next++}`, createdAt: Date.now() };
    this.edits.set(stored.id, stored);
    return stored;
  }

  get(id: string): PendingEdit | undefined {
    return this.edits.get(id);
  }

  /** The most recent pending edit, for keyboard accept/reject without an id. */
  latest(): PendingEdit | undefined {
    return [...this.edits.values()].at(-1);
  }

  delete(id: string): boolean {
    return this.edits.delete(id);
  }

  all(): PendingEdit[] {
    return [...this.edits.values()];
  }
}
