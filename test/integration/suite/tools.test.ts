import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { proposedDocument, resetWorkspace, setSetting } from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk, waitFor } from './helpers';

/** Scalpel's agent tools as VS Code language-model tools, called the way an agent calls them. */

const TOOL_NAMES = [
  'scalpel_outline',
  'scalpel_context',
  'scalpel_find_symbols',
  'scalpel_search',
  'scalpel_references',
  'scalpel_find_path',
  'scalpel_apply',
  'scalpel_rename',
  'scalpel_diagnostics',
  'scalpel_get_changes',
  'scalpel_sync_state',
];

async function invoke(name: string, input: object, tokenBudget?: number): Promise<string> {
  const result = await vscode.lm.invokeTool(name, {
    input,
    toolInvocationToken: undefined,
    ...(tokenBudget === undefined
      ? {}
      : { tokenizationOptions: { tokenBudget, countTokens: async (text: string) => Math.ceil(text.length / 4) } }),
  });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

const CAN_EDIT_PATH = 'src/user.ts/class[User]/method[canEdit]';
const NEW_CAN_EDIT = "canEdit(): boolean {\n  return this.role === 'admin';\n}";

describe('language-model tools', () => {
  before(async () => {
    await openWorkspaceFile('src/user.ts');
  });

  after(async () => {
    await resetWorkspace();
  });

  it('lists every tool in vscode.lm.tools with its schema', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('scalpel_'));
    assert.deepEqual(
      ours.map((t) => t.name),
      TOOL_NAMES,
    );
    const apply = ours.find((t) => t.name === 'scalpel_apply');
    assert.deepEqual((apply?.inputSchema as { required?: string[] }).required, ['operations']);
    assert.ok(apply?.tags.includes('edit'));
  });

  it('answers outline, context, find_symbols, references, find_path and diagnostics on the workspace', async function () {
    // The first graph query builds the TypeScript program (lib files included): seconds on a busy machine.
    this.timeout(120_000);
    const outline = await invoke('scalpel_outline', { paths: ['src/user.ts'] });
    assert.match(outline, /^## src\/user\.ts$/m);
    assert.match(outline, /^ \d+-\d+ method\[canEdit\] canEdit\(\): boolean$/m);

    const context = await invoke('scalpel_context', { focus: [CAN_EDIT_PATH] });
    assert.match(context, /return this\.role === 'admin' \|\| this\.role === 'editor';/);

    const symbols = await invoke('scalpel_find_symbols', { name: 'validate' });
    assert.match(symbols, /^\d+-\d+ class\[User\]\/method\[validate\]$/m);

    const references = await invoke('scalpel_references', { path: CAN_EDIT_PATH });
    assert.match(references, /^## src\/index\.ts$/m);
    assert.match(references, /^\d+ function\[editorFor\] call return user\?\.canEdit\(\) \? user : undefined;$/m);

    const callers = await invoke('scalpel_references', { path: CAN_EDIT_PATH, relation: 'callers' });
    assert.match(callers, /^\d+ function\[editorFor\] 1$/m);

    const path = await invoke('scalpel_find_path', { from: 'src/index.ts/function[editorFor]', to: CAN_EDIT_PATH });
    assert.match(
      path,
      /^1 src\/index\.ts\/function\[editorFor\] >\d+ src\/user\.ts\/class\[User\]\/method\[canEdit\]$/m,
    );

    const diagnostics = await invoke('scalpel_diagnostics', { paths: ['src/user.ts'] });
    assert.match(diagnostics, /^diagnostics of 1 file: 0 errors/m);
  });

  it("holds an answer to the invocation's token budget, with a cursor for the rest", async () => {
    const whole = await invoke('scalpel_outline', { paths: ['src/user.ts'] });
    assert.doesNotMatch(whole, /cursor "/);
    const small = await invoke('scalpel_outline', { paths: ['src/user.ts'] }, 200);
    assert.ok(small.length < whole.length, small);
    assert.match(small, /more: call again with the same arguments and cursor "[^"]+"/);
  });

  it('reads the unsaved text of an open document', async () => {
    const editor = await openWorkspaceFile('src/config.ts');
    await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), 'export const unsavedMarker = 1;\n'));
    const outline = await invoke('scalpel_outline', { paths: ['src/config.ts'] });
    assert.match(outline, /^1 variable\[unsavedMarker\]/m);
    await resetWorkspace();
  });

  it("finds a use in an unsaved document (the code graph's worker reads what the editor holds)", async function () {
    this.timeout(120_000);
    const editor = await openWorkspaceFile('src/index.ts');
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    await editor.edit((builder) =>
      builder.insert(end, '\nexport function unsavedCaller(user: User): boolean {\n  return user.canEdit();\n}\n'),
    );
    assert.equal(editor.document.isDirty, true);
    const references = await invoke('scalpel_references', { path: CAN_EDIT_PATH });
    assert.match(references, /^\d+ function\[unsavedCaller\] call return user\.canEdit\(\);$/m);
    await resetWorkspace();
    const saved = await invoke('scalpel_references', { path: CAN_EDIT_PATH });
    assert.doesNotMatch(saved, /unsavedCaller/);
  });

  it('shows no agent a file that scalpel.exclude keeps from models', async () => {
    await setSetting('exclude', ['src/config.ts']);
    try {
      const outline = await invoke('scalpel_outline', { paths: ['src/config.ts'] });
      assert.match(outline, /^error: src\/config\.ts is excluded by scalpel\.exclude "src\/config\.ts"/m);
      const folder = await invoke('scalpel_outline', { paths: ['src'] });
      assert.match(folder, /^## src\/user\.ts$/m);
      assert.doesNotMatch(folder, /config\.ts/);
    } finally {
      await setSetting('exclude', undefined);
    }
  });

  it('checks a batch without writing on a dry run', async () => {
    const before = await readWorkspaceFileFromDisk('src/user.ts');
    const answer = await invoke('scalpel_apply', {
      operations: `REPLACE_ELEMENT ${CAN_EDIT_PATH}\n\`\`\`ts\n${NEW_CAN_EDIT}\n\`\`\`\n`,
      dryRun: true,
    });
    assert.match(answer, /^dry run, nothing written; the diff:$/m);
    assert.match(answer, /^-\s+return this\.role === 'admin' \|\| this\.role === 'editor';$/m);
    assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), before);
  });

  it('sends a writing call through the preview: nothing changes before Accept, Accept applies it', async () => {
    const before = await readWorkspaceFileFromDisk('src/user.ts');
    const answer = await invoke('scalpel_apply', {
      operations: `REPLACE_ELEMENT ${CAN_EDIT_PATH}\n\`\`\`ts\n${NEW_CAN_EDIT}\n\`\`\`\n`,
    });
    assert.match(answer, /^preview: the change to src\/user\.ts is shown to the user as a preview/m);
    const proposed = await proposedDocument('src/user.ts');
    assert.match(proposed.getText(), /return this\.role === 'admin';\n/);
    const editor = await openWorkspaceFile('src/user.ts');
    assert.equal(editor.document.getText(), before);

    const editId = /\(edit ([^)]+)\)/.exec(answer)?.[1];
    await vscode.commands.executeCommand('scalpel.acceptEdit', editId);
    const user = await openWorkspaceFile('src/user.ts');
    await waitFor(() => /return this\.role === 'admin';\n/.test(user.document.getText()), {
      description: 'the accepted change in src/user.ts',
    });
    await resetWorkspace();
  });

  it('refuses a batch that does not verify and changes nothing', async () => {
    const before = await readWorkspaceFileFromDisk('src/user.ts');
    const answer = await invoke('scalpel_apply', {
      operations: `REPLACE_ELEMENT src/user.ts/class[User]/method[canEdits]\n\`\`\`ts\n${NEW_CAN_EDIT}\n\`\`\`\n`,
    });
    assert.match(answer, /nearest: src\/user\.ts\/class\[User\]\/method\[canEdit\]/);
    assert.match(answer, /nothing was written/);
    assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), before);
  });

  it('records each call in the token statistics', async () => {
    await invoke('scalpel_find_symbols', { name: 'User' });
    const stats = (await vscode.commands.executeCommand('scalpel.showTokenStatistics')) as { text: string };
    assert.match(stats.text, /^lm\.find_symbols +\d+ +0 /m);
    await resetWorkspace();
  });

  it('with the preview off, applies a confirmed call at once (unsaved, as the commands do)', async () => {
    // The confirmation prepareInvocation asks for is answered "yes" by the test host (VS Code skips dialogs in
    // extension tests), so this checks the path after it.
    await setSetting('preview', 'never');
    try {
      const before = await readWorkspaceFileFromDisk('src/user.ts');
      const answer = await invoke('scalpel_apply', {
        operations: `REPLACE_ELEMENT ${CAN_EDIT_PATH}\n\`\`\`ts\n${NEW_CAN_EDIT}\n\`\`\`\n`,
      });
      assert.match(answer, /^applied: applied to src\/user\.ts \(unsaved; Undo reverts it\)$/m);
      const user = await openWorkspaceFile('src/user.ts');
      assert.match(user.document.getText(), /return this\.role === 'admin';\n/);
      assert.equal(user.document.isDirty, true);
      assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), before);
    } finally {
      await setSetting('preview', undefined);
      await resetWorkspace();
    }
  });
});
