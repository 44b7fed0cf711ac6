import type { ElementKind, ElementNode, FileOutline } from '../elements/element';
import { languageFor } from '../language/languages';
import { alignElements, identityKey } from '../ops/diff/alignElements';
import { lineDiff, type DiffHunkLine } from './lineDiff';

/**
 * The user's changes to one file since a baseline (the text a model last saw), at element level: which elements
 * were added, deleted, renamed, moved or modified, each modified one with a compact element-scoped diff. Pure: two
 * texts in, plain data out; rendering under a token budget is in renderChanges.ts.
 *
 * Elements are paired the way the element diff pairs them (alignElements: unchanged text first, then kind and
 * name). What stays unpaired is matched once more: the same kind and name elsewhere is a move; the same kind and
 * mostly the same lines under another name is a rename; the rest was added or deleted.
 */

export type ElementChangeKind = 'added' | 'deleted' | 'modified' | 'renamed' | 'moved';

export interface ElementChange {
  readonly change: ElementChangeKind;
  /** The element's path now; for a deleted element, its path in the baseline. */
  readonly path: string;
  /** The path in the baseline, when it differs (renamed, or moved into another container). */
  readonly previousPath?: string;
  readonly kind: ElementKind;
  /** One-line declaration, as the outline gives it (now; for a deleted element, in the baseline). */
  readonly signature: string;
  /** 1-based lines of the element now (in the baseline for a deleted one). */
  readonly startLine: number;
  readonly endLine: number;
  /** Lines added and removed inside the element (an added element counts all its lines as added). */
  readonly added: number;
  readonly removed: number;
  /**
   * Compact diff lines: `@@ <line>` opens a hunk (the line number is in the current file), then ` ` context,
   * `-` removed and `+` added lines. An added element is all `+` lines; a deleted one has none.
   */
  readonly diff: readonly string[];
}

export type FileChangeStatus = 'unchanged' | 'modified' | 'created' | 'deleted';

export interface FileChanges {
  readonly file: string;
  readonly status: FileChangeStatus;
  /** False when one side does not parse or no language reads the file: `fileDiff` is then the only detail. */
  readonly elementLevel: boolean;
  readonly changes: readonly ElementChange[];
  /** The line diff of the whole file, when the change could not be read per element. */
  readonly fileDiff?: readonly string[];
  readonly fileDiffCounts?: { readonly added: number; readonly removed: number };
  /** One sentence in plain words. */
  readonly summary: string;
}

/** Lines of context around each change inside an element. */
const CONTEXT_LINES = 1;

export function userChangesOf(file: string, baseline: string | undefined, current: string | undefined): FileChanges {
  if (baseline === current)
    return { file, status: 'unchanged', elementLevel: true, changes: [], summary: 'no changes' };
  if (baseline === undefined) return wholeFile(file, 'created', '', current ?? '');
  if (current === undefined) return wholeFile(file, 'deleted', baseline, '');
  const language = languageFor(file);
  const before = language?.outline(file, baseline);
  const after = language?.outline(file, current);
  if (before === undefined || after === undefined || before.syntaxErrors.length > 0 || after.syntaxErrors.length > 0)
    return wholeFile(file, 'modified', baseline, current, false);
  const changes: ElementChange[] = [];
  compareLists(before, after, before.elements, after.elements, changes);
  changes.sort((a, b) => a.startLine - b.startLine || a.path.localeCompare(b.path));
  if (changes.length === 0) {
    // Only text between elements changed (a blank line, a comment outside any element): show it as a file diff.
    return wholeFile(file, 'modified', baseline, current, true);
  }
  return { file, status: 'modified', elementLevel: true, changes, summary: summaryOf(file, changes) };
}

function wholeFile(
  file: string,
  status: FileChangeStatus,
  baseline: string,
  current: string,
  elementLevel = false,
): FileChanges {
  const diff = lineDiff(splitLines(baseline), splitLines(current), { context: CONTEXT_LINES * 2, firstLine: 1 });
  const counts = { added: diff.added, removed: diff.removed };
  const summary =
    status === 'created'
      ? `${file} is new (${counts.added} lines)`
      : status === 'deleted'
        ? `${file} was deleted`
        : `${file} changed outside its elements or does not parse (+${counts.added} -${counts.removed} lines)`;
  return {
    file,
    status,
    elementLevel: elementLevel && status === 'modified',
    changes: [],
    ...(status === 'deleted' ? {} : { fileDiff: diff.lines.map(formatDiffLine) }),
    fileDiffCounts: counts,
    summary,
  };
}

