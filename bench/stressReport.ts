/** The stress bench's result and its section of bench/results.md (no side effects: bench/run.ts imports it). */

export interface StressResult {
  readonly seconds: number;
  readonly files: number;
  readonly intervalMs: number;
  /** How long the saver's slow in-place saves pause half-way; 0: none. */
  readonly slowPauseMs: number;
  /** How long a file had to be left alone before Scalpel read it; 0: read at once. */
  readonly quietMs: number;
  /** Batches refused because a file was still being saved after the longest wait. */
  readonly beingSaved: number;
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
  // Scalpel as shipped: reads that wait for a quiet file.
  const shipped = results.filter((r) => r.quietMs > 0);
  const shippedSaves = shipped.reduce((sum, r) => sum + r.saves, 0);
  const shippedLost = shipped.reduce((sum, r) => sum + r.lost, 0);
  const files = results[0]?.files ?? 3;
  return [
    SECTION,
    '',
    `Measured by \`node out/bench/stress.js\` (also run by \`npm run bench\`) on ${when}: another process`,
    `(bench/stressSaver.ts) saves ${files} files every few milliseconds, in place, by renaming a temporary file and (slow`,
    'saves) in place in two halves with a pause between, while Scalpel reads them, applies a batch replacing one function',
    'in each and writes it (src/core/write), in a loop, for a bounded time. A save is lost when a Scalpel write built from',
    'an older or half-saved read replaces it (the saver checks the first and the last line of every file). Goal: under 1',
    "per 10,000 saves with Scalpel as shipped; the runs with reads that do not wait (quiet 0 ms) measure the writer's own",
    'checks alone, and with slow saves what the wait for a quiet file prevents. The writer before issue 17 lost 2,312 per',
    '10,000 in the same run (1,813 of 7,842 saves, 2 ms, 15 s).',
    '',
    '| Saver every | Slow saves pause | Read after quiet | Seconds | Saves | Lost | Lost per 10,000 | Batches | Written | Refused: being saved | Refused as conflicts | Saves that raced a rename, kept | Did not verify | Write ms per batch |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.intervalMs} ms | ${r.slowPauseMs === 0 ? 'none' : `${r.slowPauseMs} ms`} | ${r.quietMs} ms | ${r.seconds} | ${r.saves} | ${r.lost} | ${r.lostPer10k.toFixed(2)} | ${r.batches} | ${r.written} | ${r.beingSaved} | ${r.conflicts} | ${r.rescued} | ${r.otherFailures} | ${r.writeMsPerBatch.toFixed(1)} |`,
    ),
    `| **all, as shipped** |  |  |  | **${shippedSaves}** | **${shippedLost}** | **${(shippedSaves === 0 ? 0 : (shippedLost / shippedSaves) * 10_000).toFixed(2)}** |  |  |  |  |  |  |  |`,
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
