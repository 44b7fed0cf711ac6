import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import { USER_TS } from './chatTestSupport';
import { editAtCursor, useScriptedModel } from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk } from './helpers';

// Issue 24: a model that declines (DECLINE: <reason>) ends the request in one round, and the reason reaches the user
// on the palette and from Apply from Clipboard (@scalpel: chat.test.ts); nothing changes.

const REASON = 'validate already rejects an empty name; nothing to add.';
const DECLINING = `The check is there already.\n\nDECLINE: ${REASON}\n`;

interface DeclinedResult {
  readonly status: string;
  readonly message?: string;
  readonly declined?: string;
  readonly editId?: string;
}

describe('a declining model: the palette and Apply from Clipboard', () => {
  const model = useScriptedModel();

  it('Edit Element at Cursor ends after one request and says the reason', async () => {
    const before = await readWorkspaceFileFromDisk(USER_TS);
    const from = model.server.requests.length;
    model.server.enqueue(scripted.answer(DECLINING));
    const { editor, result } = await editAtCursor("problems.push('name is empty')", 'reject an empty name');
    const declined = result as DeclinedResult;
    assert.equal(declined.status, 'failed');
    assert.equal(declined.declined, REASON);
    assert.equal(declined.message, `Scalpel: the model declined: ${REASON} Nothing was changed.`);
    assert.equal(declined.editId, undefined, 'no pending edit');
    assert.equal(model.server.requests.length - from, 1, 'one request, no repair round');
    assert.equal(editor.document.getText(), before);
  });

  it('Apply from Clipboard of a declining answer says so instead of "no operations"', async () => {
    await openWorkspaceFile(USER_TS);
    const result = (await vscode.commands.executeCommand(
      'scalpel.applyOperationsFromClipboard',
      DECLINING,
    )) as DeclinedResult;
    assert.equal(result.status, 'failed');
    assert.equal(result.declined, REASON);
    assert.match(result.message ?? '', /declines the task: validate already rejects an empty name/);
  });
});
