// Issue 25: --timeout holds while synchronous work holds the process (a timer cannot fire then): past the limit,
// nothing is written and the exit is 1, whatever step the limit ran out in.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scalpel } from './runScalpel';

const SOURCE = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';
const RIGHT =
  'REPLACE_ELEMENT src/greet.ts/function[greet]\n```ts\nexport function greet(name: string): string {\n  return `hello ${name}`;\n}\n```\n';

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-deadline-'));
  mkdirSync(join(root, 'src'));
  const file = join(root, 'src', 'greet.ts');
  writeFileSync(file, SOURCE);
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
  return root;
}

/** Holds this process (and so the CLI running in it) until `until`, as synchronous work on a huge answer would. */
function holdTheProcessUntil(until: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(1, until - Date.now()));
}

/** Long enough that even a busy machine reaches the answer within it; the hold then runs past it. */
const LIMIT_SECONDS = 10;

void describe('--timeout during synchronous work', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(async () => {
    await server.close();
  });

  void test('the limit running out while the process is held, after the answer, writes nothing and exits 1', async () => {
    const root = workspace();
    server.enqueue(scripted.answer(RIGHT));
    const env = { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: server.openaiBaseUrl };
    let held = false;
    const started = Date.now();
    const run = await scalpel(
      root,
      [
        'edit',
        'src/greet.ts',
        '--focus',
        'function[greet]',
        '-m',
        'hello',
        '--timeout',
        String(LIMIT_SECONDS),
        '--verify',
        'syntax',
      ],
      {
        env,
        // The CLI writes its progress to stderr as it goes: past the named step, the process is held beyond the
        // limit, with no chance for the limit's timer to fire.
        interruptWhen: (stderr) => {
          if (!held && /scalpel: verifying/.test(stderr)) {
            held = true;
            holdTheProcessUntil(started + LIMIT_SECONDS * 1000 + 1_000);
          }
          return false;
        },
      },
    );
    assert.ok(held, `the CLI reported no "verifying" step: ${run.stderr}`);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /the time limit of 10 s \(--timeout\) ran out/);
    assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), SOURCE, 'nothing written');
  });
});
