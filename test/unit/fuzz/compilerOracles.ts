import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileOutline } from '../../../src/core/elements/element';
import { findRepoRootOrThrow } from '../../support/corpus';

/**
 * The real compilers as oracles of the language fuzz (languages.fuzz.test.ts): does a file Scalpel wrote compile as
 * far as each compiler can tell without the project around it? Every oracle takes a batch of files in one process:
 *
 * - Python: CPython's `compile()` (what `python3 -m py_compile` runs), the whole front end: tokenizer, parser,
 *   symbol table.
 * - Rust: rustc's parser (`-Z parse-crate-root-only`, through RUSTC_BOOTSTRAP on a stable toolchain), the files of a
 *   batch as inline modules of one crate root, split in halves to find the one a failing batch holds.
 * - Java: javac's parser (JavacTask.parse, oracles/ParseCheck.java) in one JVM.
 * - Go: `gofmt -e` (go/parser) when go is on PATH (scripts/test.sh installs Debian's golang-go where it can).
 * - C#: mono's `mcs --parse` when on PATH (scripts/test.sh installs Debian's mono-mcs where it can), the files of a
 *   batch in one compilation. mcs reads C# up to 7.x: a file it refuses before an edit is not judged.
 *
 * Parsing, not building: the corpus files need their crates, classpaths and packages, which are not here; what the
 * parsers refuse is exactly "the file is not whole".
 */

export interface OracleFile {
  /** Where the file came from, for messages. */
  readonly name: string;
  readonly text: string;
}

export interface OracleVerdict {
  readonly name: string;
  readonly message: string;
  /**
   * Set when the compiler's only errors are ones the language's own compiler finds after the parse (a duplicate name,
   * a modifier a member cannot take): what the other oracles, parsers alone, never see. Counted apart.
   */
  readonly afterParse?: boolean;
}

export interface CompilerOracle {
  /** What runs, as a report says it: "python3 compile() (CPython 3.11.7)". */
  readonly description: string;
  /** The files of the batch that do not compile, with the compiler's first message. */
  check(files: readonly OracleFile[]): OracleVerdict[];
  /**
   * Set when the compiler reads an older version of the language than the corpus is written in, saying which: a file
   * it refuses before an edit is then still edited (the grammar reads it), but what is written there is not judged.
   */
  readonly olderLanguage?: string;
  /** With olderLanguage: whether a file uses what the compiler's version predates, so that its verdict means nothing. */
  newerThanIt?(outline: FileOutline): boolean;
}

function onPath(command: string, args: readonly string[], input?: string): string | undefined {
  const run = spawnSync(command, args, { encoding: 'utf8', ...(input === undefined ? {} : { input }) });
  if (run.error !== undefined || run.status !== 0) return undefined;
  return `${run.stdout}${run.stderr}`.trim().split('\n')[0];
}

