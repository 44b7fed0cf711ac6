// Issue 25: `scalpel apply` reads its answer no further than the answer limit, from a file or from standard input.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { scripted, startScriptedLlmServer } from '../../support/llmServer';
import { scalpel, type CliRun } from './runScalpel';

const SOURCE = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';

function workspace(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'scalpel-inputs-')), 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), SOURCE);
  return root;
}

function cliScript(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'cli.js');
  }
  throw new Error('no package.json above the test');
}

/** `scalpel apply -` as a real process fed by a producer that never stops, like `yes | scalpel apply -`. */
function applyFromEndlessStdin(root: string): Promise<CliRun & { fed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliScript(), 'apply', '-', '--root', root], {
      cwd: root,
      env: { PATH: process.env['PATH'], HOME: dirname(root) },
    });
    let stdout = '';
    let stderr = '';
    let fed = 0;
    const chunk = Buffer.from('y\n'.repeat(32 * 1024));
    const feed = (): void => {
      while (child.stdin.writable && child.stdin.write(chunk)) fed += chunk.length;
    };
    child.stdin.on('drain', () => {
      fed += chunk.length;
      feed();
    });
    child.stdin.on('error', () => undefined); // EPIPE once the CLI stops reading: expected.
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, fed }));
    feed();
  });
}

void describe('scalpel apply: bounded input', () => {
  void test('apply /dev/zero stops at the answer limit with one clear line, exit 1', { timeout: 60_000 }, async () => {
    const root = workspace();
    const run = await scalpel(root, ['apply', '/dev/zero', '--root', root], { env: { HOME: dirname(root) } });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /^scalpel apply: \/dev\/zero: the answer is over the limit of 2 MB for one answer; reading stopped there and nothing was applied/,
    );
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), SOURCE);
  });

  void test('an answer file over the limit is refused the same way', async () => {
    const root = workspace();
    writeFileSync(join(root, 'answer.md'), `REPLACE_FILE src/a.ts\n\`\`\`ts\n${'// x\n'.repeat(600_000)}\`\`\`\n`);
    const run = await scalpel(root, ['apply', 'answer.md', '--root', root], { env: { HOME: dirname(root) } });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /answer\.md: the answer is over the limit of 2 MB/);
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), SOURCE);
  });

  void test('standard input that never ends is read no further than the limit', { timeout: 120_000 }, async () => {
    const root = workspace();
    const run = await applyFromEndlessStdin(root);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /standard input: the answer is over the limit of 2 MB/);
    assert.doesNotMatch(run.stderr, /\n\s+at |internal error/);
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), SOURCE);
  });

  void test(
    'edit: a model stream that never ends is cut at the answer limit, exit 1, nothing written',
    { timeout: 120_000 },
    async () => {
      const server = await startScriptedLlmServer();
      try {
        const root = workspace();
        server.enqueue(scripted.answer('z'.repeat(4096), { chunks: 1, endless: true }));
        const run = await scalpel(
          root,
          ['edit', 'src/a.ts', '--focus', 'function[greet]', '-m', 'greet politely', '--verify', 'syntax', '--no-plan'],
          { env: { HOME: dirname(root), OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: server.openaiBaseUrl } },
        );
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, /passed 2 MB, the limit of one answer/);
        assert.doesNotMatch(run.stderr, /RangeError|internal error|\n\s+at /);
        assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), SOURCE);
      } finally {
        await server.close();
      }
    },
  );
});
