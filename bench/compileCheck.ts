import { ts } from 'ts-morph';
import { TypeCheckService, type NewTypeError, type ProposedFileChange } from '../src/core/check/typeCheck';
import type { TokenCounter } from '../src/core/context/tokens';
import { outlineSource } from '../src/core/elements/outline';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import { DEFAULT_PLANNING_OUTLINE_BUDGET, planningOutline } from '../src/core/llm/prompts';
import type { Corpus, CorpusPackage } from '../test/support/corpus';
import type { SectionMarkers } from './benchSection';
import { largestCorpusFiles } from './corpusText';
import { summarize, type Summary, spread } from './stats';

/**
 * Issue 18's numbers on the real corpus: how often the type-aware verification catches a deliberately broken edit
 * (a parameter dropped from an exported function a caller in another file uses, an imported export deleted, an
 * exported declaration renamed without its callers), how often it raises an alarm on the corpus's own correct edits
 * (each file changed between the two pinned releases, checked with the rest of the package at the newer release),
 * what a warm check costs next to a bare parse of the same files, and the planning outline's tokens on the largest
 * files. A broken edit counts as caught only when a new error shows up in another file than the edited one: the
 * errors the edit makes in its own file prove nothing about the call sites it breaks.
 */

export type BreakKind = 'drop-parameter' | 'delete-export' | 'rename';
export const BREAK_KINDS: readonly BreakKind[] = ['drop-parameter', 'delete-export', 'rename'];

export interface BrokenEditResult {
  readonly pkg: string;
  readonly kind: BreakKind;
  readonly file: string;
  readonly element: string;
  readonly caught: boolean;
  /** New errors anywhere, the edited file included. */
  readonly newErrors: number;
  /** The first new error in another file, as `file: TS1234`. */
  readonly example: string | undefined;
}

export interface CorrectEditResult {
  readonly pkg: string;
  readonly file: string;
  readonly newErrors: readonly string[];
}

export interface OutlineTokens {
  readonly file: string;
  readonly lines: number;
  readonly unbudgeted: number;
  readonly budgeted: number;
}

export interface CompileCheckResults {
  readonly brokenPerPackageAndKind: number;
  readonly broken: readonly BrokenEditResult[];
  readonly correct: readonly CorrectEditResult[];
  /** Milliseconds per check after the first of its package (warm), and the bare parse of the checked files. */
  readonly warmVerifyMs: Summary;
  readonly warmVerifyCpuMs: Summary;
  readonly parseMs: Summary;
  readonly parseCpuMs: Summary;
  /** New errors set aside as missing dependencies over every check. */
  readonly environmentErrors: number;
  readonly coldVerifyMs: readonly number[];
  readonly checkedFiles: Summary;
  readonly outline: readonly OutlineTokens[];
  readonly outlineBudget: number;
  readonly durationSeconds: number;
}

