import * as vscode from 'vscode';
import { activeEditorOrThrow, elementAtCursorOrThrow, outlineDocumentOrThrow } from './activeElement';
import type { Ctx } from './ctx';
import { languagesReady } from './languagesReady';
import {
  applyOperationsFromText,
  copyContext,
  editElementAtCursor,
  editFile,
  editSelection,
} from './edit/editCommands';
import { conflictReports } from './edit/editService';
import { moveEditFocus } from './edit/instructionInput';
import { clearApiKey, selectModel, setApiKey } from './edit/modelCommands';
import { ensureEngineWithNotification } from './engineProgress';
import { describeChange } from './preview/editSessions';
import type { ScalpelServices } from './services';
import { setUpModel } from './setup/modelSetup';
import { openChatCommand } from './setup/openChatCommand';
import { tryOnSample } from './setup/sample';
import { tokenStatistics } from './stats';
import { runUserAction } from './userActions';
import { UserFacingError } from './userError';

/**
 * The command table: one entry per command, ids without the `scalpel.` prefix (applied in one place below). An
 * integration test checks that it agrees with package.json's contributes.commands.
 */
type CommandFactory = (ctx: Ctx, services: ScalpelServices) => (...args: unknown[]) => unknown;

export const COMMAND_PREFIX = 'scalpel.';

/** The pending edit a command without an id means: the preview in view, else the most recent one. */
function editIdOrThrow(ctx: Ctx, { preview }: ScalpelServices, given: unknown): string {
  if (typeof given === 'string') return given;
  const id = preview.visibleEditId() ?? ctx.pendingEdits.latest()?.id;
  if (id === undefined) throw new UserFacingError('There is no pending Scalpel edit to accept or reject.');
  return id;
}

function indicesOf(given: unknown): number[] | undefined {
  if (typeof given === 'number') return [given];
  if (Array.isArray(given) && given.every((i) => typeof i === 'number')) return given as number[];
  return undefined;
}

/** One change of a preview: given as (edit id, operation index), or the one at the cursor in the preview. */
function changeOrThrow(
  ctx: Ctx,
  services: ScalpelServices,
  id: unknown,
  index: unknown,
): { editId: string; index: number } {
  if (typeof index === 'number') return { editId: editIdOrThrow(ctx, services, id), index };
  const atCursor = services.preview.operationAtCursor();
  if (atCursor === undefined) {
    throw new UserFacingError(
      'Place the cursor on a change in a Scalpel preview, or use its Accept and Reject CodeLenses.',
    );
  }
  return atCursor;
}

