import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliPreWriteGates } from '../../../src/cli/writeChanges';
import { createEditService } from '../../../src/core/edit/editService';
import { createProvider } from '../../../src/core/llm/createProvider';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scalpel } from '../cli/runScalpel';
import { call, toolEnv } from '../tools/toolSupport';
import { diskSnapshot } from '../../../src/cli/writeChanges';

// Issue 17's write gate registered as the edit service's pre-write gate: the CLI's `edit` and `apply`, the MCP
// server's apply tool and the service itself stop `.git/config` and a file behind a symlink that leads out of the
// workspace before anything is written, each with the same words. (VS Code's surfaces: test/integration/suite/security.)

const GIT_CONFIG = '[core]\n\tbare = false\n';
const SOURCE = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';
const GIT_REFUSAL = '.git/config: it is inside .git, version-control data that can run programs; nothing was written';
const ESCAPE_REFUSAL =
  'linkdir/planted.ts: it resolves through a symbolic link to a place outside the workspace; nothing was written';

const fenced = (header: string, code: string, lang = 'ts'): string => `${header}\n\`\`\`${lang}\n${code}\`\`\`\n`;
const GIT_ANSWER = fenced('REPLACE_FILE .git/config', '[core]\n\tfsmonitor = "touch /tmp/pwned"\n', 'ini');
const ESCAPE_ANSWER = fenced('CREATE_FILE linkdir/planted.ts', 'export const planted = 1;\n');

function workspace(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'scalpel-gate-'));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'src'));
  mkdirSync(outside);
  writeFileSync(join(root, '.git', 'config'), GIT_CONFIG);
  writeFileSync(join(root, 'src', 'greet.ts'), SOURCE);
  symlinkSync(outside, join(root, 'linkdir'));
  return { root, outside };
}

function assertUntouched(root: string, outside: string): void {
  assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), GIT_CONFIG);
  assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), SOURCE);
  assert.deepEqual(readdirSync(outside), []);
}

void describe('one write gate on every surface', () => {
  let server: ScriptedLlmServer;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startScriptedLlmServer();
    env = { OPENAI_API_KEY: 'sk-gate-test', SCALPEL_BASE_URL: server.openaiBaseUrl, SCALPEL_MODEL: 'gpt-4o-mini' };
  });
  after(async () => {
    await server.close();
  });

  void test('the edit service with the gate registered', async () => {
    const { root, outside } = workspace();
    const service = createEditService({ workspaceRoot: root, preWriteGates: cliPreWriteGates(root) });
    const provider = createProvider({ provider: 'openai', baseUrl: server.openaiBaseUrl, apiKey: 'sk-gate-test' });
    for (const [path, answer, refusal] of [
      ['.git/config', GIT_ANSWER, GIT_REFUSAL],
      ['src/greet.ts', ESCAPE_ANSWER, ESCAPE_REFUSAL],
    ] as const) {
      server.enqueue(scripted.answer(answer));
      const result = await service.edit({
        instruction: 'change it',
        files: [{ path, focus: [] }],
        snapshot: diskSnapshot(root),
        provider,
        settings: { planning: 'never', verify: 'syntax' },
        command: 'test.edit',
      });
      assert.equal(result.status, 'refused', result.failure);
      assert.equal(result.failure, refusal);
      assert.deepEqual(result.changeSet, []);
    }
    assertUntouched(root, outside);
  });

  void test('scalpel edit: refused before the write, the reason in --json too; naming .git/config does not allow it', async () => {
    const { root, outside } = workspace();
    for (const [path, answer, refusal] of [
      ['.git/config', GIT_ANSWER, GIT_REFUSAL],
      ['src/greet.ts', ESCAPE_ANSWER, ESCAPE_REFUSAL],
    ] as const) {
      server.enqueue(scripted.answer(answer));
      const run = await scalpel(root, ['edit', path, '-m', 'change it', '--no-plan', '--verify', 'syntax', '--json'], {
        env,
      });
      assert.equal(run.code, 1, run.stderr);
      const json = JSON.parse(run.stdout) as { ok: boolean; written: boolean; failure?: string };
      assert.deepEqual([json.ok, json.written, json.failure], [false, false, refusal]);
      // With --json, stderr holds the progress events (one JSON object a line) and the one-line reason.
      const plain = run.stderr.split('\n').filter((line) => !line.startsWith('{"event":"progress"'));
      assert.equal(plain.join('\n'), `scalpel edit: ${refusal}\n`);
    }
    assertUntouched(root, outside);
  });

  void test('scalpel apply', async () => {
    const { root, outside } = workspace();
    for (const [answer, refusal] of [
      [GIT_ANSWER, GIT_REFUSAL],
      [ESCAPE_ANSWER, ESCAPE_REFUSAL],
    ] as const) {
      const run = await scalpel(root, ['apply', '-'], { stdin: answer, env });
      assert.equal(run.code, 1, run.stdout);
      assert.equal(run.stderr, `scalpel apply: ${refusal}\n`);
    }
    assertUntouched(root, outside);
  });

  void test("the MCP server's apply tool", async () => {
    const { root, outside } = workspace();
    const tools = toolEnv(root);
    for (const [answer, refusal] of [
      [GIT_ANSWER, GIT_REFUSAL],
      [ESCAPE_ANSWER, ESCAPE_REFUSAL],
    ] as const) {
      const run = await call(tools, 'apply', { operations: answer });
      assert.equal(run.isError, true, run.text);
      assert.ok(run.text.includes(refusal), run.text);
    }
    assertUntouched(root, outside);
  });
});
