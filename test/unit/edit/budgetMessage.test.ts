import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { scalpel as runScalpel } from '../cli/runScalpel';

// `scalpel edit` and `scalpel context` build the context the same way, so a budget smaller than the focus is the same
// failure in both: exit 1 and one line that says so (it used to crash `edit` with exit 70 and a stack trace). The
// CLI runs through `runCli`, the entry the `bin` script wraps, which prints crashes the way the process does.

const fixtures = join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'elements', 'fixtures');
const FOCUS = 'class[UserService]/method[validate]';

void describe('a budget smaller than the focus', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-budget-'));
  mkdirSync(join(root, 'src'));
  const source = readFileSync(join(fixtures, 'hardCases.ts'), 'utf8');
  writeFileSync(join(root, 'src', 'hard.ts'), source);
  after(() => rmSync(root, { recursive: true, force: true }));

  async function scalpel(...args: string[]): Promise<{ status: number | null; stderr: string; stdout: string }> {
    const run = await runScalpel(root, args, {
      env: {
        HOME: root,
        // A provider that is never reached: the budget fails before any request.
        SCALPEL_PROVIDER: 'openai',
        SCALPEL_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_API_KEY: 'sk-never-used',
        SCALPEL_METRICS_FILE: join(root, 'metrics.jsonl'),
      },
    });
    return { status: run.code, stderr: run.stderr, stdout: run.stdout };
  }

  void test('scalpel edit exits 1 with the same one-line message as scalpel context', async () => {
    const context = await scalpel('context', 'src/hard.ts', '--focus', FOCUS, '--budget', '10');
    const edit = await scalpel('edit', 'src/hard.ts', '--focus', FOCUS, '--budget', '10', '-m', 'trim the input');

    assert.equal(context.status, 1, context.stderr);
    assert.equal(edit.status, 1, edit.stderr);
    const contextLines = context.stderr.trimEnd().split('\n');
    const failure = (stderr: string): string | undefined =>
      stderr
        .trimEnd()
        .split('\n')
        .find((line) => /^scalpel (edit|context): /.test(line))
        ?.replace(/^scalpel (edit|context): /, '');
    assert.equal(contextLines.length, 1, context.stderr);
    assert.match(failure(context.stderr) ?? '', /^the focused elements alone need \d+ tokens but the budget is 10 /);
    assert.equal(failure(edit.stderr), failure(context.stderr));
    assert.doesNotMatch(edit.stderr, /internal error|\n\s+at /, 'no stack trace');
    // The one line is the last thing edit says (before it, only its progress lines).
    assert.equal(edit.stderr.trimEnd().split('\n').at(-1), `scalpel edit: ${failure(context.stderr) ?? ''}`);
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), source, 'nothing was written');

    // --json carries the same failure, and the advice every surface gets.
    const json = await scalpel(
      'edit',
      'src/hard.ts',
      '--focus',
      FOCUS,
      '--budget',
      '10',
      '-m',
      'trim the input',
      '--json',
    );
    assert.equal(json.status, 1, json.stderr);
    const report = JSON.parse(json.stdout) as { ok: boolean; failure?: string; advice?: { actions: unknown[] } };
    assert.equal(report.ok, false);
    assert.equal(report.failure, failure(context.stderr));
    assert.deepEqual(report.advice?.actions, [{ kind: 'openSettings', setting: 'tokenBudget' }]);
  });
});