export const COMMANDS: Readonly<Record<string, CommandFactory>> = {
  editElementAtCursor:
    (ctx, { edits }) =>
    (instruction, at) =>
      editElementAtCursor(ctx, edits, instruction, at),

  widenEditFocus: () => () => moveEditFocus(1),

  narrowEditFocus: () => () => moveEditFocus(-1),

  editSelection:
    (ctx, { edits }) =>
    (instruction) =>
      editSelection(ctx, edits, instruction),

  editFile:
    (ctx, { edits }) =>
    (instruction) =>
      editFile(ctx, edits, instruction),

  showContext:
    (ctx, { contextDocuments, edits }) =>
    async () => {
      const editor = activeEditorOrThrow();
      const outline = outlineDocumentOrThrow(ctx, editor.document);
      const element = elementAtCursorOrThrow(ctx, editor, outline);
      const config = ctx.config(editor.document.uri);
      const { context: result } = edits.contextOrThrow(editor.document.uri, {
        requests: [{ outline, focus: [element.path] }],
      });
      const saved = result.wholeFileTokens === 0 ? 0 : Math.round((1 - result.tokens / result.wholeFileTokens) * 100);
      const header =
        `Scalpel context for ${element.path}\n` +
        `${result.tokens} tokens (${result.encoding}) vs ${result.wholeFileTokens} for the whole file: ` +
        (saved > 0
          ? `${saved}% fewer`
          : saved < 0
            ? `${-saved}% more (the file goes whole, with Scalpel's element labels)`
            : 'as many') +
        (result.dropped.length > 0
          ? `; ${result.dropped.length} elements left out to fit the budget of ${config.tokenBudget}`
          : '') +
        '\n\n';
      await contextDocuments.show(`${outline.file}.context.md`, header + result.text);
      ctx.log.info(`context for ${element.path}: ${result.tokens} tokens, whole file ${result.wholeFileTokens}`);
      return { path: element.path, tokens: result.tokens, wholeFileTokens: result.wholeFileTokens };
    },

  copyContext:
    (ctx, { edits }) =>
    (instruction) =>
      copyContext(ctx, edits, instruction),

  applyOperationsFromClipboard:
    (ctx, { edits }) =>
    (text) =>
      applyOperationsFromText(ctx, edits, text),

  selectModel: (ctx) => (choice) => selectModel(ctx, choice),

  setApiKey: (ctx) => (provider, key) => setApiKey(ctx, provider, key),

  clearApiKey: (ctx) => (provider) => clearApiKey(ctx, provider),

  setUpModel: (ctx) => (choice) => setUpModel(ctx, choice),

  openChat: (ctx) => (text) => openChatCommand(ctx, text),

  tryOnSample: () => (options) => tryOnSample(options),

  showTokenStatistics:
    (ctx, { contextDocuments }) =>
    async () => {
      const statistics = tokenStatistics(ctx);
      await contextDocuments.show('token-statistics.txt', statistics.text);
      return statistics;
    },

  showLog: (ctx) => () => ctx.log.show(),

  showLastAnswer:
    (_ctx, { edits }) =>
    () =>
      edits.showLastReport(),

  retryEdit:
    (_ctx, { edits }) =>
    (id) =>
      edits.retry(id),

  cancelEdit:
    (_ctx, { edits }) =>
    () =>
      edits.cancel(),

  previewEdit: (ctx, services) => async (id) => {
    const session = await services.preview.open(editIdOrThrow(ctx, services, id));
    return {
      editId: session.edit.id,
      files: session.resolution.changes.map((c) => c.path),
      conflicts: conflictReports(ctx, session.resolution.conflicts),
    };
  },

  acceptEdit: (ctx, services) => async (id, indices) => {
    const result = await services.edits.accept(editIdOrThrow(ctx, services, id), indicesOf(indices));
    if (result.finished) await services.preview.close(result.editId);
    return { ...result, conflicts: conflictReports(ctx, result.conflicts) };
  },

  rejectEdit: (ctx, services) => async (id, indices) => {
    const result = await services.edits.reject(editIdOrThrow(ctx, services, id), indicesOf(indices));
    if (result.finished) await services.preview.close(result.editId);
    return result;
  },

  acceptChange: (ctx, services) => async (id, index) => {
    const change = changeOrThrow(ctx, services, id, index);
    const result = await services.edits.accept(change.editId, [change.index]);
    if (result.finished) await services.preview.close(result.editId);
    return { ...result, conflicts: conflictReports(ctx, result.conflicts) };
  },

  rejectChange: (ctx, services) => async (id, index) => {
    const change = changeOrThrow(ctx, services, id, index);
    const result = await services.edits.reject(change.editId, [change.index]);
    if (result.finished) await services.preview.close(result.editId);
    return result;
  },

  showTypeError:
    (_ctx, { edits }) =>
    (id, index) =>
      edits.typeErrors.show(id, index),

  showTypeErrors:
    (_ctx, { edits }) =>
    (id) =>
      edits.typeErrors.showAll(id),

  revealChange: (ctx, services) => async (id, index) => {
    const change = changeOrThrow(ctx, services, id, index);
    await services.preview.reveal(change.editId, change.index);
    return change;
  },

  changeActions: (ctx, services) => async () => {
    const editor = vscode.window.activeTextEditor;
    const editId = editIdOrThrow(ctx, services, undefined);
    const session = services.sessions.sessionOrThrow(editId);
    const change =
      editor === undefined ? undefined : services.preview.operationAt(editor.document, editor.selection.active);
    const what = change === undefined ? undefined : describeChange(session, change.index);
    const left = session.included.size;
    const items: Array<vscode.QuickPickItem & { run: () => Thenable<unknown> }> = [];
    if (change !== undefined && what !== undefined && session.included.has(change.index)) {
      items.push(
        {
          label: `Accept this change`,
          description: what,
          run: () => vscode.commands.executeCommand('scalpel.acceptChange', change.editId, change.index),
        },
        {
          label: `Reject this change`,
          description: what,
          run: () => vscode.commands.executeCommand('scalpel.rejectChange', change.editId, change.index),
        },
      );
    }
    items.push(
      {
        label: left === 1 ? 'Accept the change' : `Accept all ${left} changes`,
        description: 'Ctrl+Alt+Enter',
        run: () => vscode.commands.executeCommand('scalpel.acceptEdit', editId),
      },
      {
        label: 'Reject all',
        description: 'Ctrl+Alt+Backspace',
        run: () => vscode.commands.executeCommand('scalpel.rejectEdit', editId),
      },
      { label: 'Choose changes to keep…', run: () => vscode.commands.executeCommand('scalpel.chooseChanges', editId) },
    );
    const picked = await vscode.window.showQuickPick(items, { title: `Scalpel: ${session.edit.title}` });
    return picked === undefined ? undefined : picked.run();
  },

  chooseChanges: (ctx, services) => async (id, indices) => {
    const editId = editIdOrThrow(ctx, services, id);
    let chosen = indicesOf(indices);
    if (chosen === undefined) {
      const session = services.sessions.sessionOrThrow(editId);
      const conflicted = new Map(session.resolution.conflicts.map((c) => [c.index, c.reason]));
      const items = session.edit.operations
        .map((operation, index) => ({ operation, index }))
        .filter(({ index }) => !session.accepted.has(index))
        .map(({ operation, index }) => ({
          label: describeChange(session, index),
          description: operation.type,
          ...(conflicted.has(index) ? { detail: `conflict: ${conflicted.get(index) ?? ''}` } : {}),
          picked: session.included.has(index),
          index,
        }));
      const picked = await vscode.window.showQuickPick(items, {
        title: `Scalpel: which changes of "${session.edit.title}" to keep?`,
        canPickMany: true,
      });
      if (picked === undefined) return undefined;
      chosen = picked.map((p) => p.index);
    }
    const session = services.sessions.choose(editId, chosen);
    return { editId, included: [...session.included].sort((a, b) => a - b) };
  },
};

