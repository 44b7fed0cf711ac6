import { createTokenCounter, type TokenCounter } from '../src/core/context/tokens';
import { wholeOrPlanned } from '../src/core/edit/costRule';
import { planningOutlineOf } from '../src/core/edit/planning';
import { usageNotes } from '../src/core/edit/planningUsage';
import type { ElementNode } from '../src/core/elements/element';
import { outlineSource } from '../src/core/elements/outline';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { CONTEXT_REFERENCES_MS, contextReferences, referencesBudgetOf } from '../src/core/graph/contextReferences';
import { ReferenceFinder } from '../src/core/graph/references';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import { createProvider } from '../src/core/llm/createProvider';
import { runEdit } from '../src/core/llm/pipeline';
import { CODING_SYSTEM_PROMPT, PLANNING_SYSTEM_PROMPT } from '../src/core/llm/prompts';
import type { Corpus } from '../test/support/corpus';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../test/support/llmServer';
import type { SectionMarkers } from './benchSection';
import { corpusTexts, largestCorpusFiles } from './corpusText';
import { summarize, type Summary, spread } from './stats';

/**
 * Issue 18's cost figures on the real corpus: what the references appendix of a focused function or method costs
 * (tokens and time, warm and cold, against the context it joins), what the cost rule saves on mid-sized files (every
 * request's input counted as sent to the scripted model over HTTP: planned as before, and as the rule decides now),
 * the fixed instructions per request, and the planning outline with its usage notes on the largest files.
 */

export interface ReferencesCost {
  readonly pkg: string;
  readonly elements: number;
  /** Elements with at least one use outside what the context shows in full. */
  readonly withUses: number;
  /** Elements whose search the time limit cut short (the appendix says so instead of listing uses). */
  readonly cutShort: number;
  readonly appendixTokens: Summary;
  readonly appendixMaxTokens: number;
  /** Appendix tokens / tokens of the focused context without it. */
  readonly share: Summary;
  readonly warmMs: Summary;
  readonly coldMs: number;
}

export interface CostRuleFile {
  readonly file: string;
  readonly lines: number;
  readonly wholeTokens: number;
  /** Input tokens of every request of the edit, planned (planning: always, as before the rule). */
  readonly plannedInput: number;
  readonly plannedRequests: number;
  /** Input tokens with the rule (planning: auto). */
  readonly ruleInput: number;
  readonly ruleRequests: number;
}

export interface OutlineNotes {
  readonly file: string;
  readonly lines: number;
  readonly plainTokens: number;
  readonly notedTokens: number;
  readonly notesMs: number;
}

export interface ContextCostResults {
  readonly references: readonly ReferencesCost[];
  readonly referencesBudget: number;
  readonly referencesTimeLimitMs: number;
  readonly costRule: readonly CostRuleFile[];
  readonly instructions: { readonly coding: number; readonly planning: number };
  readonly outlines: readonly OutlineNotes[];
  readonly durationSeconds: number;
}

const SIGNATURE_KINDS = new Set(['function', 'method']);

function functionsOf(elements: readonly ElementNode[]): ElementNode[] {
  return elements.flatMap((e) => [
    ...(SIGNATURE_KINDS.has(e.kind) && e.name !== '' ? [e] : []),
    ...functionsOf(e.children),
  ]);
}

/** At most `count` items, spread evenly over the list. */

async function measureReferences(corpus: Corpus, counter: TokenCounter, perPackage: number): Promise<ReferencesCost[]> {
  const { buildContext } = await import('../src/core/context/buildContext');
  const results: ReferencesCost[] = [];
  for (const pkg of corpus.packages) {
    const graph = new CodeGraph(nodeSourceFileSystem(pkg.after.packageDir));
    const finder = new ReferenceFinder(graph);
    const files = graph.imports
      .files()
      .filter((f) => f.startsWith(`${pkg.sourceRoot}/`) && !/\.d\.[cm]?ts$/.test(f) && !/\.test\.|\.spec\./.test(f));
    const targets = spread(
      files.flatMap((file) => {
        const text = graph.imports.textOf(file);
        if (text === undefined) return [];
        const outline = outlineSource(file, text);
        return functionsOf(outline.elements).map((element) => ({ outline, element }));
      }),
      perPackage,
    );
    const tokens: number[] = [];
    const shares: number[] = [];
    const warm: number[] = [];
    let cold = 0;
    let withUses = 0;
    let cutShort = 0;
    for (const [i, { outline, element }] of targets.entries()) {
      const request = { outline, focus: [element.path] };
      const started = performance.now();
      const found = contextReferences(finder, [request], counter);
      const ms = performance.now() - started;
      if (i === 0) cold = ms;
      else warm.push(ms);
      const appendix = found.appendices.get(outline.file) ?? '';
      if (appendix.startsWith('References to') && found.cutShort === 0) withUses += 1;
      cutShort += found.cutShort;
      const base = buildContext([request], counter).tokens;
      tokens.push(found.tokens);
      shares.push(found.tokens / Math.max(1, base));
    }
    graph.dispose();
    results.push({
      pkg: pkg.name,
      elements: targets.length,
      withUses,
      cutShort,
      appendixTokens: summarize(tokens),
      appendixMaxTokens: Math.max(0, ...tokens),
      share: summarize(shares),
      warmMs: summarize(warm),
      coldMs: cold,
    });
  }
  return results;
}

