import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMAND_PREFIX, COMMANDS } from '../../../src/vscode/commands';
import { openWorkspaceFile, scalpelExtensionOrThrow, waitFor } from './helpers';

function engineLoaded(): boolean {
  return Object.keys(require.cache).some((path) => path.replace(/\\/g, '/').endsWith('/dist/engine.js'));
}

describe('commands', () => {
  before(async () => {
    await openWorkspaceFile('src/user.ts');
    await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration('scalpel')
      .update('smallFileLines', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('activation loads neither ts-morph nor the tokenizer', () => {
    const api = scalpelExtensionOrThrow().exports as { engineLoadedDuringActivation?: boolean };
    assert.equal(api.engineLoadedDuringActivation, false, 'dist/engine.js was required during activation');
  });

  it('the command table and package.json agree', async () => {
    const contributed = (scalpelExtensionOrThrow().packageJSON.contributes.commands as Array<{ command: string }>).map(
      (c) => c.command,
    );
    const table = Object.keys(COMMANDS).map((name) => `${COMMAND_PREFIX}${name}`);
    assert.deepEqual([...table].sort(), [...contributed].sort());
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of table) assert.ok(registered.has(id), `${id} is not registered`);
  });

  it('Show Context opens the focused context of the element at the cursor, read-only, with its token count', async () => {
    await vscode.workspace
      .getConfiguration('scalpel')
      .update('smallFileLines', 10, vscode.ConfigurationTarget.Workspace);
    const editor = await openWorkspaceFile('src/user.ts');
    const line = editor.document
      .getText()
      .split('\n')
      .findIndex((l) => l.includes("problems.push('name is empty')"));
    editor.selection = new vscode.Selection(line, 6, line, 6);
    const result = (await vscode.commands.executeCommand('scalpel.showContext')) as {
      path: string;
      tokens: number;
      wholeFileTokens: number;
    };
    assert.equal(result.path, 'src/user.ts/class[User]/method[validate]');
    assert.ok(result.tokens < result.wholeFileTokens);
    assert.ok(engineLoaded(), 'the engine is loaded once a command needs it');
    const shown = await waitFor(
      () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'scalpel-context'),
      {
        description: 'the context document',
      },
    );
    const text = shown.document.getText();
    assert.match(
      text,
      /^Scalpel context for src\/user\.ts\/class\[User\]\/method\[validate\]\n\d+ tokens \(o200k_base\) vs \d+ for the whole file/,
    );
    assert.ok(text.includes("    if (this.name.trim().length === 0) problems.push('name is empty');"));
    assert.ok(text.includes('canEdit(): boolean { … } // @ method[canEdit]'));
    assert.ok(text.includes('// @ function[findByEmail]'));
    assert.ok(!text.includes('users.find('), 'bodies outside the focus are not shown');
  });
});
