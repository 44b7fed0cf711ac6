import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HARD_CASES, tempWorkspace } from '../../support/tempWorkspace';
import { CHANGES_SECTION_TITLE } from '../../../src/core/sync/sync';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { scalpel } from './runScalpel';

// `scalpel sync`, `scalpel changes` and `scalpel edit --conversation --on-conflict` (issue 11), in-process against
// real files and the scripted model over real HTTP. The state file lives in SCALPEL_STATE_DIR, outside the workspace.

const HARD = HARD_CASES;
const FILE = 'src/hard.ts';
const VALIDATE = `${FILE}/class[UserService]/method[validate]`;
const GETTER = `${FILE}/class[UserService]/getter[name]`;
const ANSWER = [
  `REPLACE_ELEMENT ${VALIDATE}`,
  '```ts',
  'validate(input: string): boolean {',
  '  return input.trim().length > 0;',
  '}',
  '```',
  `PATCH_ELEMENT ${GETTER}`,
  '<<<<<<< SEARCH',
  'toUpperCase()',
  '=======',
  'toLocaleUpperCase()',
  '>>>>>>> REPLACE',
].join('\n');
const USERS_VALIDATE = 'return input.length > 1 && path.isAbsolute(this.root); // mine';

function workspace(): { root: string; state: string } {
  return {
    root: tempWorkspace('scalpel-sync-', { [FILE]: HARD }),
    state: mkdtempSync(join(tmpdir(), 'scalpel-state-')),
  };
}

void describe('scalpel sync, changes and edit with a conversation', () => {
  const llm = useScriptedModel();

  void test('changes after sync shows the element-level summary; the state file stays out of the workspace', async () => {
    const { root, state } = workspace();
    const withState = { ...llm.cliEnv, SCALPEL_STATE_DIR: state };
    const unseen = await scalpel(root, ['changes', FILE], { env: withState });
    assert.equal(unseen.code, 0);
    assert.match(unseen.stderr, /has not seen it in conversation "default" \(run scalpel sync src\/hard\.ts/);

    const synced = await scalpel(root, ['sync', FILE], { env: withState });
    assert.equal(synced.code, 0, synced.stderr);
    assert.match(synced.stdout, /^synced 1 file\(s\) in conversation "default"$/m);
    assert.match(synced.stdout, /method\[validate\] validate\(input: string\): boolean/);
    assert.deepEqual(readdirSync(root), ['src'], 'nothing written into the workspace');

    writeFileSync(
      join(root, FILE),
      HARD.replace('return input.length > 0 && path.isAbsolute(this.root);', USERS_VALIDATE),
    );
    const changes = await scalpel(root, ['changes', FILE], { env: withState });
    assert.equal(changes.code, 0, changes.stderr);
    assert.match(
      changes.stdout,
      /^In src\/hard\.ts the user modified class\[UserService\]\/method\[validate\] \(\+1 -1\)\.$/m,
    );
    assert.match(changes.stdout, /^ {2}\+ {4}return input\.length > 1 && path\.isAbsolute\(this\.root\); \/\/ mine$/m);
    const json = JSON.parse((await scalpel(root, ['changes', FILE, '--json'], { env: withState })).stdout) as {
      files: { changes: { change: string; path: string }[] }[];
    };
    assert.deepEqual(
      json.files[0]?.changes.map((c) => [c.change, c.path]),
      [['modified', VALIDATE]],
    );
    const other = await scalpel(root, ['changes', FILE, '--conversation', 'other'], { env: withState });
    assert.match(other.stderr, /has not seen it in conversation "other"/);
    assert.equal((await scalpel(root, ['changes', FILE, '--conversation', '../x'], { env: withState })).code, 2);
  });

  void test('the next edit of the conversation sends the change summary to the model', async () => {
    const { root, state } = workspace();
    const withState = { ...llm.cliEnv, SCALPEL_STATE_DIR: state };
    await scalpel(root, ['sync', FILE], { env: withState });
    writeFileSync(
      join(root, FILE),
      HARD.replace('return this.cache.get(String(id));', 'return this.cache.get(`${id}`);'),
    );
    llm.server.enqueue(scripted.answer(ANSWER));
    const first = llm.server.requests.length;
    const run = await scalpel(
      root,
      ['edit', FILE, '--focus', VALIDATE, '--focus', GETTER, '-m', 'trim', '--verify', 'syntax'],
      {
        env: withState,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const prompt = JSON.stringify(llm.server.requests.slice(first).map((r) => r.body?.messages));
    assert.ok(prompt.includes(CHANGES_SECTION_TITLE), 'the prompt carries the section');
    assert.ok(prompt.includes('method[find]'), 'naming the element the user changed');
    // Written by the model: its text is the baseline now, so there is nothing new to report.
    const after = await scalpel(root, ['changes', FILE], { env: withState });
    assert.match(after.stdout, /unchanged since the model last saw it/);
  });

  for (const policy of ['user_wins', 'agent_wins', 'ask'] as const) {
    void test(`--on-conflict ${policy}: the user saved the element the model changes while it worked`, async () => {
      const { root, state } = workspace();
      const disk = join(root, FILE);
      llm.server.enqueue(scripted.answer(ANSWER, { delayMs: 150 }));
      let saved = false;
      const run = await scalpel(
        root,
        [
          'edit',
          FILE,
          '--focus',
          VALIDATE,
          '--focus',
          GETTER,
          '-m',
          'trim',
          '--verify',
          'syntax',
          '--on-conflict',
          policy,
        ],
        {
          env: { ...llm.cliEnv, SCALPEL_STATE_DIR: state },
          // The user saves while the model answers: after the request went out.
          interruptWhen: (stderr) => {
            if (!saved && stderr.includes('asking')) {
              saved = true;
              writeFileSync(
                disk,
                readFileSync(disk, 'utf8').replace(
                  'return input.length > 0 && path.isAbsolute(this.root);',
                  USERS_VALIDATE,
                ),
              );
            }
            return false;
          },
        },
      );
      const text = readFileSync(disk, 'utf8');
      assert.ok(text.includes('toLocaleUpperCase()'), 'the element only the model changed is written');
      if (policy === 'agent_wins') {
        assert.equal(run.code, 0, run.stderr);
        assert.ok(text.includes('return input.trim().length > 0;'));
        assert.match(run.stderr, /wrote the model's version of .*method\[validate\] over yours/);
        assert.ok(run.stderr.includes(USERS_VALIDATE), "the user's version is printed");
      } else {
        assert.ok(text.includes(USERS_VALIDATE), "the user's element is kept");
        if (policy === 'user_wins') {
          assert.equal(run.code, 0, run.stderr);
          assert.match(run.stderr, /kept yours, dropped REPLACE_ELEMENT .*method\[validate\]/);
        } else {
          assert.equal(run.code, 3, run.stderr);
          assert.match(run.stderr, /not written, you decide: .*method\[validate\]/);
          assert.ok(run.stderr.includes(USERS_VALIDATE));
          assert.ok(run.stderr.includes('return input.trim().length > 0;'), "the model's version is printed");
        }
      }
      assert.ok(!existsSync(join(root, '.scalpel')));
    });
  }
});
