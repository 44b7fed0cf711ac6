import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildContext, type ContextResult } from '../src/core/context/buildContext';
import { focusOfOperations } from '../src/core/context/operationFocus';
import { createTokenCounter } from '../src/core/context/tokens';
import type { ElementNode, FileOutline } from '../src/core/elements/element';
import { outlineSource } from '../src/core/elements/outline';
import { resolveElementPath } from '../src/core/elements/resolve';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { contextReferences } from '../src/core/graph/contextReferences';
import { ReferenceFinder } from '../src/core/graph/references';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import { diffElementsInDetail } from '../src/core/ops/diff';
import { serializeOperations } from '../src/core/ops/format';
import type { Operation } from '../src/core/ops/operation';
import { loadCorpus, type ChangedFilePair, type Corpus } from '../test/support/corpus';
import type { SectionMarkers } from './benchSection';
import type { ContextJob, ReplayInput, ReplayJob, ReplayJobResult, ReplayOutput } from './replay/protocol';
import { changedRanges } from './searchReplaceBlocks';
import { summarize, type Summary, spread } from './stats';

/**
 * Issue 28's bench. Two measures, both on the release corpus and the commit-sized corpus (docs/corpus.md):
 *
 * 1. **Operation targets.** For every changed file of more than 150 lines, the focused context of what the element
 *    diff's operations need (src/core/context/operationFocus.ts: a replaced, patched or deleted element in full, a
 *    container a member is created in at the cost of that change, a container whose own text is patched with its
 *    members by signature), no token budget, with the references of the targets whose signature or export the edit
 *    changes (the oracle of "likely to change"), against the whole file; the import share and the references share
 *    apart. "Before": the same targets as the branch point showed them (containers in full, every import, references
 *    of every focused function), measured by that commit's own code.
 * 2. **Replay.** 20 edits (10 per corpus, files over 150 lines, spread over the corpus in path order, whose operations
 *    every measured version reproduces without a model) replayed end to end through the scripted model over HTTP,
 *    with no focus given: the model's planning answer NEEDs the operation targets (a position for a member to add,
 *    USES where the signature changes, in versions that read them), its coding answer is the diff's operations, and
 *    a repair round gets the same operations again. Input tokens of every request, per edit, for: this tree; the
 *    branch point before issue 28 (`BEFORE_THIS_CHANGE`); the last commit before references and planning notes
 *    (`BEFORE_REFERENCES`); and the same edits with the file sent whole. Each older version is extracted with
 *    `git archive` into .cache/bench-replay/ and runs its own code (bench/replay/driver.ts bundled against it).
 */

/** main before issue 28's context work: the branch point of this work. */
export const BEFORE_THIS_CHANGE = 'a9b3007';
/** The last commit before references in the context and planning usage notes (merge e98f33f's first parent). */
export const BEFORE_REFERENCES = 'efa7af8';

const TARGET_LINES = 150;
const REPLAYS_PER_CORPUS = 10;
/** Candidates tried per corpus before the ones every version reproduces are kept. */
const CANDIDATES_PER_CORPUS = 30;

export interface TargetRow {
  readonly corpus: string;
  readonly file: string;
  readonly lines: number;
  readonly whole: number;
  readonly focused: number;
  readonly imports: number;
  readonly references: number;
  /** Tokens of the elements the operations need in full, their own text alone: the floor of any element context. */
  readonly floor: number;
  /** The branch point's context of the same targets; NaN when not measured. */
  readonly before: number;
  readonly mode: 'whole' | 'focused';
}

export interface ReplayRow {
  readonly corpus: string;
  readonly file: string;
  readonly lines: number;
  readonly instruction: string;
  /** Per version: input tokens per request, and whether the edit applied and gave the new text. */
  readonly runs: Readonly<
    Record<
      string,
      {
        readonly inputs: readonly number[];
        readonly phases: readonly string[];
        readonly matches: boolean;
        readonly failure?: string;
      }
    >
  >;
}

