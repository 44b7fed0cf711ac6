import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { call, toolEnv } from './toolSupport';

// Issue 27 item 3: every file the server ever outlined stayed cached, deleted ones too (0.7 MB each, 1.3 GB after
// 1,500 files). Memory is compared after a full collection, so the numbers are what the cache holds, not garbage.

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** A module of 120 small exported functions: about 13 KB, as a real source file. */
function module(i: number): string {
  return Array.from(
    { length: 120 },
    (_, j) =>
      `export function f${i}_${j}(value: number): number {\n  const doubled = value * 2; // step ${j}\n  return doubled + ${j};\n}\n`,
  ).join('\n');
}

void describe('the outline cache', () => {
  void test('1,500 files outlined and deleted leave the memory within 50 MB of where it started', async () => {
    const root = mkdtempSync(join(tmpdir(), 'scalpel-outlines-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'keep.ts'), module(-1));
    const env = toolEnv(root);
    assert.equal((await call(env, 'outline', { paths: ['src'] })).isError, false);
    const start = heapAfterCollection();
    for (let i = 0; i < 1_500; i++) {
      const file = `src/m${i}.ts`;
      writeFileSync(join(root, file), module(i));
      const run = await call(env, 'outline', { paths: [file] });
      assert.equal(run.isError, false, run.text);
    }
    for (let i = 0; i < 1_500; i++) rmSync(join(root, `src/m${i}.ts`));
    assert.equal((await call(env, 'outline', { paths: ['src'] })).isError, false);
    const grown = (heapAfterCollection() - start) / 1024 / 1024;
    assert.ok(grown < 50, `the heap grew ${grown.toFixed(1)} MB`);
    // What is left of the deleted files goes at the next sweep; the file that stays is still served from the cache.
    env.outlines.sweep();
    assert.equal(env.outlines.size.entries, 1);
  });
});
