import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { languageFor, loadAllLanguages } from '../../../src/core/language/languages';
import { applyOperations } from '../../../src/core/ops/apply';
import { serializeOperations } from '../../../src/core/ops/format';
import { createRandom, fileSeed } from '../corpus/roundTrip';
import { loadLanguageCorpus } from '../../support/languageCorpus';
import { type CompilerOracle, type OracleVerdict, oracleFor } from './compilerOracles';
import { fuzzRun } from './fuzzSettings';
import {
  type CaseMaterial,
  type DrawnOperation,
  drawOperations,
  type FuzzFile,
  importsOf,
  pick,
  snippetsOf,
} from './languageCases';

/**
 * Issue 25: "ok" means the file is whole, in each language's own terms. Seeded random answers (languageCases.ts) on
 * the real code of the language corpus, in five layouts of each file (as shipped, with a BOM, CRLF, lone CR,
 * tab-indented), applied by the apply engine; every file written is given to the language's real compiler
 * (compilerOracles.ts), and a file it refuses that it accepted before the edit is a failure: goal 0. `npm run fuzz`
 * runs 10,000 cases per language over every corpus file; a unit run a few dozen over a sample.
 *
 *   SCALPEL_FUZZ_SEED=<n> [SCALPEL_FUZZ_CASE=<i>]   replay a run, or one case of it (printing its answer and result)
 *   SCALPEL_FUZZ_LANGUAGES_RUNS=<n>                 cases per language
 */

const LANGUAGES = ['python', 'go', 'rust', 'java', 'csharp'] as const;
/** Written files checked by the compiler at once. */
const ORACLE_BATCH = 400;
/** Cases from which a run reads every corpus file rather than a sample of them. */
const ALL_FILES_FROM = 1_000;
const SAMPLE_FILES = 24;

interface Written {
  readonly index: number;
  readonly file: FuzzFile;
  readonly drawn: readonly DrawnOperation[];
  readonly after: string;
}

const VARIANTS: ReadonlyArray<readonly [string, (text: string) => string | undefined]> = [
  ['as shipped', (text) => text],
  ['with a BOM', (text) => (text.startsWith('\uFEFF') ? undefined : `\uFEFF${text}`)],
  ['CRLF', (text) => (text.includes('\r') ? undefined : text.replace(/\n/g, '\r\n'))],
  ['lone CR', (text) => (text.includes('\r') ? undefined : text.replace(/\n/g, '\r'))],
  [
    'tab-indented',
    (text) => (/^ {4}/m.test(text) ? text.replace(/^(?: {4})+/gm, (run) => '\t'.repeat(run.length / 4)) : undefined),
  ],
];

function bareLineFeeds(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (text.charCodeAt(i - 1) !== 13) count += 1;
  return count;
}

/** A change of line-break style inside what was written: LF in a CRLF file, or LF in a file of lone CRs. */
function lineBreakProblem(before: string, after: string): string | undefined {
  const crlf = (before.match(/\r\n/g) ?? []).length;
  const bare = bareLineFeeds(before);
  if (crlf > bare && bareLineFeeds(after) > bare) return 'LF written into a CRLF file';
  const loneCr = (before.match(/\r(?!\n)/g) ?? []).length;
  if (loneCr > bare + crlf && bareLineFeeds(after) > bare) return 'LF written into a file of lone CRs';
  return undefined;
}

function corpusFiles(language: string, sample: boolean): Array<{ path: string; text: string }> | string {
  try {
    const files = loadLanguageCorpus(language).files();
    const step = sample ? Math.max(1, Math.floor(files.length / SAMPLE_FILES)) : 1;
    return files
      .filter((_, i) => i % step === 0)
      .map((file) => ({
        path: `${file.source.split(' ')[0] ?? ''}/${file.relPath}`,
        text: readFileSync(file.absPath, 'utf8'),
      }));
  } catch (error) {
    // In CI the test command installs every corpus first; a missing corpus there is a failure, not a skip.
    if (process.env['CI'] !== undefined) throw error;
    return error instanceof Error ? error.message : String(error);
  }
}

interface FuzzPool {
  /** The files of the language in every layout that parses: what an edit starts from. */
  readonly files: FuzzFile[];
  /** Those the compiler refuses before any edit, kept when the compiler reads an older version of the language. */
  readonly unjudged: ReadonlySet<FuzzFile>;
  /** Layouts the compiler refuses before any edit, left out of the pool (a compiler of the language's version). */
  readonly leftOut: number;
}