interface Timing {
  readonly verifyMs: number;
  readonly verifyCpuMs: number;
  readonly parseMs: number;
  readonly parseCpuMs: number;
  readonly files: number;
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export async function measureCompileCheck(
  corpus: Corpus,
  counter: TokenCounter,
  options: { perPackageAndKind?: number; maxCorrectPerPackage?: number; log?: (message: string) => void } = {},
): Promise<CompileCheckResults> {
  const started = performance.now();
  const perKind = options.perPackageAndKind ?? 8;
  const log = options.log ?? (() => undefined);
  const broken: BrokenEditResult[] = [];
  const correct: CorrectEditResult[] = [];
  const warm: Timing[] = [];
  const cold: number[] = [];
  let environment = 0;
  for (const pkg of corpus.packages) {
    const graph = new CodeGraph(nodeSourceFileSystem(pkg.after.packageDir));
    const service = new TypeCheckService(graph);
    let first = true;
    const timed = async (changes: readonly ProposedFileChange[]): Promise<readonly NewTypeError[]> => {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const result = await service.check(changes);
      const verifyCpuMs = cpuMsSince(cpu0);
      const verifyMs = performance.now() - t0;
      const parse = bareParse(result.checkedFiles, changes, graph);
      if (first) cold.push(verifyMs);
      else
        warm.push({
          verifyMs,
          verifyCpuMs,
          parseMs: parse.wallMs,
          parseCpuMs: parse.cpuMs,
          files: result.checkedFiles.length,
        });
      environment += result.environmentErrors.length;
      first = false;
      return result.newErrors;
    };

    const candidates = brokenEditCandidates(pkg, graph);
    for (const kind of BREAK_KINDS) {
      const chosen = spread(
        candidates.filter((c) => c.kind === kind),
        perKind,
      );
      log(`  ${pkg.name}: ${kind}, ${chosen.length} edits`);
      for (const candidate of chosen) {
        const errors = await timed([{ file: candidate.file, before: candidate.before, after: candidate.after }]);
        const elsewhere = errors.filter((e) => e.file !== candidate.file);
        broken.push({
          pkg: pkg.name,
          kind,
          file: candidate.file,
          element: candidate.element,
          caught: elsewhere.length > 0,
          newErrors: errors.length,
          example: elsewhere[0] === undefined ? undefined : `${elsewhere[0].file}: TS${elsewhere[0].code}`,
        });
      }
    }

    const pairs = corpus.changedFilePairs().filter((p) => p.pkg === pkg.name);
    const chosenPairs = spread(pairs, options.maxCorrectPerPackage ?? 40);
    log(`  ${pkg.name}: ${chosenPairs.length} of ${pairs.length} release-to-release edits`);
    for (const pair of chosenPairs) {
      const errors = await timed([{ file: pair.relPath, before: pair.beforeText, after: pair.afterText }]);
      correct.push({
        pkg: pkg.name,
        file: pair.relPath,
        newErrors: errors.map((e) => `${e.file} ${e.elementPath ?? ''} TS${e.code} ${e.message.split('\n')[0] ?? ''}`),
      });
    }
    graph.dispose();
  }

  const outline = largestFileOutlines(corpus, counter);
  return {
    brokenPerPackageAndKind: perKind,
    broken,
    correct,
    warmVerifyMs: summarize(warm.map((t) => t.verifyMs)),
    warmVerifyCpuMs: summarize(warm.map((t) => t.verifyCpuMs)),
    parseMs: summarize(warm.map((t) => t.parseMs)),
    parseCpuMs: summarize(warm.map((t) => t.parseCpuMs)),
    environmentErrors: environment,
    coldVerifyMs: cold,
    checkedFiles: summarize(warm.map((t) => t.files)),
    outline,
    outlineBudget: DEFAULT_PLANNING_OUTLINE_BUDGET,
    durationSeconds: (performance.now() - started) / 1000,
  };
}

/** The cheapest honest baseline: parsing (no binding, no checking) every file the check looked at. */
function bareParse(
  files: readonly string[],
  changes: readonly ProposedFileChange[],
  graph: CodeGraph,
): { wallMs: number; cpuMs: number } {
  const texts = files.map((file) => changes.find((c) => c.file === file)?.after ?? graph.imports.textOf(file) ?? '');
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (const [i, text] of texts.entries()) {
    ts.createSourceFile(files[i] ?? 'x.ts', text, ts.ScriptTarget.Latest, true);
  }
  return { wallMs: performance.now() - t0, cpuMs: cpuMsSince(cpu0) };
}

interface BrokenEditCandidate {
  readonly kind: BreakKind;
  readonly file: string;
  readonly element: string;
  readonly before: string;
  readonly after: string;
}

/**
 * Every deliberately broken edit the package offers: exported top-level functions, classes and variables that a
 * file importing them by name uses.
 */
function brokenEditCandidates(pkg: CorpusPackage, graph: CodeGraph): BrokenEditCandidate[] {
  const candidates: BrokenEditCandidate[] = [];
  for (const file of graph.imports.files()) {
    if (!file.startsWith(`${pkg.sourceRoot}/`) || /\.d\.[cm]?ts$/.test(file)) continue;
    const importers = graph.imports.importersOf(file);
    if (importers.length === 0) continue;
    const text = graph.imports.textOf(file);
    if (text === undefined) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const outline = outlineSource(file, text);
    const declared = new Map<string, number>();
    for (const statement of source.statements) {
      for (const name of declaredNames(statement)) declared.set(name, (declared.get(name) ?? 0) + 1);
    }
    for (const statement of source.statements) {
      if (!isExported(statement)) continue;
      const names = declaredNames(statement);
      const name = names[0];
      // Overloads, declaration merging and multi-declarator statements make "the" declaration ambiguous.
      if (name === undefined || names.length !== 1 || declared.get(name) !== 1) continue;
      const users = importers.filter((importer) => importsByName(graph, importer, file, name));
      if (users.length === 0) continue;
      const element = outline.elements.find((e) => e.name === name && e.kind !== 'import' && e.kind !== 'export');
      if (element === undefined) continue;
      const nameNode = nameNodeOf(statement);
      if (nameNode === undefined) continue;

      const renamed = `${text.slice(0, nameNode.getStart(source))}${name}Renamed${text.slice(nameNode.end)}`;
      candidates.push({ kind: 'rename', file, element: element.path, before: text, after: renamed });

      const end = text[element.range.end] === '\n' ? element.range.end + 1 : element.range.end;
      const deleted = `${text.slice(0, element.range.start)}${text.slice(end)}`;
      candidates.push({ kind: 'delete-export', file, element: element.path, before: text, after: deleted });

      if (ts.isFunctionDeclaration(statement) && statement.body !== undefined) {
        const dropped = dropLastParameter(statement, text, users, graph, name);
        if (dropped !== undefined) {
          candidates.push({ kind: 'drop-parameter', file, element: element.path, before: text, after: dropped });
        }
      }
    }
  }
  return candidates;
}

/**
 * The function without its last parameter, when some importer calls it with every argument (so the call breaks);
 * undefined otherwise. A rest parameter or a function no caller passes the last argument to gives no candidate.
 */
function dropLastParameter(
  fn: ts.FunctionDeclaration,
  text: string,
  users: readonly string[],
  graph: CodeGraph,
  name: string,
): string | undefined {
  const parameters = fn.parameters;
  const last = parameters[parameters.length - 1];
  if (last === undefined || last.dotDotDotToken !== undefined) return undefined;
  const callPassesAll = users.some((user) => {
    const userText = graph.imports.textOf(user);
    if (userText === undefined) return false;
    let found = false;
    const visit = (node: ts.Node): void => {
      if (found) return;
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === name &&
        node.arguments.length === parameters.length
      ) {
        found = true;
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(user, userText, ts.ScriptTarget.Latest, true));
    return found;
  });
  if (!callPassesAll) return undefined;
  const previous = parameters[parameters.length - 2];
  const start = previous === undefined ? last.getFullStart() : previous.end;
  const end = parameters.hasTrailingComma ? parameters.end : last.end;
  return `${text.slice(0, start)}${text.slice(end)}`;
}

function isExported(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword) &&
    !(ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
  );
}

