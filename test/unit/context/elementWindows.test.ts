import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildContext } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { seenCodeStep } from '../../../src/core/edit/seenCodeStep';
import { outlineSource } from '../../../src/core/elements/outline';
import { runEdit } from '../../../src/core/llm/pipeline';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 28, windows inside very large elements: a 1,500-line function is shown as its head, windows around the lines
// the task points to and its last line; a PATCH applies in the lines shown, and outside them is refused with the
// window widened.

const counter = createTokenCounter();
const FILE = 'src/commands.ts';
const FUNCTION = `${FILE}/function[registerCommands]`;

/** Line 1 is the signature; command i sits on line i + 2 (a one-line registration each). */
const LINES = Array.from(
  { length: 1_500 },
  (_, i) => `  registry.register('command.${i}', () => run(${i}, 'step ${i}'));`,
);
LINES[700] = "  registry.register('telemetry.flush', () => flushTelemetry(ctx, 'on demand'));";
const TEXT = `import { run, flushTelemetry } from './run';

export function registerCommands(registry: Registry, ctx: Context): void {
${LINES.join('\n')}
}

export function unregisterAll(registry: Registry): void {
  registry.clear();
}
`;
/** File line of LINES[i]. */
const lineOf = (i: number): number => i + 4;

const patchOf = (search: string, replace: string): string =>
  [`PATCH_ELEMENT ${FUNCTION}`, '```ts', '<<<<<<< SEARCH', search, '=======', replace, '>>>>>>> REPLACE', '```'].join(
    '\n',
  );

void describe('windows inside very large elements', () => {
  const outline = outlineSource(FILE, TEXT);

  void test('a 1,500-line function is shown as its head, a window around the task and its last line', () => {
    const context = buildContext([{ outline, focus: [FUNCTION] }], counter, {
      instruction: 'flush the telemetry on shutdown too',
    });
    const { text } = context;
    assert.ok(
      text.includes(
        `// @ ${FUNCTION} (lines 3-1504, shown in part; PATCH only lines shown, NEED <path> LINES a-b for others)\nexport function registerCommands(registry: Registry, ctx: Context): void {\n`,
      ),
      text.slice(0, 600),
    );
    assert.ok(text.includes(`  // … lines 7-${lineOf(700) - 13} not shown\n`), text);
    assert.ok(text.includes(LINES[700] ?? '-'));
    assert.ok(text.includes(`${LINES[712] ?? '-'}\n  // … lines ${lineOf(712) + 1}-1503 not shown\n}\n`), text);
    assert.ok(!text.includes(LINES[900] ?? '-'));
    assert.ok(context.tokens < context.wholeFileTokens * 0.1, `${context.tokens} of ${context.wholeFileTokens}`);
    assert.equal(context.elements.find((e) => e.path === FUNCTION)?.level, 'window');
    assert.deepEqual(context.partial, [
      {
        path: FUNCTION,
        lines: [
          [3, 6],
          [lineOf(688), lineOf(712)],
          [1504, 1504],
        ],
      },
    ]);
  });

  void test('with nothing to point at, the function is shown whole (here with its file: the view would cost more)', () => {
    const context = buildContext([{ outline, focus: [FUNCTION] }], counter, { instruction: 'tidy it up' });
    assert.ok(context.text.includes(LINES[900] ?? '-'));
    assert.equal(context.files[0]?.mode, 'whole');
    assert.deepEqual(context.partial, []);
  });

  void test('the user pointing at a line (cursor) opens a window there', () => {
    const context = buildContext([{ outline, focus: [FUNCTION], lines: [lineOf(1200)] }], counter);
    assert.ok(context.text.includes(LINES[1200] ?? '-'));
    assert.ok(!context.text.includes(LINES[700] ?? '-'));
  });
});

void describe('windows through the edit', () => {
  const llm = useScriptedModel();
  const snapshot = { read: (path: string) => (path === FILE ? TEXT : undefined) };
  const edit = (repairRounds: number): ReturnType<typeof runEdit> =>
    runEdit({
      instruction: 'flush the telemetry on shutdown too',
      files: [{ path: FILE, focus: [FUNCTION] }],
      snapshot,
      provider: llm.provider(),
      counter,
      options: { repairRounds },
      verificationSteps: [seenCodeStep()],
    });

  void test('a PATCH inside a window applies', async () => {
    llm.server.enqueue(
      scripted.answer(
        patchOf(
          LINES[700] ?? '',
          `${LINES[700] ?? ''}\n  registry.register('telemetry.shutdown', () => flushTelemetry(ctx, 'on shutdown'));`,
        ),
      ),
    );
    const outcome = await edit(0);
    assert.equal(outcome.ok, true, outcome.failure);
    assert.ok(outcome.apply.changes[0]?.after.includes("'telemetry.shutdown'"));
  });

  void test('a PATCH outside the windows is refused with the window widened, and applies once shown', async () => {
    const outside = patchOf(
      LINES[1200] ?? '',
      "  registry.register('command.1200', () => run(1200, 'step 1200 again'));",
    );
    llm.server.enqueue(scripted.answer(outside), scripted.answer(outside));
    const before = llm.server.requests.length;
    const outcome = await edit(1);
    assert.equal(llm.server.requests.length - before, 2, 'one repair round');
    const repair = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    assert.match(
      repair,
      new RegExp(
        `PATCH_ELEMENT of src/commands\\.ts/function\\[registerCommands\\] changes line ${lineOf(1200)}, which you were not shown \\(you saw lines 3-6, lines ${lineOf(688)}-${lineOf(712)}, line 1504 of it\\)\\. Lines ${lineOf(1188)}-${lineOf(1212)} are shown below`,
      ),
      repair,
    );
    assert.ok(repair.includes(LINES[1188] ?? '-') && repair.includes(LINES[1212] ?? '-'));
    assert.ok(!repair.includes(LINES[1187] ?? '-') && !repair.includes(LINES[900] ?? '-'), 'only the widened window');
    assert.equal(outcome.ok, true, outcome.failure);
    assert.ok(outcome.apply.changes[0]?.after.includes("'step 1200 again'"));
  });

  void test('NEED <path> LINES a-b widens a window, and a PATCH there then applies', async () => {
    const patch = patchOf(LINES[300] ?? '', "  registry.register('command.300', () => run(300, 'renamed'));");
    llm.server.enqueue(scripted.answer(`NEED ${FUNCTION} LINES ${lineOf(295)}-${lineOf(305)}`), scripted.answer(patch));
    const before = llm.server.requests.length;
    const outcome = await edit(1);
    const answer = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    assert.ok(answer.includes(`// @ ${FUNCTION}, lines ${lineOf(295)}-${lineOf(305)}`), answer);
    assert.ok(answer.includes(LINES[300] ?? '-') && !answer.includes(LINES[306] ?? '-'), answer);
    assert.equal(outcome.ok, true, outcome.failure);
  });
});
