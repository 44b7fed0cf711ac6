import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HARD_CASES, tempWorkspace } from '../../support/tempWorkspace';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { scalpelProcess } from './runScalpel';

/**
 * The few things only the real executable shows: exit codes as the shell sees them, piped standard input and
 * Ctrl-C (SIGINT). Every other CLI behaviour is tested in-process through runCli (cliFoundation, cliEdit).
 */

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

function workspace(): string {
  return tempWorkspace('scalpel-process-', { 'src/hard.ts': HARD });
}

void describe('dist/cli.js as a real process', () => {
  const llm = useScriptedModel();

  // Exit 0 is seen by the piped-stdin test below; each process start costs about half a second, so no extra one here.
  void test('exit codes: 1 with a one-line reason on bad input, 2 on a usage error', async () => {
    const root = workspace();
    const missing = await scalpelProcess(root, ['outline', 'src/missing.ts']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'scalpel outline: src/missing.ts: no such file\n');
    const usage = await scalpelProcess(root, ['outline']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^scalpel outline: outline takes exactly one file\n\nUsage: scalpel outline /);
  });

  void test('exit 0: apply - reads the answer piped to standard input', async () => {
    const root = workspace();
    const run = await scalpelProcess(root, ['apply', '-'], { stdin: ANSWER });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^wrote 1 file\n$/m);
    assert.equal(
      readFileSync(join(root, 'src', 'hard.ts'), 'utf8'),
      HARD.replace('return input.length > 0 && path.isAbsolute(this.root);', 'return input.trim().length > 0;'),
    );
  });

  void test('Ctrl-C while the model streams: exit 130, nothing written', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER, { chunks: 30, chunkDelayMs: 100 }));
    const run = await scalpelProcess(root, ['edit', 'src/hard.ts', '--focus', VALIDATE, '-m', 'trim it'], {
      env: { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: llm.server.openaiBaseUrl, SCALPEL_MODEL: 'gpt-4o-mini' },
      interruptWhen: (stderr) => stderr.includes('asking gpt-4o-mini'),
    });
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stderr, /cancel/i);
    assert.equal(readFileSync(join(root, 'src', 'hard.ts'), 'utf8'), HARD);
  });
});
