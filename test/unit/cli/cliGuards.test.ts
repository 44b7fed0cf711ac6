// Issue 17 through the CLI's entry `runCli` in this process: a stalled model ends at the time limit, a rejected key names its real source, and
// answers that would damage a file (a README cut at its own fence, broken JSON, an oversized answer) change nothing.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scalpel as runScalpel, type CliRun } from './runScalpel';

const SOURCE = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';
const README = '# Project\n\nOld text.\n';

async function scalpel(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  stdin = '',
): Promise<CliRun & { readonly ms: number }> {
  const started = Date.now();
  const run = await runScalpel(cwd, args, { env, stdin });
  return { ...run, ms: Date.now() - started };
}

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-guards-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'greet.ts'), SOURCE);
  writeFileSync(join(root, 'README.md'), README);
  writeFileSync(join(root, 'package.json'), '{ "name": "demo" }\n');
  return root;
}

const EDIT = ['edit', 'src/greet.ts', '--focus', 'function[greet]', '-m', 'greet politely'];

void describe('scalpel edit: deadlines and messages', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(async () => {
    await server.close();
  });

  void test('--timeout ends a request to a server that never answers, with exit 1 and the reason', async () => {
    // A server of its own: a stall the limit ends before the request arrives must not reach the next test.
    const stalled = await startScriptedLlmServer();
    try {
      const root = workspace();
      stalled.enqueue(scripted.stall());
      const env = { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: stalled.openaiBaseUrl };

      const run = await scalpel(root, env, [...EDIT, '--timeout', '3', '--verify', 'syntax']);

      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /the time limit of 3 s \(--timeout\) ran out while .*; nothing was written/);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
      assert.ok(run.ms < 30_000, `it ended in ${run.ms} ms`);
      assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), SOURCE);
    } finally {
      await stalled.close();
    }
  });

  void test('--timeout limits the whole command: answers each well within it, together past it, write nothing', async () => {
    // A server of its own: steps left unanswered when the limit ends the command must not reach the next test.
    const slow = await startScriptedLlmServer();
    try {
      const root = workspace();
      // Answers naming an element that does not exist go back for repair (two rounds by default), the last one would
      // verify; each comes 1.5 s after its request, so three of them take longer than the limit of 4 s however fast
      // the rest of the command runs, while no one request comes near it (a request's own limit words it otherwise:
      // "within 4 s, the time limit of one request").
      const wrong = 'REPLACE_ELEMENT src/greet.ts/function[welcome]\n```ts\nexport function welcome(): void {}\n```\n';
      const right =
        'REPLACE_ELEMENT src/greet.ts/function[greet]\n```ts\nexport function greet(name: string): string {\n  return `hello ${name}`;\n}\n```\n';
      slow.enqueue(
        scripted.answer(wrong, { delayMs: 1_500 }),
        scripted.answer(wrong, { delayMs: 1_500 }),
        scripted.answer(right, { delayMs: 1_500 }),
      );
      const env = { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: slow.openaiBaseUrl };

      const run = await scalpel(root, env, [...EDIT, '--timeout', '4', '--verify', 'syntax', '--json']);

      assert.equal(run.code, 1, run.stderr);
      const json = JSON.parse(run.stdout) as { ok: boolean; written: boolean; failure?: string };
      assert.equal(json.written, false);
      assert.match(
        json.failure ?? '',
        /^the time limit of 4 s \(--timeout\) ran out while (asking|repair round \d+ of \d+: ).*; nothing was written$/,
      );
      assert.match(run.stderr, /the time limit of 4 s \(--timeout\) ran out/);
      assert.ok(run.ms < 20_000, `it ended in ${run.ms} ms`);
      assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), SOURCE, 'nothing written');
    } finally {
      await slow.close();
    }
  });

  void test('a rejected SCALPEL_API_KEY is named as such, not as OPENAI_API_KEY', async () => {
    const root = workspace();
    server.enqueue(scripted.error('invalid-api-key'));
    const env = {
      OPENAI_API_KEY: 'sk-openai-unused',
      SCALPEL_API_KEY: 'sk-scalpel-rejected',
      SCALPEL_BASE_URL: server.openaiBaseUrl,
    };

    const run = await scalpel(root, env, EDIT);

    assert.equal(run.code, 1);
    assert.match(run.stderr, /the key came from the SCALPEL_API_KEY environment variable/);
    assert.doesNotMatch(run.stderr, /OPENAI_API_KEY/);
  });
});

void describe('scalpel apply: answers that would damage a file change nothing', () => {
  const refused = async (answer: string, pattern: RegExp): Promise<void> => {
    const root = workspace();
    const run = await scalpel(root, {}, ['apply', '-'], answer);
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr + run.stdout, pattern);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(readFileSync(join(root, 'README.md'), 'utf8'), README);
    assert.equal(readFileSync(join(root, 'package.json'), 'utf8'), '{ "name": "demo" }\n');
  };

  void test('a README cut at its own ``` fence', async () => {
    const answer = 'REPLACE_FILE README.md\n```md\n# Project\n\n```\nnpm i\n```\n\nNew text.\n```\n';
    await refused(answer, /fences of its own/);
  });

  void test('JSON that does not parse', async () => {
    await refused('REPLACE_FILE package.json\n```json\n{ "name": "demo",\n```\n', /not valid JSON/);
  });

  void test('an answer over the size limit', async () => {
    const answer = `REPLACE_FILE README.md\n\`\`\`md\n${'word '.repeat(500_000)}\n\`\`\`\n`;
    await refused(answer, /over the limit of 2 MB/);
  });
});
