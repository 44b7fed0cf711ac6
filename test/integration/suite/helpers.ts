// Small helpers for integration tests running inside the extension host. Tests run against a fresh copy of
// playground/ opened as the only workspace folder.
import Mocha from 'mocha';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';

export const SCALPEL_EXTENSION_ID = 'scalpel-dev.scalpel';

export function workspaceRootOrThrow(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration tests expect a workspace folder (a copy of playground/) to be open');
  return folder.uri;
}

export function workspaceUri(relativePath: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRootOrThrow(), ...relativePath.split('/'));
}

/** Opens a file of the workspace in an editor, as a user clicking it in the explorer would. */
export async function openWorkspaceFile(relativePath: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceUri(relativePath));
  return vscode.window.showTextDocument(document);
}

/** Reads a workspace file from disk, not from an editor buffer: what a save or an applied edit left there. */
export async function readWorkspaceFileFromDisk(relativePath: string): Promise<string> {
  return readFile(workspaceUri(relativePath).fsPath, 'utf8');
}

export interface WaitOptions {
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** Says what was awaited, for the error when it never happens. */
  readonly description?: string;
}

/**
 * Polls until `condition` returns a value other than undefined, null or false, and returns that value.
 * For effects the extension host reports asynchronously (activation, edits applied, views shown).
 */
export async function waitFor<T>(
  condition: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 10_000, intervalMs = 50, description = 'condition' }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function scalpelExtensionOrThrow(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(SCALPEL_EXTENSION_ID);
  if (!extension) throw new Error(`${SCALPEL_EXTENSION_ID} is not loaded in the extension host`);
  return extension;
}

/**
 * Prints a line into the test report. Under code-server the extension host's console.log ends up in the
 * workbench's log, not in the report (see index.ts).
 */
export function printToTestOutput(...args: unknown[]): void {
  Mocha.reporters.Base.consoleLog(...args);
}

/** Every question VS Code was asked with a modal warning while stubbed, answered with `answer` (undefined: Cancel). */
export function stubModalWarnings(answer: string | undefined): { asked: string[]; restore(): void } {
  const window = vscode.window as unknown as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
  const original = window.showWarningMessage;
  const asked: string[] = [];
  window.showWarningMessage = (message: unknown, ...rest: unknown[]) => {
    const options = rest[0];
    if (typeof options === 'object' && options !== null && (options as { modal?: boolean }).modal === true) {
      asked.push(String(message));
      return Promise.resolve(answer);
    }
    return original.call(vscode.window, message, ...rest);
  };
  return { asked, restore: () => (window.showWarningMessage = original) };
}
