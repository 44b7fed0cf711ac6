import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { answerDecline, answerNotes } from '../../../src/core/edit/answerNotes';
import { createEditService } from '../../../src/core/edit/editService';
import { runEdit } from '../../../src/core/llm/pipeline';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from '../cli/runScalpel';
import { FILE, HARD, NEW_VALIDATE, validateRequest } from './validateEdit';

// Issue 24: a model may decline a task whose premise is false (DECLINE: <reason>), which ends the request at once
// with the reason on every surface; and notes are prose only, never the code of an answer that lacked headers.

const USERS = `export function deleteUser(id: string): void {
  console.log('delete', id);
}
`;
const ADMIN = `import { deleteUser } from './users';

export function purge(ids: string[]): void {
  for (const id of ids) deleteUser(id);
}
`;
const REASON = 'deleteUser is not dead: purge in src/admin.ts calls it.';
const DECLINING = `I looked for callers first.\n\nDECLINE: ${REASON}\n`;

void describe('DECLINE ends the request at once', () => {
  const llm = useScriptedModel();

  const workspace = (): string => tempWorkspace('scalpel-decline-', { 'src/users.ts': USERS, 'src/admin.ts': ADMIN });

  void test('scalpel edit: one request, nothing written, the reason on stderr, exit 4', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(DECLINING));
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/users.ts', '-m', 'delete the dead function deleteUser'], {
      env: llm.cliEnv,
    });
    assert.equal(run.code, 4, run.stderr);
    assert.equal(llm.server.requests.length - from, 1, 'no repair round');
    assert.ok(run.stderr.includes(`scalpel: the model declined the task: ${REASON}`), run.stderr);
    assert.match(run.stderr, /nothing was written/);
    assert.match(run.stderr, /the model notes: I looked for callers first\./);
    assert.doesNotMatch(run.stderr, /did not verify|held no operations/);
    assert.equal(readFileSync(join(root, 'src', 'users.ts'), 'utf8'), USERS);
  });

  void test('scalpel edit --json: declined holds the reason, exit 4', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(DECLINING));
    const run = await scalpel(root, ['edit', 'src/users.ts', '-m', 'delete the dead function deleteUser', '--json'], {
      env: llm.cliEnv,
    });
    assert.equal(run.code, 4, run.stderr);
    const json = JSON.parse(run.stdout) as { ok: boolean; written: boolean; declined?: string; notes: string[] };
    assert.equal(json.ok, false);
    assert.equal(json.written, false);
    assert.equal(json.declined, REASON);
    assert.deepEqual(json.notes, ['I looked for callers first.'], 'the DECLINE line is not a note');
  });

  void test('a decline in a repair round ends it too, and what was kept is not written', async () => {
    const wrong = NEW_VALIDATE.replace('method[validate]', 'method[validat]');
    const created = ['CREATE_ELEMENT src/hard.ts LAST_CHILD', '```ts', 'export const added = 1;', '```'].join('\n');
    llm.server.enqueue(
      scripted.answer(`${created}\n\n${wrong}`),
      scripted.answer('**DECLINE:** the method is\nalready trimmed.'),
    );
    const outcome = await runEdit(validateRequest(llm.provider(), { options: { repairRounds: 2 } }));
    assert.equal(outcome.ok, false);
    assert.equal(outcome.declined, 'the method is already trimmed.');
    assert.equal(outcome.requests.length, 2);
    assert.equal(outcome.failureKind?.kind, 'declined');
    assert.match(
      outcome.failure ?? '',
      /^the model declined the task: the method is already trimmed\.; nothing was applied$/,
    );
  });

  void test('the edit service says declined, with the reason, for the palette and the chat', async () => {
    llm.server.enqueue(scripted.answer(DECLINING));
    const result = await createEditService().edit({
      instruction: 'delete the dead function deleteUser',
      files: [{ path: 'src/users.ts', focus: [] }],
      snapshot: { read: (path) => (path === 'src/users.ts' ? USERS : undefined) },
      provider: llm.provider(),
      command: 'test.decline',
    });
    assert.equal(result.status, 'declined');
    assert.equal(result.declined, REASON);
    assert.deepEqual(result.changeSet, []);
    assert.match(result.advice?.nextStep ?? '', /Nothing was changed/);
    assert.doesNotMatch(result.advice?.nextStep ?? '', /[Rr]ephrase/);
  });

  void test('an answer with operations and a DECLINE line is not a decline', async () => {
    llm.server.enqueue(scripted.answer(`${NEW_VALIDATE}\n\nDECLINE: just kidding`));
    const outcome = await runEdit(validateRequest(llm.provider()));
    assert.equal(outcome.ok, true, outcome.failure);
    assert.equal(outcome.declined, undefined);
  });

  void test('DECLINE lines as models write them', () => {
    assert.equal(answerDecline('DECLINE: x is used'), 'x is used');
    assert.equal(answerDecline('- **DECLINE**: x is used\n  by y.\n\nmore'), 'x is used by y.');
    assert.equal(answerDecline('DECLINE'), 'the model gave no reason');
    assert.equal(answerDecline('I decline: lower case is prose'), undefined);
    assert.equal(answerDecline('DECLINED: not the keyword'), undefined);
    assert.equal(answerDecline('```ts\nDECLINE: inside code\n```'), undefined);
  });
});

/** Twelve functions, the kind of file a model writes back whole without a header. */
const WHOLE_FILE = Array.from({ length: 12 }, (_, i) => `function f${i}(): number {\n  return ${i};\n}`).join('\n\n');

void describe('notes are prose only', () => {
  const llm = useScriptedModel();

  void test('a code block without a header becomes no note, and the follow-up says what was wrong', async () => {
    llm.server.enqueue(
      scripted.answer(`Here is the updated file:\n\n\`\`\`ts\n${WHOLE_FILE}\n\`\`\`\n\nI trimmed the input.`),
      scripted.answer(NEW_VALIDATE),
    );
    const from = llm.server.requests.length;
    const outcome = await runEdit(validateRequest(llm.provider()));
    assert.equal(outcome.ok, true, outcome.failure);
    assert.deepEqual(outcome.notes, ['I trimmed the input.']);
    const followUp = llm.messagesOf(from + 1).at(-1)?.content ?? '';
    assert.match(followUp, /^Your answer held a code block without an operation header, so nothing could be applied/);
    assert.match(followUp, /if the task should not be done, only DECLINE: <reason>/);
    assert.equal(outcome.apply.changes[0]?.path, FILE);
    assert.notEqual(outcome.apply.changes[0]?.after, HARD);
  });

  void test('fenced code of any length and tilde fences are left out; prose around them is kept', () => {
    assert.deepEqual(
      answerNotes(`Before.\n\n~~~\n${WHOLE_FILE}\n~~~\n\n\`\`\`\`md\n# t\n\`\`\`\nx\n\`\`\`\n\`\`\`\`\nAfter.`),
      ['Before.', 'After.'],
    );
  });
});
