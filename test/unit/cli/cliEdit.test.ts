import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HARD_CASES, tempWorkspace } from '../../support/tempWorkspace';
import { scalpel as runScalpel, type CliRun } from './runScalpel';
import { scripted, startScriptedLlmServer, type ScriptedStep } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

const HARD = HARD_CASES;
const VALIDATE = 'src/hard.ts/class[UserService]/method[validate]';
const ANSWER = [
  `REPLACE_ELEMENT ${VALIDATE}`,
  '```ts',
  'validate(input: string): boolean {',
  '  return input.trim().length > 0;',
  '}',
  '```',
].join('\n');
const EDITED = HARD.replace(
  'return input.length > 0 && path.isAbsolute(this.root);',
  'return input.trim().length > 0;',
);

/** The CLI in-process (see runScalpel.ts); the real-process runs are in cliProcess.test.ts. */
function scalpel(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  options: { stdin?: string; interruptWhen?: (stderr: string) => boolean } = {},
): Promise<CliRun> {
  return runScalpel(cwd, args, { env, ...options });
}

function workspace(): string {
  return tempWorkspace('scalpel-edit-', { 'src/hard.ts': HARD });
}

void describe('scalpel edit / apply / stats end to end', () => {
  const llm = useScriptedModel();

  void test('a successful edit writes the file, prints the diff and records metrics', async () => {
    const root = workspace();
    const metrics = join(root, 'metrics.jsonl');
    llm.server.enqueue(scripted.answer(ANSWER));
    const run = await scalpel(root, { ...llm.cliEnv, SCALPEL_METRICS_FILE: metrics }, [
      'edit',
      'src/hard.ts',
      '--focus',
      'class[UserService]/method[validate]',
      '-m',
      'trim it',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), EDITED);
    assert.match(run.stdout, /^-    return input\.length > 0 && path\.isAbsolute\(this\.root\);$/m);
    assert.match(run.stdout, /^\+    return input\.trim\(\)\.length > 0;$/m);
    assert.equal(llm.server.requests.at(-1)?.headers.authorization, 'Bearer sk-cli-test');
    const stats = await scalpel(root, { SCALPEL_METRICS_FILE: metrics }, ['stats', '--json']);
    assert.equal(stats.code, 0);
    const summary = JSON.parse(stats.stdout) as {
      requests: number;
      all: { inputTokens: { mean: number }; instructionTokens: { count: number; mean: number } };
      byCommand: Array<{ key: string }>;
      byOperation: Array<{ key: string }>;
    };
    assert.equal(summary.requests, 1);
    // The fixed instructions are counted per request, apart from the code: the system prompt is hundreds of tokens.
    assert.equal(summary.all.instructionTokens.count, 1);
    assert.ok(summary.all.instructionTokens.mean > 100, `${summary.all.instructionTokens.mean}`);
    assert.ok(summary.all.instructionTokens.mean < summary.all.inputTokens.mean);
    const table = await scalpel(root, { SCALPEL_METRICS_FILE: metrics }, ['stats']);
    const instructions = Math.round(summary.all.instructionTokens.mean);
    assert.match(table.stdout, /instructions \+ code/);
    assert.match(table.stdout, new RegExp(`^all .* ${instructions} \\+ \\d+$`, 'm'));
    assert.deepEqual(
      summary.byCommand.map((g) => g.key),
      ['cli.edit'],
    );
    assert.deepEqual(
      summary.byOperation.map((g) => g.key),
      ['REPLACE_ELEMENT'],
    );
  });

  void test('--dry-run verifies and writes nothing', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER));
    const run = await scalpel(root, llm.cliEnv, [
      'edit',
      'src/hard.ts',
      '--focus',
      VALIDATE,
      '-m',
      'trim it',
      '--dry-run',
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(run.stdout) as { ok: boolean; written: boolean; files: Array<{ path: string }> };
    assert.equal(json.ok, true);
    assert.equal(json.written, false);
    assert.deepEqual(
      json.files.map((f) => f.path),
      ['src/hard.ts'],
    );
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), HARD);
  });

  void test('--root: relative files are relative to the root; an absolute path outside it is refused', async () => {
    // A decoy src/hard.ts in the current directory shows a file read from there instead of from the root.
    const parent = workspace();
    const decoy = join(parent, 'src', 'hard.ts');
    const rootFlag = 'ws';
    const root = join(parent, rootFlag);
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'src', 'hard.ts'), HARD);
    llm.server.enqueue(scripted.answer(ANSWER));
    const run = await scalpel(parent, llm.cliEnv, [
      'edit',
      'src/hard.ts',
      '--focus',
      'class[UserService]/method[validate]',
      '-m',
      'trim it',
      '--root',
      rootFlag,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), EDITED);
    assert.equal(readFileSync(decoy, 'utf8'), HARD);

    const count = llm.server.requests.length;
    const outside = await scalpel(parent, llm.cliEnv, ['edit', decoy, '-m', 'trim it', '--root', rootFlag]);
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /^scalpel edit: refused path ".+": it is outside the workspace root .+\n$/);
    assert.equal(llm.server.requests.length, count, 'no model request for a refused file');
  });

  void test('429 with Retry-After and a 503 are retried, then the edit applies', async () => {
    const root = workspace();
    const count = llm.server.requests.length;
    llm.server.enqueue(
      scripted.error('rate-limit', { retryAfterSeconds: 1 }),
      scripted.error('overloaded', { status: 503 }),
      scripted.answer(ANSWER),
    );
    const run = await scalpel(root, llm.cliEnv, ['edit', 'src/hard.ts', '--focus', VALIDATE, '-m', 'trim it']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - count, 3);
    const [first, second] = llm.server.requests.slice(count);
    assert.ok((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0) >= 900, 'the retry waited for Retry-After');
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), EDITED);
  });

  // Each fault gets a server of its own, scripted to fail every attempt the client may make (retries included).
  const faults: Array<[string, ScriptedStep, RegExp]> = [
    [
      'a dropped connection mid-stream',
      scripted.answer(ANSWER, { ending: 'drop', afterChunks: 1, chunks: 4 }),
      /connection|network|closed|reset/i,
    ],
    [
      'a truncated stream',
      scripted.answer(ANSWER, { ending: 'truncate', afterChunks: 1, chunks: 4 }),
      /truncat|ended before|incomplete/i,
    ],
    ['a rejected API key', scripted.error('invalid-api-key'), /API key rejected/],
    [
      'an unknown model',
      scripted.error('model-not-found'),
      /model "gpt-4o-mini" not found at http:\/\/127\.0\.0\.1:\d+\/v1/,
    ],
    ['a context length error', scripted.error('context-length'), /context length exceeded/i],
  ];
  for (const [name, step, message] of faults) {
    void test(`${name}: exit non-zero, a clear reason, the file untouched`, async () => {
      const own = await startScriptedLlmServer({ steps: Array.from({ length: 8 }, () => step) });
      try {
        const root = workspace();
        const run = await scalpel(root, { ...llm.cliEnv, SCALPEL_BASE_URL: own.openaiBaseUrl }, [
          'edit',
          'src/hard.ts',
          '--focus',
          VALIDATE,
          '-m',
          'trim it',
        ]);
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, message);
        assert.ok(!run.stderr.includes('sk-cli-test'), 'the key never appears');
        assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), HARD);
      } finally {
        await own.close();
      }
    });
  }

  void test('Ctrl-C while the model streams: exit 130, nothing written', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER, { chunks: 30, chunkDelayMs: 100 }));
    const run = await scalpel(root, llm.cliEnv, ['edit', 'src/hard.ts', '--focus', VALIDATE, '-m', 'trim it'], {
      interruptWhen: (stderr) => stderr.includes('asking gpt-4o-mini'),
    });
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stderr, /cancel/i);
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), HARD);
  });

  void test('no model reachable: the error says how to configure one', async () => {
    const root = workspace();
    const run = await scalpel(root, { SCALPEL_BASE_URL: 'http://127.0.0.1:9/v1' }, [
      'edit',
      'src/hard.ts',
      '--focus',
      VALIDATE,
      '-m',
      'x',
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /127\.0\.0\.1:9/);
  });

  void test('apply: a verified answer is written; a failing batch changes nothing and lists every result', async () => {
    const root = workspace();
    writeFileSync(join(root, 'good.txt'), ANSWER);
    const good = await scalpel(root, {}, ['apply', 'good.txt']);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), EDITED);

    const fresh = workspace();
    const bad = `${ANSWER}\n\nDELETE_ELEMENT src/hard.ts/function[doesNotExist]\n`;
    const run = await scalpel(fresh, {}, ['apply', '-', '--json'], { stdin: bad });
    assert.equal(run.code, 1);
    const json = JSON.parse(run.stdout) as {
      ok: boolean;
      results: Array<{ status: string; path: string; suggestions?: string[] }>;
    };
    assert.equal(json.ok, false);
    assert.equal(json.results.length, 2);
    assert.equal(json.results[1]?.status, 'failed');
    assert.ok((json.results[1]?.suggestions ?? []).length > 0);
    assert.equal(readFileSync(join(fresh, 'src', 'hard.ts'), 'utf8'), HARD);
  });
});
