// The behaviour every chat provider owes its callers, run for one provider over real HTTP against the scripted server,
// through the real SDK, both streaming and not.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import { createProvider, type ProviderConfig } from '../../../src/core/llm/createProvider';
import { LlmError, type LlmErrorCode } from '../../../src/core/llm/errors';
import type { ChatMessage, ChatProvider, ChatRequest } from '../../../src/core/llm/provider';
import { countTokens } from '../../../src/core/llm/tokenEstimate';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

export { recordingLogger, type LogLine } from '../../support/scriptedModel';

export const API_KEY = 'sk-scalpel-unit-SECRET-4f9a8b7c6d5e';

export const MESSAGES: readonly ChatMessage[] = [
  { role: 'system', content: 'You edit TypeScript elements. Answer with operations only.' },
  { role: 'user', content: 'Rename method[validate] to method[check] in src/user.ts/class[User].' },
];

export interface ProviderUnderTest {
  readonly name: 'openai' | 'anthropic';
  readonly model: string;
  baseUrl(server: ScriptedLlmServer): string;
  /** The API path the SDK posts to. */
  readonly chatPath: string;
}

/** Everything reachable from the error, its cause chain included, must be free of the key. */
export function assertKeyNotLeaked(error: unknown): void {
  const rendered = inspect(error, { depth: Infinity, showHidden: true });
  assert.ok(!rendered.includes(API_KEY), `the API key leaked into the error:\n${rendered}`);
  if (error instanceof Error) assert.ok(!error.message.includes(API_KEY));
}

