import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { configure } from './chatTestSupport';
import { openWorkspaceFile, scalpelExtensionOrThrow, waitFor } from './helpers';
import {
  countInWorkbench,
  inputValueInWorkbench,
  keyboard,
  pressKey,
  screenshotWorkbench,
  textInWorkbench,
  workbenchDriverAvailable,
} from './workbench';

// Issue 29, item 5: the walkthrough's steps are completed by what the user did. "Choose a language model" is checked
// once a model is set up (Set Up a Model here), read from the walkthrough page as the user sees it.

const WALKTHROUGH = 'scalpel-dev.scalpel#gettingStarted';
const STEP = '[data-step-id$="#chooseModel"]';
const QUICK_INPUT = '.quick-input-widget';
const ROW = `${QUICK_INPUT} .quick-input-list .monaco-list-row`;
const INPUT = `${QUICK_INPUT} .quick-input-box input`;
const MESSAGE = `${QUICK_INPUT} .quick-input-message`;

/** Types into the box once it asks `prompt`, checks the text landed there, and presses Enter. */
async function answerBox(prompt: string, text: string): Promise<void> {
  await waitFor(async () => (await textInWorkbench(MESSAGE))?.includes(prompt), { description: `the box "${prompt}"` });
  await keyboard([{ type: text }]);
  await waitFor(async () => (await inputValueInWorkbench(INPUT)) === text, {
    description: `"${prompt}" to hold what was typed`,
  });
  await pressKey('Enter');
}

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

  // VS Code keeps a walkthrough step checked once done, and the suites before this one set up models: the suite runs
  // in a host with a profile of its own (test/integration/run.mjs), where the step starts unchecked.
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

  it("Set Up a Model lists the models a server of the user's offers at /models, asked with its key", async () => {
    // Issue 29, item 6: setup used to prefill OpenAI's default name for any base URL and list nothing.
    const local = await startScriptedLlmServer({ models: ['qwen2.5-coder-7b', 'llama-3.1-8b-instruct'] });
    try {
      await configure({ provider: undefined, baseUrl: undefined, model: undefined });
      // The keys go to the setup's boxes, not to a page an earlier test left open.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await openWorkspaceFile('src/user.ts');
      const running = vscode.commands.executeCommand<{ model: string; baseUrl: string } | undefined>(
        'scalpel.setUpModel',
      );
      await waitFor(async () => (await countInWorkbench(`${ROW}:has-text("OpenAI-compatible")`)) > 0, {
        description: 'the setup choices',
      });
      await keyboard([{ type: 'OpenAI-compatible' }, { press: 'Enter' }]);
      await answerBox('Base URL', local.openaiBaseUrl);
      await answerBox('API key', 'sk-local');

      // The server's own names, no OpenAI default among them, and a way to type another.
      await waitFor(async () => (await countInWorkbench(`${ROW}:has-text("llama-3.1-8b-instruct")`)) > 0, {
        description: "the server's models",
      });
      assert.equal(await countInWorkbench(`${ROW}:has-text("qwen2.5-coder-7b")`), 1);
      assert.equal(await countInWorkbench(`${ROW}:has-text("Type another model name")`), 1);
      assert.equal(await countInWorkbench(`${ROW}:has-text("gpt-")`), 0);
      const listing = local.requests.find((r) => r.method === 'GET' && r.path === '/v1/models');
      assert.equal(listing?.headers.authorization, 'Bearer sk-local', 'the list is asked for with the key typed');

      await keyboard([{ type: 'llama' }, { press: 'Enter' }]);
      const result = await running;
      assert.equal(result?.model, 'llama-3.1-8b-instruct');
      assert.equal(result?.baseUrl, local.openaiBaseUrl);
      assert.equal(vscode.workspace.getConfiguration('scalpel').get('model'), 'llama-3.1-8b-instruct');
    } catch (error) {
      await screenshotWorkbench('/tmp/setup-models-failure.png');
      throw error;
    } finally {
      await local.close();
    }
  });
});
