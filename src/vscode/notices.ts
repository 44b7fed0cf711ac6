import * as vscode from 'vscode';

/**
 * Notifications about a pending edit (a change left out because the user typed into it, a retry offered), shown
 * through one function that also keeps the last few: the integration tests read them through the extension's API,
 * since VS Code offers no way to read a notification back.
 */

export interface Notice {
  readonly severity: 'information' | 'warning';
  readonly message: string;
  readonly actions: readonly string[];
}

const KEPT = 20;
const recent: Notice[] = [];
/** Notices shown since activation: a reader marks where it starts from with a count, which no cap shifts. */
let shown = 0;

/** How many notices have been shown; pass it to noticesSince later for the ones that came after. */
export function noticeCount(): number {
  return shown;
}

/** The notices shown since noticeCount() returned `count` (the last 20 at most). */
export function noticesSince(count: number): readonly Notice[] {
  return recent.slice(Math.max(0, count - (shown - recent.length)));
}

export function showNotice(
  severity: Notice['severity'],
  message: string,
  ...actions: string[]
): Thenable<string | undefined> {
  recent.push({ severity, message, actions });
  shown += 1;
  if (recent.length > KEPT) recent.shift();
  return severity === 'warning'
    ? vscode.window.showWarningMessage(message, ...actions)
    : vscode.window.showInformationMessage(message, ...actions);
}