function declaredNames(statement: ts.Statement): string[] {
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
    return statement.name === undefined ? [] : [statement.name.text];
  }
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  }
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) {
    return [statement.name.text];
  }
  return [];
}

function nameNodeOf(statement: ts.Statement): ts.Node | undefined {
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) return statement.name;
  if (ts.isVariableStatement(statement)) {
    const declaration = statement.declarationList.declarations[0];
    return declaration !== undefined && ts.isIdentifier(declaration.name) ? declaration.name : undefined;
  }
  // Types and interfaces are left out: the brief is about functions, classes and variables callers use.
  return undefined;
}

/** Whether `importer` imports `name` by name (`import { name }`, `import { name as x }`) from `file`. */
function importsByName(graph: CodeGraph, importer: string, file: string, name: string): boolean {
  const text = graph.imports.textOf(importer);
  if (text === undefined) return false;
  const specifiers = graph.imports
    .importsOf(importer)
    .filter((edge) => edge.target === file && !edge.reExport)
    .map((edge) => edge.specifier);
  const pattern = /\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2/g;
  for (const match of text.matchAll(pattern)) {
    if (!specifiers.includes(match[3] ?? '')) continue;
    const names = (match[1] ?? '').split(',').map(
      (part) =>
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
    );
    if (names.includes(name)) return true;
  }
  return false;
}

/** At most `count` items, spread evenly over the list (deterministic; the list is in path order). */

function largestFileOutlines(corpus: Corpus, counter: TokenCounter): OutlineTokens[] {
  const files = largestCorpusFiles(corpus, 10);
  return files.map(({ file, text, lines }) => {
    const outline = outlineSource(file.relPath, text);
    return {
      file: `${file.pkg}/${file.relPath}`,
      lines,
      unbudgeted: counter.count(planningOutline(outline, { budget: Number.POSITIVE_INFINITY, counter })),
      budgeted: counter.count(planningOutline(outline, { counter })),
    };
  });
}

