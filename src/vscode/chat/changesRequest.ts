import type * as vscode from 'vscode';
import { CHAT_CONVERSATION } from './chatConversation';
import { focusOfRequestOrThrow } from './chatFocus';
import { chatResult } from './chatResult';
import { codeBlock, inlineCode } from './chatText';
import type { ChatTurn } from './requestSupport';

/** What the answer may show; beyond it diffs collapse to signatures and counts. */
const CHANGES_ANSWER_TOKENS = 4_000;

/**
 * `/changes`: what you changed in the files in focus (your `#` references, else the active file) since the model
 * last saw them in this chat, element by element: the summary the next `/edit` sends instead of the elements again.
 */
export async function handleChanges(turn: ChatTurn): Promise<vscode.ChatResult> {
  const { ctx, services, request, stream, instruction } = turn;
  const focus = await focusOfRequestOrThrow(ctx, request);
  const engine = ctx.engine();
  const conversation = services.edits.conversation(CHAT_CONVERSATION);
  const changed = [];
  for (const file of focus.files) {
    const changes = engine.changesSinceBaseline(conversation, file.path, file.text);
    if (changes === undefined) {
      stream.markdown(`- ${inlineCode(file.path)}: the model has not seen it in this chat yet.\n`);
    } else if (changes.status === 'unchanged') {
      stream.markdown(`- ${inlineCode(file.path)}: unchanged since the model last saw it.\n`);
    } else changed.push(changes);
  }
  if (changed.length > 0) {
    const rendered = engine.renderChanges(changed, {
      counter: engine.createTokenCounter(ctx.config(focus.root).tokenEncoding),
      budget: CHANGES_ANSWER_TOKENS,
      moreHint: 'ask /changes for fewer files',
    });
    // The rendered block heads each file with its summary: said once, not again as a list above it.
    stream.markdown(
      `**Your changes since the model last saw ${changed.length === 1 ? 'the file' : 'the files'}:**\n\n`,
    );
    stream.markdown(`${codeBlock(rendered.text, 'diff')}\n`);
    stream.markdown('The next `/edit` in this chat sends these changes to the model.\n');
  }
  return chatResult({ command: 'changes', instruction, outcome: changed.length > 0 ? 'ok' : 'nothing' });
}
