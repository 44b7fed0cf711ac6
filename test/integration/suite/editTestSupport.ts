// Shared by the edit, preview, conflict, keys and lmCommands suites: a scripted model the extension talks to over
// real HTTP, settings pointed at it, and a workspace put back the way it was after each test.
import { readFile, rm } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ScalpelApi } from '../../../src/extension';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { openWorkspaceFile, scalpelExtensionOrThrow, waitFor, workspaceUri } from './helpers';

export const MODEL = 'gpt-4o-mini';
export const API_KEY = 'sk-scalpel-integration';

/** What the edit commands answer (src/vscode/edit/editService.ts EditCommandResult), as the tests read it. */
export interface EditResult {
  readonly status: 'preview' | 'applied' | 'conflict' | 'cancelled' | 'failed';
  readonly editId?: string;
  readonly files?: readonly string[];
  readonly conflicts?: readonly { index: number; path: string; operation: string; reason: string }[];
  readonly message?: string;
  readonly usage?: { inputTokens: number; outputTokens: number; wholeFileInputTokens: number; requests: number };
}

export interface AcceptResult {
  readonly editId: string;
  readonly applied: readonly number[];
  readonly accepted: readonly number[];
  readonly files: readonly string[];
  readonly conflicts: readonly { index: number; path: string; operation: string; reason: string }[];
  readonly finished: boolean;
  readonly status?: 'failed';
  readonly message?: string;
}

const SETTINGS = [
  'provider',
  'model',
  'baseUrl',
  'preview',
  'previewSmallBatchOperations',
  'repairRounds',
  'planning',
  'smallFileLines',
  'exclude',
  'strategy',
  'verify',
] as const;

export async function setSetting(name: string, value: unknown, section = 'scalpel'): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(name, value, vscode.ConfigurationTarget.Workspace);
}

/**
 * A scripted model on 127.0.0.1 with Scalpel's settings and key pointed at it, as a user would configure it, and a
 * workspace put back as it was after each test. A test that left answers unused gets the server replaced, so they
 * cannot reach the next test.
 */
export function useScriptedModel(): { readonly server: ScriptedLlmServer } {
  let current: ScriptedLlmServer | undefined;
  let autoSaveBefore: unknown;
  const start = async (): Promise<void> => {
    current = await startScriptedLlmServer({ models: [MODEL] });
    await setSetting('baseUrl', current.openaiBaseUrl);
  };
  before(async () => {
    await openWorkspaceFile('src/user.ts');
    await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
    await setSetting('provider', 'openai');
    await setSetting('model', MODEL);
    await setSetting('preview', 'always');
    // The web workbench auto-saves after a second by default; the tests check what stays unsaved and put documents
    // back to their text on disk, which a save in between would defeat.
    autoSaveBefore = vscode.workspace.getConfiguration('files').inspect('autoSave')?.workspaceValue;
    await setSetting('autoSave', 'off', 'files');
    // The playground's files are small enough to be sent whole; the tests want to see the focused view.
    await setSetting('smallFileLines', 10);
    // A scripted answer is what the test wants; repair rounds would only ask the script for more.
    await setSetting('repairRounds', 0);
    await vscode.commands.executeCommand('scalpel.setApiKey', 'openai', API_KEY);
    await start();
  });
  afterEach(async () => {
    await resetWorkspace();
    if (current !== undefined && current.pendingSteps.length > 0) {
      await current.close();
      await start();
    }
  });
  after(async () => {
    await current?.close();
    current = undefined;
    for (const name of SETTINGS) await setSetting(name, undefined);
    // Back to what the run set (test/integration/run.mjs: off), not to the host's default: auto-save on would write
    // the later suites' unsaved edits to disk, where one test's edit reaches the next.
    await setSetting('autoSave', autoSaveBefore, 'files');
    await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
  });
  return {
    get server(): ScriptedLlmServer {
      if (current === undefined) throw new Error('the scripted model runs only inside a test');
      return current;
    },
  };
}

function previewTabOpen(): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => {
      const input = tab.input;
      if (input instanceof vscode.TabInputTextDiff) return input.modified.scheme === 'scalpel-proposed';
      if (input instanceof vscode.TabInputText) return input.uri.scheme === 'scalpel-proposed';
      return typeof input === 'object' && input !== null && 'textDiffs' in input;
    }),
  );
}

