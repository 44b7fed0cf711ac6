import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRootOrThrow } from './workspacePaths';

/**
 * What every bench runner shares: its numeric options, the splice of its marked section into a results file, the
 * JSON beside it, and the wrapper that turns a failure into one message and exit code 1. Each runner only measures
 * and renders.
 */

/** The comment lines a section of a results file starts and ends with; the section includes them. */
export interface SectionMarkers {
  readonly start: string;
  readonly end: string;
}

/** The agent-tools section of bench/results.md: `npm run bench:tools` writes it, the main bench carries it over. */
export const TOOL_ANSWERS_SECTION: SectionMarkers = {
  start: '<!-- tool answers: start (npm run bench:tools) -->',
  end: '<!-- tool answers: end -->',
};

/**
 * `markdown` with its marked section replaced by `section` (markers included). A results file without the section
 * gets it from `insert`, by default appended after a blank line.
 */
export function spliceMarkedSection(
  markdown: string,
  section: string,
  markers: SectionMarkers,
  insert: (markdown: string, section: string) => string = appendSection,
): string {
  const start = markdown.indexOf(markers.start);
  const end = markdown.indexOf(markers.end);
  if (start >= 0 && end > start)
    return `${markdown.slice(0, start)}${section}${markdown.slice(end + markers.end.length)}`;
  return insert(markdown, section);
}

function appendSection(markdown: string, section: string): string {
  return `${markdown.trimEnd()}\n\n${section}\n`;
}

/** The marked section of `markdown`, markers included, or undefined when it has none. */
export function markedSection(markdown: string, markers: SectionMarkers): string | undefined {
  const start = markdown.indexOf(markers.start);
  const end = markdown.indexOf(markers.end, start);
  return start >= 0 && end > start ? markdown.slice(start, end + markers.end.length) : undefined;
}

/** `--name N` among `args` as a finite number, or undefined when it is absent or not a number. */
export function numberOption(args: readonly string[], name: string): number | undefined {
  const at = args.indexOf(name);
  const value = at >= 0 ? Number(args[at + 1]) : Number.NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** Runs a runner's `main`; a failure prints `label: ` and the stack on stderr and sets exit code 1. */
export function runBenchMain(label: string, main: () => Promise<void> | void): void {
  const fail = (error: unknown): void => {
    process.stderr.write(`${label}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  };
  try {
    void Promise.resolve(main()).catch(fail);
  } catch (error) {
    fail(error);
  }
}

/** What a runner is given: the repository root, its command-line arguments, and a log on stderr. */
export interface BenchRun {
  readonly root: string;
  readonly args: readonly string[];
  /** `--name N` as a number, or undefined. */
  option(name: string): number | undefined;
  log(message: string): void;
}

export interface BenchOutput {
  /** The markdown: the marked section (markers included), or the whole file when the runner has no markers. */
  readonly markdown: string;
  /** Every number of the run, written as indented JSON to `jsonFile`. */
  readonly json?: unknown;
}

export interface BenchSection {
  /** Prefixes the log lines (`[label] ...`) and a failure. */
  readonly label: string;
  /** The file under bench/ the markdown goes to; results.md by default. */
  readonly markdownFile?: string;
  /** The markers of the runner's section in `markdownFile`; without them the runner writes the whole file. */
  readonly markers?: SectionMarkers;
  /** The file under bench/ for `json`. */
  readonly jsonFile?: string;
  readonly measure: (run: BenchRun) => Promise<BenchOutput> | BenchOutput;
}

/**
 * Runs one bench runner: measures, writes its section into (or its whole) results file and its JSON, prints the
 * markdown on stdout. Every other runner output stays the runner's own.
 */
export function runBenchSection(spec: BenchSection): void {
  runBenchMain(spec.label, async () => {
    const root = findRepoRootOrThrow();
    const args = process.argv.slice(2);
    const output = await spec.measure({
      root,
      args,
      option: (name) => numberOption(args, name),
      log: (message) => process.stderr.write(`[${spec.label}] ${message}\n`),
    });
    const markdownPath = join(root, 'bench', spec.markdownFile ?? 'results.md');
    if (spec.markers === undefined) writeFileSync(markdownPath, output.markdown);
    else {
      const previous = existsSync(markdownPath) ? readFileSync(markdownPath, 'utf8') : '';
      writeFileSync(markdownPath, spliceMarkedSection(previous, output.markdown, spec.markers));
    }
    if (spec.jsonFile !== undefined)
      writeFileSync(join(root, 'bench', spec.jsonFile), `${JSON.stringify(output.json, null, 2)}\n`);
    process.stdout.write(output.markdown.endsWith('\n') ? output.markdown : `${output.markdown}\n`);
  });
}
