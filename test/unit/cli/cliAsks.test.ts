import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scalpel, type CliRun } from './runScalpel';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';

// `scalpel edit` when the model asks (NEED after --focus, FIND) and writes notes beside its operations (issue 18).

const repoRoot = join(__dirname, '..', '..', '..', '..');
const FIND_METHOD = 'src/hard.ts/class[UserService]/method[find]';
const NEW_FIND = [
  `REPLACE_ELEMENT ${FIND_METHOD}`,
  '```ts',
  'find(id: string): number | undefined;',
  'find(id: number): number | undefined;',
  'find(id: string | number): number | undefined {',
  '  return this.cache.get(String(id).trim());',
  '}',
  '```',
].join('\n');
const NOTE = 'The callers of find in other files pass numbers; they keep working.';

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-asks-'));
  mkdirSync(join(root, 'src'));
  copyFileSync(join(repoRoot, 'test', 'unit', 'elements', 'fixtures', 'hardCases.ts'), join(root, 'src', 'hard.ts'));
  writeFileSync(
    join(root, 'src', 'lookup.ts'),
    "import { UserService } from './hard';\n\nexport function lookup(service: UserService): number | undefined {\n  return service.find(7);\n}\n",
  );
  return root;
}

function messages(server: ScriptedLlmServer, index: number): string[] {
  return (server.requests[index]?.body?.messages ?? []).map((m) => String(m.content));
}

void describe('scalpel edit: the model asks and notes', () => {
  let server: ScriptedLlmServer;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startScriptedLlmServer();
    env = { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: server.openaiBaseUrl, SCALPEL_MODEL: 'gpt-4o-mini' };
  });
  after(async () => {
    await server.close();
  });

  const edit = (root: string, extra: string[] = []): Promise<CliRun> =>
    scalpel(
      root,
      ['edit', 'src/hard.ts', '--focus', 'class[UserService]/method[validate]', '-m', 'trim ids in find', ...extra],
      { env },
    );

  void test('NEED after --focus is answered with the element in full; the note reaches stderr', async () => {
    const root = workspace();
    const before = server.requests.length;
    server.enqueue(
      scripted.answer(`find is only a stub here.\nNEED ${FIND_METHOD}`),
      scripted.answer(`${NEW_FIND}\n\n${NOTE}\n`),
    );
    const run = await edit(root);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(readFileSync(join(root, 'src', 'hard.ts'), 'utf8').includes('String(id).trim()'));
    const followUp = messages(server, before + 1).at(-1) ?? '';
    assert.ok(followUp.includes('    return this.cache.get(String(id));'), 'find went to the model in full');
    assert.match(run.stderr, /^scalpel: the model notes: find is only a stub here\.$/m);
    assert.match(run.stderr, new RegExp(`^scalpel: the model notes: ${NOTE}$`, 'm'));
    assert.match(run.stderr, /answering the model's 1 NEED/);
  });

  void test('FIND reaches the other files of the workspace; --json carries the notes', async () => {
    const root = workspace();
    const before = server.requests.length;
    // FIND shows where find is used, not its body: the seen-code rule then shows it in full before the replace.
    server.enqueue(scripted.answer('FIND find'), scripted.answer(`${NOTE}\n\n${NEW_FIND}`), scripted.answer(NEW_FIND));
    const run = await edit(root, ['--json']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { ok: boolean; notes: string[] };
    assert.deepEqual(result.notes, [NOTE]);
    const findAnswer = messages(server, before + 1).at(-1) ?? '';
    assert.match(findAnswer, /- used in src\/lookup\.ts\/function\[lookup\]: return service\.find\(7\);/);
    assert.match(findAnswer, /src\/lookup\.ts is not part of this request/);
  });
});
