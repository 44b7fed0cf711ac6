// The scripted server itself: what tests elsewhere rely on when they script a model.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/llm/createProvider';
import { scripted, startScriptedLlmServer, type RecordedRequest } from '../../support/llmServer';
import { MESSAGES, eventually } from './providerSuite';

void describe('scripted LLM server', () => {
  void test('a step bound to a model waits for a request for that model', async () => {
    const server = await startScriptedLlmServer();
    try {
      server.enqueue(scripted.answer('for the big model', { model: 'big' }), scripted.answer('for anyone'));
      const small = createProvider({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'small' });
      const big = createProvider({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'big' });

      assert.equal((await small.chat({ messages: MESSAGES })).text, 'for anyone');
      assert.equal((await big.chat({ messages: MESSAGES })).text, 'for the big model');
      assert.equal(server.pendingSteps.length, 0);
    } finally {
      await server.close();
    }
  });

  void test('answers unknown routes with 404 and lists models in each API shape', async () => {
    const server = await startScriptedLlmServer({ models: ['m1'] });
    try {
      const missing = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', body: '{}' });
      assert.equal(missing.status, 404);
      const openai = (await (await fetch(`${server.openaiBaseUrl}/models`)).json()) as {
        object: string;
        data: Array<{ id: string }>;
      };
      assert.deepEqual(openai, {
        object: 'list',
        data: [{ id: 'm1', object: 'model', created: 1_700_000_000, owned_by: 'system' }],
      });
      const anthropic = (await (
        await fetch(`${server.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } })
      ).json()) as {
        data: Array<{ type: string; id: string }>;
      };
      assert.equal(anthropic.data[0]?.type, 'model');
    } finally {
      await server.close();
    }
  });

  void test('llmServerMain serves a script from a file and logs the requests it received', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scalpel-llm-'));
    const scriptPath = join(dir, 'script.json');
    const requestsPath = join(dir, 'requests.json');
    writeFileSync(scriptPath, JSON.stringify({ steps: [scripted.answer('from another process')] }));
    const child = spawn(
      process.execPath,
      [join(__dirname, '..', '..', 'support', 'llmServerMain.js'), scriptPath, '--requests', requestsPath],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const firstLine = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout }).once('line', resolve),
      );
      const { openaiBaseUrl } = JSON.parse(firstLine) as { openaiBaseUrl: string };
      const provider = createProvider({ provider: 'openai', baseUrl: openaiBaseUrl, model: 'gpt-x' });

      assert.equal((await provider.chat({ messages: MESSAGES })).text, 'from another process');
      await eventually(() => existsSync(requestsPath));
      const logged = JSON.parse(readFileSync(requestsPath, 'utf8')) as RecordedRequest[];
      assert.equal(logged[0]?.body?.model, 'gpt-x');
      assert.deepEqual(logged[0]?.body?.messages, MESSAGES);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
