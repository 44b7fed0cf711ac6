/** The stress bench's result and its section of bench/results.md (no side effects: bench/run.ts imports it). */

export interface StressResult {
  readonly seconds: number;
  readonly files: number;
  readonly intervalMs: number;
  readonly saves: number;
  readonly lost: number;
  readonly lostPer10k: number;
  readonly batches: number;
  readonly written: number;
  readonly conflicts: number;
  readonly otherFailures: number;
  /** Saves that slipped in between the last check and a rename, seen after it and put back. */
  readonly rescued: number;
  readonly applyMsPerBatch: number;
  readonly writeMsPerBatch: number;
}

const SECTION = '## Lost saves under stress';

export function renderStressSection(results: readonly StressResult[], when: string): string {
  const saves = results.reduce((sum, r) => sum + r.saves, 0);
  const lost = results.reduce((sum, r) => sum + r.lost, 0);
  const files = results[0]?.files ?? 3;
  return [
    SECTION,
    '',
    `Measured by \`node out/bench/stress.js\` (also run by \`npm run bench\`) on ${when}: another process`,
    `(bench/stressSaver.ts) saves ${files} files every few milliseconds, alternately in place and by renaming a temporary`,
    'file, while Scalpel reads them, applies a batch replacing one function in each and writes it (src/core/write), in a',
    'loop, for a bounded time. A save is lost when a Scalpel write built from an older read replaces it. Goal: under 1 per',
    '10,000 saves. The writer before issue 17 lost 2,312 per 10,000 in the same run (1,813 of 7,842 saves, 2 ms, 15 s).',
    '',
    '| Saver every | Seconds | Saves | Lost | Lost per 10,000 | Batches | Written | Refused as conflicts | Saves that raced a rename, kept | Did not verify (read a half-saved file) | Write ms per batch |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.intervalMs} ms | ${r.seconds} | ${r.saves} | ${r.lost} | ${r.lostPer10k.toFixed(2)} | ${r.batches} | ${r.written} | ${r.conflicts} | ${r.rescued} | ${r.otherFailures} | ${r.writeMsPerBatch.toFixed(1)} |`,
    ),
    `| **all** |  | **${saves}** | **${lost}** | **${(saves === 0 ? 0 : (lost / saves) * 10_000).toFixed(2)}** |  |  |  |  |  |  |`,
    '',
  ].join('\n');
}

/** Puts the section into a results.md, replacing an earlier one. */
export function spliceStressSection(markdown: string, section: string): string {
  const start = markdown.indexOf(SECTION);
  if (start === -1) return `${markdown.trimEnd()}\n\n${section}`;
  const next = markdown.indexOf('\n## ', start + SECTION.length);
  return `${markdown.slice(0, start)}${section}${next === -1 ? '' : `\n${markdown.slice(next + 1)}`}`;
}
