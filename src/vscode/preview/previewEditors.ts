import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { readCurrentText } from '../edit/workspaceSnapshot';
import { describeChange, type EditSession, type EditSessions } from './editSessions';
import { parseProposedUri, PROPOSED_SCHEME, proposedUri } from './proposedUris';
import type { ReviewView } from './reviewView';

/**
 * The preview of pending edits: a diff per file (current text on the left, the proposal on the right, read-only),
 * CodeLenses above each change to accept or reject it alone, and the batch's Accept All / Reject All at the top.
 * The `scalpel.previewActive` context key is true while a preview is visible, for the keybindings.
 */

export const PREVIEW_ACTIVE_KEY = 'scalpel.previewActive';
export const HAS_PENDING_EDITS_KEY = 'scalpel.hasPendingEdits';

export class PreviewEditors
  implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider, vscode.CodeActionProvider, vscode.Disposable
{
  private readonly contentChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChange = this.contentChanged.event;
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private previewActive = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly sessions: EditSessions,
    private readonly review: ReviewView,
  ) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this),
      vscode.languages.registerCodeLensProvider({ scheme: PROPOSED_SCHEME }, this),
      vscode.languages.registerCodeActionsProvider({ scheme: PROPOSED_SCHEME }, this, {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
      sessions.onDidChange((session) => this.proposalChanged(session)),
      sessions.onDidEnd((editId) => void this.close(editId)),
      vscode.workspace.onDidChangeTextDocument((event) => this.documentChanged(event.document)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.updateContextKeys()),
      vscode.window.tabGroups.onDidChangeTabs(() => this.updateContextKeys()),
    );
    this.updateContextKeys();
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const target = parseProposedUri(uri);
    if (target === undefined || target.original) return '';
    const session = this.sessions.find(target.editId);
    if (session === undefined) return '';
    return this.sessions.proposedText(session, target.path) ?? '';
  }

  /** Opens the diff of every file the edit changes; one diff editor for one file, the multi-file view otherwise. */
  async open(editId: string): Promise<EditSession> {
    const session = this.sessions.sessionOrThrow(editId);
    const files = this.sessions.filesOf(session);
    const title = `Scalpel: ${session.edit.title}`;
    const sides = files.map((path) => {
      const fileUri = vscode.Uri.joinPath(session.edit.root, ...path.split('/'));
      const exists = readCurrentText(fileUri) !== undefined;
      return {
        path,
        fileUri,
        left: exists ? fileUri : proposedUri(editId, path, true),
        right: proposedUri(editId, path),
      };
    });
    const [only] = sides;
    if (sides.length === 1 && only !== undefined) {
      await vscode.commands.executeCommand('vscode.diff', only.left, only.right, `${title} (${only.path})`, {
        preview: false,
      });
    } else {
      await vscode.commands.executeCommand(
        'vscode.changes',
        title,
        sides.map((s) => [s.fileUri, s.left, s.right]),
      );
    }
    this.updateContextKeys();
    await this.review.reveal();
    return session;
  }

  /** Opens the preview with the cursor on one change: the review panel's Show. */
  async reveal(editId: string, index: number): Promise<vscode.TextEditor | undefined> {
    const session = await this.open(editId);
    for (const path of this.sessions.filesOf(session)) {
      const offset = this.sessions.operationOffsets(session, path).get(index);
      if (offset === undefined) continue;
      const uri = proposedUri(editId, path);
      const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
      const editor = visible ?? (await vscode.window.showTextDocument(uri, { preview: false }));
      const position = editor.document.positionAt(firstVisibleCharacter(editor.document.getText(), offset));
      editor.selection = new vscode.Selection(position, position);
      editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return editor;
    }
    return undefined;
  }

  /** The pending edit the user is looking at: the active preview, else any visible one. */
  visibleEditId(): string | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    const fromActive = active === undefined ? undefined : parseProposedUri(active)?.editId;
    if (fromActive !== undefined && this.sessions.find(fromActive) !== undefined) return fromActive;
    for (const uri of this.tabUris(vscode.window.tabGroups.activeTabGroup.activeTab)) {
      const id = parseProposedUri(uri)?.editId;
      if (id !== undefined && this.sessions.find(id) !== undefined) return id;
    }
    for (const editor of vscode.window.visibleTextEditors) {
      const id = parseProposedUri(editor.document.uri)?.editId;
      if (id !== undefined && this.sessions.find(id) !== undefined) return id;
    }
    return undefined;
  }

  /** The operation whose change holds the cursor of the active preview editor. */
  operationAtCursor(): { editId: string; index: number } | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor === undefined ? undefined : this.operationAt(editor.document, editor.selection.active);
  }

  /** The proposed change a position of a preview belongs to: the last one starting on or above its line. */
  operationAt(document: vscode.TextDocument, position: vscode.Position): { editId: string; index: number } | undefined {
    const target = parseProposedUri(document.uri);
    if (target === undefined || target.original) return undefined;
    const session = this.sessions.find(target.editId);
    if (session === undefined) return undefined;
    const text = document.getText();
    let best: { index: number; line: number } | undefined;
    for (const [index, offset] of this.sessions.operationOffsets(session, target.path)) {
      const line = document.positionAt(firstVisibleCharacter(text, offset)).line;
      if (line <= position.line && (best === undefined || line >= best.line)) best = { index, line };
    }
    return best === undefined ? undefined : { editId: target.editId, index: best.index };
  }

  /**
   * The same choices as the CodeLenses, as code actions (the light bulb, Ctrl+.): VS Code shows no CodeLenses in
   * diff editors unless the user turns on `diffEditor.codeLens`.
   */
  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const target = parseProposedUri(document.uri);
    const session = target === undefined ? undefined : this.sessions.find(target.editId);
    if (target === undefined || session === undefined) return [];
    const actions: vscode.CodeAction[] = [];
    const change = this.operationAt(document, range.start);
    const operation = change === undefined ? undefined : session.edit.operations[change.index];
    if (change !== undefined && operation !== undefined && !session.accepted.has(change.index)) {
      const what = describeChange(session, change.index, target.path);
      const accept = new vscode.CodeAction(`Scalpel: accept this change (${what})`, vscode.CodeActionKind.QuickFix);
      accept.command = {
        title: accept.title,
        command: 'scalpel.acceptChange',
        arguments: [change.editId, change.index],
      };
      accept.isPreferred = true;
      const reject = new vscode.CodeAction(`Scalpel: reject this change (${what})`, vscode.CodeActionKind.QuickFix);
      reject.command = {
        title: reject.title,
        command: 'scalpel.rejectChange',
        arguments: [change.editId, change.index],
      };
      actions.push(accept, reject);
    }
    const count = session.resolution.applied.filter((i) => !session.accepted.has(i)).length;
    const acceptAll = new vscode.CodeAction(
      `Scalpel: accept ${count === 1 ? 'the change' : `all ${count} changes`}`,
      vscode.CodeActionKind.QuickFix,
    );
    acceptAll.command = { title: acceptAll.title, command: 'scalpel.acceptEdit', arguments: [session.edit.id] };
    const rejectAll = new vscode.CodeAction('Scalpel: reject all', vscode.CodeActionKind.QuickFix);
    rejectAll.command = { title: rejectAll.title, command: 'scalpel.rejectEdit', arguments: [session.edit.id] };
    actions.push(acceptAll, rejectAll);
    return actions;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const target = parseProposedUri(document.uri);
    if (target === undefined || target.original) return [];
    const session = this.sessions.find(target.editId);
    if (session === undefined) return [];
    // The document may lag one refresh behind the session; lenses placed on stale text would point at wrong lines.
    if (document.getText() !== (this.sessions.proposedText(session, target.path) ?? '')) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const editId = session.edit.id;
    const count = session.resolution.applied.filter((i) => !session.accepted.has(i)).length;
    const lenses: vscode.CodeLens[] = [
      new vscode.CodeLens(top, {
        title: `$(check-all) Accept ${count === 1 ? 'the change' : `all ${count} changes`}`,
        command: 'scalpel.acceptEdit',
        arguments: [editId],
        tooltip: 'Write the proposed changes of every file of this edit (one Undo reverts them)',
      }),
      new vscode.CodeLens(top, {
        title: '$(close-all) Reject all',
        command: 'scalpel.rejectEdit',
        arguments: [editId],
        tooltip: 'Discard this edit; nothing is written',
      }),
      new vscode.CodeLens(top, {
        title: '$(list-selection) Choose changes…',
        command: 'scalpel.chooseChanges',
        arguments: [editId],
        tooltip: 'Pick which operations of the batch to keep',
      }),
    ];
    const conflicts = session.resolution.conflicts.filter((c) => c.path === target.path);
    if (conflicts.length > 0) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(warning) ${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}: ${conflicts[0]?.reason ?? ''}${conflicts.length > 1 ? ', …' : ''}`,
          command: 'scalpel.showLog',
          tooltip: conflicts.map((c) => `${describeChange(session, c.index)}: ${c.reason}; left out`).join('\n'),
        }),
      );
    }
    for (const [index, offset] of this.sessions.operationOffsets(session, target.path)) {
      const operation = session.edit.operations[index];
      if (operation === undefined) continue;
      const position = document.positionAt(firstVisibleCharacter(document.getText(), offset));
      const range = new vscode.Range(position.line, 0, position.line, 0);
      const what = describeChange(session, index, target.path);
      if (session.accepted.has(index)) {
        // Without a command id VS Code draws the lens as a label: there is nothing left to click for it.
        lenses.push(
          new vscode.CodeLens(range, { title: `$(pass) Accepted: ${what} (written with the batch)`, command: '' }),
        );
        continue;
      }
      lenses.push(
        new vscode.CodeLens(range, {
          title: `$(check) Accept: ${what}`,
          command: 'scalpel.acceptChange',
          arguments: [editId, index],
          tooltip: `Write only this change (${operation.type})`,
        }),
        new vscode.CodeLens(range, {
          title: '$(close) Reject',
          command: 'scalpel.rejectChange',
          arguments: [editId, index],
          tooltip: `Leave ${what} out of the edit`,
        }),
      );
    }
    return lenses;
  }

  private proposalChanged(session: EditSession): void {
    for (const path of this.sessions.filesOf(session)) this.contentChanged.fire(proposedUri(session.edit.id, path));
    this.lensesChanged.fire();
    this.updateContextKeys();
  }

  /** The user typed into a file of a pending edit: the proposal follows, on the text as it is now. */
  private documentChanged(document: vscode.TextDocument): void {
    if (document.uri.scheme === PROPOSED_SCHEME) return;
    const affected = this.sessions
      .all()
      .some((s) =>
        this.sessions
          .filesOf(s)
          .some((path) => vscode.Uri.joinPath(s.edit.root, ...path.split('/')).toString() === document.uri.toString()),
      );
    if (!affected) return;
    if (this.refreshTimer !== undefined) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      for (const session of this.sessions.all()) {
        try {
          this.sessions.recompute(session);
        } catch (error) {
          this.ctx.log.warn(
            `could not refresh the preview of ${session.edit.id}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    }, 250);
  }

  private tabUris(tab: vscode.Tab | undefined): vscode.Uri[] {
    const input = tab?.input;
    if (input instanceof vscode.TabInputTextDiff) return [input.modified, input.original];
    if (input instanceof vscode.TabInputText) return [input.uri];
    // The multi-file diff's tab input is not in the typed API of the oldest VS Code Scalpel supports.
    if (typeof input === 'object' && input !== null && 'textDiffs' in input && Array.isArray(input.textDiffs)) {
      return (input.textDiffs as unknown[]).flatMap((d) =>
        d instanceof vscode.TabInputTextDiff || isDiffPair(d) ? [d.modified, d.original] : [],
      );
    }
    return [];
  }

  /** Closes the preview tabs of an edit that ended. */
  async close(editId: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => this.tabUris(tab).some((uri) => parseProposedUri(uri)?.editId === editId));
    try {
      if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    } catch {
      // Closed meanwhile by the user or by the other path that closes them.
    }
    this.updateContextKeys();
  }

  private updateContextKeys(): void {
    const visible =
      vscode.window.visibleTextEditors.some((e) => this.isLive(e.document.uri)) ||
      vscode.window.tabGroups.all.some((group) => this.tabUris(group.activeTab).some((uri) => this.isLive(uri)));
    if (visible !== this.previewActive) {
      this.previewActive = visible;
      void vscode.commands.executeCommand('setContext', PREVIEW_ACTIVE_KEY, visible);
    }
    void vscode.commands.executeCommand('setContext', HAS_PENDING_EDITS_KEY, this.ctx.pendingEdits.all().length > 0);
  }

  private isLive(uri: vscode.Uri): boolean {
    const target = parseProposedUri(uri);
    return target !== undefined && this.sessions.find(target.editId) !== undefined;
  }

  dispose(): void {
    if (this.refreshTimer !== undefined) clearTimeout(this.refreshTimer);
    for (const d of this.disposables) d.dispose();
    this.contentChanged.dispose();
    this.lensesChanged.dispose();
  }
}

function isDiffPair(value: unknown): value is { modified: vscode.Uri; original: vscode.Uri } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { modified?: unknown }).modified instanceof vscode.Uri &&
    (value as { original?: unknown }).original instanceof vscode.Uri
  );
}

/** Lenses go above the first line with code on it, not above the blank line an edit may start with. */
function firstVisibleCharacter(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  return i < text.length ? i : offset;
}
