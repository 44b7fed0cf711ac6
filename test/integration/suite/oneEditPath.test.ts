import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import { ask, markdownOf, MODEL_ID, USER_TS, type Transcript } from './chatTestSupport';
import {
  CAN_EDIT,
  chatRequests,
  type EditResult,
  fenced,
  NEW_CAN_EDIT,
  placeCursor,
  sentUserText,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, waitFor } from './helpers';

// The palette and `@scalpel` are two shells over one edit service: the same request on the scripted model must give
// the same operations, the same advice and the same undo label from both.

interface SharedFields {
  readonly operations?: string;
  readonly undoLabel?: string;
  readonly advice?: { nextStep: string; actions: readonly { kind: string; setting?: string }[] };
}

/** Longer than the 60 characters a title keeps, so the undo label rule shows. */
const INSTRUCTION = 'let every role but viewers edit, and keep the method signature exactly as it is today';
const CURSOR = "return this.role === 'admin' || this.role === 'editor';";

describe('one edit path: the palette and @scalpel give the same result', () => {
  const model = useScriptedModel();

  before(async () => {
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length > 0, {
      description: "Scalpel's model for the scripted server",
    });
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });

  async function fromPalette(answer: ReturnType<typeof scripted.answer | typeof scripted.error>) {
    placeCursor(await openWorkspaceFile(USER_TS), CURSOR);
    model.server.enqueue(answer);
    const sent = chatRequests(model.server);
    const result = (await vscode.commands.executeCommand('scalpel.editElementAtCursor', INSTRUCTION)) as EditResult &
      SharedFields;
    assert.equal(chatRequests(model.server), sent + 1, 'one model request');
    return { result, prompt: sentUserText(model.server) };
  }

  async function fromChat(answer: ReturnType<typeof scripted.answer | typeof scripted.error>) {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    placeCursor(await openWorkspaceFile(USER_TS), CURSOR);
    model.server.enqueue(answer);
    const sent = chatRequests(model.server);
    const transcript: Transcript = await ask(`@scalpel /edit ${INSTRUCTION}`);
    assert.equal(chatRequests(model.server), sent + 1, 'one model request');
    const metadata = (transcript.result?.metadata ?? {}) as SharedFields & { editId?: string; outcome?: string };
    return { metadata, transcript, prompt: sentUserText(model.server) };
  }

  it('a verified edit: the same prompt, the same operations and the same undo label', async () => {
    const answer = scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT));
    const palette = await fromPalette(answer);
    assert.equal(palette.result.status, 'preview', palette.result.message);
    await vscode.commands.executeCommand('scalpel.rejectEdit', palette.result.editId);

    const chat = await fromChat(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
    assert.equal(chat.metadata.outcome, 'ok', markdownOf(chat.transcript));
    try {
      assert.equal(chat.prompt, palette.prompt, 'the model was asked the same thing');
      assert.ok(palette.result.operations?.includes(`REPLACE_ELEMENT ${CAN_EDIT}`), palette.result.operations);
      assert.equal(chat.metadata.operations, palette.result.operations);
      assert.equal(palette.result.undoLabel, 'Scalpel: let every role but viewers edit, and keep the method sign…');
      assert.equal(chat.metadata.undoLabel, palette.result.undoLabel);
    } finally {
      await vscode.commands.executeCommand('scalpel.rejectEdit', chat.metadata.editId);
    }
  });

  it('a refused key: the same advice, in the same words, from both', async () => {
    const palette = await fromPalette(scripted.error('invalid-api-key'));
    assert.equal(palette.result.status, 'failed');
    const chat = await fromChat(scripted.error('invalid-api-key'));
    assert.equal(chat.metadata.outcome, 'failed');

    assert.deepEqual(
      palette.result.advice?.actions.map((a) => a.kind),
      ['setApiKey', 'selectModel'],
    );
    assert.deepEqual(chat.metadata.advice, palette.result.advice);
    const nextStep = palette.result.advice?.nextStep ?? '';
    assert.ok(palette.result.message?.endsWith(nextStep), palette.result.message);
    assert.ok(markdownOf(chat.transcript).includes(nextStep), markdownOf(chat.transcript));
    assert.equal(chat.metadata.undoLabel, palette.result.undoLabel);
  });

  it('operations that do not verify: the same advice and the same failed operations', async () => {
    const wrong = fenced('REPLACE_ELEMENT src/user.ts/class[User]/method[canEdt]', NEW_CAN_EDIT);
    const palette = await fromPalette(scripted.answer(wrong));
    assert.equal(palette.result.status, 'failed');
    assert.match(palette.result.message ?? '', /did not verify/);
    const chat = await fromChat(scripted.answer(wrong));
    assert.equal(chat.metadata.outcome, 'failed');
    assert.deepEqual(
      palette.result.advice?.actions.map((a) => a.kind),
      ['showAnswer', 'plan', 'showLog'],
    );
    assert.deepEqual(chat.metadata.advice, palette.result.advice);
    assert.equal(chat.metadata.operations, palette.result.operations);
    assert.ok(palette.result.operations?.includes('method[canEdt]'));
  });
});
