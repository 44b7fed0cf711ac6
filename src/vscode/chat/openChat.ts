import * as vscode from 'vscode';
import { SCALPEL_LM_VENDOR } from '../modelAccess';

/**
 * Opens the Chat view ready for `@scalpel`. VS Code hands a chat participant the model picked in the chat, and a
 * fresh profile without Copilot has none picked: every request then fails with "Language model unavailable" before
 * `@scalpel` runs, in any mode (checked in code-server 1.139). Opening the chat with one of Scalpel's models picked
 * fixes that for good: VS Code remembers the pick, so later new chats work too. Copilot users keep their own pick.
 */
export async function openScalpelChat(text = '', send = false): Promise<{ readonly model?: string }> {
  const others = (await vscode.lm.selectChatModels()).filter((m) => m.vendor !== SCALPEL_LM_VENDOR);
  const [ours] = await vscode.lm.selectChatModels({ vendor: SCALPEL_LM_VENDOR });
  const pick = others.length === 0 && ours !== undefined;
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: `@scalpel ${text}`,
    isPartialQuery: !send,
    ...(pick ? { mode: 'ask', modelSelector: { vendor: ours.vendor, id: ours.id } } : {}),
  });
  return pick ? { model: ours.id } : {};
}
