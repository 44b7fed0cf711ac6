import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';
import { cliBatchWriter } from '../src/cli/commands/mcp';
import type { TokenCounter } from '../src/core/context/tokens';
import { resolveElementPathOrThrow } from '../src/core/elements/resolve';
import { nullLogger } from '../src/core/logger';
import { ripgrepPath } from '../src/core/search/ripgrep';
import { answerBudget, createToolEnv, diskWorkspace, runTool, toolByName, type ToolEnv } from '../src/core/tools';

/**
 * Issue 27's played-agent bench: the same task done twice by a scripted agent, once with Scalpel's tools (called in
 * process through `runTool`, the entry `scalpel mcp` dispatches every call to, on a real workspace with the MCP
 * server's writer) and once with grep, range reads and search/replace edits. The calls are fixed per task (they follow
 * from the answers as an agent reading them would, never from the ground truth), so a run is reproducible. Tokens
 * read are the answers' tokens, tokens written the calls' arguments as JSON; correctness is the task's own check
 * (a ground truth from a regex scan or the TypeScript AST, and no new type errors for an edit).
 */

export interface CallRecord {
  readonly tool: string;
  /** Tokens of the call's arguments as JSON: what the model writes. */
  readonly written: number;
  /** Tokens of the answer: what the model reads. */
  readonly read: number;
  readonly isError: boolean;
  /** A context call: tokens of the focused elements' own text, the rest of the answer being their files' views. */
  readonly focusTokens?: number;
}

/** What both players share: a workspace copy, the calls made, and everything read so far (to check edits copy it). */
abstract class Player {
  readonly calls: CallRecord[] = [];
  /** Everything read per file (each line trimmed, without a read's line number), by the answers' file headings. */
  private readonly readText = new Map<string, string>();

  constructor(
    readonly root: string,
    protected readonly counter: TokenCounter,
  ) {}

  protected record(tool: string, args: unknown, answer: string, isError = false, focusTokens?: number): void {
    this.calls.push({
      tool,
      written: this.counter.count(JSON.stringify(args)),
      read: this.counter.count(answer),
      isError,
      ...(focusTokens === undefined ? {} : { focusTokens }),
    });
    this.noteRead(answer);
    // SCALPEL_PLAYED_TRACE=1: every call and answer on stderr, to follow a script.
    if (process.env['SCALPEL_PLAYED_TRACE'] === '1')
      process.stderr.write(`>>> ${tool} ${JSON.stringify(args)}\n${answer}\n\n`);
  }

  /**
   * Files an answer shows, by its headings: `## path` (tables), `File path` (context), `path:line:` (grep) and
   * `path from-to of n` (a read); the text under each goes to that file.
   */
  private noteRead(answer: string): void {
    let file = '';
    for (const line of answer.split('\n')) {
      const heading = /^(?:## |File |\+\+\+ b\/)(\S+)|^(\S+\.\w+) \d+-\d+ of \d+$/.exec(line);
      const grepHit = /^([^:\s]+\.\w+):\d+:(.*)$/.exec(line);
      if (heading !== null) file = heading[1] ?? heading[2] ?? '';
      const [target, text] = grepHit === null ? [file, line] : [grepHit[1] ?? '', grepHit[2] ?? ''];
      this.readText.set(target, `${this.readText.get(target) ?? ''}\n${normalized(text)}`);
    }
  }

  /**
   * Whether `text` (its lines trimmed) was read as it stands, in one piece, in an answer's part about `file`: an
   * agent copies only what it saw.
   */
  hasSeen(text: string, file: string): boolean {
    return (this.readText.get(file) ?? '').includes(normalized(text));
  }

  fileText(path: string): string {
    return readFileSync(join(this.root, path), 'utf8');
  }
}

/** The agent with Scalpel's tools, through the same `runTool` and batch writer as `scalpel mcp`. */
export class ScalpelPlayer extends Player {
  private readonly env: ToolEnv;

  constructor(root: string, counter: TokenCounter) {
    super(root, counter);
    this.env = createToolEnv(diskWorkspace(root), cliBatchWriter(root), counter, nullLogger);
  }

