import type { ElementNode, FileOutline } from '../elements/element';
import { LineIndex } from '../elements/lines';
import { splitWords } from './taskWords';
import { mergeSpans, type LineSpan } from './viewPieces';

/**
 * Windows inside a very large element (issue 28): a focused element of {@link WINDOW_MIN_LINES} lines or more is shown
 * as its head (the declaration and its first lines), windows of lines around the lines the task points to (the
 * user's cursor or selection, lines holding the task's words or a symbol the model asked about), and its last line;
 * each run of lines left out is one comment naming the lines (`// … lines 40-388 not shown`). The model may PATCH
 * only lines it was shown (the seen-code rule at line level) and can ask for more with `NEED <path> LINES a-b`.
 * With nothing to point at, the element is shown whole; over the token budget it is shown as its head and last line.
 */

/** Elements of at least this many lines are shown as windows when the task points inside them. */
export const WINDOW_MIN_LINES = 150;
/** Lines shown on each side of a line the task points to. */
export const WINDOW_RADIUS = 12;
/** Lines of the element's head shown after the line its body opens on. */
const HEAD_LINES = 3;
/** The head never runs past this many lines (a long doc comment is cut like the rest). */
const HEAD_MAX_LINES = 24;
/** At most this many lines are pointed at: the ones holding the most of the task's words. */
const MAX_POINTS = 8;
/** A word on more than this share of the element's lines tells nothing about where to look. */
const COMMON_SHARE = 0.1;
/**
 * Windows covering more than this share of the element show it whole instead: a task that points at many places
 * edits broadly, and a window too few costs a round (measured on the replay: a 247-line method shown at 55% in
 * windows took a repair round its whole text would not have).
 */
const WHOLE_SHARE = 0.4;

export interface WindowPointers {
  /** 1-based file lines the user pointed at (cursor, selection). */
  readonly lines?: readonly number[];
  /** Lowercased words of the task ({@link wordsOfTask}). */
  readonly words?: readonly string[];
  /** Identifiers the model asked about (FIND): lines holding one exactly are pointed at. */
  readonly symbols?: readonly string[];
}

/**
 * The spans of the element's lines to show, or undefined to show it whole: it is short, the task points nowhere
 * inside it, or the windows would cover most of it. `force` (the element is over the budget) shows at least its head
 * and last line whatever its size.
 */
export function windowsOf(
  outline: FileOutline,
  element: ElementNode,
  pointers: WindowPointers,
  force = false,
): LineSpan[] | undefined {
  const first = element.startLine;
  const last = element.endLine;
  const size = last - first + 1;
  if (size < WINDOW_MIN_LINES && !force) return undefined;
  const points = pointedLines(outline, element, pointers);
  if (points.length === 0 && !force) return undefined;
  const openLine = new LineIndex(outline.text).lineOf(element.bodyRange?.start ?? element.declarationRange.start);
  const headEnd = Math.min(last, openLine + HEAD_LINES, first + HEAD_MAX_LINES - 1);
  const spans: LineSpan[] = [
    [first, headEnd],
    [last, last],
  ];
  for (const point of points)
    spans.push([Math.max(first, point - WINDOW_RADIUS), Math.min(last, point + WINDOW_RADIUS)]);
  const merged = mergeSpans(spans);
  const shown = merged.reduce((sum, [start, end]) => sum + end - start + 1, 0);
  if (shown >= size * WHOLE_SHARE && !force) return undefined;
  if (shown >= size) return undefined;
  return merged;
}

/** A span of lines widened by `radius` on each side, within the element. */
export function widened(element: ElementNode, span: LineSpan, radius = WINDOW_RADIUS): LineSpan {
  return [Math.max(element.startLine, span[0] - radius), Math.min(element.endLine, span[1] + radius)];
}

function pointedLines(outline: FileOutline, element: ElementNode, pointers: WindowPointers): number[] {
  const first = element.startLine;
  const last = element.endLine;
  const given = (pointers.lines ?? []).filter((line) => line > first && line <= last);
  const words = pointers.words ?? [];
  const symbols = pointers.symbols ?? [];
  if (words.length === 0 && symbols.length === 0) return given.slice(0, MAX_POINTS);
  const lines = outline.text.slice(startOfLine(outline.text, element.range.start), element.range.end).split('\n');
  const lineWords = lines.map((line) => new Set(splitWords(line)));
  const limit = Math.max(2, Math.floor(lines.length * COMMON_SHARE));
  const telling = words.filter((word) => lineWords.filter((set) => set.has(word)).length <= limit);
  const symbolPatterns = symbols
    .filter((s) => /^[A-Za-z_$][\w$]*$/.test(s))
    .map((s) => new RegExp(`(?<![\\w$])${s.replace(/\$/g, '\\$')}(?![\\w$])`));
  const scored = lines
    .map((line, index) => ({
      line: first + index,
      score:
        telling.filter((word) => lineWords[index]?.has(word) === true).length +
        2 * symbolPatterns.filter((pattern) => pattern.test(line)).length,
    }))
    // The head is shown anyway: a task word in the signature points nowhere inside.
    .filter((s) => s.score > 0 && s.line > first + HEAD_LINES)
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, Math.max(0, MAX_POINTS - given.length))
    .map((s) => s.line);
  return [...new Set([...given, ...scored])].sort((a, b) => a - b);
}

function startOfLine(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}
