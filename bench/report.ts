import type { SectionMarkers } from './benchSection';
import { commitTargets, fidelityTargets, type CorpusFigures, type CorpusTarget } from './corpusFigures';
import { OUTPUT_FORMATS, type OutputFormat } from './corpusEdits';
import type { BenchResults, Target } from './results';
import type { Summary } from './stats';

/** bench/results.md: the same text the bench prints. */

const FORMAT_NAMES: Readonly<Record<OutputFormat, string>> = {
  scalpel: "Scalpel's operation format",
  json: 'the same operations as JSON',
  wholeFile: 'whole new file',
  unifiedDiff: 'unified diff, 3 lines of context',
  searchReplace: 'search/replace blocks (Aider style)',
};

export function renderResults(r: BenchResults): string {
  const m = r.machine;
  const lines: string[] = [
    '# Scalpel benchmark',
    '',
    `Produced by \`npm run bench\` on ${m.date.slice(0, 10)}: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, ${m.platform}; commit ${m.commit}; the run took ${r.durationSeconds.toFixed(0)} s (${Object.entries(
      r.phaseSeconds,
    )
      .map(([name, seconds]) => `${name} ${seconds.toFixed(0)} s`)
      .join(', ')}).`,
    `Corpus: ${r.corpus.packages.join(', ')}: ${r.corpus.files} files, ${r.corpus.changedPairs} changed pairs, each one edit before → after.`,
    'Tokens are o200k_base. Medians are per file (p10–p90 beside them); speed is a ratio to a baseline measured in the same run.',
    '',
    '## Targets',
    '',
    table(
      ['Target', 'Measured', 'Limit', ''],
      r.targets.map((t) => [
        t.description,
        formatTargetValue(t, t.value),
        `${t.kind === 'max' ? '≤' : '≥'} ${formatTargetValue(t, t.limit)}`,
        t.met ? 'met' : '**not met**',
      ]),
    ),
    '',
    ...corporaSection(r.corpora.release, r.corpora.commits, `in this run, commit ${m.commit}`),
    ...inputSection(r),
    ...outputSection(r),
    ...fidelitySection(r),
    ...speedSection(r),
    ...memorySection(r),
    ...activationSection(r),
    ...missAnalysis(r),
    ...profileSection(r),
  ];
  return `${lines.join('\n')}\n`;
}

function inputSection(r: BenchResults): string[] {
  const i = r.input;
  const d = i.multiFileByDirectory;
  return [
    '## Input tokens: focused context vs whole files',
    '',
    'The focus of each edit is what the element diff touched: the target of every operation (a created element: its',
    'neighbour), the whole file for a REPLACE_FILE fallback. No token budget; files of at most 50 lines are sent whole.',
    '',
    table(
      ['Per changed file', 'Count', 'Median', 'p10', 'p90', 'Total'],
      [
        ratioRow('focused / whole file, all', i.ratioAll),
        ratioRow('focused / whole file, over 150 lines', i.ratioOver150Lines),
        ratioRow('… of those, element edits only (no REPLACE_FILE)', i.ratioOver150LinesElementEdits),
        ratioRow('… over 150 lines, focus = elements whose lines changed', i.ratioOver150LinesByChangedLines),
        ratioRow("… over 150 lines, those elements' own text alone (floor)", i.floorOver150Lines),
        ratioRow('… over 150 lines, one changed element at a time (per element)', i.singleElementOver150Lines),
        ratioRow('… over 150 lines, nothing in focus (signatures and stubs only)', i.nothingInFocusOver150Lines),
        tokenRow('focused context tokens', i.focusedTokens),
        tokenRow('whole file tokens', i.wholeFileTokens),
      ],
    ),
    '',
    `Multi-file edits: the changed files of one directory as one edit (${d.groups} directories with 2 or more changed files, ${d.files} files), one focused context against all of them sent whole: median ${fixed(d.ratio.median)} (p10 ${fixed(d.ratio.p10)}, p90 ${fixed(d.ratio.p90)}), ${int(d.focused.total)} vs ${int(d.wholeFiles.total)} tokens in all.`,
    '',
    table(
      ['One edit per package release', 'Files', 'Focused', 'All whole', 'Ratio'],
      i.multiFileByPackage.map((g) => [
        g.group,
        String(g.files),
        int(g.focused),
        int(g.wholeFiles),
        fixed(g.focused / Math.max(1, g.wholeFiles)),
      ]),
    ),
    '',
  ];
}

