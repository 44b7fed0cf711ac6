import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { scalpel } from '../cli/runScalpel';

// Issue 25: a save in place (O_TRUNC, then the bytes) that pauses half-way while `scalpel apply` runs. The apply must
// never take the half for the file: it either waits and applies on top of the whole save, or refuses; the file ends
// as its owner saved it (with the edit on top, or without it).

const FIRST_HALF = 'export function target(): number {\n  return 1;\n}\n';
const SECOND_HALF = '\nexport function userAdded(): number {\n  return 2;\n}\n';
const ANSWER = 'REPLACE_ELEMENT src/a.ts/function[target]\n```ts\nexport function target(): number {\n  return 42;\n}\n```\n';

function workspace(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'scalpel-torn-')), 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  return root;
}

/** A file saved a while ago: nothing about it is recent. */
function oldFile(path: string, text: string): void {
  writeFileSync(path, text);
  const past = new Date(Date.now() - 60_000);
  utimesSync(path, past, past);
}

/**
 * Another program saving `path` in place: it truncates the file, writes `first`, says "half", waits `pauseMs`, writes
 * `second` and says "done". Its own process, so the apply in this one cannot hold it up.
 */
function slowSaver(path: string, first: string, second: string, pauseMs: number): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const fd = fs.openSync(process.argv[1], fs.constants.O_WRONLY | fs.constants.O_TRUNC);
    fs.writeSync(fd, process.argv[2]);
    process.stdout.write('half\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[4]));
    fs.writeSync(fd, process.argv[3]);
    fs.closeSync(fd);
    process.stdout.write('done\\n');`;
  return spawn(process.execPath, ['-e', script, path, first, second, String(pauseMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function said(child: ChildProcess, word: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(word)) resolve();
    });
    child.on('exit', () => (out.split('\n').includes(word) ? resolve() : reject(new Error(`the saver never said ${word}`))));
  });
}

void describe('a save in progress is never read half', () => {
  void test('apply during the pause of a slow save in place: the edit lands on the whole save or nothing is written', async () => {
    const root = workspace();
    const file = join(root, 'src', 'a.ts');
    // Warm up in another workspace: the TypeScript engine loads before the race, not during it.
    const warm = workspace();
    oldFile(join(warm, 'src', 'a.ts'), FIRST_HALF);
    assert.equal((await scalpel(warm, ['apply', '-', '--root', warm], { stdin: ANSWER })).code, 0);

    oldFile(file, `${FIRST_HALF}${SECOND_HALF}`);
    const saver = slowSaver(file, FIRST_HALF, `${SECOND_HALF}// saved whole\n`, 300);
    const half = said(saver, 'half');
    const done = said(saver, 'done');
    await half;
    // The file now holds the first half only, and that half parses: taken for the file, the apply would succeed.
    const run = await scalpel(root, ['apply', '-', '--root', root], { stdin: ANSWER, env: { HOME: dirname(root) } });
    await done;
    const after = readFileSync(file, 'utf8');
    assert.ok(after.includes('userAdded') && after.includes('// saved whole'), `the save was lost:\n${after}`);
    if (run.code === 0) {
      assert.ok(after.includes('return 42;'), `applied, so the edit is there:\n${after}`);
      assert.equal(after, `${FIRST_HALF.replace('return 1;', 'return 42;')}${SECOND_HALF}// saved whole\n`);
    } else {
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /being saved/);
      assert.equal(after, `${FIRST_HALF}${SECOND_HALF}// saved whole\n`);
    }
  });

  void test('a file that keeps changing is refused with "is being saved", and the last save stays', async () => {
    const root = workspace();
    const file = join(root, 'src', 'a.ts');
    oldFile(file, FIRST_HALF);
    const script = `
      const fs = require('node:fs');
      const end = Date.now() + Number(process.argv[2]);
      for (let i = 0; Date.now() < end; i++) {
        fs.writeFileSync(process.argv[1], 'export function target(): number {\\n  return 1;\\n}\\n// save ' + i + '\\n');
        if (i === 0) process.stdout.write('saving\\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 40);
      }
      process.stdout.write('done\\n');`;
    const saver = spawn(process.execPath, ['-e', script, file, '6000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const saving = said(saver, 'saving');
    const done = said(saver, 'done');
    await saving;
    const run = await scalpel(root, ['apply', '-', '--root', root], { stdin: ANSWER, env: { HOME: dirname(root) } });
    const during = readFileSync(file, 'utf8');
    await done;
    assert.equal(run.code, 1, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
    // On a machine so busy that the saver stalls for half a second, the apply may read a whole save and meet the next
    // one at the write: a conflict, also with nothing written. Otherwise it is told the file is being saved.
    assert.match(run.stderr, /src\/a\.ts: (is being saved by another program .*try again|it changed on disk)/);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    assert.doesNotMatch(during, /return 42/);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /return 42/);
  });
});
