import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TypeCheckService, type ProposedFileChange } from '../src/core/check/typeCheck';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../src/core/language/languages';
import { pythonImporters } from '../src/core/language/python/pythonImporters';
import { loadLanguageCorpus } from '../test/support/languageCorpus';
import { runBenchSection, type SectionMarkers } from './benchSection';
import { baselineTable, type CheckedEdit, checkerTables, seconds, timedCheck } from './checkerTables';
import { median } from './stats';

/**
 * `npm run bench:checkers` (issue 26, the checker part): pyright as Scalpel runs it, on the Python corpus's real
 * packages. For module-level functions that another module of the package imports and calls, the bench makes three
 * deliberate breaks (a required parameter added in front, the function deleted, the function renamed without its
 * callers) and two correct edits (an optional keyword parameter added at the end; a statement-free line, a comment,
 * added at the top of the body), each checked through the type check of the edit service (TypeCheckService, both
 * sides, the new-error rule). A break is caught when the check reports at least one new error; a correct edit is a
 * false alarm when it reports any. Time per check: the first check of a package (cold: the language server starts
 * and reads the project) and the later ones (warm), against the baseline of the pyright command line
 * (`--outputjson`) run once on the same files in the same run (what a checker that is not kept warm pays each time).
 */

export const PYTHON_CHECKS_SECTION: SectionMarkers = {
  start: '<!-- issue-26 python checker: start (npm run bench:checkers) -->',
  end: '<!-- issue-26 python checker: end -->',
};

interface Target {
  readonly file: string;
  readonly name: string;
  /** The whole `def name(params)` head as written, and the parameters inside its parentheses. */
  readonly head: string;
  readonly params: string;
  readonly caller: string;
}

const DEF = /^(async\s+)?def\s+(\w+)\s*\(([^()]*)\)/gm;

function targetsOf(root: string, files: readonly string[], perPackage: number): Target[] {
  const text = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const found: Target[] = [];
  for (const file of files) {
    if (file.endsWith('__init__.py')) continue;
    const source = text.get(file) ?? '';
    for (const match of source.matchAll(DEF)) {
      const [head, , name = '', params = ''] = match;
      if (name.startsWith('_') || /[*/]/.test(params) || params.trim() === '') continue;
      // Decorated functions are left out: deleting one would leave its decorator on the next definition.
      const lineBefore = source.slice(0, match.index).trimEnd().split('\n').at(-1) ?? '';
      if (lineBefore.trimStart().startsWith('@')) continue;
      // Once in its file: a name defined twice (platform variants) would make the edit ambiguous.
      if (source.split(new RegExp(`^(?:async\\s+)?def\\s+${name}\\b`, 'm')).length !== 2) continue;
      const importLine = new RegExp(`^\\s*from\\s+[.\\w]+\\s+import\\s+[^\\n]*\\b${name}\\b`, 'm');
      const caller = files.find(
        (other) =>
          other !== file &&
          importLine.test(text.get(other) ?? '') &&
          new RegExp(`\\b${name}\\(`).test(text.get(other) ?? ''),
      );
      if (caller === undefined) continue;
      found.push({ file, name, head, params, caller });
      if (found.length >= perPackage) return found;
    }
  }
  return found;
}

