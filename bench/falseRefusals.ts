import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as typescript from 'typescript';
import { ts } from 'ts-morph';
import { TypeCheckService, type ProposedFileChange, type TypeCheckResult } from '../src/core/check/typeCheck';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import type { Corpus, CorpusPackage } from '../test/support/corpus';
import type { SectionMarkers } from './benchSection';
import { summarize, type Summary, spread } from './stats';

/**
 * Issue 24's figures: how often the type check refuses a correct edit, in workspaces where the dependencies are
 * installed (the corpus as installed) and where they are not (the same package's sources copied to a folder with no
 * node_modules): the corpus's own release-to-release edits, and new tests added to its test files, once as written
 * (their `vitest` import) and once with the test runner's globals (the import left out, as in a project with
 * `globals: true`). A correct edit is refused when the check finds any error the batch caused that is not set aside
 * as the environment's. Beside it, the cold first check of each package against TypeScript's own language service
 * building a program of the same files in the same run.
 */

export interface RefusalCase {
  readonly pkg: string;
  readonly kind: 'release edit' | 'new test' | 'new test (globals)';
  readonly file: string;
  readonly installed: boolean;
  readonly refused: boolean;
  readonly environmentErrors: number;
  /** The first error that refused it. */
  readonly example: string | undefined;
}

export interface ColdCheck {
  readonly pkg: string;
  readonly files: number;
  /** Scalpel's first check of the package (import graph, both sides' diagnostics), wall ms. */
  readonly checkMs: number;
  /** A fresh LanguageService over the same files: `getProgram()`, wall ms. */
  readonly languageServiceBuildMs: number;
  /** The same service's semantic diagnostics of the changed file, after the build, wall ms. */
  readonly languageServiceDiagnosticsMs: number;
}

export interface FalseRefusalResults {
  readonly cases: readonly RefusalCase[];
  readonly cold: readonly ColdCheck[];
  readonly warmMs: Summary;
  readonly durationSeconds: number;
}

