// Waits with an end and messages that say what happened (issue 17, findings 7 and 8), through the real SDK clients
// against the scripted server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider, providerConfigFromEnv, type ProviderConfig } from '../../../src/core/llm/createProvider';
import type { ChatProvider, ChatRequest } from '../../../src/core/llm/provider';
import { scripted, type ScriptedLlmServer } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { API_KEY, escape, MESSAGES, rejectsWith } from './providerSuite';

const SUBJECTS = [
  { name: 'openai', model: 'gpt-test-mini', baseUrl: (server: ScriptedLlmServer) => server.openaiBaseUrl },
  { name: 'anthropic', model: 'claude-test', baseUrl: (server: ScriptedLlmServer) => server.anthropicBaseUrl },
] as const;

for (const subject of SUBJECTS) {
  void describe(`${subject.name}: deadlines and messages`, () => {
    const llm = useScriptedModel({ perTest: true });
    const provider = (overrides: Partial<ProviderConfig> = {}): ChatProvider =>
      llm.provider({ provider: subject.name, model: subject.model, apiKey: API_KEY, ...overrides });
    const streamed: ChatRequest = { messages: MESSAGES, onText: () => undefined };

    void test('a server that sends the headers and then nothing fails at the idle limit', async () => {
      llm.server.enqueue(scripted.stall());
      const started = Date.now();

      const error = await rejectsWith(provider({ idleTimeoutMs: 300, timeoutMs: 20_000 }).chat(streamed), 'timeout');

      assert.match(error.message, /sent its headers and then nothing for 0\.3 s/);
      assert.ok(Date.now() - started < 10_000, 'it failed long before the deadline');
      assert.equal(llm.server.requests.length, 1, 'a stalled stream is not retried');
    });

    void test('a server that trickles a byte at a time, never finishing an event, fails at the idle limit', async () => {
      llm.server.enqueue(scripted.answer('a long enough answer', { trickle: { bytes: 1, everyMs: 40 } }));

      const error = await rejectsWith(provider({ idleTimeoutMs: 500, timeoutMs: 20_000 }).chat(streamed), 'timeout');

      assert.match(error.message, /stalled/);
    });

    void test('a stream that keeps coming but never ends fails at the deadline', async () => {
      llm.server.enqueue(scripted.answer('x'.repeat(60), { chunks: 60, chunkDelayMs: 100 }));

      const error = await rejectsWith(provider({ idleTimeoutMs: 1_000, timeoutMs: 1_200 }).chat(streamed), 'timeout');

      assert.match(error.message, /was still not complete after 1\.2 s, the time limit of one request/);
      assert.match(error.message, /partial answer was discarded/);
    });

    void test('an unstreamed request with no answer fails at the deadline', async () => {
      llm.server.enqueue(scripted.stall());

      const error = await rejectsWith(provider({ timeoutMs: 500 }).chat({ messages: MESSAGES }), 'timeout');

      assert.match(error.message, new RegExp(`no answer from ${escape(subject.baseUrl(llm.server))} within 0\\.5 s`));
    });

    void test('a Retry-After within the cap is waited out, and said aloud', async () => {
      llm.server.enqueue(scripted.error('rate-limit', { retryAfterSeconds: 1 }), scripted.answer('after the wait'));

      const response = await provider().chat(streamed);

      assert.equal(response.text, 'after the wait');
      const warning = llm.logLines.find((line) => line.level === 'warn');
      assert.match(warning?.text ?? '', /waiting 1 s as the server asked, then retrying \(retry 1 of 2\)/);
    });

    void test('a Retry-After beyond the cap fails at once and says when to try again', async () => {
      llm.server.enqueue(scripted.error('rate-limit', { retryAfterSeconds: 3_600 }), scripted.answer('never sent'));
      const started = Date.now();

      const error = await rejectsWith(provider().chat(streamed), 'rate-limit');

      assert.match(
        error.message,
        /asked to wait 60 min before retrying, longer than Scalpel waits \(60 s\): try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
      );
      const after = Date.parse(/after (\S+ \S+) UTC/.exec(error.message)?.[1]?.replace(' ', 'T') + 'Z');
      assert.ok(Math.abs(after - (started + 3_600_000)) < 10_000, 'the time named is an hour from now');
      assert.equal(llm.server.requests.length, 1);
    });

    void test('a Retry-After past the deadline fails at once, naming the deadline', async () => {
      llm.server.enqueue(scripted.error('rate-limit', { retryAfterSeconds: 5 }), scripted.answer('never sent'));

      const error = await rejectsWith(provider({ timeoutMs: 2_000 }).chat(streamed), 'rate-limit');

      assert.match(error.message, /asked to wait 5 s before retrying, past this request's time limit of 2 s/);
      assert.equal(llm.server.requests.length, 1);
    });

    void test('an HTML page where a stream was expected is shown with its content type', async () => {
      llm.server.enqueue(
        scripted.rawBody(
          'text/html; charset=utf-8',
          '<html><head><title>Proxy login</title></head><body>Sign in</body></html>',
        ),
      );

      const error = await rejectsWith(provider().chat(streamed), 'bad-response');

      assert.match(error.message, /expected a stream of server-sent events, but the server sent text\/html/);
      assert.match(error.message, /Proxy login/);
      assert.equal(llm.server.requests.length, 1, 'an unexpected body is not retried');
    });

    void test('a JSON body where a stream was expected is shown with its content type', async () => {
      llm.server.enqueue(scripted.rawBody('application/json', '{"status":"maintenance","retry":"later"}'));

      const error = await rejectsWith(provider().chat(streamed), 'bad-response');

      assert.match(error.message, /server sent application\/json: .*maintenance/);
    });

    void test('a 401 names the variable the key really came from', async () => {
      const keyVariable = subject.name === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
      const fromEnv = (env: Record<string, string>): ChatProvider =>
        createProvider(
          providerConfigFromEnv({ ...env, SCALPEL_BASE_URL: subject.baseUrl(llm.server) }, { provider: subject.name }),
        );
      llm.server.enqueue(scripted.error('invalid-api-key'), scripted.error('invalid-api-key'));

      const fromScalpel = await rejectsWith(
        fromEnv({ SCALPEL_API_KEY: API_KEY, [keyVariable]: 'sk-other-key-1234567890' }).chat(streamed),
        'auth',
      );
      assert.match(fromScalpel.message, /the key came from the SCALPEL_API_KEY environment variable/);
      assert.doesNotMatch(fromScalpel.message, new RegExp(keyVariable));

      const fromOwn = await rejectsWith(fromEnv({ [keyVariable]: API_KEY }).chat(streamed), 'auth');
      assert.match(fromOwn.message, new RegExp(`the key came from the ${keyVariable} environment variable`));
    });

    void test("a 401 names the editor's secret storage when the key came from there", async () => {
      llm.server.enqueue(scripted.error('invalid-api-key'));

      const error = await rejectsWith(
        provider({ apiKeySource: "VS Code's secret storage", apiKeyHint: 'the command "Scalpel: Set API Key"' }).chat(
          streamed,
        ),
        'auth',
      );

      assert.match(error.message, /the key came from VS Code's secret storage/);
    });
  });
}
