import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EndpointProvider } from '../../../src/vscode/modelAccess';
import { readinessOf, type ReadinessFacts } from '../../../src/vscode/setup/readiness';

// Whether the palette's first request has a model, or the user is offered setup first (issue 14, item 2).

function facts(overrides: Partial<ReadinessFacts> & { keys?: readonly EndpointProvider[] }): ReadinessFacts {
  const probed: string[] = [];
  return {
    provider: 'auto',
    baseUrl: '',
    hasVsCodeModel: async () => false,
    hasKey: async (kind) => (overrides.keys ?? []).includes(kind),
    ollamaAnswers: async () => {
      probed.push('ollama');
      return false;
    },
    ...overrides,
  };
}

void test('nothing set up, no VS Code model, no Ollama: not ready, and the reason names every way to get a model', async () => {
  const readiness = await readinessOf(facts({}));
  assert.equal(readiness.ready, false);
  assert.ok(!readiness.ready);
  assert.equal(readiness.missing, 'model');
  assert.match(readiness.reason, /no VS Code model, no endpoint, no Ollama running/);
  // Shown as the setup picker's placeholder, which cuts what is longer (issue 29).
  assert.ok(readiness.reason.length <= 75, readiness.reason);
});

void test('auto takes a VS Code model first and never probes Ollama then', async () => {
  let probed = false;
  const readiness = await readinessOf(
    facts({
      hasVsCodeModel: async () => true,
      ollamaAnswers: async () => {
        probed = true;
        return true;
      },
    }),
  );
  assert.deepEqual(readiness, { ready: true, via: 'vscode-lm' });
  assert.equal(probed, false);
});

void test('auto uses a local Ollama only when it answers', async () => {
  assert.deepEqual(await readinessOf(facts({ ollamaAnswers: async () => true })), {
    ready: true,
    via: 'local-ollama',
  });
});

void test('auto with a base URL is an endpoint the user named', async () => {
  assert.deepEqual(await readinessOf(facts({ baseUrl: 'http://127.0.0.1:1234/v1' })), {
    ready: true,
    via: 'endpoint',
  });
});

void test('OpenAI or Anthropic at their own address without a stored key: the key is what is missing', async () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    const readiness = await readinessOf(facts({ provider }));
    assert.ok(!readiness.ready, provider);
    assert.equal(readiness.missing, 'key');
    assert.equal(readiness.kind, provider);
    assert.match(readiness.reason, /needs an API key/);
    assert.deepEqual(await readinessOf(facts({ provider, keys: [provider] })), { ready: true, via: 'endpoint' });
  }
});

void test('an OpenAI-compatible server at a base URL of its own may take no key', async () => {
  assert.deepEqual(await readinessOf(facts({ provider: 'openai', baseUrl: 'http://127.0.0.1:1234/v1' })), {
    ready: true,
    via: 'endpoint',
  });
});

void test('Ollama chosen in the settings is the user’s choice: no setup, the request says if it is not running', async () => {
  assert.deepEqual(await readinessOf(facts({ provider: 'ollama' })), { ready: true, via: 'endpoint' });
});

void test('vscode-lm without any VS Code model is not ready', async () => {
  const readiness = await readinessOf(facts({ provider: 'vscode-lm' }));
  assert.ok(!readiness.ready);
  assert.equal(readiness.missing, 'vscode-model');
  assert.ok(readiness.reason.length <= 75, readiness.reason);
  assert.deepEqual(await readinessOf(facts({ provider: 'vscode-lm', hasVsCodeModel: async () => true })), {
    ready: true,
    via: 'vscode-lm',
  });
});