/** The five edits of a target: [kind, deliberate break?, the new text of its file]. */
function editsOf(target: Target, text: string): [string, boolean, string][] {
  const { head, name, params } = target;
  const withParams = (inner: string): string => head.replace(`(${params})`, `(${inner})`);
  const trimmed = params.trimEnd().replace(/,\s*$/, '');
  const defLine = new RegExp(`^(?:async\\s+)?def\\s+${name}\\b`, 'm');
  const start = text.search(defLine);
  // The function's extent: up to the next line at column 0 that is code.
  const rest = text.slice(start);
  const next = /\n(?=[^\s#\n])/.exec(rest.slice(head.length));
  const end = next === null ? text.length : start + head.length + next.index + 1;
  const bodyStart = text.indexOf('\n', text.indexOf(':', start + head.length)) + 1;
  const indent = /^[ \t]*/.exec(text.slice(bodyStart))?.[0] ?? '    ';
  return [
    [
      'add a required parameter (callers not updated)',
      true,
      text.replace(head, withParams(`scalpel_added, ${params}`)),
    ],
    ['delete the used function', true, text.slice(0, start) + text.slice(end)],
    ['rename without its callers', true, text.replace(defLine, (m) => `${m}_renamed`)],
    [
      'add an optional keyword parameter',
      false,
      text.replace(head, withParams(`${trimmed}, scalpel_option: object = None`)),
    ],
    [
      'add a comment at the top of the body',
      false,
      `${text.slice(0, bodyStart)}${indent}# checked by Scalpel's bench\n${text.slice(bodyStart)}`,
    ],
  ];
}

/** The pyright command line on the same files, once: the baseline a checker that is not kept warm pays. */
function pyrightCliMs(root: string, files: readonly string[]): number | undefined {
  const cli = join(dirname(require.resolve('pyright/package.json')), 'index.js');
  if (!existsSync(cli)) return undefined;
  const started = performance.now();
  spawnSync(process.execPath, [cli, '--outputjson', ...files], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  return performance.now() - started;
}

runBenchSection({
  label: 'bench:checkers',
  markers: PYTHON_CHECKS_SECTION,
  jsonFile: 'results-checkers.json',
  async measure({ option, log }) {
    await loadAllLanguages();
    const perPackage = option('--per-package') ?? 2;
    const corpus = loadLanguageCorpus('python');
    const results: (CheckedEdit & { package: string })[] = [];
    const baselines: { package: string; scalpelWarmMs: number; cliMs: number }[] = [];
    for (const source of corpus.sources) {
      const sitePackages = join(source.dir, 'usr', 'lib', 'python3', 'dist-packages');
      const root = existsSync(sitePackages) ? sitePackages : source.dir;
      const fileSystem = nodeSourceFileSystem(root);
      const files = fileSystem.listSourceFiles().filter((f) => f.endsWith('.py'));
      const targets = targetsOf(root, files, perPackage);
      log(`${source.name}: ${targets.length} functions`);
      const graph = new CodeGraph(fileSystem, { checkTimeLimitMs: 300_000 });
      const service = new TypeCheckService(graph);
      let first = true;
      const warmTimes: number[] = [];
      try {
        for (const target of targets) {
          const text = readFileSync(join(root, target.file), 'utf8');
          for (const [kind, deliberate, after] of editsOf(target, text)) {
            const change: ProposedFileChange = { file: target.file, before: text, after };
            const checked = await timedCheck(service, change, 'pyright');
            if (!first) warmTimes.push(checked.ms);
            const { environmentErrors: _environment, ...counted } = checked;
            results.push({
              package: `${source.name} ${source.version}`,
              kind,
              deliberate,
              target: `${target.file}/function[${target.name}] (called from ${target.caller})`,
              ...counted,
              warm: !first,
            });
            first = false;
          }
        }
        const target = targets[0];
        if (target !== undefined && warmTimes.length > 0) {
          const importers = pythonImporters([target.file], files, (f) => fileSystem.readFile(f), 60).files;
          const cliMs = pyrightCliMs(root, [target.file, ...importers]);
          if (cliMs !== undefined) baselines.push({ package: source.name, scalpelWarmMs: median(warmTimes), cliMs });
        }
      } finally {
        graph.dispose();
      }
    }
    return { markdown: render(results, baselines), json: { results, baselines } };
  },
});

function render(
  results: readonly (CheckedEdit & { package: string })[],
  baselines: readonly { package: string; scalpelWarmMs: number; cliMs: number }[],
): string {
  const tables = checkerTables(results);
  const warm = tables.warmMs;
  const cold = tables.coldMs;
  const lines = [
    PYTHON_CHECKS_SECTION.start,
    '',
    '### Python checked by pyright (issue 26)',
    '',
    `${results.length} checks on ${new Set(results.map((r) => r.target)).size} module-level functions that another module imports and calls, ${new Set(results.map((r) => r.package)).size} packages of the Python corpus, through the type check of the edit service (both sides, the new-error rule). ${tables.verdict}`,
    '',
    ...tables.kinds,
    '',
    `Time per check (the changed file and its importers, both sides): warm median ${seconds(median(warm))} over ${warm.length} checks (goal under 2 s), max ${seconds(Math.max(...warm))}; cold (the first check of a package: the language server starts and reads the project) median ${seconds(median(cold))} over ${cold.length}.`,
    '',
    'Against the pyright command line run once on the same files in the same run (`--outputjson`, a checker not kept warm; one side only, so half the work of a check):',
    '',
    ...baselineTable(
      '| package | warm check (median) | pyright CLI, one side | ratio |',
      baselines.map((b) => ({ name: b.package, scalpelWarmMs: b.scalpelWarmMs, cliMs: b.cliMs })),
    ),
    '',
    ...tables.misses,
    "Rust (`cargo check`) and Java (`javac`) were not benched: the corpus's Rust crates (Debian source packages) need dependencies that are not in cargo's offline cache, and its Java (react-native) needs the Android classpath, so both would measure the environment; their checks are covered by tests on small real projects. Go is benched below.",
    '',
    PYTHON_CHECKS_SECTION.end,
  ];
  return lines.join('\n');
}