function outputSection(r: BenchResults): string[] {
  const o = r.output;
  return [
    '## Output tokens: the same edit written five ways',
    '',
    table(
      ['Format', 'Median', 'p10', 'p90', 'Total', '÷ Scalpel (median per file)', '÷ Scalpel (totals)'],
      OUTPUT_FORMATS.map((format) => {
        const t = o.tokens[format];
        return [
          FORMAT_NAMES[format],
          int(t.median),
          int(t.p10),
          int(t.p90),
          int(t.total),
          fixed(o.ratioToScalpel[format].median),
          fixed(t.total / Math.max(1, o.tokens.scalpel.total)),
        ];
      }),
    ),
    '',
    `How much each edit rewrites, (old lines removed + new lines added) / old lines: median ${fixed(o.changedLineShare.median)} (p10 ${fixed(o.changedLineShare.p10)}, p90 ${fixed(o.changedLineShare.p90)}).`,
    `Scalpel's format / whole new file for the ${o.scalpelOverWholeElementEdits.count} edits written without REPLACE_FILE: median ${fixed(o.scalpelOverWholeElementEdits.median)} (p10 ${fixed(o.scalpelOverWholeElementEdits.p10)}, p90 ${fixed(o.scalpelOverWholeElementEdits.p90)}).`,
    `The search/replace baseline is checked like Scalpel's: its blocks, applied in order, reproduce ${o.searchReplaceRoundTrips} of ${r.fidelity.pairs} new files.`,
    '',
  ];
}

function fidelitySection(r: BenchResults): string[] {
  const f = r.fidelity;
  const failures = f.failures.length === 0 ? ['No failures.'] : f.failures.map((x) => `- \`${x.file}\`: ${x.reason}`);
  return [
    '## Fidelity: apply(before, diff(before, after)) == after',
    '',
    `${f.roundTrips} of ${f.pairs} (${percent(f.roundTrips, f.pairs)}) round-trip byte for byte through the apply engine.`,
    `REPLACE_FILE fallback: ${f.replaceFileCount} of ${f.pairs} (${percent(f.replaceFileCount, f.pairs)}): correct, but the whole file is written.`,
    `Pairs with a fallback, by kind: ${entries(f.pairsWithFallback)}.`,
    `Fallback reasons: ${entries(f.fallbackReasons)}.`,
    `Operations: ${entries(f.operations)}. Diff time per file: median ${fixed(f.diffMs.median, 1)} ms, p90 ${fixed(f.diffMs.p90, 1)} ms, total ${(f.diffMs.total / 1000).toFixed(1)} s.`,
    '',
    ...failures,
    '',
  ];
}

