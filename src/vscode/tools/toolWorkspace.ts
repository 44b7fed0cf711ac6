import * as vscode from 'vscode';
import type { BatchWriter, ToolWorkspace } from '../../core/tools';
import type { EditService } from '../edit/editService';
import { openDocument, readCurrentText, WorkspaceSnapshot } from '../edit/workspaceSnapshot';
import type { ScalpelEngine } from '../engineLoader';

/**
 * The workspace as the agent tools see it in VS Code: the disk listing of the core, with the text (and version) of
 * an open document, unsaved changes included, in place of the file on disk.
 */
export function vscodeToolWorkspace(engine: ScalpelEngine, root: vscode.Uri): ToolWorkspace {
  const disk = engine.diskWorkspace(root.fsPath);
  const uriOf = (path: string): vscode.Uri => vscode.Uri.joinPath(root, ...path.split('/').filter((p) => p !== ''));
  return {
    root: disk.root,
    listSourceFiles: (folder) => disk.listSourceFiles(folder),
    isFolder: (path) => disk.isFolder(path),
    read: (path) => (openDocument(uriOf(path)) === undefined ? disk.read(path) : readCurrentText(uriOf(path))),
    version: (path) => {
      const document = openDocument(uriOf(path));
      return document === undefined ? disk.version(path) : `document:${document.version}`;
    },
  };
}

/**
 * The one adapter between the agent tools and the editor: a verified batch goes to the same preview / accept / undo
 * as the commands (EditService.deliver), or is applied at once when `scalpel.preview` says so.
 */
export function previewBatchWriter(root: vscode.Uri, edits: EditService): BatchWriter {
  return {
    snapshot: () => new WorkspaceSnapshot(root),
    write: async (batch) => {
      const result = await edits.deliver(
        { root, title: batch.title, operations: batch.operations, results: batch.results, changes: batch.changes },
        { checkExclusions: true },
      );
      const files = result.files ?? [];
      switch (result.status) {
        case 'preview':
          return {
            status: 'preview',
            message: `the change to ${files.join(', ')} is shown to the user as a preview; it is written when they accept it (edit ${result.editId ?? '?'})`,
            files,
          };
        case 'applied':
          return { status: 'applied', message: `applied to ${files.join(', ')} (unsaved; Undo reverts it)`, files };
        default:
          return {
            status: result.status,
            message: result.message ?? 'nothing was applied',
            files: [],
          };
      }
    },
  };
}
