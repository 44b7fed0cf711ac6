import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ScalpelApi } from '../../../src/extension';
import { scripted } from '../../support/llmServer';
import {
  type AcceptResult,
  CAN_EDIT,
  chatRequests,
  DISPLAY_NAME,
  editAtCursor,
  type EditResult,
  fenced,
  NEW_CAN_EDIT,
  NEW_DISPLAY_NAME,
  placeCursor,
  proposedDocument,
  proposedEditors,
  sentUserText,
  setSetting,
  typeAt,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, scalpelExtensionOrThrow, waitFor } from './helpers';

// Issue 14: a preview you can act on (the review panel, Ctrl+., labelled actions), typing into a pending element
// said at once with Retry, and the smaller papercuts of item 7.

function api(): ScalpelApi {
  return scalpelExtensionOrThrow().exports as ScalpelApi;
}

/** The command links of the review panel's HTML, as a click would run them. */
function linksOf(html: string): { label: string; command: string; args: unknown[] }[] {
  const links: { label: string; command: string; args: unknown[] }[] = [];
  for (const match of html.matchAll(/<a class="button[^"]*" href="command:([\w.]+)\?([^"]*)"[^>]*>([^<]+)<\/a>/g)) {
    const [, command = '', query = '', label = ''] = match;
    const decoded = decodeURIComponent(
      query.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
    );
    links.push({ label, command, args: JSON.parse(decoded) as unknown[] });
  }
  return links;
}

describe('review: acting on a preview', () => {
  const model = useScriptedModel();

  async function previewTwoChanges(delayMs = 0): Promise<{ editor: vscode.TextEditor; editId: string }> {
    // The answer replaces displayName too: the seen-code rule (issue 18) wants it shown, so the file goes whole.
    await setSetting('smallFileLines', 1000);
    model.server.enqueue(
      scripted.answer(
        fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT) +
          '\n' +
          fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME),
        { delayMs },
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

  it('the review panel opens with the preview and lists each changed element with labelled actions', async () => {
    const { editor, editId } = await previewTwoChanges();
    const html = await waitFor(
      () => api().review.renderedHtml()?.includes(editId) === true && api().review.renderedHtml(),
      {
        description: 'the review panel to show the edit',
      },
    );
    const [edit] = api().review.summary();
    assert.equal(edit?.editId, editId);
    assert.deepEqual(
      edit?.items.map((i) => [i.label, i.state, i.actions.map((a) => a.label)]),
      [
        ['replace class[User]/method[canEdit]', 'proposed', ['Show', 'Accept', 'Reject']],
        ['replace class[User]/method[displayName]', 'proposed', ['Show', 'Accept', 'Reject']],
      ],
    );
    const links = linksOf(html);
    assert.deepEqual(
      links.filter((l) => l.args[0] === editId).map((l) => l.label),
      ['Show', 'Accept', 'Reject', 'Show', 'Accept', 'Reject', 'Accept All', 'Reject All', 'Choose…', 'Open Diff'],
    );

    // A click runs the link's command with its arguments: Accept on displayName, then Accept All.
    const acceptDisplayName = links.find((l) => l.label === 'Accept' && l.args[1] === 1);
    assert.ok(acceptDisplayName !== undefined);
    await vscode.commands.executeCommand(acceptDisplayName.command, ...acceptDisplayName.args);
    const after = await waitFor(
      () => {
        const current = api().review.renderedHtml() ?? '';
        return current.includes('accepted, written with the batch') ? current : undefined;
      },
      { description: 'the panel to show the accepted change' },
    );
    const acceptRest = linksOf(after).find((l) => l.command === 'scalpel.acceptEdit');
    assert.equal(acceptRest?.label, 'Accept the 1 Left');
    assert.ok(acceptRest !== undefined);
    const accepted = (await vscode.commands.executeCommand(acceptRest.command, ...acceptRest.args)) as AcceptResult;
    assert.deepEqual(accepted.applied, [0, 1]);
    assert.ok(editor.document.getText().includes('[admin]'));
    await waitFor(() => api().review.summary().length === 0, { description: 'the panel to empty' });
    assert.match(api().review.renderedHtml() ?? '', /No Scalpel edit is waiting for review/);
  });

  it("Ctrl+. in the preview offers this change's Accept and Reject, and the batch's", async () => {
    const binding = (
      scalpelExtensionOrThrow().packageJSON.contributes.keybindings as { command: string; key: string; when: string }[]
    ).find((k) => k.command === 'scalpel.changeActions');
    assert.equal(binding?.key, 'ctrl+.');
    assert.match(binding?.when ?? '', /resourceScheme == '?scalpel-proposed'?/);
    const { editor, editId } = await previewTwoChanges();
    const proposed = await proposedDocument('src/user.ts');
    const previewEditor = await vscode.window.showTextDocument(proposed);
    placeCursor(previewEditor, '[admin]');

    const picking = vscode.commands.executeCommand('scalpel.changeActions');
    // The quick pick's first item is "Accept this change"; Enter takes it, as the user would.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const accepted = (await picking) as AcceptResult;

    assert.equal(accepted.editId, editId);
    assert.deepEqual(accepted.accepted, [1]);
    await vscode.commands.executeCommand('scalpel.rejectEdit', editId);
    assert.ok(editor.document.getText().includes('[admin]'));
  });

  it('typing into a pending element is reported at once, with Retry: the instruction again on the current text', async () => {
    const { editor, editId } = await previewTwoChanges();
    const notices = api().noticeCount();
    const shown = await vscode.window.showTextDocument(editor.document);

    await typeAt(
      shown,
      "    return this.role === 'admin' ? `${this.name} (admin)`",
      '    // typed during the preview\n',
    );

    const notice = await waitFor(
      () =>
        api()
          .noticesSince(notices)
          .find((n) => n.message.includes('you changed')),
      {
        description: 'the conflict to be reported',
      },
    );
    assert.equal(
      notice.message,
      `Scalpel: you changed ${DISPLAY_NAME} while its proposed change waited in the preview; that change is left out and your text is kept.`,
    );
    assert.deepEqual(notice.actions, ['Retry']);
    const item = api()
      .review.summary()[0]
      ?.items.find((i) => i.state === 'conflict');
    assert.equal(item?.label, 'replace class[User]/method[displayName]');
    assert.deepEqual(
      item?.actions.map((a) => a.label),
      ['Retry', 'Reject'],
    );

    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME)));
    const before = chatRequests(model.server);
    const retried = (await vscode.commands.executeCommand('scalpel.retryEdit', editId)) as EditResult;

    assert.equal(retried.status, 'preview', retried.message);
    assert.notEqual(retried.editId, editId);
    assert.equal(chatRequests(model.server), before + 1);
    const sent = sentUserText(model.server);
    assert.ok(sent.includes('// typed during the preview'), 'the model sees the current text');
    assert.ok(sent.includes('Task: two changes'), 'the same instruction');
    const late = (await vscode.commands.executeCommand('scalpel.acceptEdit', editId)) as AcceptResult;
    assert.equal(late.message, 'The Scalpel edit "two changes" was discarded for a retry; nothing of it was written.');
  });

  it('a failed request offers Retry, and Retry asks again', async () => {
    model.server.enqueue(scripted.answer('I would rather explain than edit.'));
    const editor = await openWorkspaceFile('src/user.ts');
    placeCursor(editor, "return this.role === 'admin' || this.role === 'editor'");
    const notices = api().noticeCount();
    const failed = (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'viewers cannot edit',
    )) as EditResult;
    assert.equal(failed.status, 'failed');
    const notice = api().noticesSince(notices).at(-1);
    assert.equal(notice?.actions.at(-1), 'Retry', JSON.stringify(notice));

    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
    const retried = (await vscode.commands.executeCommand('scalpel.retryEdit')) as EditResult;
    assert.equal(retried.status, 'preview', retried.message);
    assert.ok(sentUserText(model.server).includes('Task: viewers cannot edit'));
  });

  it('a row names the element as it was found, not as the model misspelled its path', async () => {
    // Issue 29: the row echoed the model's spelling ("class[user]/method[CanEdit]").
    model.server.enqueue(
      scripted.answer(fenced('REPLACE_ELEMENT src/user.ts/class[user]/method[CanEdit]', NEW_CAN_EDIT)),
    );
    const { result } = await editAtCursor(
      "return this.role === 'admin' || this.role === 'editor'",
      'viewers cannot edit',
    );
    assert.equal(result.status, 'preview', result.message);
    const html = await waitFor(
      () =>
        api()
          .review.renderedHtml()
          ?.includes(result.editId ?? '-') === true && api().review.renderedHtml(),
      { description: 'the review panel to show the edit' },
    );
    const [edit] = api().review.summary();
    assert.deepEqual(
      edit?.items.map((i) => i.label),
      ['replace class[User]/method[canEdit]'],
    );
    assert.ok(!html.includes('CanEdit'), 'the misspelling is nowhere in the panel');
    await vscode.commands.executeCommand('scalpel.rejectEdit', result.editId);
  });

  it('a second Apply of an applied edit says so, without an internal id', async () => {
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
    const { result } = await editAtCursor(
      "return this.role === 'admin' || this.role === 'editor'",
      'viewers cannot edit',
    );
    await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId);

    const again = (await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId)) as AcceptResult;

    assert.equal(again.status, 'failed');
    assert.equal(
      again.message,
      'The Scalpel edit "viewers cannot edit" was applied already; Undo in its file reverts it.',
    );
    await waitFor(() => proposedEditors().length === 0, { description: 'the preview to close' });
  });

  it('Show Context, Token Statistics and Show Last Failed Answer share one editor column', async () => {
    model.server.enqueue(scripted.answer('no operations here'));
    const editor = await openWorkspaceFile('src/user.ts');
    placeCursor(editor, "return this.role === 'admin' || this.role === 'editor'");
    await vscode.commands.executeCommand('scalpel.editElementAtCursor', 'viewers cannot edit');
    await vscode.window.showTextDocument(editor.document);
    placeCursor(vscode.window.activeTextEditor ?? editor, "return this.role === 'admin' || this.role === 'editor'");

    const columns: (vscode.ViewColumn | undefined)[] = [];
    for (const command of [
      'scalpel.showContext',
      'scalpel.showTokenStatistics',
      'scalpel.showLastAnswer',
      'scalpel.showContext',
    ]) {
      await vscode.commands.executeCommand(command);
      const active = await waitFor(
        () =>
          vscode.window.activeTextEditor?.document.uri.scheme === 'scalpel-context'
            ? vscode.window.activeTextEditor
            : undefined,
        { description: `${command} to show its document` },
      );
      columns.push(active.viewColumn);
      // The next command runs from the code, as a user would go back to it.
      if (command === 'scalpel.showTokenStatistics')
        await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    }
    assert.equal(new Set(columns).size, 1, `one column: ${columns.join(', ')}`);
    assert.equal(vscode.window.tabGroups.all.length, 2, 'the code and one column beside it');
  });

  it('the opt-in "Scalpel: Edit" CodeLens never sits above a callback inside a function', async () => {
    await setSetting('codeLens', true);
    try {
      const editor = await openWorkspaceFile('src/index.ts');
      const lines = editor.document.getText().split('\n');
      const lenses = await waitFor(
        async () => {
          const found = await vscode.commands.executeCommand<vscode.CodeLens[]>(
            'vscode.executeCodeLensProvider',
            editor.document.uri,
          );
          const ours = found.filter((l) => l.command?.command === 'scalpel.editElementAtCursor');
          return ours.length > 0 ? ours : undefined;
        },
        { description: 'the edit CodeLenses' },
      );
      const lensLines = lenses.map((l) => lines[l.range.start.line]?.trim());
      assert.ok(lensLines.includes('export function report(users: readonly User[]): string[] {'), lensLines.join('\n'));
      assert.ok(!lensLines.some((l) => l?.includes('users.map(')), lensLines.join('\n'));
    } finally {
      await setSetting('codeLens', undefined);
    }
  });
});
