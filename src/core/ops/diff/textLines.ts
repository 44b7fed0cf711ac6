import type { ElementNode } from '../../elements/element';
import type { BlankLinesAround } from '../operation';

/**
 * Line-level helpers shared by the element diff: line splitting that keeps line breaks, indentation, line endings, the
 * free comment lines between elements.
 */

/** Lines with their line breaks kept, so joining them gives the text back exactly. */
export function splitLinesKeepingBreaks(text: string): string[] {
  if (text === '') return [];
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

export function withoutLineBreak(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2);
  if (line.endsWith('\n')) return line.slice(0, -1);
  return line;
}

/** True when every line break of the text is `\r\n` and there is at least one. */
export function usesOnlyCrlf(text: string): boolean {
  let crlf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i === 0 || text.charCodeAt(i - 1) !== 13) return false;
    crlf += 1;
  }
  return crlf > 0;
}

/**
 * Blank lines right above the line holding `start` and right below the line holding `end`, up to the next line with
 * text (or the edge of the file).
 */
export function blankLinesAround(text: string, start: number, end: number): BlankLinesAround {
  const isBlank = (from: number, to: number): boolean => text.slice(from, to).trim() === '';
  let above = 0;
  // `lineBreak` ends the line above the one looked at; the line above it starts after the line break before it.
  for (let lineBreak = start > 0 ? text.lastIndexOf('\n', start - 1) : -1; lineBreak >= 0; above += 1) {
    const previousStart = lineBreak === 0 ? 0 : text.lastIndexOf('\n', lineBreak - 1) + 1;
    if (!isBlank(previousStart, lineBreak)) break;
    lineBreak = previousStart - 1;
  }
  let below = 0;
  for (let lineEnd = text.indexOf('\n', end); lineEnd >= 0; below += 1) {
    const nextEnd = text.indexOf('\n', lineEnd + 1);
    // The text's own last line break leaves an empty "line" after it, which is no blank line.
    if (nextEnd < 0 || !isBlank(lineEnd + 1, nextEnd)) break;
    lineEnd = nextEnd;
  }
  return { above, below };
}

/** The whitespace between the start of the line holding `offset` and `offset`, or undefined if other text is there. */
export function indentationBefore(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const prefix = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(prefix) ? prefix : undefined;
}

/**
 * An element's text as a model would write it: the first line starts at column 0 and every later line loses the
 * element's own indentation. Lines that do not start with that indentation keep theirs, and so do lines that start
 * inside a string or template literal (`literals`, offsets in `elementText`): they are text, which the apply engine
 * writes exactly as it gets it.
 */
export function dedentElementText(
  elementText: string,
  indentation: string,
  literals: readonly { readonly start: number; readonly end: number }[] = [],
): string {
  if (indentation === '') return elementText;
  const lines = splitLinesKeepingBreaks(elementText);
  let offset = 0;
  return lines
    .map((line, index) => {
      const start = offset;
      offset += line.length;
      const literal = literals.some((range) => range.start < start && start < range.end);
      return index > 0 && !literal && line.startsWith(indentation) ? line.slice(indentation.length) : line;
    })
    .join('');
}

/** The whole lines between `start` and `end` with text on them that none of `elements` holds: free comments. */
export function freeTextLines(
  text: string,
  start: number,
  end: number,
  elements: readonly ElementNode[],
): { start: number; end: number }[] {
  const lines: { start: number; end: number }[] = [];
  // The first line break ends the line of whatever stands before the segment.
  let at = text.indexOf('\n', start);
  while (at >= 0 && at < end) {
    const lineStart = at + 1;
    const lineBreak = text.indexOf('\n', lineStart);
    const lineEnd = lineBreak < 0 ? text.length : lineBreak + 1;
    if (lineEnd > end && lineBreak >= 0) break;
    const line = text.slice(lineStart, lineEnd);
    const inElement = elements.some((e) => e.range.start < lineEnd && lineStart < e.range.end);
    if (line.trim() !== '' && !inElement) lines.push({ start: lineStart, end: lineEnd });
    at = lineBreak;
  }
  return lines;
}

/** The first character with text on it from `from`, before `limit`; `limit` when there is none. */
export function firstTextAfter(text: string, from: number, limit: number): number {
  let at = text.indexOf('\n', from);
  if (at < 0 || at >= limit) return limit;
  at += 1;
  while (at < limit && /\s/.test(text.charAt(at))) at += 1;
  return at;
}

/** The end of the last character with text on it before `limit`, not before `from`. */
export function lastTextBefore(text: string, from: number, limit: number): number {
  let at = limit;
  while (at > from && /\s/.test(text.charAt(at - 1))) at -= 1;
  return at;
}