export async function rejectsWith(promise: Promise<unknown>, code: LlmErrorCode): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LlmError, `expected an LlmError, got ${inspect(error)}`);
    assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.message}`);
    assertKeyNotLeaked(error);
    return error;
  }
  assert.fail(`expected the call to fail with ${code}, but it succeeded`);
}

/** A port that nothing listens on: bound, then released. */
export async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

export function defineProviderSuite(subject: ProviderUnderTest): void {
  for (const streaming of [false, true]) {
    void describe(`${subject.name} provider, ${streaming ? 'streaming' : 'not streaming'}`, () => {
      const llm = useScriptedModel({ perTest: true });
      const provider = (overrides: Partial<ProviderConfig> = {}): ChatProvider =>
        llm.provider({ provider: subject.name, model: subject.model, apiKey: API_KEY, ...overrides });

      const deltas: string[] = [];
      const request = (extra: Partial<ChatRequest> = {}): ChatRequest => {
        deltas.length = 0;
        return {
          messages: MESSAGES,
          ...(streaming ? { onText: (delta: string) => deltas.push(delta) } : {}),
          ...extra,
        };
      };

      void test('returns the answer with the usage the server reported, and sends the prompt, model and key', async () => {
        const answer = 'REPLACE_ELEMENT src/user.ts/class[User]/method[check]\ncheck(): boolean { return true; }';
        llm.server.enqueue(scripted.answer(answer, { chunks: 5, usage: { inputTokens: 321, outputTokens: 45 } }));

        const response = await provider().chat(request({ maxOutputTokens: 1000 }));

        assert.equal(response.text, answer);
        assert.deepEqual(response.usage, { inputTokens: 321, outputTokens: 45, source: 'provider' });
        assert.equal(response.model, subject.model);
        if (streaming) {
          assert.equal(deltas.length, 5);
          assert.equal(deltas.join(''), answer);
        }
        assert.equal(llm.server.requests.length, 1);
        const sent = llm.server.requests[0]!;
        assert.equal(sent.path, subject.chatPath);
        assert.equal(sent.body?.model, subject.model);
        assert.equal(sent.body?.stream === true, streaming);
        const credential = sent.headers['x-api-key'] ?? sent.headers.authorization ?? '';
        assert.ok(String(credential).includes(API_KEY), 'the API key reached the server');
        if (subject.name === 'anthropic') {
          assert.equal(sent.body?.system, MESSAGES[0]!.content);
          assert.deepEqual(sent.body?.messages, [{ role: 'user', content: MESSAGES[1]!.content }]);
          assert.equal(sent.body?.max_tokens, 1000);
        } else {
          assert.deepEqual(sent.body?.messages, MESSAGES);
          assert.equal(sent.body?.max_tokens, 1000);
          if (streaming) assert.equal(sent.body?.stream_options?.include_usage, true);
        }
      });

      void test('counts tokens locally when the server reports no usage', async () => {
        llm.server.enqueue(scripted.answer('const answer = 42;', { usage: null }));

        const response = await provider().chat(request());

        assert.equal(response.usage.source, 'estimated');
        assert.equal(response.usage.outputTokens, await countTokens('const answer = 42;'));
        assert.ok(response.usage.inputTokens >= (await countTokens(MESSAGES[1]!.content)));
      });

      void test('a rejected key is an auth error naming the endpoint and how to set the key, not retried', async () => {
        llm.server.enqueue(scripted.error('invalid-api-key'));

        const error = await rejectsWith(provider({ apiKeyHint: 'the TEST_KEY variable' }).chat(request()), 'auth');

        assert.equal(error.status, 401);
        assert.match(error.message, new RegExp(`API key rejected by ${escape(subject.baseUrl(llm.server))} \\(401\\)`));
        assert.match(error.message, /set a valid key with the TEST_KEY variable/);
        assert.equal(llm.server.requests.length, 1);
      });

      void test('an unknown model is model-not-found naming the model and the URL', async () => {
        llm.server.enqueue(scripted.error('model-not-found'));

        const error = await rejectsWith(provider({ model: 'no-such-model' }).chat(request()), 'model-not-found');

        assert.match(
          error.message,
          new RegExp(`model "no-such-model" not found at ${escape(subject.baseUrl(llm.server))}`),
        );
        assert.equal(llm.server.requests.length, 1);
      });

      void test('a prompt over the context window says by how many tokens', async () => {
        llm.server.enqueue(scripted.error('context-length', { contextLimit: 128_000, promptTokens: 130_532 }));

        const error = await rejectsWith(provider().chat(request()), 'context-length');

        assert.equal(error.excessTokens, 2532);
        assert.equal(error.contextLimit, 128_000);
        assert.match(error.message, /context length exceeded by 2532 tokens/);
        assert.equal(llm.server.requests.length, 1);
      });

      void test('429 with Retry-After waits as asked, then returns the answer', async () => {
        llm.server.enqueue(scripted.error('rate-limit', { retryAfterSeconds: 1 }), scripted.answer('after the wait'));

        const response = await provider().chat(request());

        assert.equal(response.text, 'after the wait');
        assert.equal(llm.server.requests.length, 2);
        const [limited, retried] = llm.server.requests;
        // The backoff is 5 ms here, so only the server's Retry-After explains a wait of a second.
        assert.ok(retried!.receivedAt - limited!.receivedAt >= 950, 'the retry came after the Retry-After wait');
        assert.ok(
          llm.logLines.some(
            (line) => line.level === 'warn' && /rate limited.*waiting 1 s as the server asked/.test(line.text),
          ),
        );
      });

      void test('503 then success: the retry returns the answer', async () => {
        llm.server.enqueue(scripted.error('overloaded', { status: 503 }), scripted.answer('second time lucky'));

        const response = await provider().chat(request());

        assert.equal(response.text, 'second time lucky');
        assert.equal(llm.server.requests.length, 2);
      });

      void test('gives up after the configured retries with a server error that says how often it tried', async () => {
        llm.server.enqueue(
          scripted.error('server-error'),
          scripted.error('server-error'),
          scripted.error('server-error'),
        );

        const error = await rejectsWith(provider({ maxRetries: 2 }).chat(request()), 'server');

        assert.equal(llm.server.requests.length, 3);
        assert.equal(error.attempts, 3);
        assert.match(error.message, /failed with 500 after 3 attempts/);
      });

      void test('a connection dropped before the response is retried', async () => {
        llm.server.enqueue(scripted.dropConnection(), scripted.answer('over a fresh connection'));

        const response = await provider().chat(request());

        assert.equal(response.text, 'over a fresh connection');
        assert.equal(llm.server.requests.length, 2);
      });

      if (streaming) {
        void test('a connection dropped mid-answer fails as network and is not retried', async () => {
          llm.server.enqueue(scripted.answer('one.two.six.ten.', { chunks: 4, ending: 'drop', afterChunks: 2 }));
          llm.server.enqueue(scripted.answer('never requested'));

          const error = await rejectsWith(provider().chat(request()), 'network');

          assert.match(error.message, /broke while .* was answering/);
          assert.equal(deltas.join(''), 'one.two.', 'the caller saw the partial text stream by, but got no answer');
          assert.equal(llm.server.requests.length, 1);
        });

        void test('a stream that ends without its end marker fails as truncated', async () => {
          llm.server.enqueue(scripted.answer('one two three four', { chunks: 4, ending: 'truncate', afterChunks: 3 }));

          const error = await rejectsWith(provider().chat(request()), 'truncated');

          assert.match(error.message, new RegExp(`stream from ${escape(subject.baseUrl(llm.server))} ended before`));
        });

        void test('cancelling mid-stream rejects with cancelled and closes the request', async () => {
          const controller = new AbortController();
          llm.server.enqueue(scripted.answer('a b c d e f g h i j', { chunks: 10, chunkDelayMs: 300 }));

          const call = provider().chat(request({ signal: controller.signal, onText: () => controller.abort() }));
          const error = await rejectsWith(call, 'cancelled');

          assert.equal(error.message, 'cancelled');
          await eventually(() => llm.server.requests[0]?.closedByClient === true);
        });

        void test('a stream that stalls longer than the idle limit fails as timeout', async () => {
          llm.server.enqueue(scripted.answer('slow and then silent', { chunks: 3, chunkDelayMs: 5_000 }));

          const error = await rejectsWith(provider({ idleTimeoutMs: 300 }).chat(request()), 'timeout');

          assert.match(error.message, /stalled: nothing arrived for 0.3 s/);
          assert.equal(llm.server.requests.length, 1);
        });

        void test("an exception from the caller's onText reaches the caller unchanged", async () => {
          llm.server.enqueue(scripted.answer('abc', { chunks: 3 }));
          const failure = new Error('the editor went away');

          await assert.rejects(
            provider().chat(
              request({
                onText: () => {
                  throw failure;
                },
              }),
            ),
            (error) => error === failure,
          );
          assert.equal(llm.server.requests.length, 1);
        });
      } else {
        void test('an answer body cut off by a dropped connection is retried', async () => {
          llm.server.enqueue(
            scripted.answer('first copy is lost', { ending: 'drop' }),
            scripted.answer('whole answer'),
          );

          const response = await provider().chat(request());

          assert.equal(response.text, 'whole answer');
          assert.equal(llm.server.requests.length, 2);
        });

        void test('an answer body that ends half way is a bad response, never a partial answer', async () => {
          llm.server.enqueue(scripted.answer('only half of this arrives', { ending: 'truncate' }));

          const error = await rejectsWith(provider().chat(request()), 'bad-response');

          assert.match(error.message, /unreadable answer from/);
        });

        void test('cancelling while waiting for the answer rejects with cancelled and closes the request', async () => {
          const controller = new AbortController();
          llm.server.enqueue(scripted.answer('too late', { delayMs: 10_000 }));

          const call = provider().chat(request({ signal: controller.signal }));
          await eventually(() => llm.server.requests.length === 1);
          controller.abort();
          await rejectsWith(call, 'cancelled');

          await eventually(() => llm.server.requests[0]?.closedByClient === true);
        });

        void test('no answer within the timeout fails as timeout naming the endpoint, without retrying', async () => {
          llm.server.enqueue(scripted.answer('too late', { delayMs: 10_000 }));

          const error = await rejectsWith(provider({ timeoutMs: 300 }).chat(request()), 'timeout');

          assert.match(error.message, new RegExp(`no answer from ${escape(subject.baseUrl(llm.server))} within 0.3 s`));
          assert.equal(llm.server.requests.length, 1);
        });
      }

      void test('an answer cut off at the output limit is an output-limit error, never a partial answer', async () => {
        llm.server.enqueue(
          scripted.answer('REPLACE_ELEMENT src/a.ts/function[f]\nfunction f() {', { stopReason: 'max-tokens' }),
        );

        const error = await rejectsWith(provider().chat(request({ maxOutputTokens: 16 })), 'output-limit');

        assert.match(error.message, /cut off at the output limit of 16 tokens/);
      });

      void test('a signal aborted before the call sends nothing', async () => {
        const controller = new AbortController();
        controller.abort();

        await rejectsWith(provider().chat(request({ signal: controller.signal })), 'cancelled');

        assert.equal(llm.server.requests.length, 0);
      });

      void test('an unreachable port is a network error naming the URL, after the retries', async () => {
        const port = await unusedPort();
        const baseUrl = subject.name === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;

        const error = await rejectsWith(provider({ baseUrl, maxRetries: 1 }).chat(request()), 'network');

        assert.match(
          error.message,
          new RegExp(`cannot reach ${escape(baseUrl)}: connection refused .*\\(tried 2 times\\)`),
        );
      });

      void test('a server with nothing scripted fails loudly at once, without retries', async () => {
        const error = await rejectsWith(provider().chat(request()), 'server');

        assert.match(error.message, /scripted LLM server: no scripted answer left for request 1/);
        assert.equal(llm.server.requests.length, 1);
      });

      void test('logs name the endpoint and sizes but never the key or the prompt', async () => {
        llm.server.enqueue(scripted.error('server-error'), scripted.answer('logged'));

        await provider().chat(request());

        const log = llm.logLines.map((line) => line.text).join('\n');
        assert.match(log, new RegExp(escape(subject.baseUrl(llm.server))));
        assert.match(log, /retrying in/);
        assert.ok(!log.includes(API_KEY), 'no key in the log');
        assert.ok(!log.includes(MESSAGES[1]!.content), 'no prompt in the log');
      });
    });
  }

  void describe(`${subject.name} provider, listing models`, () => {
    void test('lists the models the server offers', async () => {
      const server = await startScriptedLlmServer({ models: ['model-a', 'model-b'] });
      try {
        const provider = createProvider({
          provider: subject.name,
          baseUrl: subject.baseUrl(server),
          model: subject.model,
          apiKey: API_KEY,
        });
        assert.deepEqual(await provider.listModels?.(), ['model-a', 'model-b']);
      } finally {
        await server.close();
      }
    });
  });
}

export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Waits for something the server observes asynchronously (a closed connection), failing after two seconds. */
export async function eventually(condition: () => boolean): Promise<void> {
  for (let waited = 0; waited < 2_000; waited += 10) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail('the condition did not come true within two seconds');
}
