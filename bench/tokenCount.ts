import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createTokenCounter, MAX_PIECE_LENGTH } from '../src/core/context/tokens';
import { runBenchSection } from './benchSection';
import { medianRatio, medians, timeInterleaved } from './timing';

/**
 * `npm run bench:tokens`: Scalpel's token counter (src/core/context/tokens.ts) against gpt-tokenizer's own
 * `countTokens`, which it wraps, in the same process and run. gpt-tokenizer merges the byte pairs of one piece (one
 * match of the pre-tokenizer) in time quadratic in the piece's length, so a model stuck repeating one letter held
 * `--timeout` for minutes (issue 25). Reported as ratios: the library's time over Scalpel's on the same run, the
 * growth of each when the run doubles (2 is linear, 4 quadratic), and on ordinary code (where both count the same
 * tokens) what the piece scan costs on top.
 */

const PLAIN = { disallowedSpecial: new Set<string>() };

function cpuMs(work: () => unknown): number {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

function seededLetters(length: number): string {
  let state = 12345;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    text += String.fromCharCode(97 + (state % 26));
  }
  return text;
}

interface RunRow {
  readonly name: string;
  readonly length: number;
  /** undefined where the library was not run (it would take hours). */
  readonly libraryMs: number | undefined;
  readonly scalpelMs: number;
  readonly libraryTokens: number | undefined;
  readonly scalpelTokens: number;
}

runBenchSection({
  label: 'tokens',
  markers: { start: '<!-- token count: start (npm run bench:tokens) -->', end: '<!-- token count: end -->' },
  jsonFile: 'results-token-count.json',
  measure: ({ root, log }) => {
    const counter = createTokenCounter();
    counter.count('warm up the tables');
    countTokens('warm up the tables', PLAIN);
    const rows: RunRow[] = [];
    const measure = (name: string, text: string, withLibrary: boolean): void => {
      log(`${name}: ${text.length} characters`);
      let libraryTokens: number | undefined;
      const libraryMs = withLibrary ? cpuMs(() => (libraryTokens = countTokens(text, PLAIN))) : undefined;
      let scalpelTokens = 0;
      const scalpelMs = cpuMs(() => (scalpelTokens = counter.count(text)));
      rows.push({ name, length: text.length, libraryMs, scalpelMs, libraryTokens, scalpelTokens });
    };
    for (const length of [20_000, 40_000, 80_000]) measure('one letter repeated', 'z'.repeat(length), true);
    for (const length of [300_000, 10_000_000]) measure('one letter repeated', 'z'.repeat(length), false);
    for (const length of [10_000, 20_000, 40_000]) measure('random letters', seededLetters(length), true);
    measure('random letters', seededLetters(2_000_000), false);

    // Ordinary code: both count the same tokens; the ratio is what finding the long pieces costs.
    const code = readFileSync(join(root, 'node_modules', 'typescript', 'lib', 'typescript.js'), 'utf8').slice(
      0,
      2_000_000,
    );
    const timings = timeInterleaved(
      { library: () => countTokens(code, PLAIN), scalpel: () => counter.count(code) },
      5,
      1,
    );
    const codeRatio = medianRatio(timings.cpu['scalpel'] ?? [], timings.cpu['library'] ?? []);
    const codeMs = medians(timings.cpu);
    const codeSame = counter.count(code) === countTokens(code, PLAIN);

    const growth = (name: string, pick: (row: RunRow) => number | undefined): string => {
      const of = rows.filter((r) => r.name === name && pick(r) !== undefined);
      const steps: string[] = [];
      for (let i = 1; i < of.length; i++) {
        const [a, b] = [of[i - 1], of[i]];
        if (a === undefined || b === undefined || b.length !== 2 * a.length) continue;
        steps.push(((pick(b) ?? 0) / Math.max(0.01, pick(a) ?? 0)).toFixed(1));
      }
      return steps.join(', ');
    };
    const ms = (value: number | undefined): string => (value === undefined ? 'not run' : `${Math.round(value)}`);
    const lines = [
      '<!-- token count: start (npm run bench:tokens) -->',
      '## Token counting on long runs',
      '',
      `Measured by \`npm run bench:tokens\` (bench/tokenCount.ts) on ${new Date().toISOString().slice(0, 10)}: CPU time of`,
      `gpt-tokenizer's \`countTokens\` (o200k_base) and of Scalpel's counter, which counts pieces longer than`,
      `${MAX_PIECE_LENGTH} characters in slices, on the same text in the same process. A ratio over 1: Scalpel's is faster.`,
      '',
      '| Text | Characters | gpt-tokenizer ms | Scalpel ms | Ratio | Tokens (gpt-tokenizer / Scalpel) |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${r.length.toLocaleString('en-US')} | ${ms(r.libraryMs)} | ${ms(r.scalpelMs)} | ${
            r.libraryMs === undefined ? '' : (r.libraryMs / Math.max(0.01, r.scalpelMs)).toFixed(0)
          } | ${r.libraryTokens ?? ''} / ${r.scalpelTokens} |`,
      ),
      '',
      `Growth when the run doubles (2.0 is linear, 4.0 quadratic): one letter, gpt-tokenizer ${growth('one letter repeated', (r) => r.libraryMs)}; Scalpel ${growth('one letter repeated', (r) => r.scalpelMs)}. Random letters, gpt-tokenizer ${growth('random letters', (r) => r.libraryMs)}; Scalpel ${growth('random letters', (r) => r.scalpelMs)}.`,
      '',
      `Ordinary code (the first 2 MB of typescript.js): Scalpel's counter takes ${codeRatio.toFixed(2)} times gpt-tokenizer's time (median of 5 interleaved rounds; ${Math.round(codeMs['scalpel'] ?? 0)} ms against ${Math.round(codeMs['library'] ?? 0)} ms), the cost of finding long pieces; the counts are ${codeSame ? 'identical' : 'NOT identical'}.`,
      '<!-- token count: end -->',
    ];
    return { markdown: lines.join('\n'), json: { rows, codeRatio, codeMs, codeSame } };
  },
});
