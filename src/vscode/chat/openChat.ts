import * as vscode from 'vscode';
import { SCALPEL_LM_VENDOR } from '../modelAccess';

/**
 * Opens the Chat view ready for `@scalpel`. Chat participants answer in Ask mode: Agent mode offers only models
 * that call tools, which Scalpel's endpoints do not, and without Copilot they are the only models, so a chat opened
 * in Agent mode refuses `@scalpel` with "Language model unavailable". One of Scalpel's models is picked when no
 * other model is there to pick.
 */
export async function openScalpelChat(text = '', send = false): Promise<void> {
  const others = (await vscode.lm.selectChatModels()).filter((m) => m.vendor !== SCALPEL_LM_VENDOR);
  const [ours] = await vscode.lm.selectChatModels({ vendor: SCALPEL_LM_VENDOR });
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: `@scalpel ${text}`,
    isPartialQuery: !send,
    mode: 'ask',
    ...(others.length === 0 && ours !== undefined ? { modelSelector: { vendor: ours.vendor, id: ours.id } } : {}),
  });
}
