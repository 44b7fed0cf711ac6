import { createTokenCounter } from '../src/core/context/tokens';
import { resolveElementPath } from '../src/core/elements/resolve';
import { outlineSource } from '../src/core/language/languages';
import { renderChanges } from '../src/core/sync/renderChanges';
import { CHANGES_SECTION_MAX_TOKENS, CHANGES_SECTION_TITLE } from '../src/core/sync/sync';
import { userChangesOf } from '../src/core/sync/userChanges';
import { loadCorpus } from '../test/support/corpus';
import { runBenchSection, type SectionMarkers } from './benchSection';

/**
 * `npm run bench:sync`: what telling the model about the user's edits costs (issue 11). The corpus's two releases
 * of each package stand in for "the text the model saw" and "the text after the user's edits": for every file that
 * changed between them and parses in both, the tokens of the change section a follow-up sends, against sending the
 * changed elements again in full (their current text) and against the whole file. Writes its section of
 * bench/results.md between the `sync` markers.
 */

const SYNC_SECTION: SectionMarkers = { start: '<!-- sync: start (npm run bench:sync) -->', end: '<!-- sync: end -->' };

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function measureSyncSummary(): string {
  const counter = createTokenCounter();
  const corpus = loadCorpus();
  const summary: number[] = [];
  const elements: number[] = [];
  const whole: number[] = [];
  let skipped = 0;
  let collapsed = 0;
  for (const pair of corpus.changedFilePairs()) {
    const file = pair.relPath;
    const changes = userChangesOf(file, pair.beforeText, pair.afterText);
    if (!changes.elementLevel || changes.changes.length === 0) {
      skipped += 1;
      continue;
    }
    const rendered = renderChanges([changes], {
      counter,
      budget: CHANGES_SECTION_MAX_TOKENS,
      title: CHANGES_SECTION_TITLE,
      moreHint: 'the elements in focus above show their current text in full',
    });
    if (rendered.collapsed + rendered.omitted > 0) collapsed += 1;
    // Sending the touched elements again: every changed element's current text (a container's members count once).
    const outline = outlineSource(file, pair.afterText);
    const sent = new Set<string>();
    let elementTokens = 0;
    for (const change of changes.changes) {
      if (change.change === 'deleted') continue;
      if ([...sent].some((p) => change.path.startsWith(`${p}/`))) continue;
      const found = resolveElementPath(outline, change.path);
      if (!found.ok) continue;
      sent.add(change.path);
      elementTokens += counter.count(pair.afterText.slice(found.element.range.start, found.element.range.end));
    }
    summary.push(rendered.tokens);
    elements.push(elementTokens);
    whole.push(counter.count(pair.afterText));
  }
  const row = (name: string, values: readonly number[]): string =>
    `| ${name} | ${quantile(values, 0.5).toLocaleString('en-US')} | ${quantile(values, 0.9).toLocaleString('en-US')} |`;
  const ratio = summary.map((s, i) => s / Math.max(1, elements[i] ?? 1));
  return [
    SYNC_SECTION.start,
    '',
    "### Follow-up after the user's edits: change summary vs resending (issue 11)",
    '',
    `${summary.length} files that changed between the corpus's two releases (the older one as what the model saw, the newer ` +
      `as the user's edits); ${skipped} more were left out (a side does not parse, or only text between elements changed). ` +
      `Tokens (o200k_base) of what a follow-up sends about the file:`,
    '',
    '| sent | median | p90 |',
    '|---|---:|---:|',
    row('change section (per-element diffs, budget 3,000)', summary),
    row('the changed elements again, in full', elements),
    row('the whole file', whole),
    '',
    `Change section / changed elements: median ${quantile(ratio, 0.5).toFixed(2)}, p90 ${quantile(ratio, 0.9).toFixed(2)}; ` +
      `${collapsed} of ${summary.length} sections collapsed some diffs to stay within the budget.`,
    '',
    SYNC_SECTION.end,
  ].join('\n');
}

runBenchSection({
  label: 'bench:sync',
  markers: SYNC_SECTION,
  measure: () => ({ markdown: measureSyncSummary() }),
});
