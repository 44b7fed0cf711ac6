import * as vscode from 'vscode';
import type { Ctx } from './ctx';
import { type EngineLoading, loadEngineShowingProgress, scheduleEnginePreload } from './enginePreload';

/** What the user sees while the engine loads on a first command that came before the background preload. */
export const ENGINE_LOADING_MESSAGE = 'Scalpel: loading its TypeScript engine (first use)…';

/** Loads the engine in the background soon after activation (never during it). */
export function startEnginePreload(ctx: Ctx): void {
  ctx.subscriptions.push(
    scheduleEnginePreload({
      isLoaded: () => ctx.isEngineLoaded(),
      load: () => ctx.preloadEngine(),
      onLoaded: (ms) => ctx.log.info(`engine preloaded in the background in ${ms} ms`),
      onError: (error) =>
        ctx.log.warn(`engine preload failed: ${error instanceof Error ? error.message : String(error)}`),
    }),
  );
}

/** Before a command that needs the engine: a notification at once while it loads, nothing when it is loaded. */
export function ensureEngineWithNotification(ctx: Ctx): Promise<void> {
  return loadEngineShowingProgress(engineOf(ctx), (task) =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: ENGINE_LOADING_MESSAGE }, task),
  );
}

/** The same in a chat answer: a progress line first. */
export function ensureEngineInChat(ctx: Ctx, stream: vscode.ChatResponseStream): Promise<void> {
  return loadEngineShowingProgress(engineOf(ctx), async (task) => {
    stream.progress(ENGINE_LOADING_MESSAGE.replace(/^Scalpel: l/, 'L'));
    await task();
  });
}

function engineOf(ctx: Ctx): EngineLoading {
  return { isLoaded: () => ctx.isEngineLoaded(), load: () => void ctx.engine() };
}
