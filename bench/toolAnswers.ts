import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode as toonEncode } from '@toon-format/toon';
import { createTokenCounter } from '../src/core/context/tokens';
import type { ElementNode } from '../src/core/elements/element';
import { walkElements } from '../src/core/elements/resolve';
import { nullLogger } from '../src/core/logger';
import { answerBudget, createToolEnv, diskWorkspace, runTool, toolByName, type ToolEnv } from '../src/core/tools';
import { diagnosticTable } from '../src/core/tools/definitions/diagnostics';
import { pathTable } from '../src/core/tools/definitions/findPath';
import { symbolTable } from '../src/core/tools/definitions/findSymbols';
import { outlineTable, rowsOf } from '../src/core/tools/definitions/outline';
import { calleeTable, callersOf, callerTable, useSiteTable } from '../src/core/tools/definitions/references';
import { parseElementPath } from '../src/core/elements/elementPath';
import { shortestPaths } from '../src/core/tools/graph/shortestPaths';
import { compactTable, jsonTable, type TableSpec } from '../src/core/tools/table';
import { loadCorpus } from '../test/support/corpus';
import { runBenchSection, TOOL_ANSWERS_SECTION } from './benchSection';

/**
 * `npm run bench:tools`: what the agent tools' answers cost on the real-code corpus (tokens per answer per tool),
 * the compact table layout against the same rows as compact JSON and as TOON, and find_path's time on the largest
 * corpus package. Writes its section of bench/results.md between the `tool answers` markers (the main bench keeps it).
 * Nothing is written to the corpus: every package is measured in a scratch copy and apply runs as a dry run.
 */

const SAMPLES = 15;

interface Distribution {
  readonly count: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
}

function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { count: sorted.length, median: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
}

const counter = createTokenCounter();
const answers = new Map<string, number[]>();
const layouts = new Map<string, { compact: number; json: number; toon: number; pages: number }>();

async function measureCall(
  env: ToolEnv,
  tool: string,
  key: string,
  input: object,
): Promise<{ text: string; ms: number }> {
  const spec = toolByName(tool);
  if (spec === undefined) throw new Error(`no tool ${tool}`);
  const started = performance.now();
  const run = await runTool(spec, input, env, { budget: answerBudget(), surface: 'bench' });
  const ms = performance.now() - started;
  if (run.tokens > 10_000) throw new Error(`${tool} answered ${run.tokens} tokens, over the budget`);
  answers.set(key, [...(answers.get(key) ?? []), run.tokens]);
  return { text: run.text, ms };
}

/** One page (the first 100 rows) of a tabular answer in the three layouts. */
function layout<R>(key: string, spec: TableSpec<R>, rows: readonly R[]): void {
  const page = rows.slice(0, 100);
  if (page.length === 0) return;
  const entry = layouts.get(key) ?? { compact: 0, json: 0, toon: 0, pages: 0 };
  entry.compact += counter.count(compactTable(spec, page));
  entry.json += counter.count(jsonTable(spec, page));
  entry.toon += counter.count(toonEncode(page.map((r) => spec.json(r)) as unknown as Parameters<typeof toonEncode>[0]));
  entry.pages++;
  layouts.set(key, entry);
}

/** Every `step`-th element of a kind, for a spread sample in a fixed order. */
function sample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)] as T);
}

interface PackageRun {
  readonly name: string;
  readonly files: number;
  readonly lines: number;
  readonly coldReferencesMs: number;
  readonly findPathMs: number[];
  readonly findPathFound: number;
}