function speedSection(r: BenchResults): string[] {
  const first = r.speed.firstUse;
  const firstUse =
    'error' in first
      ? [`First use could not be measured: ${first.error}`]
      : [
          `First use in a fresh process (${first.lines}-line module, ${first.runs} processes each, medians, engine.js of ${first.bundle}): loading the engine and one outline + context took ${ms(first.engine.totalMs)} (load ${ms(first.engine.loadMs)}, work ${ms(first.engine.workMs)}); loading ts-morph and one createSourceFile took ${ms(first.baseline.totalMs)} (load ${ms(first.baseline.loadMs)}, parse ${ms(first.baseline.workMs)}): ${fixed(first.ratio)}×. Warm, the same outline + context takes ${ms(first.warmMs)}. From process start (Node's own start included): ${ms(first.engine.sinceProcessStart)} vs ${ms(first.baseline.sinceProcessStart)}; CPU time from process start: ${ms(first.engine.cpuSinceProcessStart)} vs ${ms(first.baseline.cpuSinceProcessStart)}.`,
        ];
  return [
    '## Speed',
    '',
    "Warm medians of CPU time (`process.cpuUsage`, which other load on the machine inflates far less than wall-clock time) in one process, baseline and subjects interleaved round by round, the heap collected before each sample; a ratio is the median of the per-round ratios (the last column: the same in wall-clock time). Baseline: `ts.createSourceFile(file, text, Latest, setParentNodes: true)` from ts-morph's TypeScript.",
    'The modules are real corpus declarations concatenated (imports and re-exports left out, clashing names renamed); each parses without errors.',
    '',
    table(
      [
        'Lines',
        'Runs',
        'createSourceFile',
        'outline',
        'context',
        'outline + context',
        '÷ parse',
        'apply + verify',
        '÷ parse',
        'wall-clock ÷ parse',
      ],
      r.speed.sizes.map((s) => [
        int(s.lines),
        String(s.runs),
        ms(s.cpuMs.parse),
        ms(s.cpuMs.outline),
        ms(s.cpuMs.context),
        ms(s.cpuMs.outlineContext),
        `${fixed(s.outlineContextRatio)}×`,
        s.applyOutcome === 'ok' ? ms(s.cpuMs.apply) : `${ms(s.cpuMs.apply)} (refused)`,
        `${fixed(s.applyRatio)}×`,
        `${fixed(s.wallOutlineContextRatio)}× / ${fixed(s.wallApplyRatio)}×`,
      ]),
    ),
    '',
    ...r.speed.sizes.flatMap((s) => [
      `- ${int(s.lines)} lines: context for \`${s.focus}\`; batch of ${s.batch.length}: ${s.batch.map((b) => b.split(' ')[0]).join(', ')}${s.applyOutcome === 'ok' ? '' : `; **${s.applyOutcome}**`}`,
    ]),
    '',
    ...firstUse,
    '',
  ];
}

function memorySection(r: BenchResults): string[] {
  const m = r.memory;
  if ('error' in m) return ['## Memory', '', `Could not be measured: ${m.error}`, ''];
  return [
    '## Memory',
    '',
    table(
      ['Resident memory (one process)', 'MB'],
      [
        ['before loading the engine', mb(m.rssAtStartMb)],
        [`after loading the engine (engine.js of ${m.bundle}) and the tokenizer`, mb(m.rssAfterLoadMb)],
        [
          `peak while outlining and building a context for each of the ${m.files} corpus files (${(m.elapsedMs / 1000).toFixed(1)} s)`,
          mb(m.peakRssMb),
        ],
        ['after a final garbage collection', mb(m.rssAfterGcMb)],
      ],
    ),
    '',
    `Peak over loaded: +${mb(m.peakRssMb - m.rssAfterLoadMb)} MB.`,
    '',
  ];
}

function activationSection(r: BenchResults): string[] {
  const a = r.activation;
  const vsix = a.vsixBytes === undefined ? `not built: ${a.vsixError ?? 'unknown'}` : `${kb(a.vsixBytes)} KB`;
  const lines = [
    '## Extension activation',
    '',
    `Bundles measured: ${a.bundle}. extension.js ${kb(a.extensionJsBytes)} KB, engine.js ${kb(a.engineJsBytes)} KB; scalpel.vsix ${vsix}.`,
    '',
  ];
  if (a.error !== undefined || a.extension === undefined || a.engine === undefined) {
    return [...lines, `Activation could not be measured: ${a.error ?? 'no runs'}`, ''];
  }
  return [
    ...lines,
    table(
      [`Fresh process, median of ${a.runs}`, 'require', 'activate', 'total'],
      [
        [
          'extension.js + activate (vscode stand-in)',
          ms(a.extension.requireMs),
          ms(a.extension.activateMs),
          ms(a.extension.totalMs),
        ],
        ['engine.js, loaded alone', ms(a.engine.requireMs), '', ms(a.engine.totalMs)],
      ],
    ),
    '',
    `Activation registered ${a.registeredCommands?.length ?? 0} commands (${(a.registeredCommands ?? []).join(', ')}) and ${a.subscriptions ?? 0} disposables; heavy modules loaded during activation: ${(a.heavyModulesLoaded ?? []).length === 0 ? 'none' : (a.heavyModulesLoaded ?? []).join(', ')}. Activation / engine load: ${fixed(a.extension.totalMs / Math.max(0.001, a.engine.totalMs), 3)}.${(a.asyncErrors ?? []).length === 0 ? '' : ` Promises left running by activation that failed against the stand-in: ${(a.asyncErrors ?? []).join('; ')}.`}`,
    '',
  ];
}

