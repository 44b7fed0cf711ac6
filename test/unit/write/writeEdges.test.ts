// Issue 25, the smaller findings of the write path: a file name no file system can hold, an answer that changes
// nothing, and the writer's time limit.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { writeFiles } from '../../../src/core/write';
import { readWholeFile } from '../../../src/core/write/readWhole';
import { FileBeingSavedError } from '../../../src/core/workspace/fileFingerprint';
import { scalpel } from '../cli/runScalpel';
import { call, toolEnv } from '../tools/toolSupport';

const SOURCE = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';

function workspace(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'scalpel-edges-')), 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), SOURCE);
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'src', 'a.ts'), past, past);
  return root;
}

void describe('write path edges', () => {
  void test('CREATE_FILE with an unpaired surrogate in its name is refused; no U+FFFD file appears', async () => {
    const root = workspace();
    // JSON can carry an unpaired surrogate (`\ud800`); UTF-8 text cannot.
    const answer = JSON.stringify({
      operations: [{ type: 'CREATE_FILE', path: 'src/b\\ud800x.ts', content: 'export const b = 1;\n' }],
    }).replace('\\\\ud800', '\\ud800');
    const run = await scalpel(root, ['apply', '-', '--root', root], { stdin: answer, env: { HOME: dirname(root) } });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /unpaired UTF-16 surrogate/);
    assert.deepEqual(readdirSync(join(root, 'src')), ['a.ts']);
  });

  void test('the apply tool with bodies equal to the files says nothing was written, naming no file as written', async () => {
    const root = workspace();
    const same =
      'REPLACE_ELEMENT src/a.ts/function[greet]\n```ts\nexport function greet(name: string): string {\n  return `hi ${name}`;\n}\n```\n';
    const run = await call(toolEnv(root), 'apply', { operations: same });
    assert.equal(run.isError, true, run.text); // nothing written is an error the agent must see (issue 27)
    assert.match(run.text, /nothing was written: the operations leave every file as it is/);
    assert.doesNotMatch(run.text, /written: wrote/);
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), SOURCE);
  });

  void test('past its deadline the writer writes nothing', () => {
    const root = workspace();
    const result = writeFiles([{ path: 'src/a.ts', before: SOURCE, after: 'export const changed = 1;\n' }], {
      root,
      deadline: Date.now() - 1,
    });
    assert.equal(result.ok, false);
    assert.match(
      result.ok ? '' : result.message,
      /src\/a\.ts: the time limit ran out before it was written; nothing was written/,
    );
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), SOURCE);
  });
});

void describe('readWholeFile', () => {
  /** A clock that moves only when the read sleeps, so the waits are exact and cost no time. */
  function fakeClock(start: number): { now: () => number; sleep: (ms: number) => void; slept: number[] } {
    let time = start;
    const slept: number[] = [];
    return { now: () => time, sleep: (ms) => void (slept.push(ms), (time += ms)), slept };
  }

  void test('a file nobody changed lately is read at once', () => {
    const root = workspace();
    // Ten seconds on: the file's clocks (the change time too, which setting the modification time moved) are old.
    const clock = fakeClock(Date.now() + 10_000);
    const read = readWholeFile(join(root, 'src', 'a.ts'), 'src/a.ts', clock);
    assert.equal(read.bytes.toString(), SOURCE);
    assert.deepEqual(clock.slept, []);
  });

  void test('a file changed just now is read once it has been left alone for the quiet time', () => {
    const root = workspace();
    const file = join(root, 'src', 'a.ts');
    writeFileSync(file, `${SOURCE}// saved just now\n`);
    const clock = fakeClock(Date.now());
    const read = readWholeFile(file, 'src/a.ts', { ...clock, quietMs: 500 });
    assert.match(read.bytes.toString(), /saved just now/);
    const waited = clock.slept.reduce((sum, ms) => sum + ms, 0);
    assert.ok(waited > 0 && waited <= 600, `waited ${waited} ms`);
  });

  void test('a modification time in the future (another clock) is not trusted: the file is watched instead', () => {
    const root = workspace();
    const file = join(root, 'src', 'a.ts');
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(file, future, future);
    const clock = fakeClock(Date.now());
    const read = readWholeFile(file, 'src/a.ts', { ...clock, quietMs: 500 });
    assert.equal(read.bytes.toString(), SOURCE);
    assert.ok(clock.slept.reduce((sum, ms) => sum + ms, 0) >= 500, 'watched for the quiet time');
  });

  void test('a file that keeps changing is refused after the longest wait', () => {
    const root = workspace();
    const file = join(root, 'src', 'a.ts');
    let saves = 0;
    const clock = fakeClock(Date.now());
    // Another program saves during every wait, its clock the test's.
    const sleep = (ms: number): void => {
      clock.sleep(ms);
      writeFileSync(file, `${SOURCE}// save ${++saves}\n`);
      const at = new Date(clock.now());
      utimesSync(file, at, at);
    };
    assert.throws(
      () => readWholeFile(file, 'src/a.ts', { now: clock.now, sleep, quietMs: 500, maxWaitMs: 3_000 }),
      (error: unknown) => error instanceof FileBeingSavedError && /src\/a\.ts: is being saved/.test(error.message),
    );
    assert.ok(saves > 3);
  });

  void test('a file Scalpel has just written itself is read back at once', () => {
    const root = workspace();
    const result = writeFiles([{ path: 'src/a.ts', before: SOURCE, after: `${SOURCE}// Scalpel's\n` }], { root });
    assert.ok(result.ok);
    const clock = fakeClock(Date.now());
    const read = readWholeFile(join(root, 'src', 'a.ts'), 'src/a.ts', clock);
    assert.match(read.bytes.toString(), /Scalpel's/);
    assert.deepEqual(clock.slept, []);
    assert.ok(existsSync(join(root, 'src', 'a.ts')));
  });
});
