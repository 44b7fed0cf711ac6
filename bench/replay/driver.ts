import { readFileSync } from 'node:fs';
import { createTokenCounter } from '../../src/core/context/tokens';
import { seenCodeStep } from '../../src/core/edit/seenCodeStep';
import { createProvider } from '../../src/core/llm/createProvider';
import { runEdit } from '../../src/core/llm/pipeline';
import { applyOperations } from '../../src/core/ops/apply';
import { parseOperations } from '../../src/core/ops/format';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../test/support/llmServer';
import { adapter } from './adapter';
import type { ContextJob, ReplayInput, ReplayJob, ReplayJobResult, ReplayOutput } from './protocol';

/**
 * One version of Scalpel replaying corpus edits through the scripted model (issue 28's replay bench). The same file is
 * bundled against the current tree and against older commits' trees (bench/contextReplay.ts extracts them with git
 * archive), each with its own `adapter.ts` for what that version has. It starts its own scripted server, so each
 * version counts exactly what it sent. Input: a JSON file named on the command line; output: JSON on stdout.
 */

const SYSTEM_BUDGET = 12_000;
const SMALL_FILE_LINES = 50;
const REPAIR_ROUNDS = 2;

async function main(): Promise<void> {
  const input = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ReplayInput;
  const counter = createTokenCounter();
  const server = await startScriptedLlmServer();
  const output: ReplayOutput = { version: adapter.name, checks: {}, replays: [], contexts: [] };
  try {
    for (const job of input.checks ?? []) output.checks[job.id] = roundTrips(job);
    for (const job of input.replays ?? []) output.replays.push(await replay(job, server, counter, false));
    for (const job of input.wholeReplays ?? []) output.replays.push(await replay(job, server, counter, true));
    for (const job of input.contexts ?? []) output.contexts.push(contextOf(job, counter));
  } finally {
    await server.close();
    adapter.dispose();
  }
  process.stdout.write(JSON.stringify(output));
}

/** The edit's operations, applied by this version without a model, give the new text. */
function roundTrips(job: Pick<ReplayJob, 'file' | 'before' | 'after' | 'operations'>): boolean {
  try {
    const parsed = parseOperations(job.operations);
    if (parsed.errors.length > 0) return false;
    const result = applyOperations({ read: (p) => (p === job.file ? job.before : undefined) }, parsed.operations);
    return result.ok && (result.changes.find((c) => c.path === job.file)?.after ?? job.before) === job.after;
  } catch {
    return false;
  }
}

async function replay(
  job: ReplayJob,
  server: ScriptedLlmServer,
  counter: ReturnType<typeof createTokenCounter>,
  whole: boolean,
): Promise<ReplayJobResult> {
  const model = `replay-${adapter.name}-${whole ? 'whole' : 'edit'}-${job.id}`;
  const planned = !whole && !adapter.sentWholeUnplanned(job, counter, SYSTEM_BUDGET, SMALL_FILE_LINES);
  if (planned) {
    const needs = adapter.needModifiers ? job.needs : job.plainNeeds;
    server.enqueue(scripted.answer(needs.map((n) => `NEED ${n}`).join('\n') || 'NEED nothing', { model }));
  }
  // The operations again for each repair round: a model that was shown what it missed writes the same edit.
  for (let i = 0; i <= REPAIR_ROUNDS; i++) server.enqueue(scripted.answer(job.operations, { model }));
  const from = server.requests.length;
  const provider = createProvider({
    provider: 'openai',
    baseUrl: server.openaiBaseUrl,
    apiKey: 'sk-bench',
    model,
    retryDelayMs: 10,
  });
  const references = whole ? undefined : adapter.references(job.root, counter);
  const outcome = await runEdit({
    instruction: job.instruction,
    files: [{ path: job.file, focus: [] }],
    snapshot: { read: (path: string) => (path === job.file ? job.before : undefined) },
    provider,
    counter,
    options: {
      // A whole-file request has no budget to fit: it sends the file, however long.
      ...(whole ? {} : { budget: SYSTEM_BUDGET }),
      smallFileLines: SMALL_FILE_LINES,
      planning: whole ? 'never' : 'auto',
      repairRounds: REPAIR_ROUNDS,
      ...(whole ? { full: true } : {}),
    },
    verificationSteps: [seenCodeStep()],
    ...(references === undefined ? {} : { references }),
  });
  const requests = server.requests.slice(from).filter((r) => r.body?.model === model);
  const inputs = requests.map((r) =>
    (r.body?.messages ?? []).reduce((sum, m) => sum + counter.count(String(m.content)), 0),
  );
  const phases = outcome.requests.map((r) => r.phase);
  return {
    id: job.id,
    whole,
    inputs,
    phases,
    ok: outcome.ok,
    matches: outcome.ok && outcome.apply.changes.find((c) => c.path === job.file)?.after === job.after,
    ...(outcome.failure === undefined ? {} : { failure: outcome.failure.slice(0, 300) }),
  };
}

function contextOf(job: ContextJob, counter: ReturnType<typeof createTokenCounter>): { id: string; tokens: number } {
  return { id: job.id, tokens: adapter.contextTokens(job, counter) };
}

main().catch((error: unknown) => {
  process.stderr.write(
    `replay driver (${adapter.name}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