async function measurePackage(
  name: string,
  sourceDir: string,
  tsconfig: string | undefined,
  scratch: string,
): Promise<PackageRun> {
  const root = join(scratch, name.replace(/[@/]/g, '_'));
  cpSync(sourceDir, join(root, 'src'), { recursive: true });
  if (tsconfig !== undefined && existsSync(tsconfig)) cpSync(tsconfig, join(root, 'tsconfig.json'));
  const workspace = diskWorkspace(root);
  const refuse = (): never => {
    throw new Error('the bench never writes');
  };
  const env = createToolEnv(
    workspace,
    {
      snapshot: () => ({ read: (p) => workspace.read(p) }),
      verify: async () => refuse(),
      write: async () => refuse(),
    },
    counter,
    nullLogger,
  );
  const files = workspace.listSourceFiles();
  const elements: Array<{ file: string; element: ElementNode }> = [];
  let lines = 0;
  for (const file of files) {
    const outline = env.outlines.get(file);
    if (outline === undefined) continue;
    lines += outline.lineCount;
    await measureCall(env, 'outline', 'outline (file)', { paths: [file] });
    layout(
      'outline',
      outlineTable(true),
      (() => {
        const rows: Parameters<typeof rowsOf>[5] = [];
        rowsOf(file, outline.elements, 0, Number.MAX_SAFE_INTEGER, false, rows);
        return rows;
      })(),
    );
    for (const element of walkElements(outline.elements)) elements.push({ file, element });
  }
  await measureCall(env, 'outline', 'outline (folder)', { paths: ['src'] });
  const callables = elements.filter(({ element }) => element.kind === 'function' || element.kind === 'method');
  const names = sample(callables, SAMPLES).map(({ element }) => element.name);
  for (const query of names) {
    await measureCall(env, 'find_symbols', 'find_symbols', { name: query });
    layout(
      'find_symbols',
      symbolTable,
      elements.filter(({ element }) => element.name.toLowerCase().includes(query.toLowerCase())),
    );
  }
  for (const { element } of sample(callables, SAMPLES))
    await measureCall(env, 'context', 'context', { focus: [element.path] });

  const graph = env.graph();
  const started = performance.now();
  await graph.references(sample(callables, 1)[0]?.element.path ?? '');
  const coldReferencesMs = performance.now() - started;
  for (const { element } of sample(callables, SAMPLES)) {
    await measureCall(env, 'references', 'references', { path: element.path });
    await measureCall(env, 'references', 'references (callers)', { path: element.path, relation: 'callers' });
    await measureCall(env, 'references', 'references (callees)', { path: element.path, relation: 'callees' });
    const { sites } = await graph.references(element.path);
    layout('references', useSiteTable, sites);
    layout('callers', callerTable, callersOf(sites));
    layout(
      'callees',
      calleeTable,
      (await graph.uses(element.path))
        .filter((e) => e.kind === 'call')
        .map((edge) => ({ file: parseElementPath(edge.target).file, edge })),
    );
  }
  // find_path from a sampled function to an element two or three calls away, so each query has an answer to find.
  const findPathMs: number[] = [];
  let found = 0;
  for (const { element } of sample(callables, SAMPLES)) {
    let target: string | undefined;
    let frontier = [element.path];
    for (let hop = 0; hop < 3; hop++) {
      const next: string[] = [];
      for (const p of frontier) for (const e of await graph.uses(p)) if (e.kind === 'call') next.push(e.target);
      if (next.length === 0) break;
      target = next.at(-1);
      frontier = next.slice(-3);
    }
    if (target === undefined) continue;
    const { text, ms } = await measureCall(env, 'find_path', 'find_path', { from: element.path, to: target });
    findPathMs.push(ms);
    if (/^paths from .*: [1-9]/m.test(text)) found++;
    const search = await shortestPaths(element.path, target, (p) => graph.uses(p), {
      maxDepth: 4,
      maxPaths: 10,
      maxNodes: 2_000,
      callsOnly: false,
    });
    layout('find_path', pathTable, search.paths);
  }
  for (const file of sample(files, SAMPLES)) {
    await measureCall(env, 'diagnostics', 'diagnostics', { paths: [file] });
    layout('diagnostics', diagnosticTable, await graph.diagnostics([file]));
  }
  for (const { element, file } of sample(callables, SAMPLES)) {
    const outline = env.outlines.get(file);
    if (outline === undefined) continue;
    const code = outline.text.slice(element.declarationRange.start, element.range.end);
    await measureCall(env, 'apply', 'apply (dry run)', {
      operations: `REPLACE_ELEMENT ${element.path}\n\`\`\`ts\n// checked by the bench\n${code}\n\`\`\`\n`,
      dryRun: true,
    });
  }
  return { name, files: files.length, lines, coldReferencesMs, findPathMs, findPathFound: found };
}

