import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import {
  type AcceptResult,
  CAN_EDIT,
  DISPLAY_NAME,
  editAtCursor,
  type EditResult,
  fenced,
  NEW_CAN_EDIT,
  NEW_DISPLAY_NAME,
  placeCursor,
  proposedDocument,
  proposedEditors,
  setSetting,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk, scalpelExtensionOrThrow, waitFor } from './helpers';

interface Keybinding {
  readonly command: string;
  readonly key: string;
  readonly mac?: string;
  readonly when?: string;
}

describe('keyboard', () => {
  const model = useScriptedModel();

  function keybindings(): Keybinding[] {
    return scalpelExtensionOrThrow().packageJSON.contributes.keybindings as Keybinding[];
  }

  it('binds Edit Element at Cursor, Accept and Reject, the last two only while a preview shows', async () => {
    const bound = new Map(keybindings().map((k) => [k.command, k]));
    assert.equal(bound.get('scalpel.editElementAtCursor')?.key, 'ctrl+alt+e');
    assert.equal(bound.get('scalpel.editElementAtCursor')?.mac, 'cmd+alt+e');
    assert.equal(bound.get('scalpel.acceptEdit')?.when, 'scalpel.previewActive');
    assert.equal(bound.get('scalpel.rejectEdit')?.when, 'scalpel.previewActive');
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const { command } of keybindings())
      assert.ok(registered.has(command), `${command} is bound but not registered`);
  });

  it('the reject and accept keys (the commands without arguments) act on the edit whose preview is showing', async () => {
    const original = await readWorkspaceFileFromDisk('src/user.ts');
    const editor = await openWorkspaceFile('src/user.ts');
    placeCursor(editor, "return this.role === 'admin'");
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
    const discarded = (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'viewers cannot edit',
    )) as EditResult;
    assert.equal(discarded.status, 'preview', discarded.message);
    await proposedDocument('src/user.ts');

    const rejected = (await vscode.commands.executeCommand('scalpel.rejectEdit')) as {
      editId: string;
      finished: boolean;
    };

    assert.equal(rejected.editId, discarded.editId);
    assert.equal(rejected.finished, true);
    await waitFor(() => proposedEditors().length === 0, { description: 'the preview to close' });
    assert.equal(editor.document.getText(), original);
    assert.equal(editor.document.isDirty, false);
    const again = (await vscode.commands.executeCommand('scalpel.acceptEdit', discarded.editId)) as AcceptResult;
    assert.equal(again.status, 'failed', 'a rejected edit is forgotten');
    // A late click names the edit by what it did, never by its internal id (issue 14).
    assert.equal(
      again.message,
      'The Scalpel edit "viewers cannot edit" was rejected already; nothing of it was written.',
    );

    await vscode.window.showTextDocument(editor.document);
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
    const kept = (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'viewers cannot edit',
    )) as EditResult;
    assert.equal(kept.status, 'preview', kept.message);
    await proposedDocument('src/user.ts');

    const accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit')) as AcceptResult;

    assert.equal(accepted.editId, kept.editId);
    assert.ok(editor.document.getText().includes("return this.role !== 'viewer';"));
  });

  it('Accept Change at Cursor takes the change under the cursor in the preview', async () => {
    // The answer replaces displayName too: the seen-code rule (issue 18) wants it shown, so the file goes whole.
    await setSetting('smallFileLines', 1000);
    model.server.enqueue(
      scripted.answer(
        fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT) +
          '\n' +
          fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME),
      ),
    );
    const { editor, result } = await editAtCursor("return this.role === 'admin'", 'two changes');
    assert.equal(result.status, 'preview', result.message);
    const proposed = await proposedDocument('src/user.ts');
    const previewEditor = await vscode.window.showTextDocument(proposed);
    placeCursor(previewEditor, '[admin]');

    const accepted = (await vscode.commands.executeCommand('scalpel.acceptChange')) as AcceptResult;

    assert.deepEqual(accepted.accepted, [1]);
    assert.deepEqual(accepted.applied, [], 'written with the last choice of the batch');
    await vscode.commands.executeCommand('scalpel.rejectEdit', result.editId);
    assert.ok(editor.document.getText().includes('[admin]'));
    assert.ok(!editor.document.getText().includes("this.role !== 'viewer'"));
  });
});
