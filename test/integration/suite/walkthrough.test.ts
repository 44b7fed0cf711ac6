import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { configure } from './chatTestSupport';
import { openWorkspaceFile, scalpelExtensionOrThrow, waitFor } from './helpers';
import { countInWorkbench, screenshotWorkbench, workbenchDriverAvailable } from './workbench';

// Issue 29, item 5: the walkthrough's steps are completed by what the user did. "Choose a language model" is checked
// once a model is set up (Set Up a Model here), read from the walkthrough page as the user sees it.

const WALKTHROUGH = 'scalpel-dev.scalpel#gettingStarted';
const STEP = '[data-step-id$="#chooseModel"]';

describe('walkthrough', function () {
  this.timeout(90_000);
  let server: ScriptedLlmServer;

  before(async function () {
    if (!workbenchDriverAvailable()) this.skip();
    server = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
    await openWorkspaceFile('src/user.ts');
    await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
  });

  after(async () => {
    await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
    await configure({ provider: undefined, baseUrl: undefined, model: undefined });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await server?.close();
  });

  it("checks 'Choose a language model' after Set Up a Model", async () => {
    // Nothing set up: no provider, no key (and no Ollama or Copilot on this machine).
    await configure({ provider: undefined, baseUrl: undefined, model: undefined });
    await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    await waitFor(async () => (await countInWorkbench(`${STEP} .codicon-getting-started-step-unchecked`)) > 0, {
      timeoutMs: 20_000,
      description: 'the model step shown unchecked',
    });

    await vscode.commands.executeCommand('scalpel.setUpModel', {
      provider: 'openai',
      baseUrl: server.openaiBaseUrl,
      model: 'gpt-4o-mini',
      key: 'sk-walkthrough',
    });

    try {
      await waitFor(async () => (await countInWorkbench(`${STEP} .codicon-getting-started-step-checked`)) > 0, {
        timeoutMs: 20_000,
        description: 'the model step checked',
      });
    } catch (error) {
      await screenshotWorkbench('/tmp/walkthrough-failure.png');
      throw error;
    }
    assert.equal(await countInWorkbench(`${STEP} .codicon-getting-started-step-unchecked`), 0);
  });
});
