// How the CLI's flags and environment pick the provider, and that the picked provider really talks to that server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider, ollamaBaseUrlFromHost, providerConfigFromEnv } from '../../../src/core/llm/createProvider';
import { scripted, startScriptedLlmServer } from '../../support/llmServer';
import { API_KEY, MESSAGES } from './providerSuite';

void describe('providerConfigFromEnv', () => {
  void test('with nothing set, the local Ollama is used', () => {
    const config = providerConfigFromEnv({});
    assert.equal(config.provider, 'ollama');
    const provider = createProvider(config);
    assert.equal(provider.endpoint, 'http://127.0.0.1:11434/v1');
    assert.equal(provider.model, 'llama3.1');
    assert.equal(provider.id, 'ollama');
  });

  void test('an OpenAI key in the environment picks OpenAI with that key', () => {
    const config = providerConfigFromEnv({ OPENAI_API_KEY: 'sk-openai' });
    assert.equal(config.provider, 'openai');
    assert.equal(config.apiKey, 'sk-openai');
    assert.equal(createProvider(config).endpoint, 'https://api.openai.com/v1');
  });

  void test('an Anthropic key alone picks Anthropic with that key', () => {
    const config = providerConfigFromEnv({ ANTHROPIC_API_KEY: 'sk-ant' });
    assert.equal(config.provider, 'anthropic');
    assert.equal(config.apiKey, 'sk-ant');
    assert.equal(createProvider(config).endpoint, 'https://api.anthropic.com');
  });

  void test('flags win over SCALPEL_* variables, which win over inference', () => {
    const env = {
      OPENAI_API_KEY: 'sk-openai',
      ANTHROPIC_API_KEY: 'sk-ant',
      SCALPEL_PROVIDER: 'anthropic',
      SCALPEL_MODEL: 'claude-from-env',
    };
    assert.deepEqual(providerConfigFromEnv(env), {
      provider: 'anthropic',
      model: 'claude-from-env',
      apiKey: 'sk-ant',
      apiKeyHint: 'the ANTHROPIC_API_KEY environment variable',
      apiKeySource: 'the ANTHROPIC_API_KEY environment variable',
    });
    const flagged = providerConfigFromEnv(env, {
      provider: 'OpenAI',
      model: 'gpt-flag',
      baseUrl: 'http://127.0.0.1:1234/v1',
    });
    assert.equal(flagged.provider, 'openai');
    assert.equal(flagged.model, 'gpt-flag');
    assert.equal(flagged.baseUrl, 'http://127.0.0.1:1234/v1');
    assert.equal(flagged.apiKey, 'sk-openai');
  });

  void test('a base URL alone means an OpenAI-compatible server; SCALPEL_API_KEY overrides the key', () => {
    const config = providerConfigFromEnv({
      SCALPEL_BASE_URL: 'https://openrouter.example/api/v1',
      SCALPEL_API_KEY: 'sk-router',
      ANTHROPIC_API_KEY: 'sk-ant',
    });
    assert.equal(config.provider, 'openai');
    assert.equal(config.apiKey, 'sk-router');
  });

  void test('an unknown provider name is refused with the choices', () => {
    assert.throws(
      () => providerConfigFromEnv({ SCALPEL_PROVIDER: 'gemini' }),
      /unknown provider "gemini": use openai, anthropic, ollama/,
    );
  });

  void test('a base URL that is not a URL is refused up front with an example', () => {
    assert.throws(
      () => createProvider(providerConfigFromEnv({ SCALPEL_BASE_URL: '127.0.0.1:11434/v1' })),
      /invalid base URL "127.0.0.1:11434\/v1": give a full URL such as http:\/\/127.0.0.1:11434\/v1/,
    );
  });

  void test("Ollama's own OLLAMA_HOST is honoured in its usual forms", () => {
    assert.equal(ollamaBaseUrlFromHost('0.0.0.0'), 'http://127.0.0.1:11434/v1');
    assert.equal(ollamaBaseUrlFromHost('192.0.2.7:8080'), 'http://192.0.2.7:8080/v1');
    assert.equal(ollamaBaseUrlFromHost('https://ollama.example'), 'https://ollama.example/v1');
    assert.equal(providerConfigFromEnv({ OLLAMA_HOST: 'localhost:11500' }).baseUrl, 'http://localhost:11500/v1');
  });

  void test('the configured provider sends its requests, key included, to the configured server', async () => {
    const server = await startScriptedLlmServer({ steps: [scripted.answer('configured')] });
    try {
      const config = providerConfigFromEnv(
        { OPENAI_API_KEY: API_KEY, SCALPEL_BASE_URL: server.openaiBaseUrl },
        { model: 'from-flag' },
      );
      const response = await createProvider(config).chat({ messages: MESSAGES });
      assert.equal(response.text, 'configured');
      assert.equal(server.requests[0]?.body?.model, 'from-flag');
      assert.equal(server.requests[0]?.headers.authorization, `Bearer ${API_KEY}`);
    } finally {
      await server.close();
    }
  });
});
