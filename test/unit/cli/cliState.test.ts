// Issue 25: the conversation state file is untrusted input too (a link to /dev/zero, a FIFO, a folder, a huge file),
// and two processes sharing a conversation lose no baseline.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import {
  conversationFilePath,
  loadConversation,
  MAX_STATE_FILE_BYTES,
  saveConversation,
} from '../../../src/cli/conversationFile';
import { scalpel, scalpelProcess } from './runScalpel';

const SOURCE = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';

function setup(files = ['src/a.ts']): { root: string; env: NodeJS.ProcessEnv; stateFile: string } {
  const base = mkdtempSync(join(tmpdir(), 'scalpel-state-'));
  const root = join(base, 'ws');
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), SOURCE.replace('greet', file.replace(/\W/g, '_')));
  }
  const env = { HOME: base, SCALPEL_STATE_DIR: join(base, 'state') };
  const stateFile = conversationFilePath(env, root, 'default');
  mkdirSync(dirname(stateFile), { recursive: true });
  return { root, env, stateFile };
}

/** `scalpel changes` reads the state and says the model has not seen the file: the state started afresh. */
async function startsAfresh(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const run = await scalpel(root, ['changes', 'src/a.ts'], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /has not seen it in conversation "default"/);
}

void describe('the conversation state file', () => {
  void test(
    'a link to /dev/zero in its place is not read: the conversation starts afresh',
    { timeout: 60_000 },
    async () => {
      const { root, env, stateFile } = setup();
      symlinkSync('/dev/zero', stateFile);
      await startsAfresh(root, env);
    },
  );

  void test('a FIFO in its place does not hang the command', { timeout: 60_000 }, async () => {
    const { root, env, stateFile } = setup();
    execFileSync('mkfifo', [stateFile]);
    await startsAfresh(root, env);
  });

  void test('a file over the size limit is not read', async () => {
    const { root, env, stateFile } = setup();
    const big = JSON.stringify({
      id: 'default',
      baselines: [['src/a.ts', 'x'.repeat(MAX_STATE_FILE_BYTES)]],
      proposed: [],
      turns: [],
    });
    writeFileSync(stateFile, big);
    await startsAfresh(root, env);
  });

  void test("sync with a folder in the state file's place: one clear line, exit 1, no temporary file left", async () => {
    const { root, env, stateFile } = setup();
    mkdirSync(stateFile);
    const run = await scalpel(root, ['sync', 'src/a.ts'], { env });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /^scalpel sync: cannot save the conversation state to .*default\.json: a folder is in its place/m,
    );
    assert.doesNotMatch(run.stderr, /\n\s+at |internal error/);
    assert.deepEqual(
      readdirSync(dirname(stateFile)).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file left',
    );
  });

  void test('two processes that loaded the same conversation both keep their baselines', async () => {
    const { root, env } = setup(['src/a.ts', 'src/b.ts']);
    const first = loadConversation(env, root, 'default');
    const second = loadConversation(env, root, 'default');
    first.recordShown('src/a.ts', 'what the first saw');
    second.recordShown('src/b.ts', 'what the second saw');
    await saveConversation(env, root, second);
    await saveConversation(env, root, first);
    const after = loadConversation(env, root, 'default');
    assert.equal(after.baseline('src/a.ts'), 'what the first saw');
    assert.equal(after.baseline('src/b.ts'), 'what the second saw');
    // A file one forgot and the other never touched is forgotten; one the other saw anew meanwhile is kept.
    first.forget('src/a.ts');
    second.recordShown('src/a.ts', 'seen again by the second');
    await saveConversation(env, root, second);
    await saveConversation(env, root, first);
    assert.equal(loadConversation(env, root, 'default').baseline('src/a.ts'), 'seen again by the second');
  });

  void test('two CLIs racing on one conversation lose no baseline', { timeout: 180_000 }, async () => {
    const rounds = 4;
    const files = Array.from({ length: rounds }, (_, i) => [`src/a${i}.ts`, `src/b${i}.ts`]).flat();
    const { root, env } = setup(files);
    for (let round = 0; round < rounds; round++) {
      const runs = await Promise.all([
        scalpelProcess(root, ['sync', `src/a${round}.ts`], { env }),
        scalpelProcess(root, ['sync', `src/b${round}.ts`], { env }),
      ]);
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
    }
    const changes = await scalpel(root, ['changes', ...files, '--json'], { env });
    assert.equal(changes.code, 0, changes.stderr);
    const json = JSON.parse(changes.stdout) as { unseen: string[] };
    assert.deepEqual(json.unseen, [], 'every synced file is known to the conversation');
  });
});
