import * as vscode from 'vscode';
import type { BatchWriter, ToolWorkspace } from '../../core/tools';
import type { EditService } from '../edit/editService';
import { openDocument, readCurrentText, WorkspaceSnapshot } from '../edit/workspaceSnapshot';
import type { ScalpelEngine } from '../engineLoader';
import { globToRegExp } from '../exclusions';

/**
 * The workspace as the agent tools see it in VS Code: the disk listing of the core, with the text (and version) of
 * an open document, unsaved changes included, in place of the file on disk.
 */
export function vscodeToolWorkspace(
  engine: ScalpelEngine,
  root: vscode.Uri,
  scalpelExclude: readonly string[],
): ToolWorkspace {
  const disk = engine.diskWorkspace(root.fsPath);
  const uriOf = (path: string): vscode.Uri => vscode.Uri.joinPath(root, ...path.split('/').filter((p) => p !== ''));
  // What must never reach a model reaches no agent either: scalpel.exclude and files.exclude (the root .gitignore
  // already keeps files out of the listing).
  const rules = [
    ...scalpelExclude.map((pattern) => ({ rule: `scalpel.exclude "${pattern}"`, regExp: globToRegExp(pattern) })),
    ...enabledFilesExclude(root).map((pattern) => ({
      rule: `files.exclude "${pattern}"`,
      regExp: globToRegExp(pattern),
    })),
  ];
  const excludedBy = (path: string): string | undefined => {
    const segments = path.split('/');
    const candidates = segments.map((_, i) => segments.slice(0, segments.length - i).join('/'));
    return rules.find(({ regExp }) => candidates.some((c) => regExp.test(c)))?.rule;
  };
  return {
    root: disk.root,
    listSourceFiles: (folder) => disk.listSourceFiles(folder).filter((path) => excludedBy(path) === undefined),
    isFolder: (path) => disk.isFolder(path),
    excludedBy,
    read: (path) => {
      if (excludedBy(path) !== undefined) return undefined;
      return openDocument(uriOf(path)) === undefined ? disk.read(path) : readCurrentText(uriOf(path));
    },
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
    // The commands' verification; type errors the agent lets through are marked in the preview.
    verify: ({ snapshot, operations, partial, verify, allowNewErrors }) =>
      edits.verify(root, operations, {
        snapshot,
        partial,
        ...(verify === undefined ? {} : { verify }),
        allowBrokenReferences: allowNewErrors === true,
      }),
    write: async (batch) => {
      const result = await edits.deliver(
        {
          root,
          title: batch.title,
          operations: batch.operations,
          results: batch.results,
          changes: batch.changes,
          ...(batch.typeErrors === undefined ? {} : { typeErrors: batch.typeErrors }),
        },
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

function enabledFilesExclude(root: vscode.Uri): string[] {
  const value = vscode.workspace.getConfiguration('files', root).get<unknown>('exclude');
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, enabled]) => enabled === true)
    .map(([pattern]) => pattern);
}
