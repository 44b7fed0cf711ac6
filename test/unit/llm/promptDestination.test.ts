// Issue 25: the prompt goes only where the user pointed (a redirect to another origin is refused, naming both), and an
// answer that never ends is cut at the answer limit with a clear error, through the real SDK clients against the
// scripted server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ProviderConfig } from '../../../src/core/llm/createProvider';
import { llmErrorFromFailure } from '../../../src/core/llm/errors';
import type { ChatProvider, ChatRequest } from '../../../src/core/llm/provider';
import { retryDelayFor, DEFAULT_RETRY_POLICY } from '../../../src/core/llm/retry';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { API_KEY, MESSAGES, rejectsWith } from './providerSuite';

const SUBJECTS = [
  {
    name: 'openai',
    model: 'gpt-test-mini',
    baseUrl: (server: ScriptedLlmServer) => server.openaiBaseUrl,
    path: '/v1/chat/completions',
  },
  {
    name: 'anthropic',
    model: 'claude-test',
    baseUrl: (server: ScriptedLlmServer) => server.anthropicBaseUrl,
    path: '/v1/messages',
  },
] as const;

for (const subject of SUBJECTS) {
  void describe(`${subject.name}: where the prompt goes, and how much answer comes back`, () => {
    const llm = useScriptedModel({ perTest: true });
    let elsewhere: ScriptedLlmServer;
    before(async () => {
      elsewhere = await startScriptedLlmServer();
    });
    after(async () => {
      await elsewhere.close();
    });
    const provider = (overrides: Partial<ProviderConfig> = {}): ChatProvider =>
      llm.provider({ provider: subject.name, model: subject.model, apiKey: API_KEY, ...overrides });
    const streamed: ChatRequest = { messages: MESSAGES, onText: () => undefined };

    for (const status of [307, 308, 302] as const) {
      void test(`a ${status} to another host is refused, naming both, and that host gets nothing`, async () => {
        const before = elsewhere.requests.length;
        elsewhere.enqueue(scripted.answer('the other host answers'));
        llm.server.enqueue(scripted.redirect(`${elsewhere.url}${subject.path}`, { status }));

        const error = await rejectsWith(provider().chat(streamed), 'bad-response');

        assert.match(
          error.message,
          new RegExp(
            `${llm.server.url.replace(/\W/g, '\\$&')} redirected the request to ${elsewhere.url.replace(/\W/g, '\\$&')} \\(HTTP ${status}\\)`,
          ),
        );
        assert.match(error.message, /sends the prompt only to the endpoint you set/);
        assert.equal(elsewhere.requests.length, before, 'nothing reached the other host');
        assert.equal(llm.server.requests.length, 1, 'not retried');
        // The step is left for the next test of this server; take it back.
        await drain(elsewhere);
      });
    }

    void test('a redirect within the endpoint is followed, with the prompt', async () => {
      llm.server.enqueue(scripted.redirect(`${subject.path}?moved=1`), scripted.answer('after the move'));

      const response = await provider().chat(streamed);

      assert.equal(response.text, 'after the move');
      assert.equal(llm.server.requests.length, 2);
      assert.deepEqual(llm.server.requests[1]?.body?.messages?.at(-1), llm.server.requests[0]?.body?.messages?.at(-1));
    });

    void test(
      'an answer that never ends is cut at the 2 MB answer limit with a clear error',
      { timeout: 120_000 },
      async () => {
        llm.server.enqueue(scripted.answer('z'.repeat(4096), { chunks: 1, endless: true }));

        const error = await rejectsWith(provider({ timeoutMs: 100_000 }).chat(streamed), 'bad-response');

        assert.match(error.message, /passed 2 MB, the limit of one answer/);
        assert.match(error.message, /discarded/);
      },
    );
  });
}

/** Uses up the steps a refused redirect left unanswered. */
async function drain(server: ScriptedLlmServer): Promise<void> {
  while (server.pendingSteps.length > 0) {
    await fetch(`${server.openaiBaseUrl}/chat/completions`, { method: 'POST', body: '{}' }).catch(() => undefined);
  }
}

void describe('a server that sends no response at all', () => {
  const silence = { code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' };
  const context = {
    label: 'OpenAI-compatible server',
    endpoint: 'http://127.0.0.1:9/v1',
    model: 'm',
    apiKey: undefined,
    apiKeyHint: 'x',
    apiPath: '/chat/completions',
    isOllama: false,
  };

  void test('is not tried again after Node gives up waiting for its headers, and the message says why', () => {
    const failure = { kind: 'connection', cause: new TypeError('fetch failed', { cause: silence }) } as const;
    assert.equal(retryDelayFor(failure, 1, DEFAULT_RETRY_POLICY), undefined);
    assert.match(llmErrorFromFailure(failure, context, 1).message, /sent no response for 300 s/);
  });
});
