import * as vscode from 'vscode';
import type { FileChange } from '../../core/ops/apply';

/**
 * Writes a verified batch as ONE WorkspaceEdit, so one Undo reverts all of it, in every file. Files are left unsaved
 * (dirty) like any other edit: saving is the user's call, or auto-save's.
 */

export class StaleChangeError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed while the edit was being applied; run the command again`);
    this.name = 'StaleChangeError';
  }
}

export async function applyChanges(root: vscode.Uri, changes: readonly FileChange[], label: string): Promise<void> {
  if (changes.length === 0) return;
  const edit = new vscode.WorkspaceEdit();
  const metadata: vscode.WorkspaceEditEntryMetadata = { label, needsConfirmation: false };
  for (const change of changes) {
    const uri = vscode.Uri.joinPath(root, ...change.path.split('/'));
    if (change.before === undefined) {
      edit.createFile(uri, { contents: new TextEncoder().encode(change.after) }, metadata);
      continue;
    }
    // Offsets are into `before`; a document that moved on since would receive them at the wrong places.
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.getText() !== change.before) throw new StaleChangeError(change.path);
    for (const textEdit of change.edits) {
      const range = new vscode.Range(document.positionAt(textEdit.start), document.positionAt(textEdit.end));
      edit.replace(uri, range, textEdit.newText, metadata);
    }
  }
  // Not marked as a refactoring: VS Code saves refactorings on its own (files.refactoring.autoSave).
  const applied = await vscode.workspace.applyEdit(edit);
  // VS Code refuses an edit made against a document version it has moved past (the user typed meanwhile).
  if (!applied) throw new StaleChangeError(changes.map((c) => c.path).join(', '));
}
