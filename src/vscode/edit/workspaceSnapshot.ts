import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { SnapshotReader } from '../../core/ops/apply';
import { UserFacingError } from '../userError';

/**
 * The workspace as the user sees it: an open document's current text (unsaved changes included), else the file on
 * disk. Each path is read once and then remembered, so the request, its verification and the conflict check later
 * all compare against the same text even when the user keeps typing.
 */
export class WorkspaceSnapshot implements SnapshotReader {
  private readonly texts = new Map<string, string | undefined>();

  constructor(readonly root: vscode.Uri) {}

  uriOf(path: string): vscode.Uri {
    return vscode.Uri.joinPath(this.root, ...path.split('/'));
  }

  read(path: string): string | undefined {
    if (!this.texts.has(path)) this.texts.set(path, readCurrentText(this.uriOf(path)));
    return this.texts.get(path);
  }

  /** Reads these paths now, before anything can change them. */
  capture(paths: readonly string[]): this {
    for (const path of paths) this.read(path);
    return this;
  }
}

/** A reader that always answers with the text as it is at the moment of the call. */
export function liveSnapshot(root: vscode.Uri): SnapshotReader {
  return { read: (path) => readCurrentText(vscode.Uri.joinPath(root, ...path.split('/'))) };
}

export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

export function readCurrentText(uri: vscode.Uri): string | undefined {
  const document = openDocument(uri);
  if (document !== undefined) return document.getText();
  if (uri.scheme !== 'file') return undefined;
  try {
    return readFileSync(uri.fsPath, 'utf8');
  } catch {
    // Missing, a folder or unreadable: to the apply engine all of these are "no such file".
    return undefined;
  }
}

/** The folder paths are relative to, and the document's path in it (forward slashes). */
export function locate(document: vscode.TextDocument): { root: vscode.Uri; path: string } {
  if (document.uri.scheme !== 'file') {
    throw new UserFacingError(
      document.isUntitled
        ? 'Save the file first: Scalpel edits files of the workspace.'
        : `Scalpel edits files of the workspace; ${document.uri.scheme === 'scalpel-proposed' ? 'this is the preview of a pending edit' : `this is a ${document.uri.scheme} document`}. Switch to the file itself.`,
    );
  }
  const folder = vscode.workspace.getWorkspaceFolder(document.uri);
  if (folder !== undefined) {
    const path = vscode.workspace.asRelativePath(document.uri, false).replace(/\\/g, '/');
    return { root: folder.uri, path };
  }
  const root = vscode.Uri.joinPath(document.uri, '..');
  return { root, path: document.uri.path.slice(root.path.length).replace(/^\/+/, '') };
}
