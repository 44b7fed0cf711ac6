import * as vscode from 'vscode';
import { openScalpelChat } from '../chat/openChat';
import type { Ctx } from '../ctx';
import { setUpModel } from './modelSetup';

/** The command "Scalpel: Open Chat": with no model anywhere, the setup comes first. */
export async function openChatCommand(ctx: Ctx, text: unknown): Promise<{ readonly model?: string } | undefined> {
  if ((await vscode.lm.selectChatModels()).length === 0) {
    if ((await setUpModel(ctx, undefined)) === undefined) return undefined;
    // Scalpel's models are announced again after a settings change; wait for them a moment.
    const deadline = Date.now() + 5_000;
    while ((await vscode.lm.selectChatModels()).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return openScalpelChat(typeof text === 'string' ? text : '');
}
