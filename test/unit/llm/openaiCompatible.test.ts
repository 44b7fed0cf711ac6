// What users of OpenAI-compatible servers other than OpenAI run into: Ollama's and llama.cpp's own error shapes, a
// base URL without its API path, models that refuse a parameter, quota and long rate-limit waits.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider, type ProviderConfig } from '../../../src/core/llm/createProvider';
import type { ChatProvider } from '../../../src/core/llm/provider';
import { scripted } from '../../support/llmServer';
import { recordingLogger, useScriptedModel } from '../../support/scriptedModel';
import { API_KEY, MESSAGES, escape, rejectsWith, unusedPort } from './providerSuite';

void describe('OpenAI-compatible servers', () => {
  const llm = useScriptedModel({ perTest: true });
  const provider = (overrides: Partial<ProviderConfig> = {}): ChatProvider =>
    llm.provider({ model: 'gpt-test', apiKey: API_KEY, ...overrides });

  void test('Ollama: a model that is not pulled names the model, the URL and the pull command', async () => {
    llm.server.enqueue(
      scripted.error('model-not-found', {
        body: {
          error: {
            message: 'model "qwen9:70b" not found, try pulling it first',
            type: 'api_error',
            param: null,
            code: null,
          },
        },
      }),
    );
    const ollama = createProvider({ provider: 'ollama', baseUrl: llm.server.openaiBaseUrl, model: 'qwen9:70b' });

    const error = await rejectsWith(ollama.chat({ messages: MESSAGES }), 'model-not-found');

    assert.equal(
      error.message,
      `model "qwen9:70b" not found at ${llm.server.openaiBaseUrl}: pull it with \`ollama pull qwen9:70b\` or choose an installed model`,
    );
  });

  void test('Ollama: a stopped server is a network error that says how to start it', async () => {
    const baseUrl = `http://127.0.0.1:${await unusedPort()}/v1`;
    const ollama = createProvider({ provider: 'ollama', baseUrl, maxRetries: 0 });

    const error = await rejectsWith(ollama.chat({ messages: MESSAGES }), 'network');

    assert.equal(
      error.message,
      `cannot reach ${baseUrl}: connection refused — is Ollama running? Start it with \`ollama serve\``,
    );
  });

  void test('Ollama needs no key: requests go out without one configured', async () => {
    llm.server.enqueue(scripted.answer('local answer'));
    const ollama = createProvider({ provider: 'ollama', baseUrl: llm.server.openaiBaseUrl, model: 'llama3.1' });

    const response = await ollama.chat({ messages: MESSAGES });

    assert.equal(response.text, 'local answer');
    assert.equal(ollama.id, 'ollama');
  });

  void test('Ollama: a prompt it cut to its context window is reported in the log', async () => {
    const longPrompt = Array.from({ length: 600 }, (_, i) => `const value${i} = compute(${i});`).join('\n');
    llm.server.enqueue(scripted.answer('answer to half a prompt', { usage: { inputTokens: 2048, outputTokens: 5 } }));
    const ollama = createProvider(
      { provider: 'ollama', baseUrl: llm.server.openaiBaseUrl, model: 'llama3.1' },
      recordingLogger(llm.logLines),
    );

    await ollama.chat({ messages: [{ role: 'user', content: longPrompt }] });

    const warning = llm.logLines.find((line) => line.level === 'warn')?.text ?? '';
    assert.match(warning, /read 2048 prompt tokens of about \d+: it probably cut the prompt/);
    assert.match(warning, /OLLAMA_CONTEXT_LENGTH/);
  });

  void test("llama.cpp: the context error's token counts give the excess", async () => {
    llm.server.enqueue(
      scripted.error('context-length', {
        body: {
          error: {
            code: 400,
            message: 'the request exceeds the available context size, try increasing it',
            type: 'exceed_context_size_error',
            n_prompt_tokens: 5000,
            n_ctx: 4096,
          },
        },
      }),
    );

    const error = await rejectsWith(provider().chat({ messages: MESSAGES }), 'context-length');

    assert.equal(error.excessTokens, 904);
    assert.match(error.message, /context length exceeded by 904 tokens \(the window is 4096 tokens\)/);
  });

  void test('vLLM: the older "you requested" message gives the excess', async () => {
    llm.server.enqueue(
      scripted.error('context-length', {
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      }),
    );

    const error = await rejectsWith(provider().chat({ messages: MESSAGES }), 'context-length');

    assert.equal(error.excessTokens, 904);
  });

  void test('a base URL missing its API path is endpoint-not-found with advice on the URL', async () => {
    const baseUrl = `${llm.server.url}/api`;

    const error = await rejectsWith(provider({ baseUrl }).chat({ messages: MESSAGES }), 'endpoint-not-found');

    assert.match(
      error.message,
      new RegExp(`^${escape(baseUrl)} has no OpenAI-compatible server API \\(404 for /chat/completions\\)`),
    );
    assert.match(error.message, /usually ends in \/v1/);
  });

  void test('a model that refuses temperature gets the request again without it, and later calls omit it', async () => {
    llm.server.enqueue(
      scripted.error('server-error', {
        status: 400,
        body: {
          error: {
            message:
              "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
            type: 'invalid_request_error',
            param: 'temperature',
            code: 'unsupported_value',
          },
        },
      }),
      scripted.answer('first'),
      scripted.answer('second'),
    );
    const reasoning = provider();

    assert.equal((await reasoning.chat({ messages: MESSAGES, temperature: 0 })).text, 'first');
    assert.equal((await reasoning.chat({ messages: MESSAGES, temperature: 0 })).text, 'second');

    assert.deepEqual(
      llm.server.requests.map((request) => request.body?.temperature),
      [0, undefined, undefined],
    );
  });

  void test('OpenAI itself gets max_completion_tokens, which its reasoning models require', () => {
    // Checked without traffic: the official host without a key fails before any request is made.
    const official = createProvider({ provider: 'openai' });
    assert.equal(official.endpoint, 'https://api.openai.com/v1');
    return rejectsWith(official.chat({ messages: MESSAGES }), 'auth').then((error) => {
      assert.equal(
        error.message,
        'https://api.openai.com/v1 requires an API key: set it with the OPENAI_API_KEY environment variable',
      );
    });
  });

  void test('a server that knows only max_completion_tokens gets it after refusing max_tokens', async () => {
    llm.server.enqueue(
      scripted.error('server-error', {
        status: 400,
        body: {
          error: {
            message:
              "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
            type: 'invalid_request_error',
            param: 'max_tokens',
            code: 'unsupported_parameter',
          },
        },
      }),
      scripted.answer('limited'),
    );

    const response = await provider().chat({ messages: MESSAGES, maxOutputTokens: 300 });

    assert.equal(response.text, 'limited');
    assert.equal(llm.server.requests[1]?.body?.max_completion_tokens, 300);
    assert.equal(llm.server.requests[1]?.body?.max_tokens, undefined);
  });

  void test('an exhausted quota is not retried and says to add credits', async () => {
    llm.server.enqueue(scripted.error('quota-exceeded'), scripted.answer('never'));

    const error = await rejectsWith(provider().chat({ messages: MESSAGES }), 'rate-limit');

    assert.match(error.message, /^quota exhausted at .* \(429\): You exceeded your current quota.*add credits/);
    assert.equal(llm.server.requests.length, 1);
  });

  void test('a rate limit asking for a wait longer than a minute is reported instead of waited out', async () => {
    llm.server.enqueue(scripted.error('rate-limit', { retryAfterSeconds: 120 }), scripted.answer('never'));

    const error = await rejectsWith(provider().chat({ messages: MESSAGES }), 'rate-limit');

    assert.match(
      error.message,
      /refused the request \(429: Rate limit reached .*\) and asked to wait 2 min before retrying, longer than Scalpel waits \(60 s\): try again after /,
    );
    assert.equal(llm.server.requests.length, 1);
  });

  void test("a 401 never passes on the server's echo of the key", async () => {
    llm.server.enqueue(scripted.error('invalid-api-key'));

    const error = await rejectsWith(provider().chat({ messages: MESSAGES }), 'auth');

    assert.doesNotMatch(error.message, /Incorrect API key provided|\*\*\*/);
  });

  void test('a refusal with 403 is an auth error carrying the reason', async () => {
    llm.server.enqueue(
      scripted.error('server-error', {
        status: 403,
        message: 'Project proj_scripted does not have access to model gpt-test',
      }),
    );

    const error = await rejectsWith(provider().chat({ messages: MESSAGES }), 'auth');

    assert.match(
      error.message,
      /refused access to model "gpt-test" \(403\): Project proj_scripted does not have access/,
    );
  });
});