function inputTokensOf(server: ScriptedLlmServer, from: number, counter: TokenCounter): number {
  return server.requests
    .slice(from)
    .flatMap((r) => r.body?.messages ?? [])
    .reduce((sum, m) => sum + counter.count(String(m.content)), 0);
}

async function measureCostRule(corpus: Corpus, counter: TokenCounter, count: number): Promise<CostRuleFile[]> {
  const server = await startScriptedLlmServer();
  try {
    const provider = createProvider({
      provider: 'openai',
      baseUrl: server.openaiBaseUrl,
      apiKey: 'sk-bench',
      model: 'scripted',
      retryDelayMs: 10,
    });
    const candidates = corpusTexts(corpus)
      .filter((entry) => entry.lines >= 100 && entry.lines <= 200)
      .sort((a, b) => Math.abs(a.lines - 140) - Math.abs(b.lines - 140));
    const chosen = candidates.slice(0, count);
    const results: CostRuleFile[] = [];
    for (const { file, text, lines } of chosen) {
      const outline = outlineSource(file.relPath, text);
      const target = functionsOf(outline.elements)[0] ?? outline.elements.find((e) => e.kind !== 'import');
      if (target === undefined) continue;
      const instruction = `fix the handling of an empty input in ${target.name || 'the first element'}`;
      const plan = { path: file.relPath, outline, outlinable: outline.syntaxErrors.length === 0 };
      const run = async (planning: 'always' | 'auto'): Promise<{ input: number; requests: number }> => {
        const before = server.requests.length;
        // The model names the element, then answers with no operations: the input is what is measured. No planning
        // answer when the rule sends the file whole (a leftover answer would answer the next edit).
        const plans = planning === 'always' || !wholeOrPlanned(plan, instruction, counter, undefined).whole;
        if (plans) server.enqueue(scripted.answer(`NEED ${target.path}`));
        server.enqueue(scripted.answer('No change.'));
        await runEdit({
          instruction,
          files: [{ path: file.relPath, focus: [] }],
          snapshot: { read: (p) => (p === file.relPath ? text : undefined) },
          provider,
          counter,
          options: { planning, repairRounds: 0 },
        });
        const requests = server.requests.length - before;
        return { input: inputTokensOf(server, before, counter), requests };
      };
      const planned = await run('always');
      const rule = await run('auto');
      results.push({
        file: `${file.pkg}/${file.relPath}`,
        lines,
        wholeTokens: counter.count(text),
        plannedInput: planned.input,
        plannedRequests: planned.requests,
        ruleInput: rule.input,
        ruleRequests: rule.requests,
      });
    }
    return results;
  } finally {
    await server.close();
  }
}

function measureOutlines(corpus: Corpus, counter: TokenCounter): OutlineNotes[] {
  const files = largestCorpusFiles(corpus, 10);
  return files.map(({ file, text, lines }) => {
    const outline = outlineSource(file.relPath, text);
    const plan = { path: file.relPath, outline, outlinable: true };
    const instruction = 'fix the error message when the input is empty';
    const plain = planningOutlineOf(plan, { counter });
    const started = performance.now();
    usageNotes(outline, instruction);
    const notesMs = performance.now() - started;
    return {
      file: `${file.pkg}/${file.relPath}`,
      lines,
      plainTokens: counter.count(plain),
      notedTokens: counter.count(planningOutlineOf(plan, { counter, instruction })),
      notesMs,
    };
  });
}

