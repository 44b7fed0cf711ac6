import * as vscode from 'vscode';
import type { NewTypeError } from '../../core/check/typeCheck';
import type { Ctx } from '../ctx';
import { showNotice } from '../notices';
import type { PendingEdit } from '../pendingEdits';
import type { AcceptResult, EditSession, EditSessions, RejectResult } from '../preview/editSessions';
import type { PreviewEditors } from '../preview/previewEditors';
import { proposedUri } from '../preview/proposedUris';
import { typeErrorsOfSession } from '../preview/reviewSummary';
import { codeLabel, errorsToConfirm } from '../preview/typeErrorReview';

/**
 * The new type errors of a pending edit at each moment the user decides on it (issue 29): the warning when its
 * preview opens, the question Accept asks ("Accept with N new type errors?"), the commands that show them, and the
 * summary once the edit is decided (outcomeSummary). The palette's edit service (editService.ts) calls it at those
 * moments; what it keeps is which errors the user already said yes to.
 */
export class TypeErrorDecisions {
  /** Per pending edit, the type errors the user already said yes to. */
  private readonly confirmedErrors = new Map<string, Set<number>>();

  constructor(
    private readonly ctx: Ctx,
    private readonly sessions: EditSessions,
    private readonly preview: PreviewEditors,
  ) {}

  /** What the user should know when the preview of an edit the checker objects to opens. */
  warnOnPreview(errors: readonly NewTypeError[], checks: readonly string[] = []): void {
    const engine = this.ctx.engine();
    const count = engine.errorCountPhrase(errors);
    const [first] = errors;
    const where =
      first === undefined
        ? ''
        : ` First: ${first.elementPath ?? first.file}: ${engine.errorCodeLabel(first.code)} ${first.message.split('\n')[0] ?? ''}`;
    // Which checker found them (`types checked with pyright 1.1.414 (bundled with Scalpel)`), capitalised as a sentence.
    const checked = checks.map((line) => ` ${line.charAt(0).toUpperCase()}${line.slice(1)}.`).join('');
    const message = `Scalpel: this edit adds ${count} the model did not fix; they are listed in the Review panel and marked in the preview.${where}${checked}`;
    this.ctx.log.warn(message);
    void vscode.window.showWarningMessage(message);
  }

  /**
   * Before Accept writes: when the changes bring new type errors the user was not asked about yet, asks once, Show
   * Errors being the default; anything but Accept Anyway throws a CancellationError, and nothing is accepted.
   */
  async confirmAccept(session: EditSession, indices: readonly number[] | undefined): Promise<void> {
    if ((session.edit.typeErrors ?? []).length === 0) return;
    const editId = session.edit.id;
    const wanted = (indices ?? [...session.included]).filter((i) => session.included.has(i));
    if (wanted.length === 0) return;
    const confirmed = this.confirmedErrors.get(editId) ?? new Set<number>();
    const { inChanges, elsewhere } = errorsToConfirm(typeErrorsOfSession(this.sessions, session), wanted, confirmed);
    const all = [...inChanges, ...elsewhere];
    const [first] = all;
    if (first === undefined) return;
    const count = all.length;
    const parts = [
      inChanges.length > 0 ? `${inChanges.length} in the change${wanted.length === 1 ? '' : 's'} you accept` : '',
      elsewhere.length > 0 ? `${elsewhere.length} in code the edit does not change (its callers)` : '',
    ].filter((p) => p !== '');
    const answer = await vscode.window.showWarningMessage(
      `Accept with ${count} new type error${count === 1 ? '' : 's'}?`,
      {
        modal: true,
        detail:
          `The model did not fix ${count === 1 ? 'it' : 'them'}: ${parts.join(', ')}. First: ${first.where} ${codeLabel(first.code)} ${first.message}

` +
          'They are listed in the Scalpel Review panel and the Problems view. After Accept they stay in the Problems view until fixed; Undo reverts the edit.',
      },
      SHOW_ERRORS,
      ACCEPT_ANYWAY,
    );
    if (answer === ACCEPT_ANYWAY) {
      for (const error of all) confirmed.add(error.index);
      this.confirmedErrors.set(editId, confirmed);
      return;
    }
    if (answer === SHOW_ERRORS) await this.showAll(editId);
    throw new vscode.CancellationError();
  }

