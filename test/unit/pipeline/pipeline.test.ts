import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { createProvider } from '../../../src/core/llm/createProvider';
import { runEdit, type EditRequest } from '../../../src/core/llm/pipeline';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { FILE, HARD, NEW_VALIDATE, VALIDATE, validateRequest } from './validateEdit';

const FILES: Record<string, string> = { [FILE]: HARD };

void describe('edit pipeline against a scripted model over real HTTP', () => {
  const llm = useScriptedModel();

  const request = (overrides: Partial<EditRequest> = {}): EditRequest => validateRequest(llm.provider(), overrides);

  void test('a known focus skips planning; the verified change replaces just that method', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(`Here is the change.\n\n${NEW_VALIDATE}\n`));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    assert.equal(llm.server.requests.length - before, 1, 'one request, no planning');
    const [system, user] = llm.messagesOf(before);
    assert.equal(system?.role, 'system');
    assert.match(system?.content ?? '', /REPLACE_ELEMENT <path>/);
    assert.ok(user?.content.includes(`// @ ${VALIDATE}\n  validate(input: string): boolean {`));
    assert.ok(!user?.content.includes('Math.PI'), 'only the focused view is sent');
    assert.ok(user?.content.endsWith('Task: trim the input before checking its length\n'));
    const change = outcome.apply.changes[0];
    assert.equal(change?.path, 'src/hard.ts');
    assert.equal(change?.after, HARD.replace('return input.length > 0 &&', 'return input.trim().length > 0 &&'));
    assert.equal(outcome.requests.length, 1);
    assert.equal(outcome.requests[0]?.phase, 'code');
    assert.equal(outcome.requests[0]?.usageSource, 'provider');
    const counter = createTokenCounter();
    assert.equal(
      outcome.requests[0]?.wholeFileInputTokens,
      counter.count(system?.content ?? '') +
        counter.count('trim the input before checking its length') +
        counter.count(HARD),
    );
    assert.deepEqual(outcome.requests[0]?.operations, { REPLACE_ELEMENT: 1 });
  });

  void test('without a focus the model first plans which elements it needs', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(
      scripted.answer(`NEED ${VALIDATE}\nNEED src/hard.ts/function[nope]\n`),
      scripted.answer(NEW_VALIDATE),
    );
    // `always`: this file is small enough that `auto` sends it whole (the next tests).
    const outcome = await runEdit(
      request({ files: [{ path: 'src/hard.ts', focus: [] }], options: { planning: 'always' } }),
    );
    assert.equal(outcome.ok, true, outcome.failure);
    assert.deepEqual(outcome.plan, [VALIDATE], 'the unknown path is ignored');
    const planning = llm.messagesOf(before);
    assert.match(planning[0]?.content ?? '', /NEED <element path>/);
    assert.ok(planning[1]?.content.includes(`${VALIDATE}  validate(input: string): boolean`));
    const coding = llm.messagesOf(before + 1);
    assert.ok(
      coding[1]?.content.includes('    return input.length > 0 && path.isAbsolute(this.root);'),
      'the planned element is sent in full',
    );
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['plan', 'code'],
    );
  });

  void test('a file cheaper whole than planned goes whole, with no planning round', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const outcome = await runEdit(request({ files: [{ path: 'src/hard.ts', focus: [] }] }));
    assert.equal(outcome.ok, true, outcome.failure);
    assert.equal(outcome.plan, undefined);
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['code'],
    );
    const [, user] = llm.messagesOf(before);
    assert.ok(user?.content.startsWith(`File ${FILE} (whole file, `), user?.content.slice(0, 80));
    assert.equal(outcome.context?.files[0]?.mode, 'whole');
  });

  void test('a file whose whole text costs more than planning is still planned', async () => {
    const big = Array.from(
      { length: 40 },
      (_, i) =>
        `export function step${i}(input: number): number {\n${Array.from({ length: 8 }, (__, j) => `  input = input * ${j + 2} + ${i}; // scale ${j}`).join('\n')}\n  return input;\n}\n`,
    ).join('\n');
    const path = 'src/steps.ts';
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(`NEED ${path}/function[step7]`), scripted.answer('No change needed.'));
    const outcome = await runEdit(
      request({
        instruction: 'make step7 round its result',
        files: [{ path, focus: [] }],
        snapshot: { read: (p: string) => (p === path ? big : undefined) },
        options: { repairRounds: 0 },
      }),
    );
    assert.deepEqual(outcome.plan, [`${path}/function[step7]`]);
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['plan', 'code'],
    );
    const [, user] = llm.messagesOf(before + 1);
    assert.ok(user?.content.startsWith(`File ${path} (focused view of `), user?.content.slice(0, 80));
  });

  void test('failed operations go back to the model and only the failed ones are answered', async () => {
    const before = llm.server.requests.length;
    const wrongPath = NEW_VALIDATE.replace('method[validate]', 'method[validat]');
    const created = [
      'CREATE_ELEMENT src/hard.ts/class[UserService] LAST_CHILD',
      '```ts',
      'reset(): void {',
      "  this.label = '';",
      '}',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(`${created}\n\n${wrongPath}`), scripted.answer(NEW_VALIDATE));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    const repair = llm.messagesOf(before + 1);
    assert.equal(repair.length, 4);
    assert.equal(repair[2]?.role, 'assistant');
    const followUp = repair[3]?.content ?? '';
    assert.match(followUp, /FAILED REPLACE_ELEMENT src\/hard\.ts\/class\[UserService\]\/method\[validat\]/);
    assert.ok(followUp.includes(VALIDATE), 'the nearest valid path is suggested');
    assert.match(followUp, /ok CREATE_ELEMENT src\/hard\.ts\/class\[UserService\] \(kept/);
    const after = outcome.apply.changes[0]?.after ?? '';
    assert.ok(after.includes('return input.trim().length > 0'));
    assert.ok(after.includes("reset(): void {\n    this.label = '';\n  }"), 'the kept operation is applied too');
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['code', 'repair'],
    );
  });

  void test('a model that never gets it right: nothing is applied and the last answer is returned', async () => {
    const bad = NEW_VALIDATE.replace('method[validate]', 'method[nothere]');
    llm.server.enqueue(scripted.answer(bad), scripted.answer(bad), scripted.answer(bad));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, false);
    assert.deepEqual(outcome.apply.changes, []);
    assert.match(outcome.failure ?? '', /did not verify after 3 attempts/);
    assert.equal(outcome.lastAnswer, bad);
    assert.equal(outcome.requests.length, 3);
    assert.equal(outcome.requests[2]?.ok, false);
    assert.equal(FILES['src/hard.ts'], HARD);
  });

  void test('cancelling mid-stream stops the request and applies nothing', async () => {
    const controller = new AbortController();
    llm.server.enqueue(scripted.answer(NEW_VALIDATE, { chunks: 20, chunkDelayMs: 50 }));
    let streamed = '';
    const outcome = await runEdit(
      request({
        signal: controller.signal,
        onText: (delta) => {
          streamed += delta;
          if (streamed.length > 10) controller.abort();
        },
      }),
    );
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error?.code, 'cancelled');
    assert.deepEqual(outcome.apply.changes, []);
  });

  void test('the Anthropic messages API works the same way', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const provider = createProvider({
      provider: 'anthropic',
      baseUrl: llm.server.anthropicBaseUrl,
      apiKey: 'sk-ant-test',
      model: 'claude-sonnet-4-5',
    });
    const outcome = await runEdit(request({ provider }));
    assert.equal(outcome.ok, true, outcome.failure);
    assert.equal(llm.server.requests[before]?.api, 'anthropic');
    assert.match(String(llm.server.requests[before]?.body?.system ?? ''), /You are Scalpel/);
  });
});