/** `54.1% fewer`, or `17.8% more` when the layout costs more than JSON. */
function change(tokens: number, json: number): string {
  const saved = 100 * (1 - tokens / json);
  return saved >= 0 ? `${saved.toFixed(1)}% fewer` : `${(-saved).toFixed(1)}% more`;
}

function render(runs: readonly PackageRun[]): string {
  const largest = [...runs].sort((a, b) => b.lines - a.lines)[0];
  const out: string[] = [
    TOOL_ANSWERS_SECTION.start,
    '## Agent tools: answer tokens and compact layout',
    '',
    `Measured by \`npm run bench:tools\` (bench/toolAnswers.ts) on ${runs.map((r) => `${r.name} (${r.files} files, ${r.lines.toLocaleString('en-US')} lines)`).join(', ')}: ` +
      `every file outlined, ${SAMPLES} sampled functions and methods per package for the other tools, counted with gpt-tokenizer (o200k_base). ` +
      'Every answer stays within the default budget of 10,000 tokens (the bench fails otherwise).',
    '',
    '| tool | answers | median tokens | p95 | max |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const [key, values] of [...answers.entries()]) {
    const d = distribution(values);
    out.push(`| ${key} | ${d.count} | ${d.median} | ${d.p95} | ${d.max} |`);
  }
  out.push(
    '',
    'Tabular answers, first page (up to 100 rows) of each answer above, the same rows in three layouts: the compact',
    'header-once layout the tools answer with, compact JSON (no indentation, one object per row), and TOON',
    '(`@toon-format/toon`, its tabular form for uniform arrays).',
    '',
    '| table | pages | compact | JSON | TOON | compact vs JSON | TOON vs JSON |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  let compact = 0;
  let json = 0;
  let toon = 0;
  for (const [key, entry] of layouts) {
    compact += entry.compact;
    json += entry.json;
    toon += entry.toon;
    const pct = (a: number): string => change(a, entry.json);
    out.push(
      `| ${key} | ${entry.pages} | ${entry.compact} | ${entry.json} | ${entry.toon} | ${pct(entry.compact)} | ${pct(entry.toon)} |`,
    );
  }
  out.push(`| **all** | | ${compact} | ${json} | ${toon} | **${change(compact, json)}** | ${change(toon, json)} |`, '');
  out.push(
    'TOON only writes the keys of a uniform array once; the compact layout also drops what a row can take from the',
    'rows around it (the file, as a group heading; the file part of element paths; a kind the path segment already',
    'names; a container, by indentation), which is where most of its saving comes from. On nested rows (find_path',
    "steps) TOON's indentation costs more than JSON. So the tools answer in the hand layout; TOON is only measured here.",
    '',
  );
  if (largest !== undefined) {
    const d = distribution(largest.findPathMs.map((ms) => Math.round(ms)));
    out.push(
      `find_path on the largest package, ${largest.name} (${largest.files} files): ${d.count} queries, ${largest.findPathFound} with a path; ` +
        `median ${d.median} ms, p95 ${d.p95} ms, max ${d.max} ms with the program warm. Building the program (the first graph query) took ` +
        `${Math.round(largest.coldReferencesMs).toLocaleString('en-US')} ms.`,
      '',
    );
  }
  out.push(TOOL_ANSWERS_SECTION.end);
  return out.join('\n');
}

async function measureToolAnswers(log: (message: string) => void): Promise<string> {
  const corpus = loadCorpus();
  const scratch = mkdtempSync(join(tmpdir(), 'scalpel-bench-tools-'));
  try {
    const runs: PackageRun[] = [];
    for (const pkg of corpus.packages) {
      const started = performance.now();
      runs.push(
        await measurePackage(
          pkg.name,
          join(pkg.after.packageDir, pkg.sourceRoot),
          join(pkg.after.packageDir, 'tsconfig.json'),
          scratch,
        ),
      );
      log(`${pkg.name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return render(runs);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

runBenchSection({
  label: 'bench:tools',
  markers: TOOL_ANSWERS_SECTION,
  measure: async ({ log }) => ({ markdown: await measureToolAnswers(log) }),
});
