import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import { buildContext } from '../src/core/context/buildContext';
import { createTokenCounter, type TokenCounter } from '../src/core/context/tokens';
import { loadAllLanguages, supportedLanguages } from '../src/core/language/languages';
import { loadedGrammar, parserFor } from '../src/core/language/treeSitter/treeSitterRuntime';
import type { LanguageSupport } from '../src/core/language/languageSupport';
import { loadCorpus } from '../test/support/corpus';
import { loadLanguageCorpus } from '../test/support/languageCorpus';
import { type BenchOutput, type BenchRun, runBenchSection } from './benchSection';
import { middleElement } from './speed';
import { summarize } from './stats';
import { medianRatio, timeInterleaved } from './timing';

/**
 * `npm run bench:languages`: per registered language, on its real-code corpus (docs/corpus.md),
 *
 * - tokens: the focused context of the element at the middle line of each file of 100 lines or more, against the
 *   whole file (what an edit of that element sends instead of the file);
 * - speed: the outline of a file against the bare parse of the same text by the same parser, timed in the same
 *   rounds (timing.ts), as the median of per-round CPU-time ratios over the largest files; and the outline plus a
 *   focused context against the parse.
 *
 * Writes bench/results-languages.md and .json. A language whose corpus is missing is installed first
 * (`node scripts/corpus.mjs --languages`); a language with no bare parse registered below is reported as such.
 */

/**
 * The parse an outline cannot do without, per language: the floor its ratio is held against. A tree-sitter language
 * parses with its grammar and frees the tree, as the outline does.
 */
function bareParseOf(language: LanguageSupport): ((file: string, text: string) => unknown) | undefined {
  const custom = BARE_PARSES[language.id];
  if (custom !== undefined) return custom;
  const grammar = language.grammar === undefined ? undefined : loadedGrammar(language.grammar);
  if (grammar === undefined) return undefined;
  const parser = parserFor(grammar);
  return (_file, text) => {
    const tree = parser.parse(text);
    tree?.delete();
    return tree;
  };
}

const BARE_PARSES: Record<string, (file: string, text: string) => unknown> = {
  typescript: (file, text) =>
    ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    ),
};

const MIN_CONTEXT_LINES = 100;
const SPEED_FILES = 6;
const SPEED_RUNS = 9;

interface LanguageFile {
  readonly path: string;
  readonly text: string;
  readonly lines: number;
}

export interface LanguageBench {
  readonly language: string;
  readonly sources: readonly string[];
  readonly files: number;
  readonly tokens: {
    readonly files: number;
    /** Sum of the focused contexts' tokens over the sum of the whole files' tokens. */
    readonly overall: number;
    readonly median: number;
    readonly p90: number;
  };
  readonly speed:
    | {
        readonly files: number;
        readonly lines: number;
        /** Medians over files of the median per-round CPU-time ratio to the bare parse. */
        readonly outlineRatio: number;
        readonly outlineContextRatio: number;
        /** Median CPU milliseconds per file. */
        readonly parseMs: number;
        readonly outlineMs: number;
      }
    | { readonly skipped: string };
}

function filesOf(language: LanguageSupport): { files: LanguageFile[]; sources: string[] } {
  const read = (path: string, absPath: string): LanguageFile => {
    const text = readFileSync(absPath, 'utf8');
    return { path, text, lines: text.split('\n').length };
  };
  if (language.id === 'typescript') {
    const corpus = loadCorpus();
    return {
      files: corpus.corpusFiles().map((file) => read(`${file.pkg}/${file.relPath}`, file.absPath)),
      sources: corpus.packages.map((pkg) => `${pkg.name} ${pkg.after.version}`),
    };
  }
  const corpus = loadLanguageCorpus(language.id);
  return {
    files: corpus.files().map((file) => read(`${file.source.split(' ')[0] ?? ''}/${file.relPath}`, file.absPath)),
    sources: corpus.sources.map((source) => `${source.name} ${source.version}`),
  };
}

function median(values: readonly number[]): number {
  return summarize(values).median;
}

