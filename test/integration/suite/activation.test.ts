import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SCALPEL_EXTENSION_ID, openWorkspaceFile, scalpelExtensionOrThrow, waitFor } from './helpers';

describe('activation', () => {
  it('loads Scalpel into the extension host', () => {
    const extension = vscode.extensions.getExtension(SCALPEL_EXTENSION_ID);
    assert.ok(extension, `${SCALPEL_EXTENSION_ID} is missing from the extension host`);
    assert.equal(extension.packageJSON.displayName, 'Scalpel');
  });

  it('activates when a TypeScript file of the workspace is opened', async () => {
    const extension = scalpelExtensionOrThrow();
    const editor = await openWorkspaceFile('src/user.ts');
    assert.equal(editor.document.languageId, 'typescript');
    assert.match(editor.document.getText(), /class User/);

    // onLanguage:typescript should activate it without anyone asking.
    await waitFor(() => extension.isActive, { description: 'Scalpel to activate after opening src/user.ts' });
    await extension.activate();
    assert.equal(extension.isActive, true);
  });
});
