import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ContextBudgetError } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { EditConversation } from '../../../src/core/edit/conversation';
import { createEditService, type ServiceEditRequest } from '../../../src/core/edit/editService';
import type { PreWriteGate } from '../../../src/core/edit/preWriteGate';
import type { VerificationStep } from '../../../src/core/edit/verification';
import { outlineSource } from '../../../src/core/elements/outline';
import type { RequestMetrics } from '../../../src/core/llm/metrics';
import { parseOperations } from '../../../src/core/ops/format';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { FILE, HARD, INSTRUCTION, NEW_VALIDATE, snapshot, VALIDATE, VALIDATED } from '../pipeline/validateEdit';

// The edit service end to end against the scripted model over real HTTP, through the real OpenAI client: the same
// calls the palette, the chat and `scalpel edit` make.

void describe('the edit service', () => {
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

  void test('a verified edit: a change set per element, usage, metrics, what was shown, the undo label', async () => {
    const recorded: RequestMetrics[] = [];
    const service = createEditService({ recordMetrics: (requests) => recorded.push(...requests) });
    const conversation = new EditConversation('test');
    llm.server.enqueue(scripted.answer(NEW_VALIDATE, { usage: { inputTokens: 700, outputTokens: 40 } }));
    const instruction =
      'trim the input before checking its length, and keep the check of the root path exactly as it is today';
    const result = await service.edit(request({ instruction, conversation }));

    assert.equal(result.status, 'ready', result.failure);
    assert.equal(result.outcome.apply.changes[0]?.after, VALIDATED);
    assert.deepEqual(
      result.changeSet.map((c) => [c.index, c.file, c.target, c.operation.type, c.result.status]),
      [[0, FILE, VALIDATE, 'REPLACE_ELEMENT', 'ok']],
    );
    assert.equal(result.title, 'trim the input before checking its length, and keep the c…');
    assert.ok(result.title.length <= 60);
    assert.equal(result.undoLabel, `Scalpel: ${result.title}`);
    assert.deepEqual(result.usage, {
      requests: 1,
      inputTokens: 700,
      outputTokens: 40,
      wholeFileInputTokens: result.outcome.requests[0]?.wholeFileInputTokens,
    });
    assert.deepEqual(
      recorded.map((r) => [r.command, r.phase, r.ok]),
      [['test.edit', 'code', true]],
    );
    assert.equal(result.advice, undefined);

    const [shown] = result.outcome.shown;
    assert.equal(shown?.phase, 'code');
    const file = shown?.files[0];
    assert.equal(file?.path, FILE);
    assert.equal(file?.whole, false);
    assert.ok(file?.full.includes(VALIDATE), 'the focused method was shown in full');
    const outline = [...(file?.signature ?? []), ...(file?.stub ?? [])];
    assert.ok(outline.includes(`${FILE}/class[UserService]/method[find]`), 'a sibling was shown by its signature');
    assert.ok(!outline.includes(VALIDATE));

    assert.equal(conversation.baseline(FILE), HARD, 'the conversation keeps the text the model saw');
    assert.deepEqual(
      conversation.turns.map((t) => t.shownInFull),
      [file?.full],
    );
  });

  void test('a budget smaller than the focus fails before any request, with the one wording and its advice', async () => {
    const service = createEditService();
    const before = llm.server.requests.length;
    const result = await service.edit(request({ settings: { tokenBudget: 10 } }));
    assert.equal(result.status, 'failed');
    assert.equal(llm.server.requests.length, before, 'no model request');
    assert.match(result.failure ?? '', /^the focused elements alone need \d+ tokens but the budget is 10 /);
    const thrown = new ContextBudgetError(Number(/need (\d+) tokens/.exec(result.failure ?? '')?.[1]), 10);
    assert.equal(result.failure, thrown.message);
    assert.deepEqual(result.advice?.actions, [{ kind: 'openSettings', setting: 'tokenBudget' }]);
    // The context service says the same for the same focus.
    const context = service.context({
      requests: [{ outline: outlineSource(FILE, HARD), focus: [VALIDATE] }],
      settings: { tokenBudget: 10 },
    });
    assert.equal(context.ok, false);
    assert.equal(!context.ok && context.failure, result.failure);
  });

  void test('the context of files named as an edit names them is what the edit sends', async () => {
    const notes = 'Some notes\nthat no element model reads\n';
    const files = { read: (path: string) => (path === FILE ? HARD : path === 'NOTES.txt' ? notes : undefined) };
    const service = createEditService();
    const context = service.context({
      files: [
        { path: FILE, focus: [VALIDATE] },
        { path: 'NOTES.txt', focus: [] },
      ],
      snapshot: files,
    });
    assert.equal(context.ok, true);
    if (!context.ok) return;
    assert.deepEqual(
      context.context.files.map((f) => [f.file, f.mode, f.focus]),
      [
        ['NOTES.txt', 'whole', []],
        [FILE, 'focused', [VALIDATE]],
      ],
    );
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const before = llm.server.requests.length;
    await service.edit(
      request({
        files: [
          { path: FILE, focus: [VALIDATE] },
          { path: 'NOTES.txt', focus: [] },
        ],
        snapshot: files,
      }),
    );
    const sent = llm.server.requests[before]?.body?.messages?.find((m) => m.role === 'user')?.content;
    assert.ok(String(sent).startsWith(context.context.text), 'the edit sent this very context');
  });

  void test('an excluded file is refused before anything is sent', async () => {
    const service = createEditService();
    const before = llm.server.requests.length;
    const result = await service.edit(
      request({
        exclusions: {
          firstExclusion: (paths) =>
            Promise.resolve(paths.includes(FILE) ? { path: FILE, rule: 'scalpel.exclude "src/**"' } : undefined),
        },
      }),
    );
    assert.equal(result.status, 'refused');
    assert.equal(llm.server.requests.length, before);
    assert.equal(
      result.failure,
      'Scalpel does not send src/hard.ts: it is excluded by scalpel.exclude "src/**". Excluded files are never sent to a model; change the setting or the .gitignore to allow it.',
    );
    assert.deepEqual(result.advice?.actions, [{ kind: 'openSettings', setting: 'exclude' }]);
  });

  void test('the pre-write gates: a refusal stops the batch, a question goes to the surface', async () => {
    const refuse: PreWriteGate = {
      check: ({ changes }) => changes.map((c) => ({ path: c.path, decision: 'refuse', reason: 'it is protected' })),
    };
    const ask: PreWriteGate = {
      check: ({ changes, namedFiles }) =>
        changes.map((c) => ({ path: c.path, decision: 'ask', reason: `named: ${namedFiles.join(',')}` })),
    };
    llm.server.enqueue(scripted.answer(NEW_VALIDATE), scripted.answer(NEW_VALIDATE), scripted.answer(NEW_VALIDATE));
    const refused = await createEditService({ preWriteGates: [refuse] }).edit(request());
    assert.equal(refused.status, 'refused');
    assert.equal(refused.failure, 'src/hard.ts: it is protected; nothing was written');
    assert.deepEqual(refused.changeSet, []);

    const asked: string[] = [];
    const confirmed = await createEditService({ preWriteGates: [ask] }).edit(
      request({
        confirm: (findings) => {
          asked.push(...findings.map((f) => `${f.path} (${f.reason})`));
          return Promise.resolve(true);
        },
      }),
    );
    assert.equal(confirmed.status, 'ready');
    assert.deepEqual(asked, ['src/hard.ts (named: src/hard.ts)']);

    const unasked = await createEditService({ preWriteGates: [ask] }).edit(request());
    assert.equal(unasked.status, 'refused', 'without a way to ask, a file that needs confirming is not written');
  });

  void test('a further verification step sends its problems back for repair', async () => {
    const noTrim: VerificationStep = {
      name: 'no-trim',
      run: ({ apply }) =>
        apply.changes.some((c) => c.after.includes('trim()'))
          ? [{ path: FILE, message: 'trim() is not allowed here', operationIndex: 0 }]
          : [],
    };
    const withLength = NEW_VALIDATE.replace('input.trim().length > 0', 'input.length >= 1');
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(NEW_VALIDATE), scripted.answer(withLength));
    const result = await createEditService({ verificationSteps: [noTrim] }).edit(request());
    assert.equal(result.status, 'ready', result.failure);
    const repair = llm.server.requests[before + 1]?.body?.messages?.at(-1);
    assert.match(
      String(repair?.content),
      /FAILED REPLACE_ELEMENT src\/hard\.ts\/class\[UserService\]\/method\[validate\]: trim\(\) is not allowed here/,
    );
    assert.ok(result.outcome.apply.changes[0]?.after.includes('return input.length >= 1 &&'));
    assert.deepEqual(
      result.outcome.verification.map((s) => [s.step, s.problems.length]),
      [
        ['apply', 0],
        // The seen-code rule runs on every surface, before the deps' steps.
        ['seen-code', 0],
        ['no-trim', 0],
      ],
    );
  });

  void test('pasted operations go through the same verification steps, without a model', async () => {
    const rejectAll: VerificationStep = { name: 'reject-all', run: () => [{ path: FILE, message: 'no' }] };
    const { operations } = parseOperations(NEW_VALIDATE);
    const before = llm.server.requests.length;
    const plain = await createEditService().verify({ snapshot, operations });
    assert.equal(plain.ok, true);
    assert.equal(plain.apply.changes[0]?.after, VALIDATED);
    const checked = await createEditService({ verificationSteps: [rejectAll] }).verify({ snapshot, operations });
    assert.equal(checked.ok, false);
    assert.deepEqual(checked.problems, [{ path: FILE, message: 'no' }]);
    assert.equal(llm.server.requests.length, before);
  });

  void test('NEED lines are answered in the edit phase and recorded per round', async () => {
    const find = `${FILE}/class[UserService]/method[find]`;
    llm.server.enqueue(scripted.answer(`NEED ${find}\n\n${NEW_VALIDATE}`), scripted.answer(NEW_VALIDATE));
    const result = await createEditService().edit(request());
    assert.equal(result.status, 'ready', result.failure);
    assert.deepEqual(result.outcome.rounds, [
      { phase: 'code', needs: [find], finds: [], answered: { setAside: 1, sent: [find] } },
      { phase: 'repair', needs: [], finds: [] },
    ]);
  });

  void test('the user changed the target meanwhile: the batch is resolved again and reported as a conflict', async () => {
    const typed = HARD.replace('return input.length > 0 &&', 'return input.length > 1 &&');
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const conflict = await createEditService().edit(
      request({ current: { read: (path) => (path === FILE ? typed : undefined) } }),
    );
    assert.equal(conflict.status, 'conflict');
    assert.match(conflict.resolution?.conflicts[0]?.reason ?? '', /you changed .*method\[validate\] meanwhile/);

    // A change elsewhere in the file is kept, and the batch applies on top of it.
    const elsewhere = `${HARD}\n// a note the user added\n`;
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const rebased = await createEditService().edit(
      request({ current: { read: (path) => (path === FILE ? elsewhere : undefined) } }),
    );
    assert.equal(rebased.status, 'ready');
    assert.deepEqual(rebased.resolution?.applied, [0]);
    assert.equal(rebased.resolution?.changes[0]?.after, `${VALIDATED}\n// a note the user added\n`);
  });

  void test('a refused key: the failure and the advice to set the key or select a model', async () => {
    llm.server.enqueue(scripted.error('invalid-api-key'));
    const result = await createEditService().edit(request());
    assert.equal(result.status, 'failed');
    assert.equal(result.error?.code, 'auth');
    assert.deepEqual(
      result.advice?.actions.map((a) => a.kind),
      ['setApiKey', 'selectModel'],
    );
    assert.match(result.failure ?? '', /API key rejected by http:\/\/127\.0\.0\.1:\d+\/v1 \(401\)/);
    assert.equal(result.advice?.nextStep, 'Or select another model.');
    const said = `${result.failure ?? ''} ${result.advice?.nextStep ?? ''}`;
    assert.equal(said.split('127.0.0.1').length - 1, 1, `the address is named once: ${said}`);
  });

  void test('planning alone: the elements the model names, the ones it got wrong, the metrics', async () => {
    const recorded: RequestMetrics[] = [];
    llm.server.enqueue(scripted.answer(`NEED ${VALIDATE}\nNEED ${FILE}/function[nope]\nNEED src/other.ts\n`));
    const result = await createEditService({ recordMetrics: (r) => recorded.push(...r) }).plan(
      request({ files: [{ path: FILE, focus: [] }], command: 'test.plan' }),
    );
    assert.equal(result.ok, true, result.failure);
    assert.deepEqual(
      result.plan?.elements.map((e) => [e.file, e.element.path]),
      [[FILE, VALIDATE]],
    );
    assert.deepEqual(
      result.plan?.unresolved.map((u) => u.path),
      [`${FILE}/function[nope]`, 'src/other.ts'],
    );
    assert.match(result.plan?.unresolved[1]?.reason ?? '', /not part of the request/);
    // The file outside the request is named apart, for the surface to say how to add it; a missing element is not.
    assert.deepEqual(
      result.plan?.unresolved.map((u) => u.outsideRequest),
      [undefined, 'src/other.ts'],
    );
    assert.deepEqual(
      recorded.map((r) => [r.command, r.phase]),
      [['test.plan', 'plan']],
    );
    assert.equal(result.wholeFileTokens, createTokenCounter().count(HARD));
  });
});
