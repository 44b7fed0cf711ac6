import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
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
  removeWorkspaceFile,
  sentUserText,
  setSetting,
  startEditAtCursor,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk, waitFor, workspaceUri } from './helpers';

describe('edit commands', () => {
  const model = useScriptedModel();
  let userTs: string;

  before(async () => {
    userTs = await readWorkspaceFileFromDisk('src/user.ts');
  });

  it('Edit Element at Cursor sends the focused element, previews the change and writes it on Accept, unsaved', async () => {
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
    const { editor, result } = await editAtCursor(
      "return this.role === 'admin' || this.role === 'editor'",
      'let every role but viewer edit',
    );

    assert.equal(result.status, 'preview', result.message);
    const sent = sentUserText(model.server);
    assert.ok(sent.includes("return this.role === 'admin' || this.role === 'editor'"), 'the focused body is sent');
    assert.ok(!sent.includes('this.lastLogin.getTime()'), 'bodies outside the focus are not sent');
    assert.ok(sent.includes('Task: let every role but viewer edit'));
    const proposed = await proposedDocument('src/user.ts');
    assert.match(proposed.getText(), /canEdit\(\): boolean \{\n\s+return this\.role !== 'viewer';\n\s+\}/);
    assert.equal(editor.document.getText(), userTs, 'nothing is written before Accept');

    const accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId)) as AcceptResult;

    assert.deepEqual(accepted.files, ['src/user.ts']);
    assert.match(editor.document.getText(), /canEdit\(\): boolean \{\n    return this\.role !== 'viewer';\n  \}/);
    assert.ok(
      editor.document.getText().includes('isDormant(now: Date = new Date()): boolean {'),
      'the rest of the file is kept',
    );
    assert.equal(editor.document.isDirty, true);
    assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), userTs, 'files are not saved');
    await waitFor(() => proposedEditors().length === 0, { description: 'the preview to close' });
    assert.equal(result.usage?.requests, 1);
  });

  const TWO_FILES =
    fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME) +
    '\n' +
    fenced(
      'PATCH_ELEMENT src/index.ts/function[report]',
      "<<<<<<< SEARCH\n    return `${user.displayName()}: ${problems.length === 0 ? 'ok' : problems.join(', ')}`;\n=======\n    return `${user.displayName()} - ${problems.length === 0 ? 'ok' : problems.join('; ')}`;\n>>>>>>> REPLACE",
    );

  it('refuses a model operation on a file the request did not send, quoting none of it', async () => {
    model.server.enqueue(scripted.answer(TWO_FILES));
    const { result } = await editAtCursor(
      "return this.role === 'admin' ? `${this.name} (admin)`",
      'square brackets, and a dash in the report',
    );
    assert.equal(result.status, 'failed');
    assert.match(result.message ?? '', /src\/index\.ts is not part of this request/);
  });

  it('one Undo reverts a batch that changed two files', async () => {
    // A pasted answer comes from outside any request, so both files count as shown (issue 17: a model's request
    // may change only the files it sent).
    await vscode.env.clipboard.writeText(TWO_FILES);
    const indexTs = await readWorkspaceFileFromDisk('src/index.ts');
    const editor = await openWorkspaceFile('src/user.ts');
    const result = (await vscode.commands.executeCommand('scalpel.applyOperationsFromClipboard')) as EditResult;
    assert.equal(result.status, 'preview', result.message);
    assert.deepEqual([...(result.files ?? [])].sort(), ['src/index.ts', 'src/user.ts']);

    const accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId)) as AcceptResult;
    assert.deepEqual([...accepted.files].sort(), ['src/index.ts', 'src/user.ts']);
    const index = await vscode.workspace.openTextDocument(workspaceUri('src/index.ts'));
    assert.ok(
      index.getText().includes("`${user.displayName()} - ${problems.length === 0 ? 'ok' : problems.join('; ')}`"),
    );
    assert.ok(editor.document.getText().includes('[admin]'));

    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');

    await waitFor(() => editor.document.getText() === userTs && index.getText() === indexTs, {
      description: 'both files back to their text before the edit',
    });
  });

  it('with preview "never" a verified edit is written at once', async () => {
    await setSetting('preview', 'never');
    try {
      model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
      const { editor, result } = await editAtCursor("return this.role === 'admin'", 'viewers cannot edit');
      assert.equal(result.status, 'applied', result.message);
      assert.ok(editor.document.getText().includes("return this.role !== 'viewer';"));
      assert.equal(proposedEditors().length, 0, 'no preview');
    } finally {
      await setSetting('preview', 'always');
    }
  });

  it('with preview "skipSmall" only batches above the threshold are previewed', async () => {
    await setSetting('preview', 'skipSmall');
    try {
      // The answer replaces displayName too: the seen-code rule (issue 18) wants it shown, so the file goes whole.
      await setSetting('smallFileLines', 1000);
      const editor = await openWorkspaceFile('src/user.ts');
      placeCursor(editor, "return this.role === 'admin'");
      model.server.enqueue(
        scripted.answer(
          fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT) +
            '\n' +
            fenced(`REPLACE_ELEMENT ${DISPLAY_NAME}`, NEW_DISPLAY_NAME),
        ),
      );
      const large = (await vscode.commands.executeCommand('scalpel.editElementAtCursor', 'two changes')) as EditResult;
      assert.equal(large.status, 'preview', large.message);
      await vscode.commands.executeCommand('scalpel.rejectEdit', large.editId);

      model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
      const small = (await vscode.commands.executeCommand('scalpel.editElementAtCursor', 'one change')) as EditResult;
      assert.equal(small.status, 'applied', small.message);
      assert.ok(editor.document.getText().includes("return this.role !== 'viewer';"));
    } finally {
      await setSetting('preview', 'always');
      await setSetting('smallFileLines', 10);
    }
  });

  it('Edit Selection shows every element the selection touches in full', async () => {
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
    const editor = await openWorkspaceFile('src/user.ts');
    const start = placeCursor(editor, 'canEdit(): boolean');
    const end = editor.document.positionAt(editor.document.getText().indexOf('this.lastLogin = at;'));
    editor.selection = new vscode.Selection(start, end);

    const result = (await vscode.commands.executeCommand('scalpel.editSelection', 'tighten these')) as EditResult;

    assert.equal(result.status, 'preview', result.message);
    const sent = sentUserText(model.server);
    assert.ok(sent.includes("return this.role === 'admin' || this.role === 'editor';"), 'canEdit in full');
    assert.ok(sent.includes('this.lastLogin = at;'), 'recordLogin in full');
    assert.ok(!sent.includes('this.lastLogin.getTime()'), 'isDormant is not selected');
  });

  it('Edit File lets the model plan which elements it needs first', async () => {
    // 'always': under 'auto' the cost rule sends the playground's small file whole, with no planning round.
    await setSetting('planning', 'always');
    try {
      model.server.enqueue(
        scripted.answer('NEED src/user.ts/class[User]/method[isDormant]\n'),
        scripted.answer(
          fenced(
            'PATCH_ELEMENT src/user.ts/class[User]/method[isDormant]',
            '<<<<<<< SEARCH\n    return days > config.dormantAfterDays;\n=======\n    return days >= config.dormantAfterDays;\n>>>>>>> REPLACE',
          ),
        ),
      );
      const before = chatRequests(model.server);
      const editor = await openWorkspaceFile('src/user.ts');
      const result = (await vscode.commands.executeCommand(
        'scalpel.editFile',
        'a user is dormant on the very day too',
      )) as EditResult;

      assert.equal(result.status, 'preview', result.message);
      assert.equal(chatRequests(model.server) - before, 2, 'a planning request, then the edit');
      assert.match(sentUserText(model.server, -2), /method\[isDormant\]/);
      assert.ok(
        sentUserText(model.server).includes('return days > config.dormantAfterDays;'),
        'the planned element is sent in full',
      );
      const proposed = await proposedDocument('src/user.ts');
      assert.ok(proposed.getText().includes('return days >= config.dormantAfterDays;'));
      assert.equal(editor.document.getText(), userTs);
    } finally {
      await setSetting('planning', undefined);
    }
  });

  it('Cancel while the model works applies nothing', async () => {
    model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT), { delayMs: 20_000 }));
    const before = chatRequests(model.server);
    const { editor, running } = await startEditAtCursor("return this.role === 'admin'", 'slow change');
    await waitFor(() => chatRequests(model.server) > before, { description: 'the request to reach the model' });

    assert.equal(await vscode.commands.executeCommand('scalpel.cancelEdit'), true);
    const result = await running;

    assert.equal(result.status, 'cancelled');
    assert.equal(editor.document.getText(), userTs);
    assert.equal(proposedEditors().length, 0);
    await waitFor(() => model.server.requests.at(-1)?.closedByClient === true, {
      description: 'the HTTP request to be aborted',
    });
  });

  it('operations that do not verify are refused with the answer one click away', async () => {
    model.server.enqueue(
      scripted.answer(
        fenced('REPLACE_ELEMENT src/user.ts/class[User]/method[doesNotExist]', 'doesNotExist(): void {}'),
      ),
    );
    const { editor, result } = await editAtCursor("return this.role === 'admin'", 'something');

    assert.equal(result.status, 'failed');
    assert.match(result.message ?? '', /did not verify.*nothing was applied/);
    assert.equal(editor.document.getText(), userTs);
    assert.equal(await vscode.commands.executeCommand('scalpel.showLastAnswer'), true);
    const shown = await waitFor(
      () => vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith('last-answer.md')),
      {
        description: 'the last answer',
      },
    );
    assert.ok(shown.document.getText().includes('method[doesNotExist]'));
  });

  it('an endpoint that does not answer says so and what to do next', async () => {
    await setSetting('baseUrl', 'http://127.0.0.1:9/v1');
    try {
      const { result } = await editAtCursor("return this.role === 'admin'", 'anything');
      assert.equal(result.status, 'failed');
      assert.match(result.message ?? '', /Check that the server at http:\/\/127\.0\.0\.1:9\/v1 is running/);
    } finally {
      await setSetting('baseUrl', model.server.openaiBaseUrl);
    }
  });

  it('a refused key points to Set API Key', async () => {
    model.server.enqueue(scripted.error('invalid-api-key'));
    const { result } = await editAtCursor("return this.role === 'admin'", 'anything');
    assert.equal(result.status, 'failed');
    assert.match(result.message ?? '', /API key rejected by .*"Scalpel: Set API Key".*Or select another model\./);
    assert.equal((result.message ?? '').split('127.0.0.1').length - 1, 1, 'the address is named once');
  });

  describe('excluded files never reach a model', () => {
    afterEach(async () => {
      await setSetting('exclude', undefined);
      await vscode.workspace
        .getConfiguration('files')
        .update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
      await removeWorkspaceFile('src/generated');
      await removeWorkspaceFile('.gitignore');
    });

    async function refusal(path: string): Promise<EditResult> {
      await mkdir(workspaceUri(path).fsPath.replace(/\/[^/]+$/, ''), { recursive: true });
      await writeFile(workspaceUri(path).fsPath, 'export function secret(): string {\n  return "s3cr3t";\n}\n');
      const editor = await openWorkspaceFile(path);
      placeCursor(editor, 'return "s3cr3t"');
      const before = chatRequests(model.server);
      const result = (await vscode.commands.executeCommand('scalpel.editElementAtCursor', 'leak it')) as EditResult;
      assert.equal(chatRequests(model.server), before, 'no request was made');
      return result;
    }

    it('by scalpel.exclude', async () => {
      await setSetting('exclude', ['**/generated/**']);
      const result = await refusal('src/generated/keys.ts');
      assert.equal(result.status, 'failed');
      assert.match(
        result.message ?? '',
        /src\/generated\/keys\.ts: it is excluded by scalpel\.exclude "\*\*\/generated\/\*\*"/,
      );
    });

    it('by .gitignore', async () => {
      await writeFile(workspaceUri('.gitignore').fsPath, 'node_modules/\nsrc/generated/\n');
      const result = await refusal('src/generated/api.ts');
      assert.match(result.message ?? '', /excluded by \.gitignore "src\/generated\/"/);
    });

    it('by files.exclude', async () => {
      await vscode.workspace
        .getConfiguration('files')
        .update('exclude', { '**/generated': true }, vscode.ConfigurationTarget.Workspace);
      const result = await refusal('src/generated/client.ts');
      assert.match(result.message ?? '', /excluded by files\.exclude "\*\*\/generated"/);
    });
  });
});
