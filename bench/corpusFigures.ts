import { DIAGNOSED_FILE_LINES, type EditMeasure } from './corpusEdits';
import { summarize, type Summary } from './stats';

/**
 * The token and fidelity figures of one corpus, so that the release corpus (two releases far apart: a third of a
 * file rewritten) and the commit-sized one (consecutive patch releases: the edits people ask an assistant for) are
 * reported side by side. The targets are held on the commit-sized corpus.
 */

export interface CorpusFigures {
  readonly label: string;
  readonly packages: readonly string[];
  readonly pairs: number;
  readonly roundTrips: number;
  readonly replaceFileCount: number;
  /** Of those, the files where element operations reproduced the text but the whole file cost fewer tokens. */
  readonly replaceFileAsCheapest: number;
  readonly filesOver150Lines: number;
  readonly input: {
    readonly ratioAll: Summary;
    readonly ratioOver150Lines: Summary;
    readonly ratioOver150LinesByChangedLines: Summary;
    readonly floorOver150Lines: Summary;
    readonly singleElementOver150Lines: Summary;
    readonly nothingInFocusOver150Lines: Summary;
  };
  readonly output: {
    readonly scalpelOverWholeFile: Summary;
    readonly scalpelOverUnifiedDiff: Summary;
    readonly scalpelOverSearchReplace: Summary;
    readonly scalpelTokens: Summary;
    readonly unifiedDiffTokens: Summary;
    readonly changedLineShare: Summary;
  };
  readonly fallbackReasons: Readonly<Record<string, number>>;
  readonly failures: readonly { readonly file: string; readonly reason: string }[];
}

export interface CorpusTarget {
  readonly description: string;
  readonly value: number;
  readonly limit: number;
  readonly unit: '×' | '%';
  readonly met: boolean;
}

export function corpusFigures(
  label: string,
  packages: readonly string[],
  edits: readonly EditMeasure[],
  failures: readonly { readonly file: string; readonly reason: string; readonly thrown: boolean }[],
): CorpusFigures {
  const large = edits.filter((e) => e.lines > DIAGNOSED_FILE_LINES);
  const ratio = (e: EditMeasure): number => e.input.focused / Math.max(1, e.input.wholeFile);
  const reasons: Record<string, number> = {};
  for (const reason of edits.flatMap((e) => e.fallbackReasons)) reasons[reason] = (reasons[reason] ?? 0) + 1;
  return {
    label,
    packages,
    pairs: edits.length + failures.filter((f) => f.thrown).length,
    roundTrips: edits.filter((e) => e.roundTrip === 'ok').length,
    replaceFileCount: edits.filter((e) => e.replacedWholeFile).length,
    replaceFileAsCheapest: edits.filter(
      (e) => e.replacedWholeFile && !e.fallbackReasons.some((reason) => reason.startsWith('file:')),
    ).length,
    filesOver150Lines: large.length,
    input: {
      ratioAll: summarize(edits.map(ratio)),
      ratioOver150Lines: summarize(large.map(ratio)),
      ratioOver150LinesByChangedLines: summarize(
        large.map((e) => e.input.focusedByChangedLines / Math.max(1, e.input.wholeFile)),
      ),
      floorOver150Lines: summarize(large.map((e) => e.input.changedElementsOnly / Math.max(1, e.input.wholeFile))),
      singleElementOver150Lines: summarize(
        large.flatMap((e) => e.input.singleElement.map((tokens) => tokens / Math.max(1, e.input.wholeFile))),
      ),
      nothingInFocusOver150Lines: summarize(large.map((e) => e.input.nothingInFocus / Math.max(1, e.input.wholeFile))),
    },
    output: {
      scalpelOverWholeFile: summarize(edits.map((e) => e.output.scalpel / Math.max(1, e.output.wholeFile))),
      scalpelOverUnifiedDiff: summarize(edits.map((e) => e.output.scalpel / Math.max(1, e.output.unifiedDiff))),
      scalpelOverSearchReplace: summarize(edits.map((e) => e.output.scalpel / Math.max(1, e.output.searchReplace))),
      scalpelTokens: summarize(edits.map((e) => e.output.scalpel)),
      unifiedDiffTokens: summarize(edits.map((e) => e.output.unifiedDiff)),
      changedLineShare: summarize(
        edits.map((e) => (e.changedLines.removed + e.changedLines.added) / Math.max(1, e.changedLines.lines)),
      ),
    },
    fallbackReasons: Object.fromEntries(Object.entries(reasons).sort((a, b) => b[1] - a[1])),
    failures: failures.map(({ file, reason }) => ({ file, reason })),
  };
}

function target(description: string, value: number, limit: number, unit: CorpusTarget['unit']): CorpusTarget {
  return { description, value, limit, unit, met: value <= limit };
}

/** The targets of issue 10 held on both corpora: REPLACE_FILE at most 2%, every diff round-trips. */
export function fidelityTargets(f: CorpusFigures): CorpusTarget[] {
  return [
    target('REPLACE_FILE share of the changed files', (100 * f.replaceFileCount) / Math.max(1, f.pairs), 2, '%'),
    target('Round trip failures (100% round trip)', (100 * (f.pairs - f.roundTrips)) / Math.max(1, f.pairs), 0, '%'),
  ];
}

/** The targets of issue 10, held on the commit-sized corpus. */
export function commitTargets(f: CorpusFigures): CorpusTarget[] {
  return [
    target(
      `Focused context of the edit's targets / whole file, median over files of more than ${DIAGNOSED_FILE_LINES} lines`,
      f.input.ratioOver150Lines.median,
      0.25,
      '×',
    ),
    target(
      "Output: Scalpel's format / whole new file, median per file",
      f.output.scalpelOverWholeFile.median,
      0.2,
      '×',
    ),
    target("Output: Scalpel's format / unified diff, median per file", f.output.scalpelOverUnifiedDiff.median, 1, '×'),
    ...fidelityTargets(f),
  ];
}
