import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findExecutable } from '../src/core/check/toolchain/runProgram';
import { TypeCheckService, type ProposedFileChange } from '../src/core/check/typeCheck';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../src/core/language/languages';
import { packagesOf } from '../src/core/language/go/goVetCheck';
import { loadLanguageCorpus } from '../test/support/languageCorpus';
import { runBenchSection, type SectionMarkers } from './benchSection';
import { baselineTable, type CheckedEdit, checkerTables, seconds, timedCheck } from './checkerTables';
import { median } from './stats';

/**
 * `npm run bench:checkers` (issue 26, Go's part): `go build` and `go vet` as Scalpel runs them, on the Go corpus's modules that need
 * nothing outside the standard library (go-cmp, and yaml.v3 whose tests import gopkg.in/check.v1, which the offline
 * check sets aside as the environment's). Debian's packages ship no `go.mod`, so the bench writes the upstream one
 * (module path and Go version; yaml.v3's without its require line of check.v1) into a copy. For top-level functions that another file of the module calls, three
 * deliberate breaks (a parameter added in front, the function deleted, the function renamed without its callers) and
 * two correct edits (a comment at the top of the body, a new unexported function after it), each checked through the
 * type check of the edit service. A break is caught when the check reports at least one new error; a correct edit is
 * a false alarm when it reports any. Time per check: the first of a module (cold: go builds its cache) and the later
 * ones (warm), against the same two commands on the same packages once from the command line in the same run.
 */

export const GO_CHECKS_SECTION: SectionMarkers = {
  start: '<!-- issue-26 go checker: start (npm run bench:checkers) -->',
  end: '<!-- issue-26 go checker: end -->',
};

/** The corpus packages benched: where the module's root is in the package, and its upstream `go.mod`. */
const MODULES: readonly { readonly source: string; readonly root: string; readonly goMod: string }[] = [
  {
    source: 'golang-github-google-go-cmp-dev',
    root: 'usr/share/gocode/src/github.com/google/go-cmp',
    goMod: 'module github.com/google/go-cmp\n\ngo 1.13\n',
  },
  {
    source: 'golang-gopkg-yaml.v3-dev',
    root: 'usr/share/gocode/src/gopkg.in/yaml.v3',
    // Upstream's also requires gopkg.in/check.v1 for its tests: with that line and no module cache the whole module
    // fails to load; without it, the tests' import of it is set aside as the environment's.
    goMod: 'module gopkg.in/yaml.v3\n\ngo 1.16\n',
  },
];

interface Target {
  readonly file: string;
  readonly name: string;
  readonly caller: string;
}

type EditResult = CheckedEdit & { readonly module: string; readonly environmentErrors: number };