/**
 * The files of the language in every layout that parses and that the compiler accepts; with a compiler of an older
 * version of the language (oracle.olderLanguage), also those it refuses, as files whose edits are not judged.
 */
function fuzzPool(
  sources: ReadonlyArray<{ path: string; text: string }>,
  oracle: CompilerOracle | undefined,
): FuzzPool {
  const candidates: FuzzFile[] = [];
  for (const source of sources) {
    const support = languageFor(source.path);
    if (support === undefined) continue;
    for (const [variant, make] of VARIANTS) {
      const text = make(source.text);
      if (text === undefined) continue;
      const outline = support.outline(source.path, text);
      if (outline.syntaxErrors.length === 0 && outline.elements.length > 0)
        candidates.push({ path: source.path, variant, text, outline });
    }
  }
  if (oracle === undefined) return { files: candidates, unjudged: new Set(), leftOut: 0 };
  const refused = new Set<number>();
  for (let start = 0; start < candidates.length; start += ORACLE_BATCH) {
    const batch = candidates.slice(start, start + ORACLE_BATCH);
    for (const verdict of oracle.check(batch.map((file, i) => ({ name: String(start + i), text: file.text }))))
      if (verdict.afterParse !== true) refused.add(Number(verdict.name));
  }
  if (oracle.olderLanguage !== undefined)
    return { files: candidates, unjudged: new Set(candidates.filter((_, i) => refused.has(i))), leftOut: 0 };
  return { files: candidates.filter((_, i) => !refused.has(i)), unjudged: new Set(), leftOut: refused.size };
}

function caseReport(seed: number, written: Written, verdict: OracleVerdict | { message: string }): string {
  return [
    `case ${written.index} (replay: SCALPEL_FUZZ_SEED=${seed} SCALPEL_FUZZ_LANGUAGES_RUNS=${run.numRuns} SCALPEL_FUZZ_CASE=${written.index}): ${written.file.path} (${written.file.variant})`,
    `  ${verdict.message}`,
    ...written.drawn.map((d) => `  - ${d.how}`),
    serializeOperations(written.drawn.map((d) => d.operation))
      .split('\n')
      .slice(0, 40)
      .map((line) => `    | ${line}`)
      .join('\n'),
  ].join('\n');
}

/**
 * A unit run replays a fixed seed (a few dozen cases): a random seed may still find a written-but-uncompilable file (at
 * seed 165067958, 10,000 cases each: Python 0, Rust 0, Java 0, down from 12 with the rules of javaRules.ts, Go 0,
 * down from 8 in 3,000 cases with the rules of goRules.ts, once its oracle ran; at seed 782162874 Java 0, down from 1,
 * and Go 0; C#, judged by mono's mcs, 0 at both seeds, down from 36 and 30 with the rules of csharpRules.ts; issue 25,
 * open), and would make the unit suite fail by chance. `npm run fuzz` (or any SCALPEL_FUZZ_LANGUAGES_RUNS) draws a
 * random seed as every other fuzz does.
 */
const UNIT_RUN_SEED = 1051476499;
const run =
  process.env['SCALPEL_FUZZ_LANGUAGES_RUNS'] === undefined && (process.env['SCALPEL_FUZZ_SEED'] ?? '') === ''
    ? { seed: UNIT_RUN_SEED, numRuns: 40 }
    : fuzzRun('languages', 40);
const onlyCase = process.env['SCALPEL_FUZZ_CASE'];