export function renderCompileCheck(results: CompileCheckResults): string {
  const lines: string[] = [];
  const pct = (n: number, of: number): string => (of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(0)}%`);
  const ms = (value: number): string =>
    Number.isNaN(value) ? 'n/a' : value < 10 ? value.toFixed(1) : value.toFixed(0);
  lines.push(COMPILE_SECTION.start);
  lines.push('## Type-aware verification and planning outline (issue 18)');
  lines.push('');
  lines.push(
    `Measured by \`node out/bench/compileCheckRun.js\` (also part of \`npm run bench\`) in ${results.durationSeconds.toFixed(0)} s. ` +
      'Each package is its own workspace at its newer release (its tsconfig.json when it has one, else defaults; ' +
      'dependencies as the corpus installs them). Broken edits: up to ' +
      `${results.brokenPerPackageAndKind} per package and kind, spread over the candidates in path order; caught = at least ` +
      'one new error in another file than the edited one (a call site or an import).',
  );
  lines.push('');
  lines.push('| broken edit | edits | caught | rate | example |');
  lines.push('|---|---:|---:|---:|---|');
  for (const kind of BREAK_KINDS) {
    const ofKind = results.broken.filter((b) => b.kind === kind);
    const caught = ofKind.filter((b) => b.caught).length;
    lines.push(
      `| ${kind} | ${ofKind.length} | ${caught} | ${pct(caught, ofKind.length)} | ${ofKind.find((b) => b.caught)?.example ?? ''} |`,
    );
  }
  const caughtAll = results.broken.filter((b) => b.caught).length;
  lines.push(`| all | ${results.broken.length} | ${caughtAll} | ${pct(caughtAll, results.broken.length)} | |`);
  const missed = results.broken.filter((b) => !b.caught);
  if (missed.length > 0) {
    lines.push('');
    lines.push('Missed:');
    for (const miss of missed)
      lines.push(`- ${miss.kind} ${miss.element} (${miss.newErrors} new errors in its own file)`);
  }
  const alarms = results.correct.filter((c) => c.newErrors.length > 0);
  lines.push('');
  lines.push(
    `**False alarms on the corpus's own edits:** ${alarms.length} of ${results.correct.length} release-to-release file ` +
      'changes raised a new error (the old text of the file against the rest of the package at the newer release). ' +
      `New errors that only say a dependency is missing (not installed in the corpus: @types/node, react) were set aside, ` +
      `as the check does in use: ${results.environmentErrors} over all checks.`,
  );
  for (const alarm of alarms.slice(0, 10)) {
    lines.push(
      `- ${alarm.pkg} ${alarm.file}: ${alarm.newErrors.slice(0, 2).join('; ')}${alarm.newErrors.length > 2 ? ` (+${alarm.newErrors.length - 2})` : ''}`,
    );
  }
  lines.push('');
  lines.push(
    `**Speed** (wall clock, ms, warm LanguageService: every check after the first of its package; ${results.warmVerifyMs.count} checks, ` +
      `median ${results.checkedFiles.median.toFixed(0)} files checked, p90 ${results.checkedFiles.p90.toFixed(0)}):`,
  );
  lines.push('');
  lines.push('| | median | p90 | CPU median | CPU p90 |');
  lines.push('|---|---:|---:|---:|---:|');
  lines.push(
    `| verify (before and after diagnostics of the changed files and importers) | ${ms(results.warmVerifyMs.median)} | ${ms(results.warmVerifyMs.p90)} | ${ms(results.warmVerifyCpuMs.median)} | ${ms(results.warmVerifyCpuMs.p90)} |`,
  );
  lines.push(
    `| bare parse of the same files | ${ms(results.parseMs.median)} | ${ms(results.parseMs.p90)} | ${ms(results.parseCpuMs.median)} | ${ms(results.parseCpuMs.p90)} |`,
  );
  lines.push(
    `| cold: first check of each package (wall) | ${results.coldVerifyMs.map((v) => ms(v)).join(', ')} | | | |`,
  );
  lines.push('');
  lines.push(
    `**Planning outline** of the 10 largest corpus files (tokens, o200k_base; default budget ${results.outlineBudget}):`,
  );
  lines.push('');
  lines.push('| file | lines | unbudgeted | budgeted |');
  lines.push('|---|---:|---:|---:|');
  for (const row of results.outline) lines.push(`| ${row.file} | ${row.lines} | ${row.unbudgeted} | ${row.budgeted} |`);
  lines.push(COMPILE_SECTION.end);
  return lines.join('\n');
}

/** Issue 18's type-check section of bench/results.md. */
export const COMPILE_SECTION: SectionMarkers = {
  start: '<!-- issue-18 compile check: start -->',
  end: '<!-- issue-18 compile check: end -->',
};
