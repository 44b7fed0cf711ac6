import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cliBatchWriter } from '../../../src/cli/commands/mcp';
import { nullLogger } from '../../../src/core/logger';
import { answerBudget, createToolEnv, diskWorkspace, runTool, TOOLS, type Tool } from '../../../src/core/tools';
import { GraphWorker } from '../../../src/core/tools/graph/graphWorker';
import { repoRoot, shopWorkspace } from '../tools/toolSupport';
import { checkAsyncProperty, fuzzRun } from './fuzzSettings';

/**
 * The tool layer as an untrusted client calls it (issue 27): every tool with arguments made of its own names and
 * others, long strings (element paths of tens of thousands of characters, runs of one letter), paths that escape,
 * wrong types and deep lists. Whatever comes in: the call answers (no exception escapes runTool), the answer fits
 * its budget, no internal error ("<tool> failed: ...") is reported, and no file of the workspace changes. 300 cases
 * per unit run, 100,000 with `npm run fuzz`. The tools run as `scalpel mcp` runs them, the code graph and the
 * verification in its worker thread (dist/cli.js). SCALPEL_FUZZ_REPORT=1 reports the slowest call and the longest the
 * serving thread was held at once (figures, not checks: the machine's speed is not the code's).
 */

const root = shopWorkspace();
// The tools as `scalpel mcp` serves them: the code graph and the batch verification in the worker thread.
const worker = new GraphWorker({ script: join(repoRoot, 'dist', 'cli.js'), root, logger: nullLogger });
const env = createToolEnv(
  diskWorkspace(root),
  cliBatchWriter(root, worker),
  createTokenCounter(),
  nullLogger,
  undefined,
  worker.graph(),
);
const counter = createTokenCounter();
const FILES = ['src/price.ts', 'src/checkout.ts', 'src/broken.ts'];
const before = FILES.map((file) => readFileSync(join(root, file), 'utf8'));

const longRun = fc
  .tuple(fc.constantFrom('z', 'a', '/', '[', '*', '.', '\u00e9', '\u{1F600}'), fc.integer({ min: 1_000, max: 90_000 }))
  .map(([char, length]) => char.repeat(length));
const pathLike = fc.oneof(
  fc.constantFrom(
    'src/price.ts',
    'src/price.ts/class[Cart]/method[add]',
    'src/price.ts/function[applyDiscount]',
    '.',
    'src',
    '../outside.ts',
    '/etc/passwd',
    '.git/config',
    'src/**',
    '**/*.ts/function[*]',
    'src/price.ts/class[Cart]/method[',
  ),
  fc.string({ maxLength: 40 }),
  longRun,
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: pathLike },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 100_000 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 3, arbitrary: fc.array(pathLike, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, {}, [[]], { nested: 'z'.repeat(5_000) }) },
);

function argumentsOf(tool: Tool): fc.Arbitrary<unknown> {
  const names = Object.keys(tool.inputSchema.properties ?? {});
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  return fc.oneof(
    { weight: 8, arbitrary: fc.dictionary(key, value, { maxKeys: 5 }) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, 'outline', 42, ['paths']) },
  );
}

/** The arguments that keep a writing tool to a dry run. */
const DRY_RUN: Readonly<Record<string, object>> = { apply: { dryRun: true }, rename: { apply: false } };

const call = fc.constantFrom(...TOOLS).chain((tool) =>
  // apply and rename verify with the type check: a dry run keeps a hundred thousand cases affordable, the writes are
  // the apply fuzz's subject.
  argumentsOf(tool).map((input) => ({
    tool,
    input:
      DRY_RUN[tool.name] !== undefined && typeof input === 'object' && input !== null
        ? { ...input, ...DRY_RUN[tool.name] }
        : input,
  })),
);

void test('the tool layer answers any arguments within its budget, with no internal error and no write', async () => {
  const run = fuzzRun('tools', 300);
  const budget = answerBudget(2_000);
  let slowest = { ms: 0, tool: '' };
  let longestHold = { ms: 0, tool: '' };
  let lastTool = '';
  const attribute = (): void => {
    if (held.max / 1e6 > longestHold.ms) longestHold = { ms: held.max / 1e6, tool: lastTool };
  };
  // How long the thread that serves the calls was held at once (what a ping sent meanwhile would wait).
  const held = monitorEventLoopDelay({ resolution: 10 });
  held.enable();
  await checkAsyncProperty(
    'tools',
    run,
    fc.asyncProperty(call, async ({ tool, input }) => {
      // A hold shows in the monitor once the thread is free again: at the start of the next call at the latest.
      attribute();
      const started = performance.now();
      const answer = await runTool(tool, input, env, { budget, surface: 'fuzz' });
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms, tool: tool.name };
      lastTool = tool.name;
      assert.equal(typeof answer.text, 'string');
      assert.ok(answer.tokens <= budget.maxTokens, `${tool.name}: ${answer.tokens} tokens`);
      assert.equal(counter.count(answer.text), answer.tokens);
      assert.doesNotMatch(answer.text, new RegExp(`^error: ${tool.name} failed:`), answer.text.slice(0, 300));
    }),
  );
  await new Promise((resume) => setTimeout(resume, 50));
  attribute();
  held.disable();
  await worker.close();
  FILES.forEach((file, i) => assert.equal(readFileSync(join(root, file), 'utf8'), before[i], `${file} changed`));
  if (process.env['SCALPEL_FUZZ_REPORT'] === '1')
    process.stdout.write(
      `# fuzz tools: slowest call ${slowest.ms.toFixed(0)} ms (${slowest.tool}); the serving thread held at most ` +
        `${longestHold.ms.toFixed(0)} ms at once (in or right after a ${longestHold.tool} call)\n`,
    );
});
