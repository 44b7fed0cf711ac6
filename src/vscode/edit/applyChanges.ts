import * as vscode from 'vscode';
import type { FileChange } from '../../core/ops/apply';
import type { GateVerdict, WriteGateOptions } from '../../core/write';
import { readConfig } from '../config';
import type { ScalpelEngine } from '../engineLoader';
import { exclusionOf } from '../exclusions';
import { UserFacingError } from '../userError';

/**
 * Writes a verified batch as ONE WorkspaceEdit, so one Undo reverts all of it, in every file. Files are left unsaved
 * (dirty) like any other edit: saving is the user's call, or auto-save's. The batch passed the edit service's
 * pre-write gate when it was made; before anything is built here, every file passes the same write gate again (the
 * disk may have moved since): containment through symlinks, one file under two names, version-control folders never,
 * and a modal confirmation naming each protected file the user did not name.
 */

export class StaleChangeError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed while the edit was being applied; run the command again`);
    this.name = 'StaleChangeError';
  }
}

/** The buttons of the question asked before a protected file is written. */
export const KEEP_UNCHANGED = "Don't Write";
export const ALLOW_WRITE = 'Allow';

/**
 * The question asked before a protected file is written (VS Code's own chat edits ask the same way), the same on every
 * surface (palette, chat Apply, agent tools, Apply from Clipboard). The safe answer is the default button: a modal's
 * first button is the one Enter presses.
 */
export async function confirmProtectedWrite(path: string, reason: string): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(
    `Scalpel wants to write ${path}, a protected file: ${reason}.`,
    {
      modal: true,
      detail: `${ALLOW_WRITE} writes it for this edit only; a glob in the scalpel.allowWrite user setting allows it from now on, and a file you name yourself (the file you edit, a # reference in the chat) is never asked about. ${KEEP_UNCHANGED} writes none of the edit.`,
    },
    KEEP_UNCHANGED,
    ALLOW_WRITE,
  );
  return answer === ALLOW_WRITE;
}

/** What a refused protected write says, with how to allow it, in the user's terms. */
export function protectedWriteRefusal(message: string): UserFacingError {
  return new UserFacingError(
    `Scalpel: ${message}. To write it, answer ${ALLOW_WRITE} when asked, add a glob for it to the scalpel.allowWrite user setting, or name the file yourself (edit it from its editor, or attach it with # in the chat).`,
    ['Open Settings'],
  );
}

/** What the gate needs from the engine (the caller's `ctx.engine()`: the extension layer loads no core values itself). */
export type WriteGateEngine = Pick<ScalpelEngine, 'checkWriteTargets' | 'gitignoreRuleOnDisk' | 'gateFailureMessage'>;

/**
 * The workspace-relative path of the active editor's file under `root`: a file the user names by running a command
 * from its editor. Read when the request starts (a command, Apply from Clipboard), never when it is written: by then
 * the user may be looking at another file.
 */
export function activeFileUnder(root: vscode.Uri): string | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (uri === undefined || uri.scheme !== 'file') return undefined;
  const prefix = root.path.endsWith('/') ? root.path : `${root.path}/`;
  return uri.path.startsWith(prefix) ? uri.path.slice(prefix.length) : undefined;
}

/**
 * The write gate's options for a batch in VS Code: `scalpel.allowWrite`, the exclusions (`scalpel.exclude`,
 * `files.exclude`, .gitignore), whether the root is a workspace folder, and the files the user named for the request
 * (taken when it started). The pre-write gate the edit service runs (EditService) and the last-moment check below read
 * the same.
 */
export async function writeGateOptionsOf(
  engine: WriteGateEngine,
  root: vscode.Uri,
  paths: readonly string[],
  userNamed: readonly string[] = [],
): Promise<WriteGateOptions> {
  if (root.scheme !== 'file') throw new UserFacingError(`Scalpel writes files on disk only, not ${root.toString()}.`);
  const config = readConfig(root);
  const exclusions = new Map<string, string>();
  for (const path of paths) {
    const exclusion = await exclusionOf(root, path, config.exclude);
    if (exclusion !== undefined) exclusions.set(path, exclusion.rule);
  }
  const named = new Set(userNamed);
  return {
    root: root.fsPath,
    allow: config.allowWrite,
    userNamed: named,
    excludedBy: (path) => exclusions.get(path) ?? engine.gitignoreRuleOnDisk(root.fsPath, path),
    outsideWorkspace: vscode.workspace.getWorkspaceFolder(root) === undefined,
  };
}

/**
 * Runs the write gate over a batch: refusals throw, protected files the user did not name are confirmed one by one
 * (a "no" throws, saying how to allow them), and the rest pass.
 */
export async function gateChanges(
  engine: WriteGateEngine,
  root: vscode.Uri,
  changes: readonly FileChange[],
  userNamed: readonly string[] = [],
): Promise<readonly GateVerdict[]> {
  const paths = changes.map((c) => c.path);
  const verdicts = engine.checkWriteTargets(paths, await writeGateOptionsOf(engine, root, paths, userNamed));
  const refused = verdicts.find((v) => v.verdict === 'refuse');
  if (refused !== undefined) {
    throw new UserFacingError(
      engine.gateFailureMessage({ path: refused.path, decision: 'refuse', reason: refused.reason }),
    );
  }
  for (const verdict of verdicts) {
    if (verdict.verdict !== 'ask') continue;
    if (!(await confirmProtectedWrite(verdict.path, verdict.reason))) {
      throw protectedWriteRefusal(
        engine.gateFailureMessage({ path: verdict.path, decision: 'ask', reason: verdict.reason }),
      );
    }
  }
  return verdicts;
}

export async function applyChanges(
  root: vscode.Uri,
  changes: readonly FileChange[],
  label: string,
  engine: WriteGateEngine,
  userNamed: readonly string[] = [],
): Promise<void> {
  if (changes.length === 0) return;
  await gateChanges(engine, root, changes, userNamed);
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
