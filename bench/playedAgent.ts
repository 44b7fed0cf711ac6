import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenCounter, type TokenCounter } from '../src/core/context/tokens';
import { loadCorpus } from '../test/support/corpus';
import type { SectionMarkers } from './benchSection';
import {
  type CallRecord,
  changedFiles,
  copyWorkspace,
  GrepPlayer,
  RANGE_RADIUS,
  removeWorkspace,
  type Repository,
  ScalpelPlayer,
  TypeCheckOracle,
} from './playedPlayers';
import {
  addParameterTask,
  callersTask,
  changeDeclarationTask,
  findAllTask,
  type PlayedTask,
  readAnswerTask,
  renameTask,
  unusedExportsTask,
} from './playedTasks';
import { median } from './stats';

/**
 * Issue 27's played-agent bench (`npm run bench:agent`, and a section of `npm run bench`): eight tasks on two corpus
 * packages, each done by a scripted agent with Scalpel's tools (bench/playedPlayers.ts, `runTool` as `scalpel mcp`
 * calls it) and by the same agent with grep, range reads and search/replace edits. Tokens read and written, calls and
 * correctness per task; beside them what reading every file the baseline touched whole would cost.
 */

export const PLAYED_AGENT_SECTION: SectionMarkers = {
  start: '<!-- played agent: start (npm run bench:agent) -->',
  end: '<!-- played agent: end -->',
};

const isTest = (relPath: string): boolean =>
  /(^|\/)(tests?|__tests__)\//.test(relPath) || /\.test\.tsx?$/.test(relPath);

/** The tasks per corpus package. Each is scripted as its goal reads, for both agents alike. */
export function corpusTasks(): ReadonlyArray<{ readonly pkg: string; readonly tasks: readonly PlayedTask[] }> {
  return [
    {
      pkg: 'rxjs',
      tasks: [
        callersTask({ id: 'rxjs-callers-arrRemove', name: 'arrRemove', excluded: isTest }),
        addParameterTask({
          id: 'rxjs-param-createErrorClass',
          goal: "createErrorClass takes the error's name as a second parameter `name: string` and sets it on the prototype; every caller passes its error's name.",
          name: 'createErrorClass',
          declaration: [
            {
              search: 'export function createErrorClass<T>(createImpl: (_super: any) => any): T {',
              replace: 'export function createErrorClass<T>(createImpl: (_super: any) => any, name: string): T {',
            },
            {
              search: '  ctorFunc.prototype.constructor = ctorFunc;',
              replace: '  ctorFunc.prototype.constructor = ctorFunc;\n  ctorFunc.prototype.name = name;',
            },
          ],
          argumentFor: (line) => `'${/const (\w+)/.exec(line)?.[1] ?? ''}'`,
          argumentCount: 2,
        }),
        renameTask({
          id: 'rxjs-rename-ArgumentOutOfRangeError',
          oldName: 'ArgumentOutOfRangeError',
          newName: 'IndexOutOfRangeError',
          kind: 'variable',
        }),
        unusedExportsTask({ id: 'rxjs-unused-exports-util', folder: 'src/internal/util' }),
      ],
    },
    {
      pkg: 'zod',
      tasks: [
        findAllTask({
          id: 'zod-find-bag-keys-set',
          goal: 'Every place a key of a schema\'s JSON Schema "bag" is set (`bag.x = ...`, `bag.x ??= ...`), tests left out.',
          pattern: 'bag\\.\\w+ (\\?\\?)?= ',
          excludeGlob: '**/tests/**',
          excluded: isTest,
        }),
        readAnswerTask({
          id: 'zod-read-url-normalize',
          goal: 'When `normalize` is off, what does the URL format check ($ZodURL) leave in payload.value?',
          symbol: '$ZodURL',
          kind: 'variable',
          answerPattern: /\} else \{\s*(?:\/\/[^\n]*\n\s*)*payload\.value = (\w+);/,
          expected: 'trimmed',
        }),
        changeDeclarationTask({
          id: 'zod-option-prettifyError',
          kind: 'add an option',
          goal: 'prettifyError takes an optional second parameter `options?: { bullet?: string }`, the bullet before each message (default ✖).',
          name: 'prettifyError',
          blocks: [
            {
              search: 'export function prettifyError(error: StandardSchemaV1.FailureResult): string {',
              replace:
                'export function prettifyError(error: StandardSchemaV1.FailureResult, options?: { bullet?: string }): string {\n  const bullet = options?.bullet ?? "✖";',
            },
            {
              search: '    lines.push(`✖ ${issue.message}`);',
              replace: '    lines.push(`${bullet} ${issue.message}`);',
            },
          ],
          verify: (declaration) => {
            const option = declaration.parameters[1];
            const problems: string[] = [];
            if (
              option === undefined ||
              option.questionToken === undefined ||
              !/bullet\?: string/.test(option.getText())
            )
              problems.push('no optional second parameter with a bullet option');
            if (!/options\?\.bullet/.test(declaration.body?.getText() ?? ''))
              problems.push('the body does not read options.bullet');
            return problems;
          },
        }),
        addParameterTask({
          id: 'zod-param-prefixIssues',
          goal: 'util.prefixIssues takes a third parameter `copy: boolean` (prefix copies of the issues instead of mutating them); every caller passes false, as today.',
          name: 'prefixIssues',
          declaration: [
            {
              search:
                'export function prefixIssues(path: PropertyKey, issues: errors.$ZodRawIssue[]): errors.$ZodRawIssue[] {\n  return issues.map((iss) => {',
              replace:
                'export function prefixIssues(\n  path: PropertyKey,\n  issues: errors.$ZodRawIssue[],\n  copy: boolean\n): errors.$ZodRawIssue[] {\n  return issues.map((original) => {\n    const iss = copy ? { ...original } : original;',
            },
          ],
          argumentFor: () => 'false',
          argumentCount: 3,
        }),
      ],
    },
  ];
}

