import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CliError } from '../../../../src/cli/cliError';
import type { CliIo } from '../../../../src/cli/command';
import { diffCommand } from '../../../../src/cli/commands/diff';
import { parseOperations } from '../../../../src/core/ops/format';
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

async function runDiff(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    env: {},
    readStdin: () => Promise.resolve(''),
    signal: new AbortController().signal,
  };
  try {
    const code = await diffCommand.run(args, io);
    return { code, stdout, stderr };
  } catch (error) {
    if (error instanceof CliError) return { code: error.exitCode, stdout, stderr: error.message };
    throw error;
  }
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
    assert.equal((await runDiff(root, 'old/missing.ts', 'src/counter.ts')).code, 1);
    assert.equal((await runDiff(root, 'src/counter.ts')).code, 2);
  });
});