export async function measureFalseRefusals(
  corpus: Corpus,
  options: { maxReleaseEditsPerPackage?: number; newTests?: number; log?: (message: string) => void } = {},
): Promise<FalseRefusalResults> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const cases: RefusalCase[] = [];
  const cold: ColdCheck[] = [];
  const warm: number[] = [];
  const newTestTarget = options.newTests ?? 30;
  for (const pkg of corpus.packages) {
    const pairs = spread(
      corpus.changedFilePairs().filter((p) => p.pkg === pkg.name),
      options.maxReleaseEditsPerPackage ?? 25,
    );
    const copy = copyWithoutDependencies(pkg);
    try {
      for (const installed of [true, false]) {
        const root = installed ? pkg.after.packageDir : copy;
        const graph = new CodeGraph(nodeSourceFileSystem(root), { toolchains: { typescript: 'bundled' } });
        const service = new TypeCheckService(graph);
        let first = true;
        const check = async (change: ProposedFileChange): Promise<TypeCheckResult> => {
          const t0 = performance.now();
          const result = await service.check([change]);
          const ms = performance.now() - t0;
          if (first && installed) {
            cold.push({
              pkg: pkg.name,
              files: result.checkedFiles.length,
              checkMs: ms,
              ...languageServiceBuild(root, result.checkedFiles, change.file),
            });
          } else if (!first) warm.push(ms);
          first = false;
          return result;
        };
        const record = (kind: RefusalCase['kind'], file: string, result: TypeCheckResult): void => {
          const [error] = result.newErrors;
          cases.push({
            pkg: pkg.name,
            kind,
            file,
            installed,
            refused: result.newErrors.length > 0,
            environmentErrors: result.environmentErrors.length,
            example:
              error === undefined ? undefined : `${error.file} TS${error.code} ${error.message.split('\n')[0] ?? ''}`,
          });
        };
        log(
          `  ${pkg.name} (${installed ? 'dependencies installed' : 'no node_modules'}): ${pairs.length} release edits`,
        );
        for (const pair of pairs) {
          record(
            'release edit',
            pair.relPath,
            await check({ file: pair.relPath, before: pair.beforeText, after: pair.afterText }),
          );
        }
        const additions = newTestAdditions(graph, pkg, newTestTarget);
        log(`  ${pkg.name}: ${additions.length} new tests, as written and with globals`);
        for (const addition of additions) {
          record(
            'new test',
            addition.file,
            await check({ file: addition.file, before: addition.before, after: addition.after }),
          );
          const globals = (text: string): string => text.replace(TEST_RUNNER_IMPORT, '');
          record(
            'new test (globals)',
            addition.file,
            await check({ file: addition.file, before: globals(addition.before), after: globals(addition.after) }),
          );
        }
        graph.dispose();
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
  return { cases, cold, warmMs: summarize(warm), durationSeconds: (performance.now() - started) / 1000 };
}

const TEST_RUNNER_IMPORT = /^import\s+(?:type\s+)?\{[^}]*\}\s+from\s+['"](?:vitest|@jest\/globals)['"];?[ \t]*\n/m;

/** The package's sources and manifests in a fresh folder with no node_modules anywhere above it that holds them. */
function copyWithoutDependencies(pkg: CorpusPackage): string {
  const target = mkdtempSync(join(tmpdir(), 'scalpel-no-deps-'));
  for (const name of readdirSync(pkg.after.packageDir)) {
    if (name === 'node_modules') continue;
    if (name === pkg.sourceRoot || name === 'package.json' || /^tsconfig.*\.json$/.test(name))
      cpSync(join(pkg.after.packageDir, name), join(target, name), { recursive: true });
  }
  return target;
}

interface Addition {
  readonly file: string;
  readonly before: string;
  readonly after: string;
}

/**
 * New tests, as a developer adds one: in a test file of the package, the first `test(...)`/`it(...)` call copied
 * after itself under another title. At most `count`, spread over the test files in path order.
 */
function newTestAdditions(graph: CodeGraph, pkg: CorpusPackage, count: number): Addition[] {
  const files = graph.imports
    .files()
    .filter((f) => f.startsWith(`${pkg.sourceRoot}/`) && /\.(test|spec)\.tsx?$/.test(f))
    .sort();
  const additions: Addition[] = [];
  for (const file of spread(files, count)) {
    const text = graph.imports.textOf(file);
    if (text === undefined) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    let found: ts.ExpressionStatement | undefined;
    const visit = (node: ts.Node): void => {
      if (found !== undefined) return;
      if (
        ts.isExpressionStatement(node) &&
        ts.isCallExpression(node.expression) &&
        ts.isIdentifier(node.expression.expression) &&
        ['test', 'it'].includes(node.expression.expression.text) &&
        node.expression.arguments[0] !== undefined &&
        ts.isStringLiteralLike(node.expression.arguments[0])
      ) {
        found = node;
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (found === undefined) continue;
    const call = found.expression as ts.CallExpression;
    const title = call.arguments[0] as ts.StringLiteralLike;
    const statement = text.slice(found.getStart(source), found.end);
    const copy = statement.replace(title.getText(source), JSON.stringify(`${title.text} (again)`));
    const lineStart = text.lastIndexOf('\n', found.getStart(source)) + 1;
    const indent = text.slice(lineStart, found.getStart(source));
    additions.push({
      file,
      before: text,
      after: `${text.slice(0, found.end)}\n\n${indent}${copy}${text.slice(found.end)}`,
    });
  }
  return additions;
}

/** TypeScript's own language service over the same files, cold: the program build, then one file's diagnostics. */
function languageServiceBuild(
  root: string,
  files: readonly string[],
  changed: string,
): { languageServiceBuildMs: number; languageServiceDiagnosticsMs: number } {
  const absolute = files.map((f) => join(root, f));
  let options: typescript.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true };
  for (let dir = dirname(join(root, changed)); dir.length >= root.length; dir = dirname(dir)) {
    const config = join(dir, 'tsconfig.json');
    if (existsSync(config)) {
      const read = typescript.readConfigFile(config, typescript.sys.readFile);
      options = {
        ...typescript.parseJsonConfigFileContent(read.config, typescript.sys, dir).options,
        noEmit: true,
        skipLibCheck: true,
      };
      break;
    }
    if (dir === dirname(dir)) break;
  }
  const host: typescript.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => absolute,
    getScriptVersion: () => '1',
    getScriptSnapshot: (path) => {
      const text = typescript.sys.readFile(path);
      return text === undefined ? undefined : typescript.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => typescript.getDefaultLibFilePath(o),
    fileExists: (path) => typescript.sys.fileExists(path),
    readFile: (path) => typescript.sys.readFile(path),
    readDirectory: (...args) => typescript.sys.readDirectory(...args),
    directoryExists: (path) => typescript.sys.directoryExists(path),
    getDirectories: (path) => typescript.sys.getDirectories(path),
  };
  const service = typescript.createLanguageService(host, typescript.createDocumentRegistry());
  const t0 = performance.now();
  service.getProgram();
  const t1 = performance.now();
  service.getSemanticDiagnostics(join(root, changed));
  const t2 = performance.now();
  service.dispose();
  return { languageServiceBuildMs: t1 - t0, languageServiceDiagnosticsMs: t2 - t1 };
}

export function renderFalseRefusals(results: FalseRefusalResults): string {
  const lines: string[] = [
    FALSE_REFUSALS_SECTION.start,
    '## Checks that are right: false refusals and the first check (issue 24)',
    '',
  ];
  lines.push(
    `Measured by \`node out/bench/falseRefusalsRun.js\` in ${results.durationSeconds.toFixed(0)} s, the bundled TypeScript. ` +
      'Each correct edit is checked in the package as the corpus installs it (dependencies installed) and in a copy of its ' +
      'sources and manifests with no node_modules. Refused = at least one error the batch caused that is not set aside as ' +
      "the environment's. Goal: 0 refused.",
  );
  lines.push(
    '',
    '| edits | workspace | checked | refused | environment errors set aside |',
    '|---|---|---:|---:|---:|',
  );
  for (const kind of ['release edit', 'new test', 'new test (globals)'] as const) {
    for (const installed of [true, false]) {
      const of = results.cases.filter((c) => c.kind === kind && c.installed === installed);
      if (of.length === 0) continue;
      lines.push(
        `| ${kind} | ${installed ? 'dependencies installed' : 'no node_modules'} | ${of.length} | ${of.filter((c) => c.refused).length} | ${of.reduce((sum, c) => sum + c.environmentErrors, 0)} |`,
      );
    }
  }
  const refused = results.cases.filter((c) => c.refused);
  if (refused.length > 0) {
    lines.push('', 'Refused:');
    for (const c of refused.slice(0, 12))
      lines.push(
        `- ${c.pkg} ${c.file} (${c.kind}, ${c.installed ? 'installed' : 'no node_modules'}): ${c.example ?? ''}`,
      );
  }
  lines.push(
    '',
    "**The first check of each package** against TypeScript's own language service in the same run (wall ms; the service " +
      "is built after Scalpel's check, so it reads files the check already brought into the OS cache):",
    '',
    '| package | files checked | Scalpel cold check | LS program build | LS build + diagnostics of the file | ratio to LS build + diagnostics |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const c of results.cold) {
    const ls = c.languageServiceBuildMs + c.languageServiceDiagnosticsMs;
    lines.push(
      `| ${c.pkg} | ${c.files} | ${c.checkMs.toFixed(0)} | ${c.languageServiceBuildMs.toFixed(0)} | ${ls.toFixed(0)} | ${(c.checkMs / ls).toFixed(2)}× |`,
    );
  }
  lines.push(
    '',
    `Warm checks (every later one): median ${results.warmMs.median.toFixed(0)} ms, p90 ${results.warmMs.p90.toFixed(0)} ms over ${results.warmMs.count}.`,
  );
  lines.push(FALSE_REFUSALS_SECTION.end);
  return lines.join('\n');
}

export const FALSE_REFUSALS_SECTION: SectionMarkers = {
  start: '<!-- issue-24 false refusals: start -->',
  end: '<!-- issue-24 false refusals: end -->',
};
