import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createEditService, type ServiceEditRequest } from '../../../src/core/edit/editService';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { FILE, HARD, INSTRUCTION, snapshot, VALIDATE } from '../pipeline/validateEdit';

// Issue 18's seen-code rule through the edit service, against the scripted model over real HTTP: an operation that
// replaces code the model saw only as a signature or stub is refused, and the repair request shows that code in full.

const FIND = `${FILE}/class[UserService]/method[find]`;
const PARSE_IMPL = HARD.slice(HARD.indexOf('export function parse(input: string | number)'));
/** The fixture without the implementation of `parse`: what a REPLACE_FILE written from a focused view drops. */
const WITHOUT_PARSE = HARD.replace(PARSE_IMPL.slice(0, PARSE_IMPL.indexOf('\n}\n') + 3), '');

function replaceFile(text: string): string {
  return [`REPLACE_FILE ${FILE}`, '````ts', text.replace(/\n$/, ''), '````'].join('\n');
}

void describe('the seen-code rule in the edit service', () => {
  const llm = useScriptedModel();

  function request(overrides: Partial<ServiceEditRequest> = {}): ServiceEditRequest {
    return {
      instruction: INSTRUCTION,
      files: [{ path: FILE, focus: [VALIDATE] }],
      snapshot,
      provider: llm.provider(),
      command: 'test.edit',
      ...overrides,
    };
  }

  /** The last user message of each request from `from` on: the request's own prompt or repair message. */
  function userMessages(from: number): string[] {
    return llm.server.requests.slice(from).map((r) => {
      const users = (r.body?.messages ?? []).filter((m) => m.role === 'user');
      return String(users[users.length - 1]?.content ?? '');
    });
  }

  void test('a REPLACE_FILE from a focused view that drops a stubbed function is refused; nothing changes', async () => {
    assert.notEqual(WITHOUT_PARSE, HARD, 'the fixture lost the implementation of parse');
    const service = createEditService();
    llm.server.enqueue(scripted.answer(replaceFile(WITHOUT_PARSE)));
    const result = await service.edit(request({ settings: { repairRounds: 0 } }));

    assert.equal(result.status, 'failed');
    assert.deepEqual(result.changeSet, []);
    assert.match(result.failure ?? '', /REPLACE_FILE of src\/hard\.ts, which you did not see whole/);
    const seen = result.outcome.verification.find((s) => s.step === 'seen-code');
    assert.equal(seen?.problems.length, 1);
    assert.equal(snapshot.read(FILE), HARD, 'the file is byte-identical');
  });

  void test('after the repair round shows the file whole, a REPLACE_FILE written from it applies', async () => {
    const service = createEditService();
    const trimmed = HARD.replace('return input.length > 0 &&', 'return input.trim().length > 0 &&');
    llm.server.enqueue(scripted.answer(replaceFile(WITHOUT_PARSE)), scripted.answer(replaceFile(trimmed)));
    const from = llm.server.requests.length;
    const result = await service.edit(request());

    assert.equal(result.status, 'ready', result.failure);
    const messages = userMessages(from);
    assert.equal(llm.server.requests.length - from, 2);
    const repair = messages[messages.length - 1] ?? '';
    assert.match(repair, /which you did not see whole/);
    assert.ok(repair.includes(HARD.trimEnd()), 'the repair request holds the whole file');
    assert.equal(result.outcome.apply.changes[0]?.after, trimmed);
    const last = result.outcome.shown[result.outcome.shown.length - 1];
    assert.equal(last?.phase, 'repair');
    assert.equal(last?.files.find((f) => f.path === FILE)?.whole, true);
  });

  void test('a REPLACE_ELEMENT of an element shown only as a stub is refused with the element in full', async () => {
    const service = createEditService();
    const code = llm.server.requests.length;
    const guessed = [
      `REPLACE_ELEMENT ${FIND}`,
      '```ts',
      'find(id: string | number): number | undefined {',
      '  return undefined;',
      '}',
      '```',
    ].join('\n');
    const informed = [
      `REPLACE_ELEMENT ${FIND}`,
      '```ts',
      'find(id: string): number | undefined;',
      'find(id: number): number | undefined;',
      'find(id: string | number): number | undefined {',
      '  return this.cache.get(String(id).trim());',
      '}',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(guessed), scripted.answer(informed));
    const result = await service.edit(request());

    const [first, repair] = userMessages(code);
    assert.ok(first !== undefined && !first.includes('return this.cache.get(String(id));'), 'the body was not shown');
    assert.match(
      repair ?? '',
      /REPLACE_ELEMENT of src\/hard\.ts\/class\[UserService\]\/method\[find\], which you saw only as a signature or stub/,
    );
    assert.ok(repair?.includes('return this.cache.get(String(id));'), 'the repair request shows the body');
    assert.equal(result.status, 'ready', result.failure);
    assert.ok(result.outcome.apply.changes[0]?.after.includes('String(id).trim()'));
  });

  void test('operations pasted into verify carry no record of what was shown and are not judged by the rule', async () => {
    const service = createEditService();
    const verification = await service.verify({
      snapshot,
      operations: [{ type: 'REPLACE_FILE', path: FILE, content: HARD }],
    });
    assert.equal(verification.ok, true);
  });
});