function compareLists(
  before: FileOutline,
  after: FileOutline,
  beforeList: readonly ElementNode[],
  afterList: readonly ElementNode[],
  out: ElementChange[],
): void {
  const pairs = alignElements(beforeList, before.text, afterList, after.text);
  const pairedBefore = new Set(pairs.map((p) => p.before));
  const pairedAfter = new Set(pairs.map((p) => p.after));
  for (const pair of pairs) {
    const b = beforeList[pair.before];
    const a = afterList[pair.after];
    if (b !== undefined && a !== undefined) comparePair(before, after, b, a, undefined, out);
  }
  const lostBefore = beforeList.filter((_, i) => !pairedBefore.has(i));
  const newAfter = afterList.filter((_, i) => !pairedAfter.has(i));
  const matched = new Set<ElementNode>();
  for (const { b, a, change } of matchUnpaired(before.text, after.text, lostBefore, newAfter, matched)) {
    comparePair(before, after, b, a, change, out);
  }
  for (const b of lostBefore) if (!matched.has(b)) out.push(deletedChange(b));
  for (const a of newAfter) if (!matched.has(a)) out.push(addedChange(after.text, a));
}

function matchUnpaired(
  beforeText: string,
  afterText: string,
  lostBefore: readonly ElementNode[],
  newAfter: readonly ElementNode[],
  matched: Set<ElementNode>,
): { b: ElementNode; a: ElementNode; change: 'moved' | 'renamed' }[] {
  const result: { b: ElementNode; a: ElementNode; change: 'moved' | 'renamed' }[] = [];
  for (const b of lostBefore) {
    const a = newAfter.find((x) => !matched.has(x) && identityKey(x) === identityKey(b));
    if (a === undefined) continue;
    matched.add(a);
    matched.add(b);
    result.push({ b, a, change: 'moved' });
  }
  for (const b of lostBefore) {
    if (matched.has(b) || b.name === '') continue;
    const linesB = bodyLines(textOf(beforeText, b), b.name);
    let best: { a: ElementNode; score: number } | undefined;
    for (const a of newAfter) {
      if (matched.has(a) || a.kind !== b.kind || a.name === '') continue;
      const score = similarity(linesB, bodyLines(textOf(afterText, a), a.name));
      if (score >= RENAME_SIMILARITY && (best === undefined || score > best.score)) best = { a, score };
    }
    if (best === undefined) continue;
    matched.add(best.a);
    matched.add(b);
    result.push({ b, a: best.a, change: 'renamed' });
  }
  return result;
}

/** Share of lines two elements have in common (names blanked out) above which a delete and an add are a rename. */
const RENAME_SIMILARITY = 0.6;