export interface ArmResult {
  readonly calls: number;
  readonly read: number;
  readonly written: number;
  readonly correct: boolean;
  readonly problems: readonly string[];
  readonly perTool: Readonly<Record<string, { calls: number; read: number; written: number }>>;
  /** Of the context answers' tokens, those of the focused elements' own text. */
  readonly contextFocus: number;
  readonly seconds: number;
}

export interface TaskResult {
  readonly id: string;
  readonly pkg: string;
  readonly kind: string;
  readonly goal: string;
  readonly scalpel: ArmResult;
  readonly grep: ArmResult;
  /** The grep answers plus every file the baseline read or edited, read whole (the untouched text). */
  readonly wholeFile: { readonly read: number; readonly files: number; readonly largestLines: number };
}

function armResult(calls: readonly CallRecord[], problems: string[], seconds: number): ArmResult {
  const perTool: Record<string, { calls: number; read: number; written: number }> = {};
  for (const call of calls) {
    const entry = (perTool[call.tool] ??= { calls: 0, read: 0, written: 0 });
    entry.calls++;
    entry.read += call.read;
    entry.written += call.written;
  }
  return {
    calls: calls.length,
    read: calls.reduce((s, c) => s + c.read, 0),
    written: calls.reduce((s, c) => s + c.written, 0),
    correct: problems.length === 0,
    problems,
    perTool,
    contextFocus: calls.reduce((s, c) => s + (c.focusTokens ?? 0), 0),
    seconds: Math.round(seconds * 10) / 10,
  };
}

