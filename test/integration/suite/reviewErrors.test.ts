import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ScalpelApi } from '../../../src/extension';
import { scripted } from '../../support/llmServer';
import {
  type AcceptResult,
  BROKEN_CAN_EDIT,
  CAN_EDIT,
  type EditResult,
  fenced,
  FIND_BY_EMAIL,
  placeCursor,
  scalpelDiagnostics,
  setSetting,
  STRICT_FIND,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, scalpelExtensionOrThrow, stubModalWarnings, waitFor, workspaceUri } from './helpers';

// Issue 29, items 2 and 5: the new type errors of an edit are where the user decides (the Review panel, per change,
// with a link to each), Accept asks once, the errors accepted stay listed where the notification points, and a
// summary says what was written.

function api(): ScalpelApi {
  return scalpelExtensionOrThrow().exports as ScalpelApi;
}

describe('review: new type errors where the user decides', function () {
  this.timeout(90_000);
  const model = useScriptedModel();

  async function previewWithErrors(): Promise<string> {
    // The whole file goes to the model, so it saw both elements it replaces.
    await setSetting('smallFileLines', 1000);
    placeCursor(await openWorkspaceFile('src/user.ts'), "return this.role === 'admin' || this.role === 'editor'");
    model.server.enqueue(
      scripted.answer(
        `${fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, BROKEN_CAN_EDIT)}\n${fenced(`REPLACE_ELEMENT ${FIND_BY_EMAIL}`, STRICT_FIND)}`,
      ),
    );
    const result = (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'admins only; exact match on demand',
    )) as EditResult & { typeErrors?: number };
    assert.equal(result.status, 'preview', result.message);
    assert.equal(result.typeErrors, 2);
    assert.ok(result.editId !== undefined);
    return result.editId;
  }

  it('the Review panel shows the count, each change its own errors, and a link to each, a file not open included', async () => {
    const editId = await previewWithErrors();
    const html = await waitFor(
      () => api().review.renderedHtml()?.includes(editId) === true && api().review.renderedHtml(),
      {
        description: 'the review panel with the edit',
      },
    );
    const [edit] = api().review.summary();
    assert.equal(edit?.typeErrors.total, 2);
    const canEdit = edit?.items.find((i) => i.label.includes('canEdit'));
    assert.deepEqual(
      canEdit?.typeErrors.map((e) => [e.code, e.file]),
      [[2551, 'src/user.ts']],
    );
    assert.deepEqual(
      edit?.items.find((i) => i.label.includes('findByEmail'))?.typeErrors,
      [],
      'the broken call is in a caller, not in findByEmail',
    );
    assert.deepEqual(
      edit?.typeErrors.elsewhere.map((e) => [e.code, e.where]),
      [[2554, 'src/index.ts:17']],
    );
    assert.match(html, /2 new type errors/);
    assert.match(html, /1 new type error<\/span> in this change: TS2551/);

    // The link to the caller's error opens src/index.ts, which no editor had open, at the call.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const link = /href="command:scalpel\.showTypeError\?([^"]+)"[^>]*>src\/index\.ts:17</.exec(html);
    assert.ok(link, 'a link to src/index.ts:17');
    const args = JSON.parse(
      decodeURIComponent((link[1] ?? '').replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))),
    ) as unknown[];
    await vscode.commands.executeCommand('scalpel.showTypeError', ...args);
    const shown = await waitFor(
      () =>
        vscode.window.activeTextEditor?.document.uri.path.endsWith('/src/index.ts') && vscode.window.activeTextEditor,
      { description: 'src/index.ts shown' },
    );
    assert.equal(shown.selection.active.line, 16);
    await vscode.commands.executeCommand('scalpel.rejectEdit', editId);
  });

  it('Accept All asks once, with the count; the safe answer writes nothing', async () => {
    const editId = await previewWithErrors();
    const before = (await openWorkspaceFile('src/user.ts')).document.getText();
    const cancel = stubModalWarnings(undefined);
    let declined;
    try {
      declined = (await vscode.commands.executeCommand('scalpel.acceptEdit', editId)) as { status?: string };
    } finally {
      cancel.restore();
    }
    assert.deepEqual(cancel.asked, ['Accept with 2 new type errors?']);
    assert.equal(declined.status, 'cancelled');
    assert.equal((await openWorkspaceFile('src/user.ts')).document.getText(), before);
    assert.equal(api().review.summary()[0]?.editId, editId, 'still pending');
    await vscode.commands.executeCommand('scalpel.rejectEdit', editId);
  });

  it('after Accept Anyway the errors are in the Problems view, a file never opened included, and a summary says what was written', async () => {
    const editId = await previewWithErrors();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const notices = api().noticeCount();
    const allow = stubModalWarnings('Accept Anyway');
    let accepted;
    try {
      // One change, then the rest: the question comes once for the errors it has not asked about.
      accepted = (await vscode.commands.executeCommand('scalpel.acceptChange', editId, 0)) as AcceptResult;
      assert.equal(accepted.finished, false);
      accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', editId)) as AcceptResult;
    } finally {
      allow.restore();
    }
    assert.deepEqual(allow.asked, ['Accept with 2 new type errors?']);
    assert.deepEqual([...accepted.applied].sort(), [0, 1]);

    const index = workspaceUri('src/index.ts');
    const [listed] = await waitFor(
      () => (scalpelDiagnostics(index).length > 0 ? scalpelDiagnostics(index) : undefined),
      {
        description: 'the caller listed in the Problems view',
      },
    );
    assert.equal(listed?.code, 'TS2554');
    assert.equal(listed?.range.start.line, 16);
    assert.match(listed?.message ?? '', /added by the accepted Scalpel edit/);

    const summary = api()
      .noticesSince(notices)
      .find((n) => n.message.startsWith('Scalpel wrote'));
    assert.equal(
      summary?.message,
      'Scalpel wrote 2 changes in src/user.ts (unsaved; one Undo reverts it). It adds 2 new TypeScript errors, listed in the Problems view.',
    );
    assert.deepEqual(summary?.actions, ['Show in Problems']);

    // Undo takes the edit back, and its entries with it.
    const document = await vscode.workspace.openTextDocument(workspaceUri('src/user.ts'));
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    await waitFor(
      () => scalpelDiagnostics(workspaceUri('src/user.ts')).length === 0 && scalpelDiagnostics(index).length === 0,
      { description: "the edit's entries gone with the undo, the caller's too" },
    );
  });

  it('the summary after the last decision counts what was rejected', async () => {
    const editId = await previewWithErrors();
    const notices = api().noticeCount();
    await vscode.commands.executeCommand('scalpel.rejectChange', editId, 0);
    const allow = stubModalWarnings('Accept Anyway');
    try {
      await vscode.commands.executeCommand('scalpel.acceptEdit', editId);
    } finally {
      allow.restore();
    }
    assert.deepEqual(allow.asked, ['Accept with 1 new type error?'], 'the rejected change brings its error no more');
    const summary = api()
      .noticesSince(notices)
      .find((n) => n.message.startsWith('Scalpel wrote'));
    assert.match(summary?.message ?? '', /^Scalpel wrote 1 change in src\/user\.ts; 1 rejected \(unsaved/);
  });
});