function bodyLines(text: string, name: string): string[] {
  return splitLines(text.split(name).join('\0'))
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Dice coefficient of the two multisets of lines. */
function similarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of b) {
    const n = counts.get(line) ?? 0;
    if (n > 0) {
      common += 1;
      counts.set(line, n - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

function comparePair(
  before: FileOutline,
  after: FileOutline,
  b: ElementNode,
  a: ElementNode,
  change: 'moved' | 'renamed' | undefined,
  out: ElementChange[],
): void {
  const textB = textOf(before.text, b);
  const textA = textOf(after.text, a);
  const relocated = change !== undefined || b.path !== a.path;
  if (textB === textA) {
    if (relocated) out.push(elementChange(change ?? 'moved', a, b, 0, 0, []));
    return;
  }
  if (b.children.length > 0 && a.children.length > 0) {
    // A container: its members are compared one by one, and its own text (header, closing brace) apart.
    const inner: ElementChange[] = [];
    compareLists(before, after, b.children, a.children, inner);
    const skeletonB = skeletonOf(before.text, b);
    const skeletonA = skeletonOf(after.text, a);
    if (skeletonB !== skeletonA || relocated) {
      const diff = lineDiff(splitLines(skeletonB), splitLines(skeletonA), { context: 0, firstLine: a.startLine });
      const kind = change ?? (relocated ? 'moved' : 'modified');
      out.push(elementChange(kind, a, b, diff.added, diff.removed, skeletonB === skeletonA ? [] : diffLinesOf(diff)));
    }
    out.push(...inner);
    return;
  }
  const diff = lineDiff(splitLines(textB), splitLines(textA), { context: CONTEXT_LINES, firstLine: a.startLine });
  const lines = diffLinesOf(diff);
  // A rewrite: more lines removed and added than the element has now, so its current text alone says more for less
  // (on the corpus the section's p90 was twice the changed elements before this). Short elements keep their diff.
  const nowLines = splitLines(textA);
  const rewritten = nowLines.length >= 4 && diff.added + diff.removed > nowLines.length;
  const shown = rewritten ? [`@@ ${a.startLine} rewritten, now:`, ...nowLines.map((l) => `+${l}`)] : lines;
  out.push(elementChange(change ?? (relocated ? 'moved' : 'modified'), a, b, diff.added, diff.removed, shown));
}

function diffLinesOf(diff: ReturnType<typeof lineDiff>): string[] {
  return diff.lines.map(formatDiffLine);
}

function formatDiffLine(line: DiffHunkLine): string {
  return line.sign === '@' ? `@@ ${line.text}` : `${line.sign}${line.text}`;
}

function elementChange(
  change: ElementChangeKind,
  a: ElementNode,
  b: ElementNode,
  added: number,
  removed: number,
  diff: readonly string[],
): ElementChange {
  return {
    change,
    path: a.path,
    ...(b.path === a.path ? {} : { previousPath: b.path }),
    kind: a.kind,
    signature: a.signature,
    startLine: a.startLine,
    endLine: a.endLine,
    added,
    removed,
    diff,
  };
}

function deletedChange(b: ElementNode): ElementChange {
  return {
    change: 'deleted',
    path: b.path,
    kind: b.kind,
    signature: b.signature,
    startLine: b.startLine,
    endLine: b.endLine,
    added: 0,
    removed: b.endLine - b.startLine + 1,
    diff: [],
  };
}

function addedChange(text: string, a: ElementNode): ElementChange {
  const lines = splitLines(textOf(text, a));
  return {
    change: 'added',
    path: a.path,
    kind: a.kind,
    signature: a.signature,
    startLine: a.startLine,
    endLine: a.endLine,
    added: lines.length,
    removed: 0,
    diff: lines.map((l) => `+${l}`),
  };
}

/** The element's text from the start of its first line, so every line keeps its indentation. */
function textOf(text: string, element: ElementNode): string {
  const lineStart = text.lastIndexOf('\n', element.range.start - 1) + 1;
  const start = /^[ \t]*$/.test(text.slice(lineStart, element.range.start)) ? lineStart : element.range.start;
  return text.slice(start, element.range.end);
}

/**
 * The container's own text: its members cut out, so only the header, the braces and what lies between remain.
 * Blank lines go too: adding or removing a member changes the blank lines between members, which is no change of
 * the container itself.
 */
export function skeletonOf(text: string, element: ElementNode): string {
  let result = '';
  let at = element.range.start;
  for (const child of element.children) {
    result += text.slice(at, child.range.start);
    at = child.range.end;
  }
  result += text.slice(at, element.range.end);
  return splitLines(result)
    .filter((line) => line.trim() !== '')
    .join('\n');
}

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** The part of an element path after its file: `class[User]/method[validate]`. */
export function withinFile(path: string, file: string): string {
  return path.startsWith(`${file}/`) ? path.slice(file.length + 1) : path;
}

const VERBS: Readonly<Record<ElementChangeKind, string>> = {
  modified: 'modified',
  added: 'added',
  deleted: 'deleted',
  renamed: 'renamed',
  moved: 'moved',
};

/** "In src/user.ts you modified class[User]/method[validate] (+2 -1) and added function[helper]." */
function summaryOf(file: string, changes: readonly ElementChange[]): string {
  const parts: string[] = [];
  for (const verb of ['modified', 'added', 'deleted', 'renamed', 'moved'] as const) {
    const of = changes.filter((c) => c.change === verb);
    if (of.length === 0) continue;
    const names = of.slice(0, 3).map((c) => {
      const name = withinFile(c.path, file);
      if (verb === 'renamed' || verb === 'moved') return `${withinFile(c.previousPath ?? c.path, file)} to ${name}`;
      return verb === 'modified' ? `${name} (+${c.added} -${c.removed})` : name;
    });
    if (of.length > 3) names.push(`${of.length - 3} more`);
    parts.push(`${VERBS[verb]} ${joinWords(names)}`);
  }
  return `In ${file} the user ${joinWords(parts)}.`;
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}
