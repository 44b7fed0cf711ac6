import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import {
  type AcceptResult,
  CAN_EDIT,
  DISPLAY_NAME,
  editAtCursor,
  fenced,
  NEW_CAN_EDIT,
  NEW_DISPLAY_NAME,
  proposedDocument,
  proposedEditors,
  setSetting,
  typeAt,
  useScriptedModel,
} from './editTestSupport';
import { readWorkspaceFileFromDisk, waitFor } from './helpers';

describe('preview', () => {
  const model = useScriptedModel();
  let userTs: string;

  before(async () => {
    userTs = await readWorkspaceFileFromDisk('src/user.ts');
  });

  async function previewTwoChanges(): Promise<{ editor: vscode.TextEditor; editId: string }> {
    // The answer replaces displayName too: the seen-code rule (issue 18) wants it shown, so the file goes whole.
    await setSetting('smallFileLines', 1000);
    model.server.enqueue(
      scripted.answer(
        fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT) +
          '\n' +
          fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME),
      ),
    );
    const { editor, result } = await editAtCursor(
      "return this.role === 'admin' || this.role === 'editor'",
      'two changes',
    );
    assert.equal(result.status, 'preview', result.message);
    assert.ok(result.editId !== undefined);
    return { editor, editId: result.editId };
  }

  async function lensTitles(document: vscode.TextDocument): Promise<{ line: number; title: string }[]> {
    const lenses = await waitFor(
      async () => {
        const found = await vscode.commands.executeCommand<vscode.CodeLens[]>(
          'vscode.executeCodeLensProvider',
          document.uri,
        );
        return found.length > 0 ? found : undefined;
      },
      { description: 'the CodeLenses of the preview' },
    );
    return lenses.map((l) => ({ line: l.range.start.line, title: l.command?.title ?? '' }));
  }

  it('shows the proposal in a diff with Accept and Reject for the batch and for each element', async () => {
    await previewTwoChanges();
    const proposed = await proposedDocument('src/user.ts');
    const lenses = await lensTitles(proposed);
    const titles = lenses.map((l) => l.title);
    assert.ok(titles.includes('$(check-all) Accept all 2 changes'));
    assert.ok(titles.includes('$(close-all) Reject all'));
    const canEditLine = proposed
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('canEdit(): boolean'));
    const displayLine = proposed
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('displayName(): string'));
    assert.deepEqual(
      lenses.filter((l) => l.title.startsWith('$(check) Accept:')),
      [
        { line: canEditLine, title: '$(check) Accept: replace class[User]/method[canEdit]' },
        { line: displayLine, title: '$(check) Accept: replace class[User]/method[displayName]' },
      ],
    );
    // VS Code hides CodeLenses in diff editors by default; the light bulb offers the same choices there.
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      proposed.uri,
      new vscode.Range(displayLine + 1, 4, displayLine + 1, 4),
    );
    assert.deepEqual(
      actions.map((a) => a.title).filter((t) => t.startsWith('Scalpel')),
      [
        'Scalpel: accept this change (replace class[User]/method[displayName])',
        'Scalpel: reject this change (replace class[User]/method[displayName])',
        'Scalpel: accept all 2 changes',
        'Scalpel: reject all',
      ],
    );
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor');
    assert.equal(tab.input.original.scheme, 'file', 'the current file on the left');
    assert.equal(tab.input.modified.scheme, 'scalpel-proposed', 'the read-only proposal on the right');
  });

  it('names a renamed element by its old and its new name', async () => {
    model.server.enqueue(
      scripted.answer(
        fenced(
          'REPLACE_ELEMENT src/user.ts/class[User]/method[isDormant]',
          'isInactive(now: Date = new Date()): boolean {\n  return !this.lastLogin || now.getTime() - this.lastLogin.getTime() > 86_400_000 * config.dormantAfterDays;\n}',
        ),
      ),
    );
    const { result } = await editAtCursor('if (!this.lastLogin) return true;', 'rename it');
    assert.equal(result.status, 'preview', result.message);
    const proposed = await proposedDocument('src/user.ts');
    const label = 'replace class[User]/method[isDormant] → method[isInactive] (renamed)';
    const lenses = await lensTitles(proposed);
    assert.ok(
      lenses.some((l) => l.title === `$(check) Accept: ${label}`),
      lenses.map((l) => l.title).join('\n'),
    );
    const line = proposed
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('isInactive('));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      proposed.uri,
      new vscode.Range(line + 1, 4, line + 1, 4),
    );
    assert.ok(actions.some((a) => a.title === `Scalpel: accept this change (${label})`));
  });

  it('accepting elements one by one writes them together with the last choice: one Undo reverts the batch', async () => {
    const { editor, editId } = await previewTwoChanges();
    const before = editor.document.getText();

    const first = (await vscode.commands.executeCommand('scalpel.acceptChange', editId, 1)) as AcceptResult;

    assert.deepEqual(first.accepted, [1]);
    assert.deepEqual(first.applied, []);
    assert.equal(first.finished, false);
    assert.equal(editor.document.getText(), before, 'nothing is written while a change waits for a choice');
    const proposed = await proposedDocument('src/user.ts');
    const lenses = await lensTitles(proposed);
    assert.ok(
      lenses.some(
        (l) => l.title === '$(pass) Accepted: replace class[User]/method[displayName] (written with the batch)',
      ),
      lenses.map((l) => l.title).join('\n'),
    );

    const rest = (await vscode.commands.executeCommand('scalpel.acceptChange', editId, 0)) as AcceptResult;

    assert.deepEqual(rest.applied, [0, 1]);
    assert.equal(rest.finished, true);
    await waitFor(() => proposedEditors().length === 0, { description: 'the preview to close' });
    const text = editor.document.getText();
    assert.ok(text.includes("this.role !== 'viewer'") && text.includes('[admin]'));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), before, 'one Undo reverts both accepted changes');
  });

  it('rejecting the last undecided change writes the accepted ones', async () => {
    const { editor, editId } = await previewTwoChanges();

    await vscode.commands.executeCommand('scalpel.acceptChange', editId, 1);
    const rest = (await vscode.commands.executeCommand('scalpel.rejectChange', editId, 0)) as {
      finished: boolean;
      applied: number[];
    };

    assert.equal(rest.finished, true);
    assert.deepEqual(rest.applied, [1]);
    await waitFor(() => proposedEditors().length === 0, { description: 'the preview to close' });
    assert.ok(!editor.document.getText().includes("this.role !== 'viewer'"));
    assert.ok(editor.document.getText().includes('[admin]'));
  });

  it('Choose Changes keeps only the picked operations', async () => {
    const { editor, editId } = await previewTwoChanges();

    const chosen = (await vscode.commands.executeCommand('scalpel.chooseChanges', editId, [0])) as {
      included: number[];
    };
    assert.deepEqual(chosen.included, [0]);
    const proposed = await proposedDocument('src/user.ts');
    await waitFor(() => !proposed.getText().includes('[admin]'), {
      description: 'the unpicked change to leave the preview',
    });

    const accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', editId)) as AcceptResult;
    assert.deepEqual(accepted.applied, [0]);
    assert.ok(editor.document.getText().includes("this.role !== 'viewer'"));
    assert.ok(!editor.document.getText().includes('[admin]'));
  });

  it('the proposal follows what the user types while it is open', async () => {
    const { editor } = await previewTwoChanges();
    const proposed = await proposedDocument('src/user.ts');

    const shown = await vscode.window.showTextDocument(editor.document);
    await typeAt(shown, 'export function findByEmail', '// typed during the preview\n');

    await waitFor(() => proposed.getText().includes('// typed during the preview\nexport function findByEmail'), {
      description: 'the preview to pick up the typing',
    });
    assert.ok(proposed.getText().includes("this.role !== 'viewer'"));
  });

  it('a batch over several files opens the multi-file diff', async () => {
    model.server.enqueue(
      scripted.answer(
        fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT) +
          '\n' +
          fenced('CREATE_FILE src/roles.ts', "export const EDITING_ROLES = ['admin', 'editor'] as const;\n"),
      ),
    );
    const { editor, result } = await editAtCursor(
      "return this.role === 'admin' || this.role === 'editor'",
      'roles in their own file',
    );
    assert.equal(result.status, 'preview', result.message);

    const tab = await waitFor(
      () => {
        const active = vscode.window.tabGroups.activeTabGroup.activeTab;
        return active !== undefined && !(active.input instanceof vscode.TabInputText) ? active : undefined;
      },
      { description: 'the multi-file diff' },
    );
    assert.match(tab.label, /roles in their own file/);
    await vscode.commands.executeCommand('scalpel.rejectEdit', result.editId);
    assert.equal(editor.document.getText(), userTs);
  });
});