/** A top-level function (no receiver) at column 0, as gofmt writes it. */
const FUNC = /^func (\w+)(?:\[[^\]\n]*\])?\(/gm;

function targetsOf(root: string, files: readonly string[], modulePath: string, perModule: number): Target[] {
  const text = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const found: Target[] = [];
  for (const file of files) {
    if (file.endsWith('_test.go')) continue;
    const source = text.get(file) ?? '';
    const pkg = /^package (\w+)/m.exec(source)?.[1];
    const folder = dirname(file) === '.' ? '' : dirname(file);
    const importPath = folder === '' ? modulePath : `${modulePath}/${folder}`;
    for (const match of source.matchAll(FUNC)) {
      const name = match[1] ?? '';
      if (name === 'main' || name === 'init' || pkg === undefined) continue;
      // Once in its package: a name defined in several files (build-tag variants) would make the edit ambiguous.
      const definitions = files.filter(
        (f) => dirname(f) === dirname(file) && new RegExp(`^func ${name}\\b`, 'm').test(text.get(f) ?? ''),
      );
      if (definitions.length !== 1) continue;
      const caller = files.find((other) => {
        if (other === file) return false;
        const code = text.get(other) ?? '';
        if (dirname(other) === dirname(file) && /^package (\w+)/m.exec(code)?.[1] === pkg)
          return new RegExp(`(?<![.\\w])${name}\\(`).test(code);
        return code.includes(`"${importPath}"`) && new RegExp(`\\b${pkg}\\.${name}\\(`).test(code);
      });
      if (caller === undefined) continue;
      found.push({ file, name, caller });
      if (found.length >= perModule) return found;
    }
  }
  return found;
}

/** The five edits of a target: [kind, deliberate break?, the new text of its file]. */
function editsOf(target: Target, text: string): [string, boolean, string][] {
  const { name } = target;
  const start = text.search(new RegExp(`^func ${name}\\b`, 'm'));
  const headEnd = text.indexOf('\n', start);
  const head = text.slice(start, headEnd);
  // The function's extent: its head line when it closes there, else up to the first `}` line at column 0.
  const close = head.trimEnd().endsWith('}') ? headEnd : text.indexOf('\n}', headEnd) + 2;
  const end = close < text.length && text[close] === '\n' ? close + 1 : close;
  const paren = text.indexOf('(', start + `func ${name}`.length);
  const firstParam = text.slice(paren + 1, paren + 2) === ')' ? 'scalpelAdded int' : 'scalpelAdded int, ';
  const bodyStart = headEnd + 1;
  return [
    [
      'add a parameter in front (callers not updated)',
      true,
      text.slice(0, paren + 1) + firstParam + text.slice(paren + 1),
    ],
    ['delete the used function', true, text.slice(0, start) + text.slice(end)],
    [
      'rename without its callers',
      true,
      text.slice(0, start) + `func ${name}Renamed` + text.slice(start + `func ${name}`.length),
    ],
    [
      'add a comment at the top of the body',
      false,
      head.trimEnd().endsWith('}')
        ? text
        : `${text.slice(0, bodyStart)}\t// checked by Scalpel's bench\n${text.slice(bodyStart)}`,
    ],
    [
      'add an unexported function after it',
      false,
      `${text.slice(0, end)}\nfunc scalpelBench${name}() int {\n\treturn 0\n}\n${text.slice(end)}`,
    ],
  ];
}

/**
 * `go build -gcflags=-e` and `go vet` of the module's packages once from the command line, as the check runs them:
 * what one side of a check costs without Scalpel.
 */
function goCliMs(root: string, files: readonly string[]): number {
  const packages = packagesOf(
    root,
    files.map((f) => join(root, f)),
  );
  const started = performance.now();
  for (const args of [
    ['build', '-gcflags=-e', '-o', '/dev/null', ...packages],
    ['vet', ...packages],
  ])
    spawnSync('go', args, {
      cwd: root,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=readonly', GOTOOLCHAIN: 'local' },
    });
  return performance.now() - started;
}

runBenchSection({
  label: 'bench:checkers (Go)',
  markers: GO_CHECKS_SECTION,
  jsonFile: 'results-checkers-go.json',
  async measure({ option, log }) {
    if (findExecutable('go') === undefined) throw new Error('go is not on PATH (Debian: apt-get install golang-go)');
    const version = spawnSync('go', ['version'], { encoding: 'utf8' }).stdout.trim();
    await loadAllLanguages();
    const perModule = option('--per-module') ?? 6;
    const corpus = loadLanguageCorpus('go');
    const results: EditResult[] = [];
    const baselines: { module: string; scalpelWarmMs: number; cliMs: number }[] = [];
    for (const spec of MODULES) {
      const source = corpus.sources.find((s) => s.name === spec.source);
      if (source === undefined || !existsSync(join(source.dir, spec.root))) {
        log(`${spec.source}: not in the Go corpus, skipped`);
        continue;
      }
      const root = mkdtempSync(join(tmpdir(), 'scalpel-bench-go-'));
      cpSync(join(source.dir, spec.root), root, { recursive: true });
      writeFileSync(join(root, 'go.mod'), spec.goMod);
      const modulePath = /^module (\S+)/.exec(spec.goMod)?.[1] ?? '';
      const label = `${source.name} ${source.version}`;
      const fileSystem = nodeSourceFileSystem(root);
      const files = fileSystem.listSourceFiles().filter((f) => f.endsWith('.go'));
      const targets = targetsOf(root, files, modulePath, perModule);
      log(`${label}: ${targets.length} functions`);
      const graph = new CodeGraph(fileSystem, { checkTimeLimitMs: 300_000 });
      const service = new TypeCheckService(graph);
      let first = true;
      const warmTimes: number[] = [];
      try {
        for (const target of targets) {
          const text = readFileSync(join(root, target.file), 'utf8');
          for (const [kind, deliberate, after] of editsOf(target, text)) {
            if (after === text) continue;
            const change: ProposedFileChange = { file: target.file, before: text, after };
            const checked = await timedCheck(service, change, 'go vet');
            if (!first) warmTimes.push(checked.ms);
            results.push({
              module: label,
              kind,
              deliberate,
              target: `${target.file}/function[${target.name}] (called from ${target.caller})`,
              ...checked,
              warm: !first,
            });
            first = false;
          }
        }
        if (warmTimes.length > 0)
          baselines.push({ module: label, scalpelWarmMs: median(warmTimes), cliMs: goCliMs(root, files) });
      } finally {
        graph.dispose();
        rmSync(root, { recursive: true, force: true });
      }
    }
    return { markdown: render(results, baselines, version), json: { version, results, baselines } };
  },
});

function render(
  results: readonly EditResult[],
  baselines: readonly { module: string; scalpelWarmMs: number; cliMs: number }[],
  version: string,
): string {
  const tables = checkerTables(results);
  const warm = tables.warmMs;
  const cold = tables.coldMs;
  const lines = [
    GO_CHECKS_SECTION.start,
    '',
    '### Go checked by go build and go vet (issue 26)',
    '',
    `${version}. ${results.length} checks on ${new Set(results.map((r) => r.target)).size} top-level functions that another file of the module calls, in ${new Set(results.map((r) => r.module)).size} modules of the Go corpus (the ones that need nothing outside the standard library; Debian ships no \`go.mod\`, so the upstream one is written into a copy), through the type check of the edit service (both sides, the new-error rule). ${tables.verdict}`,
    '',
    ...tables.kinds,
    '',
    `Time per check (every package of the module, the batch's side first, the side before only when it has errors): warm median ${seconds(median(warm))} over ${warm.length} checks, max ${seconds(Math.max(...warm))}; cold (the first check of a module) median ${seconds(median(cold))} over ${cold.length}. Load average at the end of the run: ${loadavg()[0]?.toFixed(1) ?? '?'} on ${availableParallelism()} cores.`,
    '',
    "Against `go build -gcflags=-e` and `go vet` of the same packages once from the command line, in the same run (one side only). It runs in the bench's copy of the module, whose paths go has not built before (the check runs in its own linked tree), so it pays about what a checker run afresh pays:",
    '',
    ...baselineTable(
      '| module | warm check (median) | go build + vet, one side | ratio |',
      baselines.map((b) => ({ name: b.module, scalpelWarmMs: b.scalpelWarmMs, cliMs: b.cliMs })),
    ),
    '',
    ...tables.misses,
    'cobra and prometheus/client_golang were not benched: they need modules that are not in an offline module cache, so both would measure the environment.',
    '',
    GO_CHECKS_SECTION.end,
  ];
  return lines.join('\n');
}
