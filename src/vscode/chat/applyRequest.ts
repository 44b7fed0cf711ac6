import * as vscode from 'vscode';
import type { AcceptResult } from '../preview/editSessions';
import { UserFacingError } from '../userError';
import { chatResult, metadataOf } from './chatResult';
import { inlineCode, plural } from './chatText';
import { actionLinks, type ChatTurn } from './requestSupport';

/**
 * `/apply [edit-N]`: writes the edit an `/edit` answer prepared, and says what it wrote (issue 29). An answer cannot
 * change once shown, so its Apply link sends this request and the reply below it is the outcome: "wrote 1 change in
 * `.vscode/settings.json`", or why nothing was written. The same accept as the preview's: a protected file the user
 * did not name is asked about, new type errors are asked about once.
 */

const EDIT_ID = /\bedit-\d+\b/;

/** The query an answer's Apply link sends. */
export function applyQuery(editId: string): string {
  return `@scalpel /apply ${editId}`;
}

/** The edit the request names, else the one the last `/edit` answer of this chat prepared. */
function editIdOf(turn: ChatTurn): string | undefined {
  const named = EDIT_ID.exec(turn.instruction)?.[0];
  if (named !== undefined) return named;
  for (let i = turn.chatContext.history.length - 1; i >= 0; i--) {
    const entry = turn.chatContext.history[i];
    if (entry === undefined || !('result' in entry)) continue;
    const editId = metadataOf(entry.result)?.editId;
    if (editId !== undefined) return editId;
  }
  return undefined;
}

export async function handleApply(turn: ChatTurn): Promise<vscode.ChatResult> {
  const { services, stream, instruction } = turn;
  const editId = editIdOf(turn);
  if (editId === undefined) {
    stream.markdown('There is no edit to apply in this chat: ask for one with `@scalpel /edit <instruction>` first.');
    return chatResult({ command: 'apply', instruction, outcome: 'usage' });
  }
  let result: AcceptResult;
  try {
    result = await services.edits.accept(editId);
  } catch (error) {
    if (error instanceof vscode.CancellationError) {
      stream.markdown('**Nothing was written:** you did not accept it. The edit is still pending: ');
      actionLinks(stream, [
        { command: 'scalpel.previewEdit', title: 'Preview', arguments: [editId] },
        { command: 'workbench.action.chat.open', title: 'Apply', arguments: [{ query: applyQuery(editId) }] },
        { command: 'scalpel.rejectEdit', title: 'Discard', arguments: [editId] },
      ]);
      return chatResult({ command: 'apply', instruction, outcome: 'cancelled', editId });
    }
    if (error instanceof UserFacingError) {
      stream.markdown(`**Nothing was written:** ${error.message.replace(/^Scalpel:\s*/, '')}`);
      if (error.actions.includes('Open Settings'))
        actionLinks(stream, [
          { command: 'workbench.action.openSettings', title: 'Open Settings', arguments: ['scalpel.allowWrite'] },
        ]);
      return chatResult({ command: 'apply', instruction, outcome: 'failed', editId });
    }
    throw error;
  }
  stream.markdown(appliedText(result));
  return chatResult({ command: 'apply', instruction, outcome: result.applied.length > 0 ? 'ok' : 'nothing', editId });
}

function appliedText(result: AcceptResult): string {
  const files = result.files.map(inlineCode).join(', ');
  const conflicts = result.conflicts.length;
  const leftOut =
    conflicts === 0
      ? ''
      : ` ${plural(conflicts, 'change')} left out: you changed ${conflicts === 1 ? 'that element' : 'those elements'} meanwhile, and your text is kept.`;
  if (result.applied.length === 0) return `**Nothing was written.**${leftOut}`;
  return `**Applied:** wrote ${plural(result.applied.length, 'change')} in ${files} (unsaved; one Undo in the file reverts it).${leftOut}`;
}
