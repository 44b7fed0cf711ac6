import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseOperations } from '../../../../src/core/ops/format';
import { type CliRun, scalpel } from '../../cli/runScalpel';
import { applyToFile } from './applyToFile';

const before = `export class Counter {
  private count = 0;

  increment(): number {
    this.count += 1;
    return this.count;
  }
}
`;

const after = `export class Counter {
  private count = 0;

  increment(by = 1): number {
    this.count += by;
    return this.count;
  }

  reset(): void {
    this.count = 0;
  }
}
`;

/** `scalpel diff ...` through the CLI's in-process entry, error reporting and exit codes included. */
function runDiff(cwd: string, ...args: string[]): Promise<CliRun> {
  return scalpel(cwd, ['diff', ...args]);
}

void describe('scalpel diff', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-diff-'));
  mkdirSync(join(root, 'old'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'old', 'counter.ts'), before);
  writeFileSync(join(root, 'src', 'counter.ts'), after);

  void test('prints operations in the text format that parse back and apply to the new file', async () => {
    const { code, stdout } = await runDiff(root, 'old/counter.ts', 'src/counter.ts');
    assert.equal(code, 0);
    const parsed = parseOperations(stdout);
    assert.deepEqual(parsed.errors, []);
    assert.ok(parsed.operations.length > 0);
    assert.ok(
      parsed.operations.every((o) => o.path.startsWith('src/counter.ts/class[Counter]')),
      stdout,
    );
    assert.equal(applyToFile('src/counter.ts', before, parsed.operations), after);
  });

  void test('--as names the path the operations use; --json prints an array', async () => {
    const { code, stdout } = await runDiff(root, 'old/counter.ts', 'src/counter.ts', '--as', 'lib/count.ts', '--json');
    assert.equal(code, 0);
    const operations = JSON.parse(stdout) as Array<{ type: string; path: string }>;
    assert.ok(Array.isArray(operations) && operations.length > 0);
    assert.ok(
      operations.every((o) => o.path.startsWith('lib/count.ts/')),
      stdout,
    );
    assert.equal(applyToFile('lib/count.ts', before, parseOperations(stdout).operations), after);
  });

  void test('identical files print nothing', async () => {
    const { code, stdout } = await runDiff(root, 'src/counter.ts', 'src/counter.ts');
    assert.equal(code, 0);
    assert.equal(stdout, '');
  });

  void test('a missing file or a wrong number of files is an error', async () => {
    const missing = await runDiff(root, 'old/missing.ts', 'src/counter.ts');
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'scalpel diff: old/missing.ts: no such file\n');
    const one = await runDiff(root, 'src/counter.ts');
    assert.equal(one.code, 2);
    assert.match(one.stderr, /^scalpel diff: diff takes exactly two files\n/);
  });

  void test('an after file outside the workspace root needs --as', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'scalpel-diff-elsewhere-'));
    writeFileSync(join(elsewhere, 'counter.ts'), after);
    const refused = await runDiff(root, 'old/counter.ts', join(elsewhere, 'counter.ts'));
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /is outside the workspace root .+: name its workspace path with --as\n$/);
    const named = await runDiff(root, 'old/counter.ts', join(elsewhere, 'counter.ts'), '--as', 'src/counter.ts');
    assert.equal(named.code, 0, named.stderr);
    assert.equal(applyToFile('src/counter.ts', before, parseOperations(named.stdout).operations), after);
  });
});
