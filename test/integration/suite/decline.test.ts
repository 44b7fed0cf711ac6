import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { ask, configure, KEY, markdownOf, MODEL_ID, USER_TS } from './chatTestSupport';
import { editAtCursor, useScriptedModel } from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk, scalpelExtensionOrThrow, waitFor } from './helpers';

// Issue 24: a model that declines (DECLINE: <reason>) ends the request in one round, and the reason reaches the user
// on the palette, in @scalpel and from Apply from Clipboard; nothing changes.

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

describe('a declining model: @scalpel', () => {
  let server: ScriptedLlmServer;

  before(async () => {
    server = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
    await openWorkspaceFile(USER_TS);
    await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
    await configure({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'gpt-4o-mini', smallFileLines: 10 });
    await vscode.commands.executeCommand('scalpel.setApiKey', 'openai', KEY);
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length > 0, {
      description: "Scalpel's model for the scripted server",
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
    await configure({ provider: undefined, baseUrl: undefined, model: undefined, smallFileLines: undefined });
    await server.close();
  });

  it('/edit shows the reason and the note, prepares nothing, after one request', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const editor = await openWorkspaceFile(USER_TS);
    const line = editor.document
      .getText()
      .split('\n')
      .findIndex((l) => l.includes("problems.push('name is empty')"));
    editor.selection = new vscode.Selection(line, 6, line, 6);
    const from = server.requests.filter((r) => r.path === '/v1/chat/completions').length;
    server.enqueue(scripted.answer(DECLINING));
    const answer = await ask('@scalpel /edit reject an empty name');
    const text = markdownOf(answer);
    assert.ok(text.includes(`**The model declined:** ${REASON[0]?.toUpperCase()}${REASON.slice(1)}`), text);
    assert.match(text, /Nothing was changed\./);
    assert.match(text, /> The check is there already\./);
    assert.equal(answer.result?.metadata?.outcome, 'declined');
    assert.equal(answer.result?.metadata?.editId, undefined);
    assert.equal(server.requests.filter((r) => r.path === '/v1/chat/completions').length - from, 1);
  });
});