for (const language of LANGUAGES) {
  const sources = corpusFiles(language, run.numRuns < ALL_FILES_FROM);
  void describe(
    `fuzz: ${language} answers on the real code of the language corpus`,
    { skip: typeof sources === 'string' ? sources : false },
    () => {
      before(() => loadAllLanguages());

      void test(`every file written is one the compiler accepts (seed ${run.seed})`, (t) => {
        if (typeof sources === 'string') return;
        const started = Date.now();
        const found = oracleFor(language);
        const oracle = typeof found === 'string' ? undefined : found;
        const { files, unjudged, leftOut } = fuzzPool(sources, oracle);
        assert.ok(files.length > unjudged.size, `no ${language} corpus file parses and compiles`);
        // Code the compiler cannot read, pasted into a file it can, would be its verdict on the language's version.
        const judged = files.filter((file) => !unjudged.has(file));
        const material: CaseMaterial = { snippets: snippetsOf(judged), imports: importsOf(judged, language) };
        const failures: string[] = [];
        const counts = { cases: 0, written: 0, refused: 0, unchanged: 0, notJudged: 0, afterParse: 0, uncompilable: 0 };
        let pending: Written[] = [];
        const flush = (): void => {
          if (oracle !== undefined && pending.length > 0) {
            const byName = new Map(pending.map((w) => [String(w.index), w]));
            for (const verdict of oracle.check(pending.map((w) => ({ name: String(w.index), text: w.after })))) {
              const written = byName.get(verdict.name);
              if (verdict.afterParse === true) {
                counts.afterParse += 1;
                continue;
              }
              counts.uncompilable += 1;
              if (written !== undefined && failures.length < 20) failures.push(caseReport(run.seed, written, verdict));
            }
          }
          pending = [];
        };
        const indices = onlyCase === undefined || onlyCase === '' ? undefined : [Number(onlyCase)];
        for (let index = 0; indices === undefined ? counts.cases < run.numRuns : index <= (indices[0] ?? 0); index++) {
          if (indices !== undefined && index !== indices[0]) continue;
          const random = createRandom(fileSeed(run.seed, `${language}#${index}`));
          const file = pick(random, files);
          if (file === undefined) break;
          const drawn = drawOperations(random, file, material);
          if (drawn.length === 0) continue;
          counts.cases += 1;
          const operations = drawn.map((d) => d.operation);
          let result;
          try {
            result = applyOperations({ read: (path) => (path === file.path ? file.text : undefined) }, operations);
          } catch (error) {
            failures.push(
              caseReport(run.seed, { index, file, drawn, after: '' }, { message: `apply threw: ${String(error)}` }),
            );
            continue;
          }
          const internal = result.results.find((r) => /internal error/.test(r.message ?? ''));
          if (internal !== undefined)
            failures.push(caseReport(run.seed, { index, file, drawn, after: '' }, { message: internal.message ?? '' }));
          const after = result.changes.find((change) => change.path === file.path)?.after;
          if (indices !== undefined) {
            process.stdout.write(
              `${serializeOperations(operations)}\n${JSON.stringify(result.results, null, 1)}\n${after ?? '(nothing written)'}\n`,
            );
          }
          if (!result.ok) counts.refused += 1;
          else if (after === undefined || after === file.text) counts.unchanged += 1;
          else {
            counts.written += 1;
            // Rust and Go read a lone CR as whitespace: there LF is the only line break, and writing it is right.
            const problem =
              languageFor(file.path)?.syntax?.loneCrIsWhitespace === true
                ? undefined
                : lineBreakProblem(file.text, after);
            if (problem !== undefined)
              failures.push(caseReport(run.seed, { index, file, drawn, after }, { message: problem }));
            const newer = oracle?.newerThanIt?.(languageFor(file.path)?.outline(file.path, after) ?? file.outline);
            if (unjudged.has(file) || newer === true) counts.notJudged += 1;
            else pending.push({ index, file, drawn, after });
            if (pending.length >= ORACLE_BATCH) flush();
          }
        }
        flush();
        const variants = new Set(files.map((f) => f.variant)).size;
        const summary =
          `${language}: ${counts.cases} cases on ${new Set(files.map((f) => f.path)).size} files × up to ${variants} layouts, ` +
          `${counts.written} written, ${counts.refused} refused, ${counts.unchanged} unchanged; ` +
          (oracle === undefined
            ? `written-but-uncompilable not measured (${String(found)})`
            : `${counts.uncompilable} written-but-uncompilable by ${oracle.description}` +
              (leftOut > 0 ? ` (${leftOut} layouts it refuses before any edit left out)` : '') +
              (counts.afterParse > 0
                ? `, ${counts.afterParse} more with errors only the compiler's later passes find (not counted)`
                : '') +
              (oracle.olderLanguage === undefined
                ? ''
                : `, ${counts.notJudged} written files not judged, on the ${new Set([...unjudged].map((f) => f.path)).size} files it refuses before any edit or using what it predates (${oracle.olderLanguage})`)) +
          `; seed ${run.seed}, ${((Date.now() - started) / 1000).toFixed(1)} s`;
        t.diagnostic(summary);
        if (process.env['SCALPEL_FUZZ_REPORT'] === '1') process.stdout.write(`# fuzz languages ${summary}\n`);
        assert.deepEqual(failures, [], `${summary}\n\n${failures.join('\n\n')}`);
        assert.equal(counts.uncompilable, 0);
      });
    },
  );
}