/** Why a token target is missed, in the run's own numbers; speed misses get their profiles below. */
function missAnalysis(r: BenchResults): string[] {
  const missed = new Set(r.targets.filter((t) => !t.met).map((t) => t.id));
  const i = r.input;
  const o = r.output;
  const f = r.fidelity;
  const notes: string[] = [];
  if (missed.has('input')) {
    notes.push(
      `- **Input.** ${i.sentWholeOver150Lines} of the ${i.filesOver150Lines} files over 150 lines fell back to REPLACE_FILE, so their context is the whole file (ratio 1). ` +
        `Taking the focus from the changed lines instead of the operations gives a median of ${fixed(i.ratioOver150LinesByChangedLines.median)}: the changes are spread over elements that hold much of each file, ` +
        `their own text alone being ${fixed(i.floorOver150Lines.median)} of the file at the median (the floor of any element-level context); ` +
        `the rest of the file, shown as signatures and stubs, costs ${fixed(i.nothingInFocusOver150Lines.median)} of the file on its own (every sibling of a focused element is shown as a signature with its path label), ` +
        `and one changed element alone in focus costs ${fixed(i.singleElementOver150Lines.median)}.`,
    );
  }
  if (missed.has('output-whole')) {
    notes.push(
      `- **Output vs whole file.** The edits are release-to-release diffs that rewrite a median ${fixed(o.changedLineShare.median)} of each file's lines; even minimal search/replace blocks are ${fixed(o.tokens.searchReplace.median / Math.max(1, o.tokens.wholeFile.median))} of the whole file's median tokens. ` +
        `${f.replaceFileCount} of ${f.pairs} diffs (${percent(f.replaceFileCount, f.pairs)}) fell back to REPLACE_FILE (ratio about 1); without them Scalpel's format is ${fixed(o.scalpelOverWholeElementEdits.median)} of the whole file at the median.`,
    );
  }
  if (missed.has('output-json')) {
    notes.push(
      `- **Output vs JSON.** Both forms carry the same code; JSON adds only keys, quotes and escapes (\\n, \\"), so it is ${fixed(o.ratioToScalpel.json.median)}× Scalpel's format at the median. ` +
        'A 60% saving would need JSON to cost 2.5× the text form, which no escaping of the same content does.',
    );
  }
  if (notes.length === 0) return [];
  return ['## Why targets are missed', '', ...notes, ''];
}

function profileSection(r: BenchResults): string[] {
  if (r.profiles.length === 0) return [];
  return [
    '## Where the time goes in speed targets missed or within 15% of their limit (node --cpu-prof)',
    '',
    ...r.profiles.flatMap(({ target, summary }) => [
      `### ${target} (${ms(summary.totalMs)} profiled)`,
      '',
      parseShare(summary),
      '',
      table(
        ['Self time', 'ms', '%'],
        summary.bySelfTime.map((h) => [`\`${h.where}\``, fixed(h.ms, 0), fixed(h.percent, 1)]),
      ),
      '',
      table(
        ["Inclusive time, Scalpel's functions", 'ms', '%'],
        summary.byInclusiveTime.map((h) => [`\`${h.where}\``, fixed(h.ms, 0), fixed(h.percent, 1)]),
      ),
      '',
      table(
        ["Call path through Scalpel's functions (library frames left out)", 'ms', '%'],
        summary.byScalpelCallPath.map((h) => [`\`${h.where}\``, fixed(h.ms, 0), fixed(h.percent, 1)]),
      ),
      '',
    ]),
  ];
}

