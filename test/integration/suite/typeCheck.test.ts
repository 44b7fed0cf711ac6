import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import { ask, markdownOf, MODEL_ID } from './chatTestSupport';
import {
  type AcceptResult,
  BROKEN_CAN_EDIT,
  CAN_EDIT,
  chatRequests,
  DISPLAY_NAME,
  type EditResult,
  fenced,
  FIND_BY_EMAIL,
  NEW_DISPLAY_NAME,
  placeCursor,
  proposedDocument,
  scalpelDiagnostics,
  sentUserText,
  setSetting,
  STRICT_FIND,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk, stubModalWarnings, waitFor, workspaceUri } from './helpers';

// Issue 18 in the real host: what an edit breaks is checked before it is shown (the TypeScript checker over the
// playground's tsconfig, the changed file and its importers), and what the model saw decides what it may replace.

type TypedResult = EditResult & { readonly typeErrors?: number };

describe('type check and seen-code rule in the host', () => {
  const model = useScriptedModel();

  before(async () => {
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length > 0, {
      description: "Scalpel's model for the scripted server",
    });
  });

  afterEach(async () => {
    // useScriptedModel's defaults: no repair round, the default verification.
    await setSetting('repairRounds', 0);
    await setSetting('verify', undefined);
  });

  async function editFindByEmail(): Promise<TypedResult> {
    placeCursor(await openWorkspaceFile('src/user.ts'), 'const wanted = email.toLowerCase();');
    return (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'match the address exactly when asked',
    )) as TypedResult;
  }

  it('a signature change that breaks a caller goes back to the model, then shows on the caller until rejected', async () => {
    await setSetting('repairRounds', 1);
    const answer = fenced(`REPLACE_ELEMENT ${FIND_BY_EMAIL}`, STRICT_FIND);
    model.server.enqueue(scripted.answer(answer), scripted.answer(answer));
    const sent = chatRequests(model.server);
    const result = await editFindByEmail();

    assert.equal(chatRequests(model.server), sent + 2, 'one repair round');
    const repair = sentUserText(model.server);
    assert.match(repair, /src\/index\.ts\/function\[editorFor\]: TS2554 Expected 3 arguments, but got 2/);
    assert.equal(result.status, 'preview', result.message);
    assert.equal(result.typeErrors, 1);
    const index = workspaceUri('src/index.ts');
    const [marked] = await waitFor(
      () => (scalpelDiagnostics(index).length > 0 ? scalpelDiagnostics(index) : undefined),
      {
        description: 'the caller marked',
      },
    );
    assert.match(marked?.message ?? '', /^Expected 3 arguments, but got 2 \(if you accept the pending Scalpel edit/);
    assert.equal(marked?.range.start.line, 16, 'the line of the call in editorFor');

    await vscode.commands.executeCommand('scalpel.rejectEdit', result.editId);
    await waitFor(() => scalpelDiagnostics(index).length === 0, { description: 'the mark gone with the edit' });
    assert.doesNotMatch(await readWorkspaceFileFromDisk('src/user.ts'), /exact: boolean/);
  });

  it('an error inside the changed element is marked on the proposed side, and Accept still applies it', async () => {
    placeCursor(await openWorkspaceFile('src/user.ts'), "return this.role === 'admin' || this.role === 'editor';");
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, BROKEN_CAN_EDIT)));
    const result = (await vscode.commands.executeCommand('scalpel.editElementAtCursor', 'admins only')) as TypedResult;
    assert.equal(result.status, 'preview', result.message);
    assert.equal(result.typeErrors, 1);

    const proposed = await proposedDocument('src/user.ts');
    const [marked] = await waitFor(
      () => (scalpelDiagnostics(proposed.uri).length > 0 ? scalpelDiagnostics(proposed.uri) : undefined),
      { description: 'the proposed side marked' },
    );
    assert.equal(proposed.lineAt(marked?.range.start.line ?? 0).text.trim(), "return this.rol === 'admin';");
    assert.equal(marked?.code, 'TS2551');

    // Accept asks once, with the count (issue 29): the user takes it anyway.
    const allow = stubModalWarnings('Accept Anyway');
    let accepted: AcceptResult;
    try {
      accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId)) as AcceptResult;
    } finally {
      allow.restore();
    }
    assert.deepEqual(allow.asked.length, 1, 'asked once');
    assert.equal(accepted.applied.length, 1);
    assert.match((await openWorkspaceFile('src/user.ts')).document.getText(), /this\.rol === 'admin'/);
  });

  it('chat lists the errors beside the Apply link', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    placeCursor(await openWorkspaceFile('src/user.ts'), 'const wanted = email.toLowerCase();');
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${FIND_BY_EMAIL}`, STRICT_FIND)));
    const transcript = await ask('@scalpel /edit match the address exactly when asked');
    const markdown = markdownOf(transcript);
    assert.match(markdown, /\*\*Type check:\*\* this edit adds 1 TypeScript error the model did not fix/);
    assert.match(markdown, /src\/index\.ts\/function\[editorFor\]: TS2554/);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });

  it('scalpel.verify: syntax checks the parse alone', async () => {
    await setSetting('verify', 'syntax');
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${FIND_BY_EMAIL}`, STRICT_FIND)));
    const result = await editFindByEmail();
    assert.equal(result.status, 'preview', result.message);
    assert.equal(result.typeErrors, undefined);
  });

  it('a replace of an element the model saw only as a signature is refused, then applies once it is shown', async () => {
    await setSetting('repairRounds', 1);
    placeCursor(await openWorkspaceFile('src/user.ts'), "return this.role === 'admin' || this.role === 'editor';");
    const blind = scripted.answer(fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME));
    model.server.enqueue(blind, scripted.answer(fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME)));
    const first = sentUserText(model.server, -1);
    const result = (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'square brackets',
    )) as TypedResult;
    const prompt = sentUserText(model.server, -2);
    const repair = sentUserText(model.server, -1);
    assert.notEqual(prompt, first);
    assert.doesNotMatch(prompt, /\(admin\)`/, 'displayName went as a signature');
    assert.match(repair, /displayName/);
    assert.match(repair, /\(admin\)`/, 'the repair round shows it in full');
    assert.equal(result.status, 'preview', result.message);
  });

  it('without a repair round, the blind replace writes nothing', async () => {
    const before = (await openWorkspaceFile('src/user.ts')).document.getText();
    placeCursor(await openWorkspaceFile('src/user.ts'), "return this.role === 'admin' || this.role === 'editor';");
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME)));
    const result = (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'square brackets',
    )) as TypedResult;
    assert.equal(result.status, 'failed');
    assert.match(result.message ?? '', /displayName/);
    assert.equal((await openWorkspaceFile('src/user.ts')).document.getText(), before);
    assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), before);
  });

  it('a REPLACE_FILE written from the focused view, which left out a stubbed function, writes nothing', async () => {
    const before = (await openWorkspaceFile('src/user.ts')).document.getText();
    placeCursor(await openWorkspaceFile('src/user.ts'), "return this.role === 'admin' || this.role === 'editor';");
    // What a model writes back from the focused view: findByEmail was only named there, so it is gone.
    const rewritten = before.slice(0, before.indexOf('export function findByEmail')).trimEnd() + '\n';
    model.server.enqueue(scripted.answer(fenced('REPLACE_FILE src/user.ts', rewritten)));
    const result = (await vscode.commands.executeCommand('scalpel.editElementAtCursor', 'tidy up')) as TypedResult;
    assert.equal(result.status, 'failed');
    assert.match(result.message ?? '', /REPLACE_FILE of src\/user\.ts.*did not see whole/s);
    assert.equal((await openWorkspaceFile('src/user.ts')).document.getText(), before);
    assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), before);
  });

  it('deleting a function another file imports goes back to the model with the broken import, then stops naming the use', async () => {
    await setSetting('repairRounds', 1);
    placeCursor(await openWorkspaceFile('src/user.ts'), 'const wanted = email.toLowerCase();');
    const answer = `DELETE_ELEMENT ${FIND_BY_EMAIL}\n`;
    model.server.enqueue(scripted.answer(answer), scripted.answer(answer));
    const sent = chatRequests(model.server);
    const result = await vscode.commands.executeCommand<TypedResult>('scalpel.editElementAtCursor', 'drop it');
    assert.equal(chatRequests(model.server), sent + 2, 'one repair round');
    assert.match(
      sentUserText(model.server),
      /src\/index\.ts\/import\[\.\/user\]: TS2305 .*has no exported member 'findByEmail'/,
    );
    // A use left behind is no type error to accept anyway: the edit stops, naming it (issue 24 item 9).
    assert.equal(result.status, 'failed', result.message);
    assert.match(result.message ?? '', /1 use of findByEmail remains outside what the batch changes/);
  });
});
