import * as vscode from 'vscode';
import type { BatchWriter, ToolWorkspace } from '../../core/tools';
import type { GraphWorker } from '../../core/tools/graph/graphWorker';
import type { Logger } from '../../core/logger';
import type { ExcludeGlob } from '../../core/workspace/workspaceFiles';
import type { EditService } from '../edit/editService';
import { openDocument, readCurrentText, WorkspaceSnapshot } from '../edit/workspaceSnapshot';
import type { ScalpelEngine } from '../engineLoader';

/**
 * The workspace as the agent tools see it in VS Code: the core's disk workspace with the user's exclusions
 * (`scalpel.exclude` and `files.exclude` keep a file out of every tool, as out of every request; `search.exclude`
 * keeps it out of searches and listings only), and the text (and version) of an open document, unsaved changes
 * included, in place of the file on disk.
 */
export function vscodeToolWorkspace(
  engine: ScalpelEngine,
  root: vscode.Uri,
  scalpelExclude: readonly string[],
): ToolWorkspace {
  const disk = engine.diskWorkspace(root.fsPath, { exclude: workspaceExcludes(root, scalpelExclude) });
  const uriOf = (path: string): vscode.Uri => vscode.Uri.joinPath(root, ...path.split('/').filter((p) => p !== ''));
  const excludedBy = (path: string): string | undefined => disk.excludedBy?.(path);
  return {
    root: disk.root,
    listSourceFiles: (folder) => disk.listSourceFiles(folder),
    listing: (folder) => disk.listing?.(folder) ?? { files: [], skippedLinks: [], truncated: false, foldersRead: 0 },
    unsavedFiles: () => unsavedFilesUnder(root),
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

/** The documents with unsaved changes under `root`, with their workspace-relative paths. */
function unsavedUnder(root: vscode.Uri): Array<{ path: string; document: vscode.TextDocument }> {
  const prefix = `${root.path.replace(/\/+$/, '')}/`;
  return vscode.workspace.textDocuments
    .filter((d) => d.isDirty && d.uri.scheme === root.scheme && d.uri.path.startsWith(prefix))
    .map((document) => ({ path: document.uri.path.slice(prefix.length), document }));
}

function unsavedFilesUnder(root: vscode.Uri): string[] {
  return unsavedUnder(root).map((u) => u.path);
}

/**
 * The agent tools' code graph in a worker thread (dist/engine.js run as the worker): TypeScript's compiler work (a
 * cold program, a reference search across the workspace) takes seconds, which on the extension host's thread would
 * hold every extension. The worker reads the disk with the same exclusions as {@link vscodeToolWorkspace}, and each
 * call carries the unsaved documents, which it reads instead of their files.
 */
export function vscodeGraphWorker(
  engine: ScalpelEngine,
  root: vscode.Uri,
  scalpelExclude: readonly string[],
  script: string,
  logger: Logger,
): GraphWorker {
  return new engine.GraphWorker({
    script,
    root: root.fsPath,
    logger,
    files: { exclude: workspaceExcludes(root, scalpelExclude) },
    unsaved: () =>
      unsavedUnder(root).map(({ path, document }) => [path, document.getText(), String(document.version)] as const),
  });
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

/**
 * What the one workspace listing leaves out in this folder, besides its `.gitignore` files: `scalpel.exclude` and
 * `files.exclude` (never read), `search.exclude` (not searched or listed). The edit service's code graph reads the
 * same list.
 */
export function workspaceExcludes(root: vscode.Uri, scalpelExclude: readonly string[]): ExcludeGlob[] {
  const enabled = (setting: 'files.exclude' | 'search.exclude'): string[] => {
    const [section, key] = setting.split('.') as [string, string];
    const value = vscode.workspace.getConfiguration(section, root).get<unknown>(key);
    if (value === null || typeof value !== 'object') return [];
    return Object.entries(value as Record<string, unknown>)
      .filter(([, on]) => on === true)
      .map(([pattern]) => pattern);
  };
  return [
    ...scalpelExclude.map((glob) => ({ glob, setting: 'scalpel.exclude' })),
    ...enabled('files.exclude').map((glob) => ({ glob, setting: 'files.exclude' })),
    ...enabled('search.exclude').map((glob) => ({ glob, setting: 'search.exclude', listingOnly: true as const })),
  ];
}