/** How much of a profiled task is TypeScript's parse, and by which call paths it is reached. */
function parseShare(summary: BenchResults['profiles'][number]['summary']): string {
  const parses = summary.byScalpelCallPath.filter(
    (h) => h.where.endsWith('> parseSource') || h.where === 'parseSource',
  );
  if (parses.length === 0) return 'No call path ends in a full parse (`parseSource`).';
  const percentTotal = parses.reduce((sum, h) => sum + h.percent, 0);
  return (
    `${fixed(percentTotal, 0)}% of the profiled time is the full parse (\`parseSource\`, src/core/elements/outline.ts), reached by ${parses.length} call path${parses.length === 1 ? '' : 's'}: ` +
    parses.map((h) => `\`${h.where}\` (${fixed(h.percent, 0)}%)`).join('; ') +
    '.'
  );
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const escape = (cell: string): string => cell.replace(/\|/g, '\\|');
  return [
    `| ${header.map(escape).join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

function ratioRow(name: string, s: Summary): string[] {
  return [name, String(s.count), fixed(s.median), fixed(s.p10), fixed(s.p90), ''];
}

function tokenRow(name: string, s: Summary): string[] {
  return [name, String(s.count), int(s.median), int(s.p10), int(s.p90), int(s.total)];
}

function formatTargetValue(t: Target, value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return t.unit === '%' ? `${fixed(value, 1)}%` : `${fixed(value)}${t.unit}`;
}

function entries(counts: Readonly<Record<string, number>>): string {
  const list = Object.entries(counts);
  return list.length === 0 ? 'none' : list.map(([name, count]) => `${name} × ${count}`).join(', ');
}

function fixed(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

function int(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}

function ms(value: number): string {
  return Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms` : 'n/a';
}

function mb(value: number): string {
  return value.toFixed(0);
}

function kb(bytes: number): string {
  return (bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 0 });
}

function percent(count: number, total: number): string {
  return `${((100 * count) / Math.max(1, total)).toFixed(1)}%`;
}

/** The section `npm run bench -- --corpora` replaces on its own. */
export const CORPORA_SECTION: SectionMarkers = { start: '<!-- corpora:start -->', end: '<!-- corpora:end -->' };

/**
 * Every token figure on both corpora, and the commit-sized corpus against the targets of issue 10. Delimited so that
 * `npm run bench -- --corpora` can refresh it alone in an existing bench/results.md.
 */