  /** The review panel (which lists them per change) and the Problems view (where they are marked). */
  async showAll(editId?: unknown): Promise<void> {
    if (typeof editId === 'string' && this.sessions.find(editId) !== undefined) await this.preview.open(editId);
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  }

  /** One new type error of a pending edit, where it is: on the proposed side for a changed file, else in the file. */
  async show(editId: unknown, index: unknown): Promise<vscode.TextEditor | undefined> {
    if (typeof editId !== 'string' || typeof index !== 'number') return undefined;
    const session = this.sessions.sessionOrThrow(editId);
    const error = session.edit.typeErrors?.[index];
    if (error === undefined) return undefined;
    const changed = session.edit.changes.some((c) => c.path === error.file);
    const uri = changed
      ? proposedUri(editId, error.file)
      : vscode.Uri.joinPath(session.edit.root, ...error.file.split('/'));
    if (changed) await this.preview.open(editId);
    const document = await vscode.workspace.openTextDocument(uri);
    const line = Math.min(Math.max(error.line - 1, 0), Math.max(document.lineCount - 1, 0));
    const position = new vscode.Position(line, Math.max(error.column - 1, 0));
    return vscode.window.showTextDocument(document, {
      selection: new vscode.Range(position, position),
      preview: true,
    });
  }

  /**
   * Once an edit is decided: what was written where, what was rejected or left out, and the new type errors it
   * brought, listed in the Problems view where the notification points.
   */
  announceOutcome(edit: PendingEdit, result: AcceptResult | RejectResult, typeErrors: number): void {
    this.confirmedErrors.delete(edit.id);
    const message = outcomeSummary(edit, result, typeErrors);
    this.ctx.log.info(`${edit.id}: ${message}`);
    void showNotice(
      typeErrors > 0 ? 'warning' : 'information',
      message,
      ...(typeErrors > 0 ? [SHOW_PROBLEMS] : []),
    ).then((action) => {
      if (action === SHOW_PROBLEMS) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  }
}

const SHOW_ERRORS = 'Show Errors';
const ACCEPT_ANYWAY = 'Accept Anyway';
const SHOW_PROBLEMS = 'Show in Problems';

/** "Scalpel wrote 2 changes in src/persist.ts; 1 rejected. It adds 3 new TypeScript errors: ..." */
export function outcomeSummary(
  edit: Pick<PendingEdit, 'title' | 'operations'>,
  result: AcceptResult | RejectResult,
  typeErrors: number,
): string {
  const written = result.applied.length;
  const leftOut = result.conflicts.length;
  const rejected = Math.max(0, edit.operations.length - written - leftOut);
  if (written === 0) {
    return `Scalpel: nothing of "${edit.title}" was written (${[
      rejected > 0 ? `${rejected} rejected` : '',
      leftOut > 0 ? `${leftOut} left out: you changed ${leftOut === 1 ? 'it' : 'them'} meanwhile` : '',
    ]
      .filter((p) => p !== '')
      .join(', ')}).`;
  }
  const files = result.files.length <= 3 ? result.files.join(', ') : `${result.files.length} files`;
  return (
    `Scalpel wrote ${written} change${written === 1 ? '' : 's'} in ${files}` +
    (rejected > 0 ? `; ${rejected} rejected` : '') +
    (leftOut > 0 ? `; ${leftOut} left out (you changed ${leftOut === 1 ? 'it' : 'them'} meanwhile)` : '') +
    ' (unsaved; one Undo reverts it).' +
    (typeErrors > 0
      ? ` It adds ${typeErrors} new TypeScript error${typeErrors === 1 ? '' : 's'}, listed in the Problems view.`
      : '')
  );
}
