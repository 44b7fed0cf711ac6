import assert from 'node:assert/strict';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import * as vscode from 'vscode';
import { DEFAULT_MODELS } from '../../../src/core/llm/createProvider';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { openWorkspaceFile, scalpelExtensionOrThrow, waitFor } from './helpers';

// Scalpel's endpoints as VS Code language models (vendor `scalpel`), used the way another extension would: through
// vscode.lm, against the scripted LLM server on 127.0.0.1.

const KEY = 'sk-scripted-lm-provider';

async function configure(values: Readonly<Record<string, unknown>>): Promise<void> {
  const config = vscode.workspace.getConfiguration('scalpel');
  for (const [name, value] of Object.entries(values))
    await config.update(name, value, vscode.ConfigurationTarget.Workspace);
}

async function scalpelModel(id: string): Promise<vscode.LanguageModelChat> {
  return waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel' })).find((m) => m.id === id), {
    description: `Scalpel's language model ${id}`,
  });
}

describe('language model provider', () => {
  let server: ScriptedLlmServer;

  before(async () => {
    server = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
    await openWorkspaceFile('src/user.ts');
    await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
    await configure({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'gpt-4o-mini' });
    await vscode.commands.executeCommand('scalpel.setApiKey', 'openai', KEY);
  });

  after(async () => {
    await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
    await configure({ provider: undefined, baseUrl: undefined, model: undefined });
    await server.close();
  });

  it('offers the configured endpoint in vscode.lm, with the model, the endpoint kind and its limits', async () => {
    const model = await scalpelModel('openai:gpt-4o-mini');
    assert.equal(model.vendor, 'scalpel');
    assert.equal(model.name, 'gpt-4o-mini');
    assert.equal(model.family, 'gpt-4o-mini');
    assert.ok(model.maxInputTokens > 0);
  });

  it('streams the scripted answer through sendRequest, with the key from SecretStorage', async () => {
    const model = await scalpelModel('openai:gpt-4o-mini');
    const before = server.requests.length;
    server.enqueue(scripted.answer('The element to change is validate().', { chunks: 4 }));
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Which element validates a user?')]);
    const pieces: string[] = [];
    for await (const piece of response.text) pieces.push(piece);

    assert.equal(pieces.join(''), 'The element to change is validate().');
    assert.ok(pieces.length > 1, 'the answer arrives in pieces as the server streams it');
    const [received] = server.requests.slice(before);
    assert.ok(received);
    assert.equal(received.path, '/v1/chat/completions');
    assert.equal(received.body?.model, 'gpt-4o-mini');
    assert.equal(received.body?.stream, true);
    assert.equal(received.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(received.body?.messages, [{ role: 'user', content: 'Which element validates a user?' }]);
  });

  it('reports a server error to the caller instead of an empty answer', async () => {
    const model = await scalpelModel('openai:gpt-4o-mini');
    server.enqueue(scripted.error('invalid-api-key'));
    await assert.rejects(async () => {
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hello')]);
      for await (const piece of response.text) assert.fail(`no text expected, got ${piece}`);
    }, /key|auth|401|permission/i);
  });

  it('counts tokens with the o200k tokenizer', async () => {
    const model = await scalpelModel('openai:gpt-4o-mini');
    const text = 'export function findByEmail(users: readonly User[], email: string): User | undefined';
    assert.equal(await model.countTokens(text), countTokens(text));
  });

  it('follows the settings: another model name is announced once the setting changes', async () => {
    await configure({ model: 'gpt-4.1-nano' });
    try {
      const model = await scalpelModel('openai:gpt-4.1-nano');
      assert.equal(model.name, 'gpt-4.1-nano');
      const ids = (await vscode.lm.selectChatModels({ vendor: 'scalpel' })).map((m) => m.id);
      assert.ok(!ids.includes('openai:gpt-4o-mini'), `the old model is gone: ${ids.join(', ')}`);
    } finally {
      await configure({ model: 'gpt-4o-mini' });
    }
  });

  it('lists the models of a local Ollama and answers with the one picked', async () => {
    const ollama = await startScriptedLlmServer({ models: ['qwen2.5-coder:7b', 'llama3.1:latest'] });
    try {
      await configure({ provider: 'ollama', baseUrl: ollama.openaiBaseUrl, model: 'llama3.1' });
      const qwen = await scalpelModel('ollama:qwen2.5-coder:7b');
      const ids = (await vscode.lm.selectChatModels({ vendor: 'scalpel' })).map((m) => m.id);
      assert.deepEqual(ids.filter((id) => id.startsWith('ollama:')).sort(), [
        'ollama:llama3.1',
        'ollama:qwen2.5-coder:7b',
      ]);
      ollama.enqueue(scripted.answer('from qwen'));
      const response = await qwen.sendRequest([vscode.LanguageModelChatMessage.User('hi')]);
      let text = '';
      for await (const piece of response.text) text += piece;
      assert.equal(text, 'from qwen');
      assert.equal(ollama.requests.find((r) => r.path === '/v1/chat/completions')?.body?.model, 'qwen2.5-coder:7b');
    } finally {
      await configure({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'gpt-4o-mini' });
      await ollama.close();
    }
  });

  it('without scalpel.model, announces the models the engine calls by default, one per configured endpoint', async () => {
    await configure({ model: undefined });
    await vscode.commands.executeCommand('scalpel.setApiKey', 'anthropic', 'sk-ant-scripted');
    try {
      // The extension keeps its own copy of the defaults so that announcing models never loads the SDKs.
      assert.equal((await scalpelModel(`openai:${DEFAULT_MODELS.openai}`)).name, DEFAULT_MODELS.openai);
      assert.equal((await scalpelModel(`anthropic:${DEFAULT_MODELS.anthropic}`)).name, DEFAULT_MODELS.anthropic);
      // An Ollama named in the settings is offered even when it is not running, so that using it says so.
      await configure({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9/v1' });
      assert.equal((await scalpelModel(`ollama:${DEFAULT_MODELS.ollama}`)).name, DEFAULT_MODELS.ollama);
    } finally {
      await vscode.commands.executeCommand('scalpel.clearApiKey', 'anthropic');
      await configure({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'gpt-4o-mini' });
    }
  });
});