  async call(name: string, input: Record<string, unknown>): Promise<string> {
    const tool = toolByName(name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    const run = await runTool(tool, input, this.env, { budget: answerBudget(), surface: 'bench' });
    this.record(name, input, run.text, run.isError, name === 'context' ? this.focusTokens(input) : undefined);
    return run.text;
  }

  /**
   * The lines of an element the agent has read (its context answer labels it): the bench takes its range from the
   * outline rather than parsing it back out of the answer. `startLine` is 1-based.
   */
  elementLines(file: string, path: string): { readonly lines: string[]; readonly startLine: number } {
    const outline = this.env.outlines.get(file);
    if (outline === undefined) throw new Error(`no outline of ${file}`);
    const { element } = resolveElementPathOrThrow(outline, path);
    return {
      lines: outline.text.slice(element.range.start, element.range.end).split('\n'),
      startLine: element.startLine,
    };
  }

  /** Tokens of the focused elements' own text (on a first page; a later page shows the rest of the same). */
  private focusTokens(input: Record<string, unknown>): number | undefined {
    const focus = input['focus'];
    if (input['cursor'] !== undefined || !Array.isArray(focus)) return undefined;
    let tokens = 0;
    for (const path of focus as unknown[]) {
      if (typeof path !== 'string') continue;
      const file = /^(.+?\.(?:m|c)?[jt]sx?)\//.exec(path)?.[1];
      if (file !== undefined) tokens += this.counter.count(this.elementLines(file, path).lines.join('\n'));
    }
    return tokens;
  }

  /** Calls a paged tool until its answer offers no cursor; the pages joined. */
  async callAllPages(name: string, input: Record<string, unknown>): Promise<string> {
    const pages: string[] = [];
    let cursor: string | undefined;
    do {
      const text = await this.call(name, cursor === undefined ? input : { ...input, cursor });
      pages.push(text);
      cursor = /cursor "([^"]+)"/.exec(text)?.[1];
    } while (cursor !== undefined);
    return pages.join('\n');
  }
}

export interface GrepHit {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export interface SearchReplace {
  readonly search: string;
  readonly replace: string;
}

/** Lines read either side of a hit: the usual "show me around line N". */
export const RANGE_RADIUS = 30;

/**
 * The baseline agent: ripgrep (the @vscode/ripgrep binary, hits sorted by path so that a run is reproducible), reads
 * of line ranges (numbered, as agents' read tools show them), and search/replace edits whose SEARCH must occur exactly once in the file (one call per file, all its
 * blocks in order, as Aider's diff format or a multi-edit tool).
 */
export class GrepPlayer extends Player {
  /** Files read or edited, for the whole-file column. */
  readonly touched = new Set<string>();
  /** Tokens of the grep answers, which the whole-file reader pays as well. */
  grepTokens = 0;
  /** Lines read per file (1-based), so a second read of the same lines is not made. */
  private readonly linesRead = new Map<string, Set<number>>();

