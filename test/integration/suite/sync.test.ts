import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import { ask, MODEL_ID, userMessageOf } from './chatTestSupport';
import {
  type AcceptResult,
  CAN_EDIT,
  chatRequests,
  DISPLAY_NAME,
  type EditResult,
  fenced,
  NEW_CAN_EDIT,
  NEW_DISPLAY_NAME,
  placeCursor,
  setSetting,
  startEditAtCursor,
  typeAt,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, waitFor } from './helpers';

// Sync with the user's own edits (issue 11) in the real host: a chat follow-up tells the model what the user changed
// since it last saw the file, and applying merges per element under scalpel.conflictPolicy.

const VALIDATE = 'src/user.ts/class[User]/method[validate]';
const STRICTER_VALIDATE = fenced(
  `REPLACE_ELEMENT ${VALIDATE}`,
  `validate(): string[] {
  const problems: string[] = [];
  if (this.name.trim().length === 0) problems.push('name is empty');
  if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(this.email)) problems.push('email is not an address');
  return problems;
}`,
);

describe('sync with the user edits', () => {
  const model = useScriptedModel();

  it('@scalpel /edit, the user edits the target and another method, the follow-up prompt carries the change summary', async () => {
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length > 0, {
      description: "Scalpel's model for the scripted server",
    });
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const editor = await openWorkspaceFile('src/user.ts');
    placeCursor(editor, "problems.push('name is empty')");
    model.server.enqueue(scripted.answer(STRICTER_VALIDATE));
    const first = await ask('@scalpel /edit require a dot in the domain');
    const editId = first.result?.metadata?.editId;
    assert.ok(editId, JSON.stringify(first.result));
    await vscode.commands.executeCommand('scalpel.acceptEdit', editId);
    assert.ok(editor.document.getText().includes('\\.[^@\\s]+$/'), 'the first edit applied');

    // The user edits the target method and another one.
    await typeAt(editor, '    return problems;', '    // reviewed by the user\n');
    await typeAt(editor, '    const days = (now.getTime()', '    // dormant means no login for a while\n');
    const shown = await vscode.window.showTextDocument(editor.document);
    placeCursor(shown, "problems.push('name is empty')");
    const before = model.server.requests.length;
    model.server.enqueue(scripted.answer(STRICTER_VALIDATE));
    await ask('@scalpel /edit also reject an empty email');

    const prompt = userMessageOf(model.server.requests.slice(before).find((r) => r.method === 'POST'));
    assert.match(prompt, /Changed by the user since you last saw it/);
    assert.match(prompt, /~ class\[User\]\/method\[isDormant\] modified/);
    assert.match(prompt, /\+ {4}\/\/ dormant means no login for a while/);
    assert.match(prompt, /~ class\[User\]\/method\[validate\] modified/);
    // isDormant is outside the focus: only its changed line and one line of context, not the method again.
    assert.ok(!prompt.includes('return days > config.dormantAfterDays'), 'isDormant is not sent whole');
    // The model's own applied change is the baseline, not reported as the user's.
    assert.ok(!/^ {2}\+.*\\\.\[\^@/m.test(prompt), "the model's own change is not the user's");
    await vscode.commands.executeCommand('scalpel.rejectEdit');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  const TWO_CHANGES =
    fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT) +
    '\n' +
    fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME);

  /** An edit whose answer arrives late; the user types into canEdit meanwhile; then Accept. */
  async function editWhileTypingIntoCanEdit(): Promise<{
    editor: vscode.TextEditor;
    result: EditResult;
    accepted: Thenable<AcceptResult>;
  }> {
    await setSetting('smallFileLines', 1000);
    model.server.enqueue(scripted.answer(TWO_CHANGES, { delayMs: 2500 }));
    const before = chatRequests(model.server);
    const { editor, running } = await startEditAtCursor(
      "return this.role === 'admin' || this.role === 'editor'",
      'two changes',
    );
    await waitFor(() => chatRequests(model.server) > before, { description: 'the request to reach the model' });
    await typeAt(editor, "    return this.role === 'admin' || this.role === 'editor';", '    // mine\n');
    const result = await running;
    const accepted = vscode.commands.executeCommand('scalpel.acceptEdit', result.editId) as Thenable<AcceptResult>;
    return { editor, result, accepted };
  }

  afterEach(async () => {
    await setSetting('conflictPolicy', undefined);
    await setSetting('smallFileLines', 10);
  });

  it('user_wins keeps the user element, the other change applies', async () => {
    await setSetting('conflictPolicy', 'user_wins');
    const { editor, accepted } = await editWhileTypingIntoCanEdit();
    const done = await accepted;
    assert.deepEqual(done.applied, [1]);
    const text = editor.document.getText();
    assert.ok(text.includes("    // mine\n    return this.role === 'admin' || this.role === 'editor';"));
    assert.ok(text.includes('[admin]'));
  });

  it("agent_wins writes the model's version over the user's, and one Undo brings the user's back", async () => {
    await setSetting('conflictPolicy', 'agent_wins');
    const { editor, result, accepted } = await editWhileTypingIntoCanEdit();
    assert.equal(result.status, 'preview', result.message);
    const done = await accepted;
    assert.deepEqual(done.applied, [0, 1]);
    const text = editor.document.getText();
    assert.ok(text.includes("return this.role !== 'viewer';"));
    assert.ok(!text.includes('// mine'));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor(() => editor.document.getText().includes('    // mine\n'), {
      description: "the user's version after Undo",
    });
    assert.ok(!editor.document.getText().includes('[admin]'), 'one Undo reverts the whole batch');
  });

  it('ask shows a pick with both versions; taking the model version applies it', async () => {
    await setSetting('conflictPolicy', 'ask');
    const { editor, result, accepted } = await editWhileTypingIntoCanEdit();
    assert.equal(result.status, 'preview', result.message);
    // The QuickPick: "Keep your version" first, "Take the model's version" second.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const done = await accepted;
    assert.deepEqual(done.applied, [0, 1]);
    const text = editor.document.getText();
    assert.ok(text.includes("return this.role !== 'viewer';"));
    assert.ok(text.includes('[admin]'));
  });
});