/** Runs one agent on a fresh copy and checks its answer and result. */
async function runArm(
  task: PlayedTask,
  repo: Repository,
  pristineRoot: string,
  oracle: TypeCheckOracle,
  play: (root: string) => { player: ScalpelPlayer | GrepPlayer; run: () => Promise<readonly string[]> },
): Promise<{ result: ArmResult; player: ScalpelPlayer | GrepPlayer }> {
  const root = copyWorkspace(repo);
  const started = performance.now();
  const { player, run } = play(root);
  const problems: string[] = [];
  try {
    let answer: readonly string[] = [];
    try {
      answer = await run();
    } catch (error) {
      problems.push(`the script stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    problems.push(...task.check(pristineRoot, root, answer));
    if (task.edits) {
      const changed = changedFiles(pristineRoot, root);
      if (changed.length === 0) problems.push('no file changed');
      problems.push(...oracle.newErrors(root, changed).map((e) => `new type error: ${e}`));
    }
    return { result: armResult(player.calls, problems, seconds), player };
  } finally {
    removeWorkspace(root);
  }
}

export async function runPlayedTask(
  task: PlayedTask,
  repo: Repository,
  pristineRoot: string,
  oracle: TypeCheckOracle,
  counter: TokenCounter,
): Promise<TaskResult> {
  const scalpel = await runArm(task, repo, pristineRoot, oracle, (root) => {
    const player = new ScalpelPlayer(root, counter);
    return { player, run: () => task.scalpel(player) };
  });
  const grep = await runArm(task, repo, pristineRoot, oracle, (root) => {
    const player = new GrepPlayer(root, counter);
    return { player, run: () => task.baseline(player) };
  });
  const baseline = grep.player as GrepPlayer;
  let wholeRead = baseline.grepTokens;
  let largestLines = 0;
  for (const file of baseline.touched) {
    const text = readFileSync(join(pristineRoot, file), 'utf8');
    wholeRead += counter.count(text);
    largestLines = Math.max(largestLines, text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
  }
  return {
    id: task.id,
    pkg: repo.name,
    kind: task.kind,
    goal: task.goal,
    scalpel: scalpel.result,
    grep: grep.result,
    wholeFile: { read: wholeRead, files: baseline.touched.size, largestLines },
  };
}

export interface PlayedAgentResults {
  readonly packages: ReadonlyArray<{ readonly name: string; readonly version: string }>;
  readonly tasks: readonly TaskResult[];
}

/** `only`: task ids to run (all when empty), for working on one task. */
export async function measurePlayedAgent(
  log: (message: string) => void,
  only: readonly string[] = [],
): Promise<PlayedAgentResults> {
  const corpus = loadCorpus();
  const counter = createTokenCounter();
  const tasks: TaskResult[] = [];
  const packages: Array<{ name: string; version: string }> = [];
  for (const { pkg: name, tasks: all } of corpusTasks()) {
    const planned = all.filter((t) => only.length === 0 || only.includes(t.id));
    if (planned.length === 0) continue;
    const pkg = corpus.packages.find((p) => p.name === name);
    if (pkg === undefined) throw new Error(`the corpus has no ${name}; run node scripts/corpus.mjs`);
    packages.push({ name, version: pkg.after.version });
    const repo: Repository = { name, packageDir: pkg.after.packageDir, excluded: isTest };
    const pristine = copyWorkspace(repo);
    try {
      const oracle = new TypeCheckOracle(pristine, isTest);
      for (const task of planned) {
        const result = await runPlayedTask(task, repo, pristine, oracle, counter);
        log(
          `${task.id}: Scalpel ${result.scalpel.read} read, ${result.scalpel.calls} calls${result.scalpel.correct ? '' : ' (WRONG)'}; ` +
            `grep ${result.grep.read} read, ${result.grep.calls} calls${result.grep.correct ? '' : ' (WRONG)'}; whole files ${result.wholeFile.read}`,
        );
        tasks.push(result);
      }
    } finally {
      removeWorkspace(pristine);
    }
  }
  return { packages, tasks };
}

const n = (value: number): string => value.toLocaleString('en-US');
const ratio = (a: number, b: number): string => (b === 0 ? '–' : `${(a / b).toFixed(2)}`);

export function renderPlayedAgent(results: PlayedAgentResults): string {
  const { tasks } = results;
  const out: string[] = [
    PLAYED_AGENT_SECTION.start,
    '## Played agent: Scalpel tools against grep and range reads (issue 27)',
    '',
    `Measured by \`npm run bench:agent\` (bench/playedAgent.ts) on ${results.packages.map((p) => `${p.name} ${p.version}`).join(' and ')} from the corpus, ` +
      "each task on a fresh copy of the package's sources, once per agent. The agents are scripted: their calls are fixed " +
      'per task and follow from the answers as an agent reading them would go on (bench/playedTasks.ts). **Scalpel**: the ' +
      'tools called in process through `runTool` with the batch writer of `scalpel mcp` (apply and rename write, verified). ' +
      `**grep**: ripgrep, reads of the hit line ±${RANGE_RADIUS} lines (numbered; further 60-line reads until a declaration's ` +
      'braces close or its enclosing declaration shows), search/replace edits (one call per file; each SEARCH occurs once ' +
      'in the file). **Whole files**: the same grep answers plus every file the grep agent read or edited, read whole. ' +
      'Tokens with gpt-tokenizer (o200k_base, src/core/context/tokens.ts): read = the answers, written = the call ' +
      "arguments as JSON. Correct = the task's own check (the ground truth from a regex scan or the TypeScript AST; for " +
      'an edit, no file left with an old name or call, and no new type errors from TypeScript itself in the changed files ' +
      'and the files that import them, against the untouched copy).',
    '',
    '| task | kind | Scalpel calls | read | written | correct | grep calls | read | written | correct | whole files read (files, largest) | Scalpel read / grep read |',
    '| --- | --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | :---: | ---: | ---: |',
  ];
  const mark = (ok: boolean): string => (ok ? 'yes' : '**no**');
  for (const t of tasks)
    out.push(
      `| ${t.id} | ${t.kind} | ${t.scalpel.calls} | ${n(t.scalpel.read)} | ${n(t.scalpel.written)} | ${mark(t.scalpel.correct)} | ` +
        `${t.grep.calls} | ${n(t.grep.read)} | ${n(t.grep.written)} | ${mark(t.grep.correct)} | ` +
        `${n(t.wholeFile.read)} (${t.wholeFile.files}, ${n(t.wholeFile.largestLines)} lines) | ${ratio(t.scalpel.read, t.grep.read)} |`,
    );
  const sum = (f: (t: TaskResult) => number): number => tasks.reduce((s, t) => s + f(t), 0);
  out.push(
    `| **total** | | ${sum((t) => t.scalpel.calls)} | ${n(sum((t) => t.scalpel.read))} | ${n(sum((t) => t.scalpel.written))} | ` +
      `${tasks.filter((t) => t.scalpel.correct).length}/${tasks.length} | ${sum((t) => t.grep.calls)} | ${n(sum((t) => t.grep.read))} | ` +
      `${n(sum((t) => t.grep.written))} | ${tasks.filter((t) => t.grep.correct).length}/${tasks.length} | ${n(sum((t) => t.wholeFile.read))} | ` +
      `${ratio(
        sum((t) => t.scalpel.read),
        sum((t) => t.grep.read),
      )} |`,
    '',
  );

  const problems = tasks.flatMap((t) => [
    ...t.scalpel.problems.map((p) => `- ${t.id}, Scalpel: ${p}`),
    ...t.grep.problems.map((p) => `- ${t.id}, grep: ${p}`),
  ]);
  if (problems.length > 0) out.push('What the checks found wrong:', '', ...problems, '');

  const ratios = tasks.map((t) => t.scalpel.read / Math.max(1, t.grep.read));
  const medianRatio = median(ratios);
  const large = tasks.filter((t) => t.wholeFile.largestLines >= 1_000);
  const largeRatio =
    large.length === 0 ? undefined : median(large.map((t) => t.scalpel.read / Math.max(1, t.wholeFile.read)));
  const allCorrect = tasks.every((t) => t.scalpel.correct);
  out.push(
    '**Goals (issue 27).**',
    '',
    `- Correct on every task: ${allCorrect ? 'met' : 'not met'} (Scalpel ${tasks.filter((t) => t.scalpel.correct).length} of ${tasks.length}; grep ${tasks.filter((t) => t.grep.correct).length} of ${tasks.length}).`,
    `- Tokens read at most the grep agent's on the median task: ${medianRatio <= 1 ? 'met' : 'not met'} (median of Scalpel read / grep read per task ${medianRatio.toFixed(2)}; ` +
      `Scalpel read fewer on ${ratios.filter((r) => r < 1).length} of ${tasks.length} tasks).`,
    largeRatio === undefined
      ? '- Far below whole-file reading on large files: no task touched a file of 1,000 lines or more.'
      : `- Far below whole-file reading on large files: ${largeRatio <= 0.25 ? 'met' : 'not met'} (on the ${large.length} tasks whose files include one of 1,000 lines or more, ` +
          `median Scalpel read / whole files read ${largeRatio.toFixed(2)}).`,
    '',
  );
  const lost = tasks.filter((t) => t.scalpel.read > t.grep.read);
  if (lost.length > 0) {
    out.push('Where the tools read more than grep, per tool (calls, tokens read):', '');
    for (const t of lost) {
      const tools = Object.entries(t.scalpel.perTool)
        .map(([tool, v]) => `${tool} ${v.calls}× ${n(v.read)}`)
        .join(', ');
      const grepTools = Object.entries(t.grep.perTool)
        .map(([tool, v]) => `${tool} ${v.calls}× ${n(v.read)}`)
        .join(', ');
      const context = t.scalpel.perTool['context'];
      const focus =
        context === undefined
          ? ''
          : ` Of the context answers' ${n(context.read)} tokens, ${n(t.scalpel.contextFocus)} are the focused elements' own text; the rest is the view of their files (imports, the other elements as signatures or names, section comments).`;
      out.push(`- ${t.id}: Scalpel ${tools}; grep ${grepTools}.${focus}`);
    }
    out.push('');
    if (lost.some((t) => t.scalpel.perTool['rename'] !== undefined))
      out.push(
        'The rename script calls rename twice: the applied call answers which files it wrote and lists the matches it ' +
          'left (strings, comments) as their lines read before the rename, without the diff, so the dry run comes first to ' +
          'show what the changed lines now read (in a barrel, `export { New as Old }`: the rename keeps the public name). ' +
          "The grep agent's rows already hold each line's text, which is all a rename needs.",
        '',
      );
    if (lost.some((t) => Object.keys(t.scalpel.perTool).join() === 'search'))
      out.push(
        "A search row holds the line's text as grep's does, plus its element path instead of the file (grouped under a " +
          'heading); on one-line hits that is a tie.',
        '',
      );
  }
  out.push(PLAYED_AGENT_SECTION.end);
  return out.join('\n');
}
