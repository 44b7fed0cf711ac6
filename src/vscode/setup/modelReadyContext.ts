import * as vscode from 'vscode';
import { CONFIG_SECTION } from '../config';
import type { Ctx } from '../ctx';
import { modelReadiness } from './modelSetup';

/**
 * `scalpel.modelReady`: whether the next request has a model to go to. The walkthrough's "Choose a language model" step
 * is complete on it (`onContext`), so it is checked by what the user did (a model set up in the walkthrough, from a
 * first request, in the settings, or one that VS Code already has), not by a command having run (issue 29).
 */
export const MODEL_READY_KEY = 'scalpel.modelReady';

/** After activation settles: the readiness probe may ask a local Ollama, which need not delay anything. */
const FIRST_CHECK_DELAY_MS = 3_000;

export function trackModelReadiness(ctx: Ctx): void {
  let checking: Promise<void> | undefined;
  let again = false;
  const update = (): void => {
    if (checking !== undefined) {
      again = true;
      return;
    }
    checking = markModelReadiness(ctx)
      .catch((error: unknown) =>
        ctx.log.warn(
          `could not tell whether a model is set up: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        checking = undefined;
        if (again) {
          again = false;
          update();
        }
      });
  };
  const timer = setTimeout(update, FIRST_CHECK_DELAY_MS);
  ctx.subscriptions.push(
    { dispose: () => clearTimeout(timer) },
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(CONFIG_SECTION)) update();
    }),
    ctx.extensionContext.secrets.onDidChange(() => update()),
    vscode.lm.onDidChangeChatModels(() => update()),
  );
}

/** Right after a setup: the step is checked without waiting for the events above. */
export async function markModelReadiness(ctx: Ctx): Promise<void> {
  const readiness = await modelReadiness(ctx);
  await vscode.commands.executeCommand('setContext', MODEL_READY_KEY, readiness.ready);
}