export function measureLanguage(language: LanguageSupport, counter: TokenCounter): LanguageBench {
  const { files, sources } = filesOf(language);
  const parsed = files
    .map((file) => ({ file, outline: language.outline(file.path, file.text) }))
    .filter(({ outline }) => outline.syntaxErrors.length === 0 && outline.elements.length > 0);

  const ratios: number[] = [];
  let focusedTokens = 0;
  let wholeTokens = 0;
  for (const { file, outline } of parsed) {
    if (file.lines < MIN_CONTEXT_LINES) continue;
    const context = buildContext([{ outline, focus: [middleElement(outline)] }], counter);
    focusedTokens += context.tokens;
    wholeTokens += context.wholeFileTokens;
    ratios.push(context.tokens / Math.max(context.wholeFileTokens, 1));
  }

  const parse = bareParseOf(language);
  let speed: LanguageBench['speed'];
  if (parse === undefined) speed = { skipped: `no bare parse for ${language.id} in bench/languages.ts` };
  else {
    const largest = [...parsed].sort((a, b) => b.file.text.length - a.file.text.length).slice(0, SPEED_FILES);
    const outlineRatios: number[] = [];
    const contextRatios: number[] = [];
    const parseMs: number[] = [];
    const outlineMs: number[] = [];
    for (const { file, outline } of largest) {
      const focus = middleElement(outline);
      const { cpu } = timeInterleaved(
        {
          parse: () => parse(file.path, file.text),
          outline: () => language.outline(file.path, file.text),
          outlineContext: () =>
            buildContext([{ outline: language.outline(file.path, file.text), focus: [focus] }], counter),
        },
        SPEED_RUNS,
      );
      outlineRatios.push(medianRatio(cpu['outline'] ?? [], cpu['parse'] ?? []));
      contextRatios.push(medianRatio(cpu['outlineContext'] ?? [], cpu['parse'] ?? []));
      parseMs.push(median(cpu['parse'] ?? []));
      outlineMs.push(median(cpu['outline'] ?? []));
    }
    speed = {
      files: largest.length,
      lines: largest.reduce((sum, { file }) => sum + file.lines, 0),
      outlineRatio: median(outlineRatios),
      outlineContextRatio: median(contextRatios),
      parseMs: median(parseMs),
      outlineMs: median(outlineMs),
    };
  }
  return {
    language: language.id,
    sources,
    files: files.length,
    tokens: {
      files: ratios.length,
      overall: focusedTokens / Math.max(wholeTokens, 1),
      median: median(ratios),
      p90: summarize(ratios).p90,
    },
    speed,
  };
}

export function languagesMarkdown(results: readonly LanguageBench[]): string {
  const fixed = (value: number, digits = 2): string => value.toFixed(digits);
  const lines = [
    '# Per-language bench',
    '',
    'Written by `npm run bench:languages` (bench/languages.ts) on the real-code corpora of docs/corpus.md.',
    '',
    `**Tokens**: the focused context of the element at the middle line of each file of ${MIN_CONTEXT_LINES} lines or more, over the whole file (lower is better).`,
    `**Speed**: CPU time of the outline, and of the outline plus that context, over the bare parse of the same text by the same parser, in the same rounds; median over the ${SPEED_FILES} largest files of the median per-round ratio (${SPEED_RUNS} rounds).`,
    '',
    '| language | files | context files | context / whole (all) | median | p90 | outline / parse | outline+context / parse | parse ms | outline ms |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const result of results) {
    const speed =
      'skipped' in result.speed
        ? `${result.speed.skipped} | | | |`
        : `${fixed(result.speed.outlineRatio)} | ${fixed(result.speed.outlineContextRatio)} | ${fixed(result.speed.parseMs)} | ${fixed(result.speed.outlineMs)}`;
    lines.push(
      `| ${result.language} | ${result.files} | ${result.tokens.files} | ${fixed(result.tokens.overall, 3)} | ${fixed(result.tokens.median, 3)} | ${fixed(result.tokens.p90, 3)} | ${speed} |`,
    );
  }
  lines.push('', 'Sources:', '');
  for (const result of results) lines.push(`- ${result.language}: ${result.sources.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function installLanguageCorpora(root: string): void {
  for (const args of [[], ['--languages']]) {
    const result = spawnSync(process.execPath, [join(root, 'scripts', 'corpus.mjs'), ...args], { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`node scripts/corpus.mjs ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`);
  }
}

async function measureLanguages({ root, log }: BenchRun): Promise<BenchOutput> {
  installLanguageCorpora(root);
  await loadAllLanguages();
  const counter = createTokenCounter();
  const results: LanguageBench[] = [];
  for (const language of supportedLanguages()) {
    const started = Date.now();
    results.push(measureLanguage(language, counter));
    log(`${language.id} measured in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return { markdown: languagesMarkdown(results), json: results };
}

if (require.main === module) {
  runBenchSection({
    label: 'bench:languages',
    markdownFile: 'results-languages.md',
    jsonFile: 'results-languages.json',
    measure: measureLanguages,
  });
}