/** Rejects whatever is still pending, puts unsaved documents back to their text on disk and closes every editor. */
export async function resetWorkspace(): Promise<void> {
  for (let i = 0; i < 20 && previewTabOpen(); i++) {
    const result = (await vscode.commands.executeCommand('scalpel.rejectEdit')) as { status?: string } | undefined;
    if (result?.status === 'failed') break;
  }
  // Edits a chat answer prepared have no preview tab: left pending, the next test's Review panel would list them first.
  const { review } = scalpelExtensionOrThrow().exports as ScalpelApi;
  for (const { editId } of review.summary()) await vscode.commands.executeCommand('scalpel.rejectEdit', editId);
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.uri.scheme !== 'file') continue;
    let onDisk: string;
    try {
      onDisk = await readFile(document.uri.fsPath, 'utf8');
    } catch {
      continue;
    }
    // VS Code refuses an edit made against a version of the document it has moved past; saving then would write
    // the test's changes to disk for every later test. Only a document back to its disk text is saved.
    await waitFor(
      async () => {
        if (document.getText() === onDisk) return true;
        const edit = new vscode.WorkspaceEdit();
        edit.replace(
          document.uri,
          new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
          onDisk,
        );
        await vscode.workspace.applyEdit(edit);
        return document.getText() === onDisk;
      },
      { description: `${document.uri.path} back to its text on disk` },
    );
    await document.save();
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function removeWorkspaceFile(relativePath: string): Promise<void> {
  await rm(workspaceUri(relativePath).fsPath, { force: true, recursive: true });
}

/** Puts the cursor on the first line holding `text`, at the start of `text`. */
export function placeCursor(editor: vscode.TextEditor, text: string): vscode.Position {
  const offset = editor.document.getText().indexOf(text);
  if (offset < 0)
    throw new Error(`"${text}" is not in ${editor.document.uri.path}, which reads:\n${editor.document.getText()}`);
  const position = editor.document.positionAt(offset);
  editor.selection = new vscode.Selection(position, position);
  return position;
}

/**
 * Opens `file`, puts the cursor on `anchor` and runs Edit Element at Cursor with `instruction`, as a user would, and
 * returns at once: `running` ends with the edit (a preview, applied, failed), so a test can type meanwhile.
 */
export async function startEditAtCursor(
  anchor: string,
  instruction: string,
  file = 'src/user.ts',
): Promise<{ editor: vscode.TextEditor; running: Thenable<EditResult> }> {
  const editor = await openWorkspaceFile(file);
  placeCursor(editor, anchor);
  const running = vscode.commands.executeCommand('scalpel.editElementAtCursor', instruction) as Thenable<EditResult>;
  return { editor, running };
}

/** {@link startEditAtCursor}, waiting for the edit's result. */
export async function editAtCursor(
  anchor: string,
  instruction: string,
  file = 'src/user.ts',
): Promise<{ editor: vscode.TextEditor; result: EditResult }> {
  const { editor, running } = await startEditAtCursor(anchor, instruction, file);
  return { editor, result: await running };
}

/** Inserts text the way typing does, at the start of the line holding `anchor`. */
export async function typeAt(editor: vscode.TextEditor, anchor: string, text: string): Promise<void> {
  const offset = editor.document.getText().indexOf(anchor);
  if (offset < 0) throw new Error(`"${anchor}" is not in ${editor.document.uri.path}`);
  const ok = await editor.edit((builder) => builder.insert(editor.document.positionAt(offset), text));
  if (!ok) throw new Error('the editor refused the typing');
}

export function proposedEditors(): vscode.TextEditor[] {
  return vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === 'scalpel-proposed');
}

/** The proposed document of a file in the preview, once it shows. */
export async function proposedDocument(path: string): Promise<vscode.TextDocument> {
  return waitFor(() => proposedEditors().find((e) => e.document.uri.path.endsWith(`/${path}`))?.document, {
    description: `the preview of ${path}`,
  });
}

/** The user messages the model received, joined: what Scalpel sent. */
export function sentUserText(server: ScriptedLlmServer, requestIndex = -1): string {
  const chat = server.requests.filter((r) => r.api === 'openai' && r.method === 'POST');
  const request = chat.at(requestIndex);
  return (request?.body?.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

export function chatRequests(server: ScriptedLlmServer): number {
  return server.requests.filter((r) => r.api === 'openai' && r.method === 'POST').length;
}

/** The model's answer: operations in Scalpel's text format. */
export function fenced(header: string, code: string): string {
  return `${header}\n\`\`\`ts\n${code}\n\`\`\`\n`;
}

export const CAN_EDIT = 'src/user.ts/class[User]/method[canEdit]';
export const DISPLAY_NAME = 'src/user.ts/class[User]/method[displayName]';

export const NEW_CAN_EDIT = `canEdit(): boolean {
  return this.role !== 'viewer';
}`;

export const NEW_DISPLAY_NAME = `displayName(): string {
  return this.role === 'admin' ? \`\${this.name} [admin]\` : this.name;
}`;

export const FIND_BY_EMAIL = 'src/user.ts/function[findByEmail]';
/** A third, required parameter: editorFor in src/index.ts calls findByEmail with two arguments (TS2554 there). */
export const STRICT_FIND = `export function findByEmail(users: readonly User[], email: string, exact: boolean): User | undefined {
  const wanted = exact ? email : email.toLowerCase();
  return users.find((user) => (exact ? user.email : user.email.toLowerCase()) === wanted);
}`;
/** A misspelt property inside the changed method (TS2551 there). */
export const BROKEN_CAN_EDIT = `canEdit(): boolean {
  return this.rol === 'admin';
}`;

/** The new type errors Scalpel lists in the Problems view for a file. */
export function scalpelDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Scalpel');
}
