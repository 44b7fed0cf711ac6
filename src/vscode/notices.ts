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

/** Enough that a reader counting them (the tests: "the notices after this one") never sees the list shift. */
const KEPT = 1_000;
const recent: Notice[] = [];

export function recentNotices(): readonly Notice[] {
  return [...recent];
}

export function showNotice(
  severity: Notice['severity'],
  message: string,
  ...actions: string[]
): Thenable<string | undefined> {
  recent.push({ severity, message, actions });
  if (recent.length > KEPT) recent.shift();
  return severity === 'warning'
    ? vscode.window.showWarningMessage(message, ...actions)
    : vscode.window.showInformationMessage(message, ...actions);
}
