import type { CorpusFigures } from './corpusFigures';
import type { ProfileSummary } from './cpuProfile';
import type { OutputFormat } from './corpusEdits';
import type { SizeTimings } from './speed';
import type { Summary } from './stats';

/** Everything one bench run measured: written as bench/results.json and rendered as bench/results.md. */
export interface BenchResults {
  readonly machine: {
    readonly cpu: string;
    readonly cores: number;
    readonly memoryGb: number;
    readonly node: string;
    readonly platform: string;
    readonly date: string;
    readonly commit: string;
  };
  readonly durationSeconds: number;
  /** Seconds per part of the run, to keep the whole under ten minutes on 2 cores. */
  readonly phaseSeconds: Readonly<Record<string, number>>;
  readonly corpus: {
    readonly packages: readonly string[];
    readonly files: number;
    readonly changedPairs: number;
  };
  /** Token and fidelity figures of the release corpus and the commit-sized one, side by side. */
  readonly corpora: { readonly release: CorpusFigures; readonly commits: CorpusFigures };
  readonly input: {
    /** Focused context tokens / whole-file tokens, per changed file. */
    readonly ratioAll: Summary;
    readonly ratioOver150Lines: Summary;
    /** Files over 150 lines whose diff needed no REPLACE_FILE: the element model's own reach. */
    readonly ratioOver150LinesElementEdits: Summary;
    /** Files over 150 lines, the focus being the elements whose lines changed rather than the diff's targets. */
    readonly ratioOver150LinesByChangedLines: Summary;
    /** Files over 150 lines: those elements' own text / whole file, the floor of an element-level context. */
    readonly floorOver150Lines: Summary;
    /** Files over 150 lines: each changed element alone in focus, one sample per element. */
    readonly singleElementOver150Lines: Summary;
    /** Files over 150 lines with nothing in focus: the signatures and stubs of the whole file / the file. */
    readonly nothingInFocusOver150Lines: Summary;
    /** Files over 150 lines sent whole because the diff fell back to REPLACE_FILE. */
    readonly sentWholeOver150Lines: number;
    readonly filesOver150Lines: number;
    readonly focusedTokens: Summary;
    readonly wholeFileTokens: Summary;
    readonly multiFileByDirectory: MultiFileSummary;
    readonly multiFileByPackage: readonly { readonly group: string; readonly files: number; readonly focused: number; readonly wholeFiles: number }[];
  };
  readonly output: {
    readonly tokens: Readonly<Record<OutputFormat, Summary>>;
    /** Per file, tokens of the format / tokens of Scalpel's format. */
    readonly ratioToScalpel: Readonly<Record<OutputFormat, Summary>>;
    /** Per file, Scalpel's tokens / the format's tokens (the form the targets are stated in). */
    readonly scalpelOver: Readonly<Record<OutputFormat, Summary>>;
    readonly searchReplaceRoundTrips: number;
    /** Scalpel's tokens / whole new file, for the edits the diff wrote without REPLACE_FILE. */
    readonly scalpelOverWholeElementEdits: Summary;
    /** Per file, (old lines removed + new lines added) / old lines: how much of the file the edit rewrites. */
    readonly changedLineShare: Summary;
  };
  readonly fidelity: {
    readonly pairs: number;
    readonly roundTrips: number;
    readonly failures: readonly { readonly file: string; readonly reason: string }[];
    readonly replaceFileCount: number;
    readonly pairsWithFallback: Readonly<Record<string, number>>;
    readonly fallbackReasons: Readonly<Record<string, number>>;
    readonly operations: Readonly<Record<string, number>>;
    readonly diffMs: Summary;
    readonly unresolvedFocusPaths: number;
  };
  readonly speed: {
    readonly sizes: readonly Omit<SizeTimings, 'operations'>[];
    readonly firstUse: FirstUseSummary | { readonly error: string };
  };
  readonly memory: MemoryMeasure | { readonly error: string };
  readonly activation: ActivationSummary;
  readonly targets: readonly Target[];
  readonly profiles: readonly { readonly target: string; readonly summary: ProfileSummary }[];
  readonly edits: readonly unknown[];
}

export interface MultiFileSummary {
  readonly groups: number;
  readonly files: number;
  readonly ratio: Summary;
  readonly focused: Summary;
  readonly wholeFiles: Summary;
}

export interface FirstUseRun {
  readonly loadMs: number;
  readonly workMs: number;
  readonly totalMs: number;
  readonly sinceProcessStart: number;
  /** CPU time of the process from its start to the end of the work (all threads). */
  readonly cpuSinceProcessStart: number;
}

export interface FirstUseSummary {
  readonly file: string;
  readonly lines: number;
  readonly runs: number;
  readonly engine: FirstUseRun;
  readonly baseline: FirstUseRun;
  /** Engine first use / baseline first use, both from the start of the measured code (loading included). */
  readonly ratio: number;
  readonly bundle: string;
  /** Warm outline + context of the same file in the bench process, for comparison. */
  readonly warmMs: number;
}

export interface MemoryMeasure {
  readonly files: number;
  readonly contextTokens: number;
  readonly elapsedMs: number;
  readonly rssAtStartMb: number;
  readonly rssAfterLoadMb: number;
  readonly peakRssSampledMb: number;
  readonly peakRssMb: number;
  readonly rssAfterGcMb: number;
  readonly bundle: string;
}

export interface ActivationRun {
  readonly requireMs: number;
  readonly activateMs: number;
  readonly totalMs: number;
  readonly sinceProcessStart: number;
}

export interface ActivationSummary {
  readonly bundle: string;
  readonly extensionJsBytes: number;
  readonly engineJsBytes: number;
  readonly vsixBytes?: number;
  readonly vsixError?: string;
  readonly runs: number;
  readonly extension?: ActivationRun;
  readonly engine?: ActivationRun;
  readonly registeredCommands?: readonly string[];
  readonly subscriptions?: number;
  readonly heavyModulesLoaded?: readonly string[];
  /** Promises activation left running that rejected against the stand-in (not failures of activation itself). */
  readonly asyncErrors?: readonly string[];
  readonly error?: string;
}

export interface Target {
  readonly id: string;
  readonly description: string;
  /** The measured value, in the unit of the limit. */
  readonly value: number;
  readonly limit: number;
  /** How value and limit compare: met when `value <= limit` ('max') or `value >= limit` ('min'). */
  readonly kind: 'max' | 'min';
  readonly unit: string;
  readonly met: boolean;
}
