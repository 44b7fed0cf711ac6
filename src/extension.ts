import * as vscode from 'vscode';
import { registerChat } from './vscode/chat/registerChat';
import { registerCommands } from './vscode/commands';
import { Ctx } from './vscode/ctx';
import { isEngineLoaded, wasEngineDemanded } from './vscode/engineLoader';
import { startEnginePreload } from './vscode/engineProgress';
import { registerLanguageModels } from './vscode/lm/registerLanguageModels';
import { createLogger } from './vscode/logger';
import { type Notice, noticeCount, noticesSince } from './vscode/notices';
import type { ReviewEdit } from './vscode/preview/reviewSummary';
import { createServices } from './vscode/services';
import { trackModelReadiness } from './vscode/setup/modelReadyContext';
import { registerTools } from './vscode/tools/registerTools';

/** What activate returns; other extensions and the integration tests can read it. */
export interface ScalpelApi {
  /** Whether the heavy engine bundle was loaded while activating (it must not be). */
  readonly engineLoadedDuringActivation: boolean;
  /** The review panel's content: the pending edits as listed, and the HTML shown (undefined until it was opened). */
  readonly review: { summary(): readonly ReviewEdit[]; renderedHtml(): string | undefined };
  /** How many notifications about pending edits were shown (VS Code cannot read them back): a mark for noticesSince. */
  readonly noticeCount: () => number;
  /** The notifications shown since noticeCount() returned `count` (the last few). */
  readonly noticesSince: (count: number) => readonly Notice[];
  /** Whether the engine is loaded now (the background preload or a use loaded it). */
  readonly isEngineLoaded: () => boolean;
  /** Whether a feature has used the engine, as opposed to the background preload alone. */
  readonly wasEngineDemanded: () => boolean;
}

/**
 * Activation stays light: it registers features and loads nothing heavy. The engine (ts-morph, the tokenizer) is
 * loaded in the background soon after, or on first use if that comes first.
 */
export function activate(context: vscode.ExtensionContext): ScalpelApi {
  const log = createLogger();
  context.subscriptions.push(log);
  try {
    const ctx = new Ctx(context, log);
    const services = createServices(ctx);
    registerCommands(ctx, services);
    registerTools(ctx, services);
    registerLanguageModels(ctx);
    registerChat(ctx, services);
    startEnginePreload(ctx);
    trackModelReadiness(ctx);
    log.info(`Scalpel ${String(context.extension.packageJSON['version'])} activated`);
    return {
      engineLoadedDuringActivation: isEngineLoaded(),
      isEngineLoaded,
      wasEngineDemanded,
      review: { summary: () => services.review.summary(), renderedHtml: () => services.review.renderedHtml() },
      noticeCount,
      noticesSince,
    };
  } catch (error) {
    log.error('activation failed', error);
    void vscode.window.showErrorMessage(
      `Scalpel failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error;
  }
}

export function deactivate(): void {}