/** A scratch folder for one batch, removed after it. */
function withFolder<T>(run: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'scalpel-oracle-'));
  try {
    return run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PYTHON_CHECK = String.raw`
import sys, json
failures = []
for path in sys.stdin.read().split('\n'):
    if not path:
        continue
    try:
        with open(path, 'rb') as f:
            compile(f.read(), path, 'exec', dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        failures.append([path, type(e).__name__ + ': ' + str(e)])
print(json.dumps(failures))
`;

function pythonOracle(): CompilerOracle | undefined {
  const version = onPath('python3', ['--version']);
  if (version === undefined) return undefined;
  return {
    description: `python3 compile(), as py_compile (${version})`,
    check: (files) =>
      withFolder((dir) => {
        const paths = files.map((file, i) => {
          const path = join(dir, `f${i}.py`);
          writeFileSync(path, file.text);
          return path;
        });
        const run = spawnSync('python3', ['-c', PYTHON_CHECK], {
          input: paths.join('\n'),
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        });
        if (run.status !== 0) throw new Error(`the Python oracle failed: ${run.stderr}`);
        const failures = JSON.parse(run.stdout) as Array<[string, string]>;
        return failures.map(([path, message]) => ({ name: files[paths.indexOf(path)]?.name ?? path, message }));
      }),
  };
}

/** rustc's parser over the files as inline modules of one crate root; undefined when all parse, else its first error. */
function rustParse(dir: string, texts: readonly string[]): string | undefined {
  // A byte order mark heads a file, not a module: the one at byte 0 is the file's encoding.
  const root = texts.map((text, i) => `mod scalpel_fuzz_${i} {\n${text.replace(/^\uFEFF/, '')}\n}\n`).join('');
  const path = join(dir, 'lib.rs');
  writeFileSync(path, root);
  const run = spawnSync(
    'rustc',
    [
      '-Z',
      'parse-crate-root-only',
      '--edition',
      '2021',
      '--crate-type',
      'lib',
      '--error-format',
      'short',
      path,
      '-o',
      join(dir, 'out'),
    ],
    { encoding: 'utf8', env: { ...process.env, RUSTC_BOOTSTRAP: '1' }, maxBuffer: 64 * 1024 * 1024 },
  );
  const error = run.stderr.split('\n').find((line) => /\berror\b/.test(line));
  return run.status === 0 && error === undefined ? undefined : (error ?? run.stderr.slice(0, 300));
}

function rustOracle(): CompilerOracle | undefined {
  const version = onPath('rustc', ['--version']);
  if (version === undefined) return undefined;
  return {
    description: `rustc's parser, -Z parse-crate-root-only (${version})`,
    check: (files) =>
      withFolder((dir) => {
        const verdicts: OracleVerdict[] = [];
        // Halves of a failing batch until each failing file stands alone.
        const visit = (part: readonly OracleFile[]): void => {
          if (part.length === 0) return;
          const error = rustParse(
            dir,
            part.map((f) => f.text),
          );
          if (error === undefined) return;
          if (part.length === 1) {
            const [only] = part;
            if (only !== undefined) verdicts.push({ name: only.name, message: error });
            return;
          }
          const middle = Math.ceil(part.length / 2);
          visit(part.slice(0, middle));
          visit(part.slice(middle));
        };
        for (let start = 0; start < files.length; start += 400) visit(files.slice(start, start + 400));
        return verdicts;
      }),
  };
}

function javaOracle(): CompilerOracle | undefined {
  const version = onPath('javac', ['-version']);
  if (version === undefined || onPath('java', ['-version']) === undefined) return undefined;
  const checker = join(findRepoRootOrThrow(), 'test', 'unit', 'fuzz', 'oracles', 'ParseCheck.java');
  return {
    description: `javac's parser, JavacTask.parse (${version})`,
    check: (files) =>
      withFolder((dir) => {
        const paths = files.map((file, i) => {
          // Each in a folder of its own: a parse does not compare a public class with its file's name.
          const path = join(dir, `f${i}`, 'Checked.java');
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, file.text);
          return path;
        });
        const list = join(dir, 'files.txt');
        writeFileSync(list, paths.join('\n'));
        const run = spawnSync('java', [checker, list], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        if (run.status !== 0) throw new Error(`the Java oracle failed: ${run.stderr.slice(0, 2000)}`);
        const seen = new Set<string>();
        const verdicts: OracleVerdict[] = [];
        for (const line of run.stdout.split('\n')) {
          const [path, lineNumber, message] = line.split('\t');
          if (path === undefined || message === undefined || seen.has(path)) continue;
          seen.add(path);
          verdicts.push({
            name: files[paths.indexOf(path)]?.name ?? path,
            message: `line ${lineNumber ?? '?'}: ${message}`,
          });
        }
        return verdicts;
      }),
  };
}

function goOracle(): CompilerOracle | undefined {
  const version = onPath('go', ['version']);
  // gofmt reads a file from stdin; an empty one is not Go, a package clause is.
  if (version === undefined || onPath('gofmt', ['-l'], 'package p\n') === undefined) return undefined;
  return {
    description: `gofmt -e, go/parser (${version})`,
    check: (files) =>
      withFolder((dir) => {
        const verdicts: OracleVerdict[] = [];
        files.forEach((file, i) => {
          const path = join(dir, `f${i}.go`);
          writeFileSync(path, file.text);
          const run = spawnSync('gofmt', ['-e', '-l', path], { encoding: 'utf8' });
          if (run.status !== 0) verdicts.push({ name: file.name, message: run.stderr.split('\n')[0] ?? '' });
        });
        return verdicts;
      }),
  };
}

/**
 * Errors mcs gives while parsing that Roslyn, the C# compiler, gives after its parse, when it declares and binds: mcs
 * adds each type to its namespace and each member to its type as it reads them, and checks them there. Such a
 * file parses; the fuzz counts it apart. Each is in Roslyn's declaration or binding code, not in its parser.
 */
const MCS_AFTER_PARSE: ReadonlyMap<string, string> = new Map([
  ['CS0101', 'a namespace already holds the type'],
  ['CS0102', 'a type already holds the member'],
  ['CS0100', 'a parameter name repeated'],
  ['CS0106', 'a modifier the member cannot take (C# 8 lets an interface member be public, protected...)'],
  ['CS0128', 'a local variable declared twice'],
  ['CS0136', "a local variable hiding an enclosing scope's"],
  ['CS0409', 'a type parameter constrained twice'],
  ['CS0524', 'a type in an interface (C# 8 allows it)'],
  ['CS0525', 'a field in an interface (C# 8 allows static ones)'],
  ['CS0531', 'a body in an interface member (C# 8 allows it)'],
  ['CS0542', 'a member named after its type'],
  ['CS0567', 'an operator in an interface (C# 8 allows some)'],
  ['CS1007', 'an accessor written twice'],
  ['CS1527', 'a private or protected type in a namespace'],
  ['CS1740', 'a named argument given twice'],
  ['CS4033', 'await in a method not marked async'],
]);

const DUPLICATES = new Set(['CS0101', 'CS0102']);

const MCS_ERROR = /^(.*?)\((\d+),(\d+)\): error (CS\d+): (.*)$/;

function csharpOracle(): CompilerOracle | undefined {
  const version = onPath('mcs', ['--version']);
  if (version === undefined) return undefined;
  return {
    description: `mcs --parse -langversion:experimental -unsafe (${version})`,
    olderLanguage: `mcs reads C# up to 7.x (not top-level statements, file-scoped namespaces, records, init, switch expressions, not patterns)`,
    newerThanIt: (outline) => outline.elements.some((element) => element.kind === 'statement'),
    check: (files) =>
      withFolder((dir) => {
        const names = files.map((file, i) => {
          const name = `f${i}.cs`;
          writeFileSync(join(dir, name), file.text);
          return name;
        });
        writeFileSync(join(dir, 'files.rsp'), names.join('\n'));
        const run = spawnSync(
          'mcs',
          ['--parse', '-langversion:experimental', '-unsafe', '-codepage:utf8', '-nowarn:1692', '@files.rsp'],
          { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
        );
        // Errors and warnings go to stderr, the count to stdout.
        const lines = run.stderr.split('\n');
        const first = new Map<string, string>();
        const afterParse = new Map<string, string>();
        const unplaced: string[] = [];
        lines.forEach((line, i) => {
          const match = MCS_ERROR.exec(line);
          if (match === null) {
            if (/\berror CS\d+/.test(line)) unplaced.push(line);
            return;
          }
          const [, path = '', lineNumber = '', , code = '', message = ''] = match;
          // A type or a member defined twice: in one file, or in two files of the batch (mcs names the other
          // definition on the next line), which is the batch's doing, not the file's.
          if (DUPLICATES.has(code) && !(lines[i + 1] ?? '').startsWith(`${path}(`)) return;
          const found = MCS_AFTER_PARSE.has(code) ? afterParse : first;
          if (!found.has(path)) found.set(path, `line ${lineNumber}: ${code}: ${message}`);
        });
        if (unplaced.length > 0 || (run.status !== 0 && !lines.some((line) => MCS_ERROR.test(line))))
          throw new Error(`the C# oracle failed: ${run.stdout.slice(0, 500)}${run.stderr.slice(0, 1500)}`);
        const verdict = (path: string, message: string, late: boolean): OracleVerdict => {
          const index = names.indexOf(path);
          // A #line directive names another file: its errors are not placed, so the batch's check is not trusted.
          if (index < 0) throw new Error(`the C# oracle could not place an error of ${path}: ${message}`);
          return { name: files[index]?.name ?? path, message, ...(late ? { afterParse: true } : {}) };
        };
        return [
          ...[...first].map(([path, message]) => verdict(path, message, false)),
          ...[...afterParse]
            .filter(([path]) => !first.has(path))
            .map(([path, message]) => verdict(path, message, true)),
        ];
      }),
  };
}

/** The oracle of a language on this machine, or why there is none. */
export function oracleFor(language: string): CompilerOracle | string {
  const found =
    language === 'python'
      ? pythonOracle()
      : language === 'rust'
        ? rustOracle()
        : language === 'java'
          ? javaOracle()
          : language === 'go'
            ? goOracle()
            : language === 'csharp'
              ? csharpOracle()
              : undefined;
  if (found !== undefined) return found;
  const needs: Record<string, string> = {
    python: 'python3',
    rust: 'rustc',
    java: 'javac and java',
    go: 'go (gofmt)',
    csharp: "mono's mcs (Debian's mono-mcs)",
  };
  return `no compiler: ${needs[language] ?? language} is not on PATH, so written files are checked by the parse alone`;
}