export function corporaSection(release: CorpusFigures, commits: CorpusFigures, date: string): string[] {
  const both = (name: string, pick: (f: CorpusFigures) => Summary, format = fixed): string[] => [
    name,
    `${format(pick(release).median)} (${format(pick(release).p10)}–${format(pick(release).p90)})`,
    `${format(pick(commits).median)} (${format(pick(commits).p10)}–${format(pick(commits).p90)})`,
  ];
  const reasons = (f: CorpusFigures): string => entries(f.fallbackReasons);
  const failures = (f: CorpusFigures): string[] =>
    f.failures.length === 0 ? [] : f.failures.map((x) => `- ${f.label}: \`${x.file}\`: ${x.reason}`);
  return [
    CORPORA_SECTION.start,
    '## Both corpora: release-sized and commit-sized edits',
    '',
    `Measured ${date}. Release corpus: ${release.packages.join(', ')}. Commit-sized corpus: consecutive patch releases (x.y.z → x.y.z+1) of ${[...new Set(commits.packages.map((p) => p.split(' ')[0]))].join(', ')}, ${commits.pairs} changed files in ${commits.packages.length} release pairs (\`node scripts/corpus.mjs --commits\`). Medians per file, p10–p90 in brackets.`,
    '',
    table(
      ['Figure', 'Release corpus', 'Commit-sized corpus'],
      [
        [
          'changed files (files over 150 lines)',
          `${release.pairs} (${release.filesOver150Lines})`,
          `${commits.pairs} (${commits.filesOver150Lines})`,
        ],
        both(
          'how much of the file the edit rewrites (lines removed + added) / lines',
          (f) => f.output.changedLineShare,
        ),
        both('input: focused / whole file, all', (f) => f.input.ratioAll),
        both('input: focused / whole file, over 150 lines', (f) => f.input.ratioOver150Lines),
        both('… focus = elements whose lines changed', (f) => f.input.ratioOver150LinesByChangedLines),
        both("… those elements' own text alone (floor)", (f) => f.input.floorOver150Lines),
        both('… one changed element at a time', (f) => f.input.singleElementOver150Lines),
        both('… nothing in focus (signatures and stubs only)', (f) => f.input.nothingInFocusOver150Lines),
        both("output: Scalpel's format / whole new file", (f) => f.output.scalpelOverWholeFile),
        both("output: Scalpel's format / unified diff", (f) => f.output.scalpelOverUnifiedDiff),
        both("output: Scalpel's format / search/replace blocks", (f) => f.output.scalpelOverSearchReplace),
        both("output: Scalpel's tokens", (f) => f.output.scalpelTokens, int),
        both('output: unified diff tokens', (f) => f.output.unifiedDiffTokens, int),
        [
          'REPLACE_FILE',
          percent(release.replaceFileCount, release.pairs),
          percent(commits.replaceFileCount, commits.pairs),
        ],
        ['round trip', percent(release.roundTrips, release.pairs), percent(commits.roundTrips, commits.pairs)],
      ],
    ),
    '',
    '### Targets on the commit-sized corpus',
    '',
    table(['Target', 'Measured', 'Limit', ''], commitTargets(commits).map(targetRow)),
    '',
    '### Targets on the release corpus',
    '',
    table(['Target', 'Measured', 'Limit', ''], fidelityTargets(release).map(targetRow)),
    '',
    ...commitMisses(commits),
    replaceFileLine('release corpus', release),
    replaceFileLine('commit-sized corpus', commits),
    `Fallback reasons, release corpus: ${reasons(release)}.`,
    `Fallback reasons, commit-sized corpus: ${reasons(commits)}.`,
    '',
    ...failures(release),
    ...failures(commits),
    CORPORA_SECTION.end,
    '',
  ];
}

function targetRow(t: CorpusTarget): string[] {
  return [
    t.description,
    t.unit === '%' ? `${fixed(t.value, 1)}%` : fixed(t.value),
    t.unit === '%' ? `≤ ${t.limit}%` : `≤ ${fixed(t.limit)}`,
    t.met ? 'met' : '**not met**',
  ];
}

/** What the REPLACE_FILE files of a corpus are: no element operations reproduce them, or the whole file is cheaper. */
function replaceFileLine(label: string, f: CorpusFigures): string {
  const needed = f.replaceFileCount - f.replaceFileAsCheapest;
  return (
    `REPLACE_FILE, ${label}: ${f.replaceFileCount} of ${f.pairs} files; ${needed} where no element operations ` +
    `reproduce the new text, ${f.replaceFileAsCheapest} where they do but the whole file costs fewer tokens (a small file rewritten).`
  );
}

/** Why a commit-sized target is missed, from the figures that explain it. */
function commitMisses(f: CorpusFigures): string[] {
  const lines: string[] = [];
  for (const t of commitTargets(f)) {
    if (t.met) continue;
    if (t.description.startsWith('Focused context')) {
      lines.push(
        `- **Input not met** (${fixed(t.value)}): the changed elements' own text is ${fixed(f.input.floorOver150Lines.median)} of the file at the median, but the focused view also shows the rest of the file as signatures and stubs, which alone (nothing in focus) costs ${fixed(f.input.nothingInFocusOver150Lines.median)} of the file; one changed element in focus costs ${fixed(f.input.singleElementOver150Lines.median)}. The elements are fine-grained enough; what is left is the price of the outline of the rest of the file in the focused view (src/core/context/buildContext.ts), and the ${f.replaceFileCount} REPLACE_FILE files whose context is the whole file.`,
      );
    } else if (t.description.startsWith('REPLACE_FILE')) {
      lines.push(`- **REPLACE_FILE not met** (${fixed(t.value, 1)}%): see the fallback reasons below.`);
    } else {
      lines.push(`- **${t.description}: not met** (${fixed(t.value)}).`);
    }
  }
  return lines.length === 0 ? [] : [...lines, ''];
}
