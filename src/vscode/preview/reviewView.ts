import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type { EditSessions } from './editSessions';
import { reviewOf, type ReviewAction, type ReviewEdit } from './reviewSummary';
import { codeLabel, type ReviewTypeError } from './typeErrorReview';

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
  'scalpel.showTypeError',
  'scalpel.showTypeErrors',
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
    this.view.description = viewDescription(this.summary());
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** The panel's title bar: how many edits wait, and how many new type errors they bring. */
export function viewDescription(edits: readonly ReviewEdit[]): string {
  if (edits.length === 0) return '';
  const errors = edits.reduce((sum, edit) => sum + edit.typeErrors.total, 0);
  return `${edits.length} pending${errors === 0 ? '' : ` · ${plural(errors, 'new type error')}`}`;
}

function plural(count: number, one: string): string {
  return `${count} ${count === 1 ? one : `${one}s`}`;
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
  .files, .hint, .empty, .state { color: var(--vscode-descriptionForeground); }
  .notes { border-left: 3px solid var(--vscode-textBlockQuote-border); padding-left: 8px; margin: 4px 0; }
  .item { padding: 4px 0; border-bottom: 1px solid var(--vscode-widget-border, transparent); }
  .head { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 10px; row-gap: 2px; }
  .head code { overflow-wrap: anywhere; }
  .actions { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 3px; }
  .state-accepted { color: var(--vscode-testing-iconPassed); }
  .state-conflict { color: var(--vscode-editorWarning-foreground); }
  .count-errors { color: var(--vscode-errorForeground); white-space: nowrap; }
  details.errors { margin: 3px 0 0; }
  details.errors summary { cursor: pointer; }
  details.errors ul { margin: 2px 0 0; padding-left: 18px; }
  details.errors li { margin: 1px 0; }
  a.button { display: inline-block; padding: 2px 10px; border-radius: 2px; text-decoration: none; white-space: nowrap;
    color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
  a.button.primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
  a.button:hover { opacity: 0.9; }
  a.location { white-space: nowrap; }
  .batch { display: flex; flex-wrap: wrap; gap: 4px; margin: 8px 0 2px; }
</style>
</head>
<body>
${body}
</body>
</html>`;
}

function renderEdit(edit: ReviewEdit): string {
  const items = edit.items
    .map((item) => {
      const state =
        item.state === 'accepted'
          ? 'accepted, written with the batch'
          : item.state === 'conflict'
            ? `conflict: ${item.reason ?? ''}; your text is kept`
            : 'proposed';
      return `<div class="item" data-index="${item.index}">
<div class="head"><code>${escapeHtml(item.label)}</code><span class="files">${escapeHtml(item.file)}</span><span class="state state-${item.state}">${escapeHtml(state)}</span></div>
${renderErrors(edit.editId, item.typeErrors, 'in this change')}
<div class="actions">${item.actions.map((a) => link(a, a.label === 'Accept')).join('')}</div>
</div>`;
    })
    .join('\n');
  const notes = edit.notes.map((n) => `<div class="notes">${escapeHtml(n)}</div>`).join('\n');
  const count = edit.items.length;
  const errors = edit.typeErrors.total;
  return `<section data-edit="${escapeHtml(edit.editId)}">
<h2>${escapeHtml(edit.title)}: ${count} change${count === 1 ? '' : 's'}${errors === 0 ? '' : ` · <span class="count-errors">${escapeHtml(plural(errors, 'new type error'))}</span>`}</h2>
<div class="files">${edit.files.map(escapeHtml).join(', ')}</div>
${notes}
${items}
${renderErrors(edit.editId, edit.typeErrors.elsewhere, 'in code the changes do not touch (callers)')}
<div class="batch">${edit.actions.map((a, i) => link(a, i === 0)).join('')}</div>
<div class="hint">Accepted changes are written together when the last change is decided: one Undo reverts the batch.${errors === 0 ? '' : ' The type check ran on the whole batch.'}</div>
</section>`;
}

/** The new type errors of a change (or of the batch), folded under their count and first message; each a link. */
function renderErrors(editId: string, errors: readonly ReviewTypeError[], where: string): string {
  const [first] = errors;
  if (first === undefined) return '';
  const items = errors
    .map((error) => {
      const href = `command:scalpel.showTypeError?${encodeURIComponent(JSON.stringify([editId, error.index]))}`;
      return `<li><a class="location" href="${escapeHtml(href)}" title="Show it in ${escapeHtml(error.file)}">${escapeHtml(error.where)}</a> ${escapeHtml(codeLabel(error.code))} ${escapeHtml(error.message)}</li>`;
    })
    .join('');
  return `<details class="errors"><summary><span class="count-errors">${escapeHtml(plural(errors.length, 'new type error'))}</span> ${escapeHtml(where)}: ${escapeHtml(codeLabel(first.code))} ${escapeHtml(first.message)}</summary><ul>${items}</ul></details>`;
}

function link(action: ReviewAction, primary: boolean): string {
  const href = `command:${action.command}?${encodeURIComponent(JSON.stringify(action.arguments))}`;
  return `<a class="button${primary ? ' primary' : ''}" href="${escapeHtml(href)}" title="${escapeHtml(action.tooltip)}">${escapeHtml(action.label)}</a>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
