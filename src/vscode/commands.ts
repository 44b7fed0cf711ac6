import * as vscode from 'vscode';
import { activeEditorOrThrow, elementAtCursorOrThrow, outlineDocumentOrThrow } from './activeElement';
import { ContextDocumentProvider, CONTEXT_SCHEME } from './contextDocuments';
import type { Ctx } from './ctx';
import { UserFacingError } from './userError';

/**
 * The command table: one entry per command, ids without the `scalpel.` prefix (applied in one place below). A unit
 * test checks that it agrees with package.json's contributes.commands.
 */
type CommandFactory = (ctx: Ctx, services: CommandServices) => (...args: unknown[]) => unknown;

interface CommandServices {
  readonly contextDocuments: ContextDocumentProvider;
}

export const COMMAND_PREFIX = 'scalpel.';

export const COMMANDS: Readonly<Record<string, CommandFactory>> = {
  showContext:
    (ctx, { contextDocuments }) =>
    async () => {
      const editor = activeEditorOrThrow();
      const outline = outlineDocumentOrThrow(ctx, editor.document);
      const element = await elementAtCursorOrThrow(ctx, editor, outline, false);
      const config = ctx.config(editor.document.uri);
      const engine = ctx.engine();
      const result = engine.buildContext(
        [{ outline, focus: [element.path] }],
        engine.createTokenCounter(config.tokenEncoding),
        {
          budget: config.tokenBudget,
          smallFileLines: config.smallFileLines,
        },
      );
      const saved = result.wholeFileTokens === 0 ? 0 : Math.round((1 - result.tokens / result.wholeFileTokens) * 100);
      const header =
        `Scalpel context for ${element.path}\n` +
        `${result.tokens} tokens (${result.encoding}) vs ${result.wholeFileTokens} for the whole file: ${saved}% fewer` +
        (result.dropped.length > 0
          ? `; ${result.dropped.length} elements left out to fit the budget of ${config.tokenBudget}`
          : '') +
        '\n\n';
      await contextDocuments.show(`${outline.file}.context.md`, header + result.text);
      ctx.log.info(`context for ${element.path}: ${result.tokens} tokens, whole file ${result.wholeFileTokens}`);
      return { path: element.path, tokens: result.tokens, wholeFileTokens: result.wholeFileTokens };
    },

  showLog: (ctx) => () => ctx.log.show(),
};

export function registerCommands(ctx: Ctx): void {
  const contextDocuments = new ContextDocumentProvider();
  ctx.subscriptions.push(
    contextDocuments,
    vscode.workspace.registerTextDocumentContentProvider(CONTEXT_SCHEME, contextDocuments),
  );
  const services: CommandServices = { contextDocuments };
  for (const [name, factory] of Object.entries(COMMANDS)) {
    const handler = factory(ctx, services);
    const id = `${COMMAND_PREFIX}${name}`;
    ctx.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (error) {
          reportError(ctx, id, error);
          return undefined;
        }
      }),
    );
  }
}

/** Every failure reaches the user as one clear message (never a stack trace) and the log gets the details. */
export function reportError(ctx: Ctx, commandId: string, error: unknown): void {
  if (error instanceof vscode.CancellationError) return;
  if (error instanceof UserFacingError) {
    ctx.log.warn(`${commandId}: ${error.message}`);
    void vscode.window.showWarningMessage(error.message, ...error.actions).then((action) => {
      if (action === 'Show Log') ctx.log.show();
    });
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.log.error(`${commandId} failed`, error);
  void vscode.window.showErrorMessage(`Scalpel: ${message}`, 'Show Log').then((action) => {
    if (action === 'Show Log') ctx.log.show();
  });
}
