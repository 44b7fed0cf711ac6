import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HARD_CASES, tempWorkspace } from '../../support/tempWorkspace';
import { scalpel, type CliRun } from './runScalpel';
import { scripted, type ScriptedLlmServer } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// `scalpel edit` when the model asks (NEED after --focus, FIND) and writes notes beside its operations (issue 18).

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
  return tempWorkspace('scalpel-asks-', {
    'src/hard.ts': HARD_CASES,
    'src/lookup.ts':
      "import { UserService } from './hard';\n\nexport function lookup(service: UserService): number | undefined {\n  return service.find(7);\n}\n",
  });
}

function messages(server: ScriptedLlmServer, index: number): string[] {
  return (server.requests[index]?.body?.messages ?? []).map((m) => String(m.content));
}

void describe('scalpel edit: the model asks and notes', () => {
  const llm = useScriptedModel();

  const edit = (root: string, extra: string[] = []): Promise<CliRun> =>
    scalpel(
      root,
      ['edit', 'src/hard.ts', '--focus', 'class[UserService]/method[validate]', '-m', 'trim ids in find', ...extra],
      { env: llm.cliEnv },
    );

  void test('NEED after --focus is answered with the element in full; the note reaches stderr', async () => {
    const root = workspace();
    const before = llm.server.requests.length;
    llm.server.enqueue(
      scripted.answer(`find is only a stub here.\nNEED ${FIND_METHOD}`),
      scripted.answer(`${NEW_FIND}\n\n${NOTE}\n`),
    );
    const run = await edit(root);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(readFileSync(join(root, 'src', 'hard.ts'), 'utf8').includes('String(id).trim()'));
    const followUp = messages(llm.server, before + 1).at(-1) ?? '';
    assert.ok(followUp.includes('    return this.cache.get(String(id));'), 'find went to the model in full');
    assert.match(run.stderr, /^scalpel: the model notes: find is only a stub here\.$/m);
    assert.match(run.stderr, new RegExp(`^scalpel: the model notes: ${NOTE}$`, 'm'));
    assert.match(run.stderr, /answering the model's 1 NEED/);
  });

  void test('FIND reaches the other files of the workspace; --json carries the notes', async () => {
    const root = workspace();
    const before = llm.server.requests.length;
    // FIND shows where find is used, not its body: the seen-code rule then shows it in full before the replace.
    llm.server.enqueue(
      scripted.answer('FIND find'),
      scripted.answer(`${NOTE}\n\n${NEW_FIND}`),
      scripted.answer(NEW_FIND),
    );
    const run = await edit(root, ['--json']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { ok: boolean; notes: string[] };
    assert.deepEqual(result.notes, [NOTE]);
    const findAnswer = messages(llm.server, before + 1).at(-1) ?? '';
    assert.match(findAnswer, /- used in src\/lookup\.ts\/function\[lookup\]: return service\.find\(7\);/);
    assert.match(findAnswer, /src\/lookup\.ts is not part of this request/);
  });
});