export interface ContextReplayResults {
  readonly targets: readonly TargetRow[];
  readonly replays: readonly ReplayRow[];
  readonly versions: Readonly<Record<string, string>>;
  readonly durationSeconds: number;
}

export interface Candidate {
  readonly corpus: string;
  readonly pair: ChangedFilePair;
  readonly root: string;
  readonly outline: FileOutline;
  readonly operations: readonly Operation[];
  readonly serialized: string;
}

export async function measureContextReplay(options: {
  readonly log?: (message: string) => void;
  readonly root: string;
}): Promise<ContextReplayResults> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const counter = createTokenCounter();
  const corpora: Array<{ name: string; corpus: Corpus }> = [{ name: 'release', corpus: loadCorpus() }];
  const commitDir = join(options.root, '.cache', 'commit-corpus');
  if (existsSync(join(commitDir, 'corpus.json')))
    corpora.push({ name: 'commit-sized', corpus: loadCorpus({ corpusDir: commitDir }) });
  else log('the commit-sized corpus is not installed (node scripts/corpus.mjs --commits): release corpus only');

  log('element diffs of the changed files over 150 lines');
  const candidates: Candidate[] = [];
  for (const { name, corpus } of corpora) {
    for (const pair of corpus.changedFilePairs()) {
      const outline = outlineSource(pair.relPath, pair.beforeText);
      if (outline.lineCount <= TARGET_LINES || outline.syntaxErrors.length > 0) continue;
      // The older release's package folder: the workspace the references are found in.
      const root = corpus.packages.find((p) => pair.beforePath.startsWith(`${p.before.packageDir}/`))?.before
        .packageDir;
      if (root === undefined) continue;
      // The edits are replayed by older builds too, which know no RENAME_ELEMENT: renames stay element operations.
      const diff = diffElementsInDetail(pair.relPath, pair.beforeText, pair.afterText, { counter, renames: false });
      candidates.push({
        corpus: name,
        pair,
        root,
        outline,
        operations: diff.operations,
        serialized: serializeOperations(diff.operations),
      });
    }
  }

  const versions: Record<string, string> = {
    now: 'this tree',
    [BEFORE_THIS_CHANGE]: 'before issue 28',
    [BEFORE_REFERENCES]: 'before references and planning notes',
  };
  const drivers = {
    now: join(options.root, 'out', 'bench', 'replay', 'driver.js'),
    [BEFORE_THIS_CHANGE]: buildOlderDriver(options.root, BEFORE_THIS_CHANGE, log),
    [BEFORE_REFERENCES]: buildOlderDriver(options.root, BEFORE_REFERENCES, log),
  };

  log(`operation targets of ${candidates.length} files`);
  const graphs = new Map<string, CodeGraph>();
  const finderOf = (root: string): ReferenceFinder => {
    let graph = graphs.get(root);
    if (graph === undefined) {
      graph = new CodeGraph(nodeSourceFileSystem(root));
      graphs.set(root, graph);
    }
    return new ReferenceFinder(graph);
  };
  const targets: Array<Omit<TargetRow, 'before'> & { job?: ContextJob }> = [];
  try {
    for (const [index, c] of candidates.entries()) {
      if (c.operations.some((o) => o.type === 'REPLACE_FILE')) continue;
      const focus = focusOfOperations(c.outline, c.operations);
      const changing = signatureChanges(c.outline, c.pair.afterText, c.operations);
      let appendix: string | undefined;
      if (changing.length > 0) {
        try {
          appendix = contextReferences(
            finderOf(c.root),
            [{ outline: c.outline, focus: changing }],
            counter,
          ).appendices.get(c.outline.file);
        } catch (error) {
          log(`  references of ${c.pair.relPath}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      const context: ContextResult = buildContext(
        [
          {
            outline: c.outline,
            focus: focus.focus,
            containers: focus.containers,
            whole: focus.whole,
            ...(appendix === undefined ? {} : { appendix }),
          },
        ],
        counter,
      );
      const file = context.files[0];
      const id = `t${index}`;
      const inFull = [...focus.focus, ...focus.containers.flatMap((k) => k.near ?? [])];
      const floor = focus.whole
        ? counter.count(c.outline.text)
        : inFull.reduce((sum, path) => {
            const resolved = resolveElementPath(c.outline, path);
            return resolved.ok
              ? sum + counter.count(c.outline.text.slice(resolved.element.range.start, resolved.element.range.end))
              : sum;
          }, 0);
      targets.push({
        corpus: c.corpus,
        file: `${c.pair.pkg}/${c.pair.relPath}`,
        lines: c.outline.lineCount,
        whole: counter.count(c.outline.text),
        focused: context.tokens,
        imports: file?.importTokens ?? 0,
        references: file?.appendixTokens ?? 0,
        floor,
        mode: file?.mode ?? 'focused',
        ...(focus.whole
          ? {}
          : {
              job: {
                id,
                root: c.root,
                file: c.pair.relPath,
                text: c.pair.beforeText,
                focus: [...focus.focus, ...focus.containers.map((k) => k.path)],
              },
            }),
      });
    }
  } finally {
    for (const graph of graphs.values()) graph.dispose();
  }

  log(`the same targets as ${BEFORE_THIS_CHANGE} showed them`);
  const beforeContexts = runDriver(
    drivers[BEFORE_THIS_CHANGE],
    { contexts: targets.flatMap((t) => (t.job === undefined ? [] : [t.job])) },
    options.root,
  );
  const beforeTokens = new Map(beforeContexts.contexts.map((c) => [c.id, c.tokens]));
  const targetRows: TargetRow[] = targets.map(({ job, ...row }) => ({
    ...row,
    before: job === undefined ? row.whole : (beforeTokens.get(job.id) ?? Number.NaN),
  }));

  log('choosing the edits to replay');
  const jobs: Array<ReplayJob & { corpus: string; lines: number }> = [];
  for (const { name } of corpora) {
    const pool = spread(
      candidates.filter((c) => c.corpus === name && !c.operations.some((o) => o.type === 'REPLACE_FILE')),
      CANDIDATES_PER_CORPUS,
    ).map((c, i) => ({ ...replayJobOf(c, `${name}-${i}`), corpus: name, lines: c.outline.lineCount }));
    const checks = pool.map(({ id, file, before, after, operations }) => ({ id, file, before, after, operations }));
    const passing = new Set(pool.map((j) => j.id));
    for (const driver of Object.values(drivers)) {
      const output = runDriver(driver, { checks }, options.root);
      for (const id of [...passing]) if (output.checks[id] !== true) passing.delete(id);
    }
    jobs.push(...pool.filter((j) => passing.has(j.id)).slice(0, REPLAYS_PER_CORPUS));
  }

  const runs = new Map<string, Map<string, ReplayJobResult>>();
  for (const [version, driver] of Object.entries(drivers)) {
    log(`replaying ${jobs.length} edits with ${version}`);
    const output = runDriver(
      driver,
      { replays: jobs, ...(version === 'now' ? { wholeReplays: jobs } : {}) },
      options.root,
    );
    for (const result of output.replays) {
      const key = result.whole ? 'whole' : version;
      const byId = runs.get(result.id) ?? new Map<string, ReplayJobResult>();
      byId.set(key, result);
      runs.set(result.id, byId);
    }
  }
  versions['whole'] = 'the file sent whole, no planning';
  const replays: ReplayRow[] = jobs.map((job) => ({
    corpus: job.corpus,
    file: job.file,
    lines: job.lines,
    instruction: job.instruction,
    runs: Object.fromEntries(
      [...(runs.get(job.id) ?? new Map<string, ReplayJobResult>())].map(([key, r]) => [
        key,
        {
          inputs: r.inputs,
          phases: r.phases,
          matches: r.matches,
          ...(r.failure === undefined ? {} : { failure: r.failure }),
        },
      ]),
    ),
  }));
  return { targets: targetRows, replays, versions, durationSeconds: (performance.now() - started) / 1000 };
}

/** At most `count` items, spread evenly over the list. */

/**
 * The targets whose signature (or export) the edit changes: elements replaced or patched whose declaration head
 * differs after the edit, and elements deleted. What a model that knows its edit says with USES.
 */
function signatureChanges(outline: FileOutline, afterText: string, operations: readonly Operation[]): string[] {
  const after = outlineSource(outline.file, afterText);
  const changed = new Set<string>();
  for (const operation of operations) {
    if (
      operation.type !== 'REPLACE_ELEMENT' &&
      operation.type !== 'PATCH_ELEMENT' &&
      operation.type !== 'DELETE_ELEMENT'
    )
      continue;
    const resolved = resolveElementPath(outline, operation.path);
    if (!resolved.ok || resolved.element.children.length > 0) continue;
    const now = resolveElementPath(after, resolved.element.path);
    if (operation.type === 'DELETE_ELEMENT' || !now.ok || now.element.signature !== resolved.element.signature)
      changed.add(resolved.element.path);
  }
  return [...changed];
}

/** The replay of one edit: its task in words, the NEED lines of its targets, its operations. */
export function replayJobOf(c: Candidate, id: string): ReplayJob {
  const changing = new Set(signatureChanges(c.outline, c.pair.afterText, c.operations));
  const needs: string[] = [];
  const plainNeeds: string[] = [];
  const add = (need: string, plain: string): void => {
    if (!needs.includes(need)) needs.push(need);
    if (!plainNeeds.includes(plain)) plainNeeds.push(plain);
  };
  const resolve = (path: string): ElementNode | undefined => {
    const resolved = resolveElementPath(c.outline, path);
    return resolved.ok ? resolved.element : undefined;
  };
  for (const operation of c.operations) {
    switch (operation.type) {
      case 'ADD_IMPORT':
      case 'REMOVE_IMPORT':
      case 'RENAME_ELEMENT':
        break;
      case 'REPLACE_FILE':
      case 'CREATE_FILE':
        add(c.outline.file, c.outline.file);
        break;
      case 'CREATE_ELEMENT': {
        const { position } = operation;
        const container = operation.path === c.outline.file ? undefined : resolve(operation.path);
        const siblings = container?.children ?? c.outline.elements.filter((e) => e.kind !== 'import');
        const sibling =
          position.kind === 'BEFORE' || position.kind === 'AFTER'
            ? siblings.find((s) => s.path === position.sibling || s.path.endsWith(`/${position.sibling}`))
            : position.kind === 'FIRST_CHILD'
              ? siblings[0]
              : siblings[siblings.length - 1];
        const where =
          position.kind === 'BEFORE' || position.kind === 'AFTER'
            ? `${position.kind} ${position.sibling}`
            : position.kind;
        if (container !== undefined) add(`${container.path} ${where}`, sibling?.path ?? container.path);
        else if (sibling !== undefined) add(sibling.path, sibling.path);
        break;
      }
      case 'PATCH_ELEMENT':
      case 'REPLACE_ELEMENT':
      case 'DELETE_ELEMENT': {
        if (operation.path === c.outline.file) {
          add(c.outline.file, c.outline.file);
          break;
        }
        const element = resolve(operation.path);
        if (element === undefined) break;
        add(changing.has(element.path) ? `${element.path} USES` : element.path, element.path);
        break;
      }
    }
  }
  return {
    id,
    root: c.root,
    file: c.pair.relPath,
    before: c.pair.beforeText,
    after: c.pair.afterText,
    instruction: instructionOf(c),
    operations: c.serialized,
    needs,
    plainNeeds,
  };
}

const KEYWORDS = new Set(
  'const let var function return export import from class extends implements interface type new this true false null undefined void async await for while if else switch case default break continue throw try catch finally typeof instanceof keyof readonly public private protected static string number boolean unknown never any'.split(
    ' ',
  ),
);

/**
 * The task as a user would word it from the change: the elements it touches, the names it brings in and the names it
 * drops (what a description of the commit names). Its words point windows inside long elements, as a user's would.
 */
function instructionOf(c: Candidate): string {
  const words = (text: string): string[] => (text.match(/[A-Za-z_$][\w$]{2,}/g) ?? []).filter((w) => !KEYWORDS.has(w));
  const removed: string[] = [];
  for (const range of changedRanges(c.pair.beforeText, c.pair.afterText))
    removed.push(...words(c.pair.beforeText.slice(range.start, range.end)));
  const beforeWords = new Set(words(c.pair.beforeText));
  const afterWords = new Set(words(c.pair.afterText));
  const added = [...afterWords].filter((w) => !beforeWords.has(w)).slice(0, 4);
  const dropped = [...new Set(removed)].filter((w) => !afterWords.has(w)).slice(0, 4);
  const touched = [
    ...new Set(
      c.operations.flatMap((o) => {
        const segment = o.path.split('/').pop() ?? '';
        const name = /\[([^\]]+)\]/.exec(segment)?.[1];
        return name === undefined || o.type === 'ADD_IMPORT' || o.type === 'REMOVE_IMPORT' ? [] : [name];
      }),
    ),
  ].slice(0, 3);
  const base = c.pair.relPath.split('/').pop() ?? c.pair.relPath;
  const parts = [`Update ${touched.length > 0 ? touched.join(', ') : 'the code'} in ${base}`];
  if (added.length > 0) parts.push(`use ${added.join(', ')}`);
  if (dropped.length > 0) parts.push(`${added.length > 0 ? 'instead of' : 'drop'} ${dropped.join(', ')}`);
  return `${parts.join(': ')}.`;
}

/**
 * An older commit's tree under .cache/bench-replay/<commit>/ (its src and test/support, from `git archive`), with
 * the replay driver and an adapter for what that commit has, bundled against its own sources.
 */
function buildOlderDriver(root: string, commit: string, log: (message: string) => void): string {
  const dir = join(root, '.cache', 'bench-replay', commit);
  const bundle = join(dir, 'out', 'driver.js');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`extracting ${commit} (git archive) and bundling the replay driver against it`);
  const archive = spawnSync('git', ['archive', '--format=tar', commit, 'src', 'test/support'], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  mkdirSync(join(dir, 'bench', 'replay'), { recursive: true });
  for (const file of ['driver.ts', 'protocol.ts'])
    copyFileSync(join(root, 'bench', 'replay', file), join(dir, 'bench', 'replay', file));
  // The same scripted server for every version: what is measured is what each version sends it.
  copyFileSync(join(root, 'test', 'support', 'llmServer.ts'), join(dir, 'test', 'support', 'llmServer.ts'));
  writeFileSync(join(dir, 'bench', 'replay', 'adapter.ts'), olderAdapter(dir, commit));
  try {
    buildSync({
      entryPoints: [join(dir, 'bench', 'replay', 'driver.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      outfile: bundle,
      logLevel: 'error',
      alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
      absWorkingDir: root,
    });
  } catch (error) {
    throw new Error(
      `bundling the replay driver for ${commit}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return bundle;
}

/** The adapter an older tree gets: references and the cost rule only where the commit has them. */
function olderAdapter(dir: string, commit: string): string {
  const has = (path: string): boolean => existsSync(join(dir, path));
  const references = has('src/core/graph/contextReferences.ts');
  const costRule = has('src/core/edit/costRule.ts');
  return `// Written by bench/contextReplay.ts for ${commit}.
import { buildContext } from '../../src/core/context/buildContext';
import type { TokenCounter } from '../../src/core/context/tokens';
import { outlineSource } from '../../src/core/elements/outline';
${costRule ? "import { wholeOrPlanned } from '../../src/core/edit/costRule';" : ''}
${
  references
    ? `import { CodeGraph } from '../../src/core/graph/codeGraph';
import { contextReferences } from '../../src/core/graph/contextReferences';
import { ReferenceFinder } from '../../src/core/graph/references';
import { nodeSourceFileSystem } from '../../src/core/graph/sourceFiles';
import { buildContextWithReferences } from '../../src/core/llm/pipeline';`
    : ''
}
import type { ContextJob, ReplayJob } from './protocol';

${references ? 'const graphs = new Map<string, CodeGraph>();' : ''}
const references = ${
    references
      ? `(root: string, counter: TokenCounter) => {
  let graph = graphs.get(root);
  if (graph === undefined) {
    graph = new CodeGraph(nodeSourceFileSystem(root));
    graphs.set(root, graph);
  }
  const finder = new ReferenceFinder(graph);
  return (requests: any, budget: number | undefined) =>
    contextReferences(finder, requests, counter, budget === undefined ? {} : { contextBudget: budget }).appendices;
}`
      : '(_root: string, _counter: TokenCounter) => undefined'
  };

export const adapter = {
  name: '${commit}',
  needModifiers: false,
  sentWholeUnplanned(job: ReplayJob, counter: TokenCounter, budget: number, smallFileLines: number): boolean {
    const outline = outlineSource(job.file, job.before);
    if (outline.lineCount <= smallFileLines) return true;
    ${
      costRule
        ? 'return wholeOrPlanned({ path: job.file, outline, outlinable: true }, job.instruction, counter, budget).whole;'
        : 'void counter; void budget; return false;'
    }
  },
  references,
  contextTokens(job: ContextJob, counter: TokenCounter): number {
    const outline = outlineSource(job.file, job.text);
    ${
      references
        ? 'return buildContextWithReferences({ counter, references: references(job.root, counter) } as any, [{ outline, focus: job.focus }], {}).tokens;'
        : 'return buildContext([{ outline, focus: job.focus }], counter).tokens;'
    }
  },
  dispose(): void {
    ${references ? 'for (const graph of graphs.values()) graph.dispose();' : ''}
  },
};
void buildContext;
`;
}

function runDriver(driver: string, input: ReplayInput, root: string): ReplayOutput {
  const dir = join(root, '.cache', 'bench-replay');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `input-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(input));
  try {
    const result = spawnSync(process.execPath, [driver, file], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`${driver}: exit ${String(result.status)}\n${result.stderr}`);
    return JSON.parse(result.stdout) as ReplayOutput;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Issue 28's section of bench/results.md. */
export const CONTEXT_REPLAY_SECTION: SectionMarkers = {
  start: '<!-- issue-28 context: start -->',
  end: '<!-- issue-28 context: end -->',
};

const ratio = (n: number): string => (Number.isNaN(n) ? 'n/a' : n.toFixed(2));
const pct = (n: number): string => (Number.isNaN(n) ? 'n/a' : `${(100 * n).toFixed(0)}%`);
const int = (n: number): string => (Number.isNaN(n) ? 'n/a' : Math.round(n).toLocaleString('en-US'));
const range = (s: Summary, f: (n: number) => string): string => `${f(s.median)} (p90 ${f(s.p90)})`;

export function targetSummary(rows: readonly TargetRow[]): {
  readonly files: number;
  readonly focused: Summary;
  readonly floor: Summary;
  readonly before: Summary;
  readonly imports: Summary;
  readonly references: Summary;
  readonly overCeiling: number;
  readonly sentWhole: number;
} {
  return {
    files: rows.length,
    focused: summarize(rows.map((r) => r.focused / r.whole)),
    floor: summarize(rows.map((r) => r.floor / r.whole)),
    before: summarize(rows.filter((r) => !Number.isNaN(r.before)).map((r) => r.before / r.whole)),
    imports: summarize(rows.filter((r) => r.mode === 'focused').map((r) => r.imports / Math.max(1, r.focused))),
    references: summarize(rows.map((r) => r.references / Math.max(1, r.focused))),
    // The file sent whole is framed by its path and a fence (about 15 tokens): that is not counted against the view.
    overCeiling: rows.filter((r) => r.focused > r.whole * 1.1 + 16).length,
    sentWhole: rows.filter((r) => r.mode === 'whole').length,
  };
}

export function renderContextReplay(results: ContextReplayResults): string {
  const lines: string[] = [CONTEXT_REPLAY_SECTION.start, '## Context at the cost of the change (issue 28)', ''];
  const corpora = [...new Set(results.targets.map((t) => t.corpus))];
  lines.push(
    `Measured by \`npm run bench:context\` (also part of \`npm run bench\`) in ${results.durationSeconds.toFixed(0)} s. ` +
      '**Operation targets**: every changed file of more than 150 lines, the focused context of what the element ' +
      "diff's operations need (a replaced, patched or deleted element in full; a container a member is created in " +
      'with the members at the position in full and the others by signature or name; a container whose own text is ' +
      'patched with its members by signature), no token budget, with the references of the targets whose signature ' +
      'or export the edit changes; per file against the whole file. Import share and references share are of the ' +
      `focused context. Before: the same targets as ${BEFORE_THIS_CHANGE} (main before this work) showed them, ` +
      'measured by its own code: containers in full, every import, the references of every focused function. Floor: ' +
      'the own text of the elements the operations need in full, alone (no view around it can cost less).',
  );
  lines.push('');
  lines.push(
    '| corpus | files | focused / whole, median (p90) | before, median (p90) | floor, median (p90) | imports / focused, median (p90) | references / focused, median (p90) | sent whole | above whole + 10% |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const corpus of corpora) {
    const s = targetSummary(results.targets.filter((t) => t.corpus === corpus));
    lines.push(
      `| ${corpus} | ${s.files} | ${range(s.focused, ratio)} | ${range(s.before, ratio)} | ${range(s.floor, ratio)} | ${range(s.imports, pct)} | ${range(s.references, pct)} | ${s.sentWhole} | ${s.overCeiling} |`,
    );
  }
  lines.push('');
  const versionKeys = ['now', BEFORE_THIS_CHANGE, BEFORE_REFERENCES, 'whole'];
  lines.push(
    `**Replay**: ${results.replays.length} corpus edits end to end through the scripted model over HTTP, no focus ` +
      'given: planning NEEDs the operation targets (a position for a member to add, USES where the signature ' +
      "changes, in the versions that read them), the coding answer is the diff's own operations, a repair round gets " +
      'them again. Input tokens of every request of the edit, counted as sent. Versions: ' +
      versionKeys.map((k) => `${k} = ${results.versions[k] ?? k}`).join('; ') +
      '. The task is worded from the change (the elements it touches, the names it brings in and drops). ✓ = the edit ' +
      'applied and gave the new text.',
  );
  lines.push('');
  lines.push(
    `| file | lines | ${versionKeys.map((k) => `${k}: input (requests)`).join(' | ')} | max request / whole |`,
  );
  lines.push(`|---|---:|${versionKeys.map(() => '---:').join('|')}|---:|`);
  const total = (key: string, row: ReplayRow): number => (row.runs[key]?.inputs ?? []).reduce((s, n) => s + n, 0);
  for (const row of results.replays) {
    const cells = versionKeys.map((key) => {
      const run = row.runs[key];
      if (run === undefined) return 'n/a';
      return `${int(total(key, row))} (${run.inputs.length})${run.matches ? ' ✓' : ' ✗'}`;
    });
    const whole = row.runs['whole']?.matches === true ? total('whole', row) : Number.NaN;
    const maxRequest = Math.max(0, ...(row.runs['now']?.inputs ?? []));
    lines.push(
      `| ${row.corpus === 'release' ? '' : '(c) '}${row.file} | ${row.lines} | ${cells.join(' | ')} | ${ratio(maxRequest / Math.max(1, whole))} |`,
    );
  }
  const medians = versionKeys.map(
    (key) =>
      summarize(results.replays.filter((row) => row.runs[key]?.matches === true).map((row) => total(key, row))).median,
  );
  lines.push(`| **median** (edits that applied) | | ${medians.map(int).join(' | ')} | |`);
  lines.push('');
  const ok = (key: string): number => results.replays.filter((r) => r.runs[key]?.matches === true).length;
  lines.push(
    `Applied and equal to the new text: ${versionKeys.map((k) => `${k} ${ok(k)}/${results.replays.length}`).join(', ')}. ` +
      '(c) = commit-sized corpus.',
  );
  lines.push(CONTEXT_REPLAY_SECTION.end);
  return lines.join('\n');
}