  grep(pattern: string, options: { readonly flags?: readonly string[]; readonly path?: string } = {}): GrepHit[] {
    const binary = ripgrepPath();
    if (binary === undefined) throw new Error('no ripgrep binary (@vscode/ripgrep)');
    const args = [
      '-n',
      '--no-heading',
      '--color',
      'never',
      '--sort',
      'path',
      ...(options.flags ?? []),
      '-e',
      pattern,
      options.path ?? 'src',
    ];
    const run = spawnSync(binary, args, { cwd: this.root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const output = run.stdout.trimEnd();
    this.record('grep', { pattern, ...(options.flags === undefined ? {} : { flags: options.flags }) }, output);
    this.grepTokens += this.counter.count(output);
    const hits: GrepHit[] = [];
    for (const line of output.split('\n')) {
      const match = /^([^:]+):(\d+):(.*)$/.exec(line);
      if (match !== null) hits.push({ file: toPosix(match[1] ?? ''), line: Number(match[2]), text: match[3] ?? '' });
    }
    return hits;
  }

  /** `rg -c`: per file the number of matching lines. */
  grepCount(pattern: string, flags: readonly string[] = []): Map<string, number> {
    const binary = ripgrepPath();
    if (binary === undefined) throw new Error('no ripgrep binary (@vscode/ripgrep)');
    const run = spawnSync(binary, ['-c', '--color', 'never', '--sort', 'path', ...flags, '-e', pattern, 'src'], {
      cwd: this.root,
      encoding: 'utf8',
    });
    const output = run.stdout.trimEnd();
    this.record('grep', { pattern, flags: ['-c', ...flags] }, output);
    this.grepTokens += this.counter.count(output);
    const counts = new Map<string, number>();
    for (const line of output.split('\n')) {
      const match = /^(.+):(\d+)$/.exec(line);
      if (match !== null) counts.set(toPosix(match[1] ?? ''), Number(match[2]));
    }
    return counts;
  }

  /** Lines `from`..`to` (1-based, clamped) of a file, numbered. */
  read(file: string, from: number, to: number): string[] {
    const lines = this.fileText(file).split('\n');
    const start = Math.max(1, from);
    const end = Math.min(lines.length, to);
    const shown = lines.slice(start - 1, end);
    const answer = `${file} ${start}-${end} of ${lines.length}\n${shown.map((l, i) => `${start + i}\t${l}`).join('\n')}`;
    this.record('read', { path: file, from: start, to: end }, answer);
    this.touched.add(file);
    const read = this.linesRead.get(file) ?? new Set<number>();
    for (let n = start; n <= end; n++) read.add(n);
    this.linesRead.set(file, read);
    return shown;
  }

  /** The hit line ±30, unless those lines were all read already. */
  readAround(file: string, line: number): void {
    const read = this.linesRead.get(file);
    let missing = false;
    for (let n = Math.max(1, line - RANGE_RADIUS); n <= line + RANGE_RADIUS; n++)
      if (read?.has(n) !== true) missing = true;
    if (missing) this.read(file, line - RANGE_RADIUS, line + RANGE_RADIUS);
  }

  /**
   * A declaration starting at `line`, read as an agent would: the line ±30, then 60 more lines at a time until its
   * braces close. Returns the line its text ends on.
   */
  readDeclaration(file: string, line: number): number {
    this.readAround(file, line);
    const lines = this.fileText(file).split('\n');
    const end = closingLine(lines, line);
    let readTo = line + RANGE_RADIUS;
    while (readTo < end) {
      this.read(file, readTo + 1, readTo + 60);
      readTo += 60;
    }
    return end;
  }

  /** Reads the 60 lines above line `line` (an agent looking further up for the enclosing declaration). */
  readAbove(file: string, line: number): void {
    this.read(file, line - 60, line - 1);
  }

  hasRead(file: string, line: number): boolean {
    return this.linesRead.get(file)?.has(line) === true;
  }

  /** The first line read of a file, or undefined. */
  firstLineRead(file: string): number | undefined {
    const read = this.linesRead.get(file);
    return read === undefined || read.size === 0 ? undefined : Math.min(...read);
  }

  /** Applies the blocks in order; each SEARCH must occur exactly once in the file as the earlier blocks left it. */
  edit(file: string, blocks: readonly SearchReplace[]): boolean {
    let text = this.fileText(file);
    let failure: string | undefined;
    for (const block of blocks) {
      const at = text.indexOf(block.search);
      if (at < 0 || text.indexOf(block.search, at + 1) >= 0) {
        failure = `SEARCH ${at < 0 ? 'not found' : 'found more than once'}: ${block.search.split('\n')[0] ?? ''}`;
        break;
      }
      text = `${text.slice(0, at)}${block.replace}${text.slice(at + block.search.length)}`;
    }
    if (failure === undefined) writeFileSync(join(this.root, file), text);
    const answer =
      failure === undefined ? `edited ${file}: ${blocks.length} blocks` : `error: ${failure}; nothing written`;
    this.record('edit', { path: file, blocks }, answer, failure !== undefined);
    this.touched.add(file);
    return failure === undefined;
  }
}

function normalized(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^\d+(?:\t|\| ?)/, '').trim())
    .join('\n');
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/**
 * The 1-based line on which the braces opened from line `line` on close again (a plain count that skips string and
 * comment text only roughly, as an agent's eye would). A declaration without braces ends on its own line or at the
 * first `;`.
 */
export function closingLine(lines: readonly string[], line: number): number {
  let depth = 0;
  let opened = false;
  for (let n = line; n <= lines.length; n++) {
    const code = (lines[n - 1] ?? '').replace(/\/\/.*$/, '').replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
    for (const ch of code) {
      if (ch === '{' || ch === '(' || ch === '[') {
        depth++;
        opened = true;
      } else if (ch === '}' || ch === ')' || ch === ']') depth--;
    }
    if (opened && depth <= 0) return n;
    if (!opened && /;\s*$/.test(code)) return n;
  }
  return lines.length;
}

/**
 * The argument `argument` added as the last one of the call of `name` whose callee is on line `index` (0-based) of
 * `lines`, found by parsing the text (as an agent reading the code sees where the call ends): the lines from the one
 * the argument goes on to the one the call closes on, before and after. Undefined when there is no such call.
 */
export function callWithArgument(
  lines: readonly string[],
  index: number,
  name: string,
  argument: string,
): { readonly start: number; readonly end: number; readonly before: string[]; readonly after: string[] } | undefined {
  const text = lines.join('\n');
  const source = ts.createSourceFile('call.tsx', text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line;
  let found: ts.CallExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      if (ts.isIdentifier(callee) && callee.text === name && lineOf(callee.getStart(source)) === index) {
        found = node;
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // A call cut off at the end of the text parses too (recovered): it must close with its own parenthesis.
  if (found === undefined || text[found.end - 1] !== ')') return undefined;
  const args = found.arguments;
  const last = args[args.length - 1];
  const at = last === undefined ? args.pos : args.hasTrailingComma ? args.end : last.end;
  const insert = last === undefined ? argument : args.hasTrailingComma ? ` ${argument}` : `, ${argument}`;
  const start = lineOf(at);
  const end = lineOf(found.end - 1);
  const changed = `${text.slice(0, at)}${insert}${text.slice(at)}`.split('\n');
  return {
    start,
    end,
    before: lines.slice(start, end + 1),
    after: changed.slice(start, end + 1 + changed.length - lines.length),
  };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The fewest lines around lines `start`..`end` (0-based, inclusive) of `lines` that occur exactly once in `lines`:
 * the SEARCH of a block, extended a line at a time alternately after and before. Undefined when even the whole text
 * is not unique.
 */
export function uniqueSpan(
  lines: readonly string[],
  start: number,
  end: number,
): { start: number; end: number } | undefined {
  let from = start;
  let to = end;
  const text = lines.join('\n');
  for (let step = 0; ; step++) {
    const search = lines.slice(from, to + 1).join('\n');
    const at = text.indexOf(search);
    if (at >= 0 && text.indexOf(search, at + 1) < 0) return { start: from, end: to };
    if (from === 0 && to === lines.length - 1) return undefined;
    if (step % 2 === 0 ? to < lines.length - 1 : from === 0) to = Math.min(lines.length - 1, to + 1);
    else from = Math.max(0, from - 1);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Answers of the tools, parsed as an agent reads them.

export interface TableRow {
  /** The `## file` group the row is under. */
  readonly file: string;
  readonly cells: string;
}

/** The data rows of a compact table answer with the file of the group each is under. */
export function groupedRows(text: string): TableRow[] {
  const rows: TableRow[] = [];
  let file = '';
  let inTable = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('columns: ')) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (line.startsWith('## ')) {
      file = line.slice(3).trim();
      continue;
    }
    if (/^[\d,]+ \w+( \w+)*, all shown$|^\w+ [\d,]+-[\d,]+ of [\d,]+|^not changed:|cursor "/.test(line)) {
      inTable = false;
      continue;
    }
    if (line.trim() !== '') rows.push({ file, cells: line });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// Workspaces and the type check.

export interface Repository {
  readonly name: string;
  /** The installed package folder (read only: every run works on a copy). */
  readonly packageDir: string;
  /** Files the type check leaves out (tests: their runner is not installed). */
  readonly excluded: (relPath: string) => boolean;
}

/** A fresh copy of the package's `src` (and its tsconfig.json, if any) in a temporary folder. */
export function copyWorkspace(repo: Repository): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-bench-played-'));
  cpSync(join(repo.packageDir, 'src'), join(root, 'src'), { recursive: true });
  const tsconfig = join(repo.packageDir, 'tsconfig.json');
  if (existsSync(tsconfig)) cpSync(tsconfig, join(root, 'tsconfig.json'));
  return root;
}

export function removeWorkspace(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** Every TypeScript source (no .d.ts) under `root/src`, relative, '/'-separated, sorted. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.d\.tsx?$/.test(name)) out.push(toPosix(relative(root, path)));
    }
  };
  walk(join(root, 'src'));
  return out.sort();
}

const CHECK_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  jsx: ts.JsxEmit.ReactJSX,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

/**
 * The type check of a result, with TypeScript itself (not Scalpel's checker, which the tools use): the files the agent
 * changed and the files that import them, against the same files of the untouched copy. New errors are the result's
 * diagnostics (file, code, message; lines left out) that the untouched copy does not have as often.
 */
export class TypeCheckOracle {
  private pristine: ts.Program | undefined;
  private readonly pristineDiagnostics = new Map<string, string[]>();

  constructor(
    private readonly pristineRoot: string,
    private readonly excluded: (relPath: string) => boolean,
  ) {}

  newErrors(resultRoot: string, changed: readonly string[]): string[] {
    const program = this.program(resultRoot);
    const importers = directImporters(program, resultRoot, new Set(changed));
    const checked = [...new Set([...changed, ...importers])].filter((f) => !this.excluded(f)).sort();
    const errors: string[] = [];
    for (const file of checked) {
      const before = new Map<string, number>();
      for (const key of this.pristineOf(file)) before.set(key, (before.get(key) ?? 0) + 1);
      for (const key of diagnosticsOf(program, resultRoot, file)) {
        const left = before.get(key) ?? 0;
        if (left > 0) before.set(key, left - 1);
        else errors.push(key);
      }
    }
    return errors;
  }

  private pristineOf(file: string): string[] {
    let found = this.pristineDiagnostics.get(file);
    if (found === undefined) {
      this.pristine ??= this.program(this.pristineRoot);
      found = existsSync(join(this.pristineRoot, file)) ? diagnosticsOf(this.pristine, this.pristineRoot, file) : [];
      this.pristineDiagnostics.set(file, found);
    }
    return found;
  }

  private program(root: string): ts.Program {
    const files = sourceFiles(root)
      .filter((f) => !this.excluded(f))
      .map((f) => join(root, f));
    return ts.createProgram(files, CHECK_OPTIONS);
  }
}

function diagnosticsOf(program: ts.Program, root: string, file: string): string[] {
  const source = program.getSourceFile(join(root, file));
  if (source === undefined) return [];
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => `${file}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

function directImporters(program: ts.Program, root: string, targets: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const host = ts.createCompilerHost(CHECK_OPTIONS);
  for (const source of program.getSourceFiles()) {
    const file = toPosix(relative(root, source.fileName));
    if (file.startsWith('..') || file.includes('node_modules')) continue;
    const imports = ts.preProcessFile(source.text, true, true).importedFiles;
    for (const imported of imports) {
      const resolved = ts.resolveModuleName(imported.fileName, source.fileName, CHECK_OPTIONS, host).resolvedModule;
      if (resolved === undefined) continue;
      if (targets.has(toPosix(relative(root, resolved.resolvedFileName)))) {
        found.push(file);
        break;
      }
    }
  }
  return found;
}

/** A TypeScript source file parsed for a task's own checks. */
export function parseSource(root: string, file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Files whose text differs between two copies (of the pristine copy's files; the agents create none). */
export function changedFiles(pristineRoot: string, resultRoot: string): string[] {
  return sourceFiles(pristineRoot).filter(
    (f) =>
      !existsSync(join(resultRoot, f)) ||
      readFileSync(join(pristineRoot, f), 'utf8') !== readFileSync(join(resultRoot, f), 'utf8'),
  );
}
