import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type { EditSessions } from './editSessions';
import { reviewOf, type ReviewAction, type ReviewEdit } from './reviewSummary';

/**
 * The review panel: every pending edit with its changed elements, each with labelled Show / Accept / Reject (Retry
 * for a conflict), and the batch's Accept All / Reject All, in the panel under the diff, revealed when a preview
 * opens (issue 14: the diff's own CodeLenses need `diffEditor.codeLens`, and title icons say nothing). The buttons are
 * command links to the same commands as the CodeLenses and keys, so a click does exactly what they do.
 */

export const REVIEW_VIEW_ID = 'scalpel.review';

/** Commands the panel's links may run; the webview refuses any other command URI. */
const LINK_COMMANDS = [
  'scalpel.acceptEdit',
  'scalpel.rejectEdit',
  'scalpel.chooseChanges',
  'scalpel.previewEdit',
  'scalpel.acceptChange',
  'scalpel.rejectChange',
  'scalpel.revealChange',
  'scalpel.retryEdit',
];

export class ReviewView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private html: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly ctx: Ctx,
    private readonly sessions: EditSessions,
  ) {
    this.disposables.push(
      vscode.window.registerWebviewViewProvider(REVIEW_VIEW_ID, this),
      sessions.onDidChange(() => this.render()),
      sessions.onDidEnd(() => this.render()),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = { enableScripts: false, enableCommandUris: LINK_COMMANDS };
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
    this.render();
  }

  /** Shows the panel without taking the keyboard from the diff. */
  async reveal(): Promise<void> {
    if (this.view !== undefined) {
      this.view.show(true);
      return;
    }
    // Not resolved yet: only the view's focus command makes VS Code create it; the diff gets the focus back.
    await vscode.commands.executeCommand(`${REVIEW_VIEW_ID}.focus`);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  }

  summary(): ReviewEdit[] {
    return this.sessions.all().map((s) => reviewOf(this.sessions, s, s.edit.retry !== undefined));
  }

  /** What the panel shows now; undefined until VS Code created it. */
  renderedHtml(): string | undefined {
    return this.view === undefined ? undefined : this.html;
  }

  private render(): void {
    if (this.view === undefined) return;
    try {
      this.html = renderReview(this.summary(), this.view.webview.cspSource);
    } catch (error) {
      this.ctx.log.warn(`could not render the review panel: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.view.webview.html = this.html;
    this.view.description = this.sessions.all().length === 0 ? '' : `${this.sessions.all().length} pending`;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

export function renderReview(edits: readonly ReviewEdit[], cspSource: string): string {
  const body =
    edits.length === 0
      ? '<p class="empty">No Scalpel edit is waiting for review. Run <b>Scalpel: Edit Element at Cursor</b> (Ctrl+Alt+E) or ask <b>@scalpel</b> in the chat.</p>'
      : edits.map(renderEdit).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<style>
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 4px 12px; }
  h2 { font-size: 1.05em; margin: 8px 0 4px; }
  .files, .hint, .empty { color: var(--vscode-descriptionForeground); }
  .notes { border-left: 3px solid var(--vscode-textBlockQuote-border); padding-left: 8px; margin: 4px 0; }
  table { border-collapse: collapse; margin: 4px 0; }
  td { padding: 3px 12px 3px 0; vertical-align: middle; }
  .state-accepted { color: var(--vscode-testing-iconPassed); }
  .state-conflict { color: var(--vscode-editorWarning-foreground); }
  a.button { display: inline-block; padding: 2px 10px; margin-right: 4px; border-radius: 2px; text-decoration: none;
    color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
  a.button.primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
  a.button:hover { opacity: 0.9; }
  .batch { margin: 6px 0 2px; }
</style>
</head>
<body>
${body}
</body>
</html>`;
}

function renderEdit(edit: ReviewEdit): string {
  const rows = edit.items
    .map((item) => {
      const state =
        item.state === 'accepted'
          ? 'accepted, written with the batch'
          : item.state === 'conflict'
            ? `conflict: ${item.reason ?? ''}; your text is kept`
            : 'proposed';
      return `<tr data-index="${item.index}"><td><code>${escapeHtml(item.label)}</code></td><td class="files">${escapeHtml(item.file)}</td><td class="state-${item.state}">${escapeHtml(state)}</td><td>${item.actions.map((a) => link(a, a.label === 'Accept')).join('')}</td></tr>`;
    })
    .join('\n');
  const notes = edit.notes.map((n) => `<div class="notes">${escapeHtml(n)}</div>`).join('\n');
  const count = edit.items.length;
  return `<section data-edit="${escapeHtml(edit.editId)}">
<h2>${escapeHtml(edit.title)}: ${count} change${count === 1 ? '' : 's'}</h2>
<div class="files">${edit.files.map(escapeHtml).join(', ')}</div>
${notes}
<table>
${rows}
</table>
<div class="batch">${edit.actions.map((a, i) => link(a, i === 0)).join('')}</div>
<div class="hint">Accepted changes are written together when the last change is decided: one Undo reverts the batch.</div>
</section>`;
}

function link(action: ReviewAction, primary: boolean): string {
  const href = `command:${action.command}?${encodeURIComponent(JSON.stringify(action.arguments))}`;
  return `<a class="button${primary ? ' primary' : ''}" href="${escapeHtml(href)}" title="${escapeHtml(action.tooltip)}">${escapeHtml(action.label)}</a>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