/**
 * Commands that read code: the first one shows progress while the engine loads, if the preload has not done it. The
 * edit commands are not among them: they open the instruction box first and load the engine behind it.
 */
const ENGINE_COMMANDS = new Set(['showContext', 'copyContext', 'applyOperationsFromClipboard']);

/** Commands whose first act is the instruction box: nothing may delay it (they load what they read behind it). */
const INSTRUCTION_FIRST = new Set([
  'editElementAtCursor',
  'editSelection',
  'editFile',
  'widenEditFocus',
  'narrowEditFocus',
]);

export function registerCommands(ctx: Ctx, services: ScalpelServices): void {
  for (const [name, factory] of Object.entries(COMMANDS)) {
    const handler = factory(ctx, services);
    const id = `${COMMAND_PREFIX}${name}`;
    const needsEngine = ENGINE_COMMANDS.has(name);
    ctx.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          if (needsEngine) await ensureEngineWithNotification(ctx);
          if (!INSTRUCTION_FIRST.has(name)) await languagesReady(ctx);
          return await handler(...args);
        } catch (error) {
          reportError(ctx, id, error);
          // Callers that drive commands (tests, the chat) learn what the user was told.
          return error instanceof vscode.CancellationError
            ? { status: 'cancelled' }
            : { status: 'failed', message: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
  }
}

/** Every failure reaches the user as one clear message (never a stack trace) and the log gets the details. */
export function reportError(ctx: Ctx, commandId: string, error: unknown): void {
  if (error instanceof vscode.CancellationError) return;
  const run = (action: string | undefined): void => {
    if (action !== undefined) runUserAction(ctx, action);
  };
  if (error instanceof UserFacingError) {
    ctx.log.warn(`${commandId}: ${error.message}`);
    void vscode.window.showWarningMessage(error.message, ...error.actions).then(run);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.log.error(`${commandId} failed`, error);
  void vscode.window.showErrorMessage(`Scalpel: ${message}`, 'Show Log').then(run);
}
