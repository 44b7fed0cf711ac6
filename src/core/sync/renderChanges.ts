import type { TokenCounter } from '../context/tokens';
import { withinFile, type ElementChange, type FileChanges } from './userChanges';

/**
 * The user's changes as compact text, for a model's context, a tool answer or the terminal: per file one summary
 * line, then one line per changed element with its `+`/`-` lines indented under it. Under a token budget the
 * biggest diffs collapse first to their element line (signature and line counts), then the last elements of each
 * file to a count, and a note says how to get what was left out.
 */

export interface RenderChangesOptions {
  readonly counter: TokenCounter;
  /** Tokens the whole text may take. */
  readonly budget: number;
  /** How to get what the budget left out, e.g. "call get_changes with the file". */
  readonly moreHint: string;
  /** A line above everything (the section title in a prompt). */
  readonly title?: string;
}

export interface RenderedChanges {
  readonly text: string;
  readonly tokens: number;
  /** Elements shown without their diff lines. */
  readonly collapsed: number;
  /** Elements left out, only counted. */
  readonly omitted: number;
}

type Level = 'diff' | 'line' | 'count';

interface Entry {
  readonly file: FileChanges;
  readonly change: ElementChange;
  level: Level;
  readonly lineTokens: number;
  readonly diffTokens: number;
}

const SIGNS: Readonly<Record<ElementChange['change'], string>> = {
  modified: '~',
  added: '+',
  deleted: '-',
  renamed: '>',
  moved: '>',
};

export function elementLine(file: string, change: ElementChange, withSignature: boolean): string {
  const name = withinFile(change.path, file);
  const lines =
    change.startLine === change.endLine ? `line ${change.startLine}` : `lines ${change.startLine}-${change.endLine}`;
  const counts =
    change.change === 'modified' || change.added + change.removed > 0 ? `, +${change.added} -${change.removed}` : '';
  const signature = withSignature || change.change === 'deleted' ? `: ${flat(change.signature)}` : '';
  switch (change.change) {
    case 'renamed':
    case 'moved':
      return `${SIGNS[change.change]} ${withinFile(change.previousPath ?? change.path, file)} ${change.change} to ${name} (${lines}${counts})${signature}`;
    case 'deleted':
      return `${SIGNS.deleted} ${name} deleted${signature}`;
    default:
      return `${SIGNS[change.change]} ${name} ${change.change} (${lines}${counts})${signature}`;
  }
}

function flat(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 140 ? `${one.slice(0, 139)}…` : one;
}

function diffBlock(lines: readonly string[]): string {
  return lines.map((l) => `  ${l}`).join('\n');
}

export function renderChanges(files: readonly FileChanges[], options: RenderChangesOptions): RenderedChanges {
  const { counter } = options;
  const changed = files.filter((f) => f.status !== 'unchanged');
  const entries: Entry[] = changed.flatMap((file) =>
    file.changes.map((change) => ({
      file,
      change,
      level: 'diff' as Level,
      lineTokens: counter.count(elementLine(file.file, change, true)) + 1,
      diffTokens: change.diff.length === 0 ? 0 : counter.count(diffBlock(change.diff)) + 1,
    })),
  );
  // A file read as text (it does not parse) has one diff, collapsible to its counts like an element's.
  const fileDiffShown = new Map<FileChanges, boolean>(changed.map((f) => [f, f.fileDiff !== undefined]));
  const fileDiffTokens = new Map(changed.map((f) => [f, counter.count(diffBlock(f.fileDiff ?? [])) + 1]));
  const fixed =
    counter.count(options.title ?? '') +
    changed.reduce((sum, f) => sum + counter.count(`## ${f.file}\n${f.summary}`) + 2, 0) +
    counter.count(options.moreHint) +
    30;
  const cost = (): number =>
    fixed +
    entries.reduce(
      (sum, e) => sum + (e.level === 'count' ? 0 : e.lineTokens + (e.level === 'diff' ? e.diffTokens : 0)),
      0,
    ) +
    changed.reduce((sum, f) => sum + (fileDiffShown.get(f) === true ? (fileDiffTokens.get(f) ?? 0) : 0), 0) +
    // Each file whose elements are partly counted gets one "and N more" line.
    changed.filter((f) => entries.some((e) => e.file === f && e.level === 'count')).length * 20;

  while (cost() > options.budget) {
    const biggestFileDiff = changed
      .filter((f) => fileDiffShown.get(f) === true)
      .sort((a, b) => (fileDiffTokens.get(b) ?? 0) - (fileDiffTokens.get(a) ?? 0))[0];
    const biggestDiff = entries
      .filter((e) => e.level === 'diff' && e.diffTokens > 0)
      .sort((a, b) => b.diffTokens - a.diffTokens)[0];
    if (
      biggestFileDiff !== undefined &&
      (biggestDiff === undefined || (fileDiffTokens.get(biggestFileDiff) ?? 0) >= biggestDiff.diffTokens)
    ) {
      fileDiffShown.set(biggestFileDiff, false);
      continue;
    }
    if (biggestDiff !== undefined) {
      biggestDiff.level = 'line';
      continue;
    }
    // Every diff is gone: count the last shown element of the file with the most shown elements.
    const shown = entries.filter((e) => e.level !== 'count');
    if (shown.length === 0) break;
    const perFile = new Map<FileChanges, Entry[]>();
    for (const e of shown) perFile.set(e.file, [...(perFile.get(e.file) ?? []), e]);
    const fullest = [...perFile.values()].sort((a, b) => b.length - a.length)[0] ?? [];
    const last = fullest[fullest.length - 1];
    if (last === undefined) break;
    last.level = 'count';
  }

  const out: string[] = [];
  if (options.title !== undefined) out.push(options.title);
  let collapsed = 0;
  let omitted = 0;
  for (const file of changed) {
    out.push(`## ${file.file}`, file.summary);
    if (file.fileDiff !== undefined) {
      if (fileDiffShown.get(file) === true) out.push(diffBlock(file.fileDiff));
      else if (file.fileDiff.length > 0) collapsed += 1;
    }
    const own = entries.filter((e) => e.file === file);
    for (const entry of own) {
      if (entry.level === 'count') continue;
      out.push(elementLine(file.file, entry.change, entry.level === 'line'));
      if (entry.level === 'diff' && entry.change.diff.length > 0) out.push(diffBlock(entry.change.diff));
      if (entry.level === 'line' && entry.change.diff.length > 0) collapsed += 1;
    }
    const counted = own.filter((e) => e.level === 'count');
    if (counted.length > 0) {
      omitted += counted.length;
      out.push(
        `… and ${counted.length} more changed element${counted.length === 1 ? '' : 's'} (${countsByKind(counted)})`,
      );
    }
  }
  if (collapsed + omitted > 0)
    out.push(`(Some diffs were left out to stay within ${options.budget} tokens: ${options.moreHint}.)`);
  const text = out.join('\n');
  return { text, tokens: counter.count(text), collapsed, omitted };
}

function countsByKind(entries: readonly Entry[]): string {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.change.change, (counts.get(e.change.change) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}