export async function measureContextCost(
  corpus: Corpus,
  options: { referencesPerPackage?: number; costRuleFiles?: number; log?: (message: string) => void } = {},
): Promise<ContextCostResults> {
  const started = performance.now();
  const counter = createTokenCounter();
  const log = options.log ?? (() => undefined);
  log('references in the focused context');
  const references = await measureReferences(corpus, counter, options.referencesPerPackage ?? 30);
  log('cost rule on mid-sized files');
  const costRule = await measureCostRule(corpus, counter, options.costRuleFiles ?? 12);
  log('planning outline notes');
  const outlines = measureOutlines(corpus, counter);
  return {
    references,
    referencesBudget: referencesBudgetOf(12_000),
    referencesTimeLimitMs: CONTEXT_REFERENCES_MS,
    costRule,
    instructions: { coding: counter.count(CODING_SYSTEM_PROMPT), planning: counter.count(PLANNING_SYSTEM_PROMPT) },
    outlines,
    durationSeconds: (performance.now() - started) / 1000,
  };
}

/** Issue 18's cost section of bench/results.md. */
export const CONTEXT_COST_SECTION: SectionMarkers = {
  start: '<!-- issue-18 context cost: start -->',
  end: '<!-- issue-18 context cost: end -->',
};

export function renderContextCost(results: ContextCostResults): string {
  const lines: string[] = [
    CONTEXT_COST_SECTION.start,
    '## References, cost rule and instruction tokens (issue 18)',
    '',
  ];
  const f0 = (n: number): string => (Number.isNaN(n) ? 'n/a' : n.toFixed(0));
  const pct = (n: number): string => (Number.isNaN(n) ? 'n/a' : `${(100 * n).toFixed(0)}%`);
  lines.push(
    `Measured by \`node out/bench/contextCostRun.js\` (also part of \`npm run bench\`) in ${results.durationSeconds.toFixed(0)} s. ` +
      `**References in the context**: functions and methods spread over each package's sources (its newer release), ` +
      `each focused alone; the appendix lists its uses outside the focused element (budget ${results.referencesBudget} ` +
      'tokens at the default context budget of 12,000). Share = appendix tokens / the focused context without it. ' +
      `Cut short: searches stopped at the time limit of ${results.referencesTimeLimitMs} ms (counted once the ` +
      "compiler's program is ready); their appendix says so. Times are wall time on a shared 2-core machine.",
  );
  lines.push('');
  lines.push(
    '| package | elements | with uses | cut short | appendix tokens median | p90 | max | share median | p90 | warm ms median | p90 | cold ms |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results.references) {
    lines.push(
      `| ${r.pkg} | ${r.elements} | ${r.withUses} | ${r.cutShort} | ${f0(r.appendixTokens.median)} | ${f0(r.appendixTokens.p90)} | ${r.appendixMaxTokens} | ${pct(r.share.median)} | ${pct(r.share.p90)} | ${f0(r.warmMs.median)} | ${f0(r.warmMs.p90)} | ${f0(r.coldMs)} |`,
    );
  }
  lines.push('');
  lines.push(
    "**Cost rule** on the corpus files nearest 140 lines (the issue's case): input tokens of every request of one edit " +
      'with no focus, counted as sent to the scripted model. Before = planned (planning request, then a focused view ' +
      'of the element the model names); after = the rule (whole when that costs no more than planning would).',
  );
  lines.push('');
  lines.push('| file | lines | file tokens | before: input (requests) | after: input (requests) | after / before |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const r of results.costRule) {
    lines.push(
      `| ${r.file} | ${r.lines} | ${r.wholeTokens} | ${r.plannedInput} (${r.plannedRequests}) | ${r.ruleInput} (${r.ruleRequests}) | ${(r.ruleInput / Math.max(1, r.plannedInput)).toFixed(2)} |`,
    );
  }
  const before = results.costRule.reduce((s, r) => s + r.plannedInput, 0);
  const after = results.costRule.reduce((s, r) => s + r.ruleInput, 0);
  lines.push(`| all | | | ${before} | ${after} | ${(after / Math.max(1, before)).toFixed(2)} |`);
  lines.push('');
  lines.push(
    `**Fixed instructions per request** (o200k_base): coding ${results.instructions.coding} tokens, planning ` +
      `${results.instructions.planning} tokens (\`scalpel stats\` shows them per request as "instructions + code").`,
  );
  lines.push('');
  lines.push(
    "**Planning outline with usage notes** (who uses each element, which elements hold the task's words) on the 10 " +
      'largest corpus files, tokens at the default budget of 4,000, and the time of the notes:',
  );
  lines.push('');
  lines.push('| file | lines | outline tokens | with notes | notes ms |');
  lines.push('|---|---:|---:|---:|---:|');
  for (const o of results.outlines) {
    lines.push(`| ${o.file} | ${o.lines} | ${o.plainTokens} | ${o.notedTokens} | ${o.notesMs.toFixed(0)} |`);
  }
  lines.push(CONTEXT_COST_SECTION.end);
  return lines.join('\n');
}
