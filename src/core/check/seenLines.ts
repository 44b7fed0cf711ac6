import { widened } from '../context/elementWindows';
import { linesLabel, mergeSpans, spansCover, type LineSpan } from '../context/viewPieces';
import type { ElementNode, FileOutline } from '../elements/element';
import { LineIndex } from '../elements/lines';
import type { PatchElementOperation } from '../ops/operation';

/**
 * The seen-code rule at line level (issue 28): an element shown in part (a very large element as windows, a
 * container's header and own text) may be PATCHed only in the lines that were shown as written. A SEARCH text is
 * placed in the element as the apply step will place it (exactly, else by its trimmed lines); one that lies outside
 * the lines shown is refused, and the lines around it are shown (the window widened) so the next answer is written
 * from them. A SEARCH that matches nowhere, or more than once, is left to the apply step, which explains it.
 */

export type PartialPatchVerdict =
  { readonly seen: true } | { readonly seen: false; readonly reason: string; readonly lines: readonly LineSpan[] };

export function judgePartialPatch(
  operation: PatchElementOperation,
  element: ElementNode,
  outline: FileOutline,
  shown: readonly LineSpan[],
): PartialPatchVerdict {
  const outside: LineSpan[] = [];
  for (const { search } of operation.patches) {
    const span = placeSearch(outline.text, element, search);
    if (span !== undefined && !spansCover(shown, span)) outside.push(span);
  }
  if (outside.length === 0) return { seen: true };
  const merged = mergeSpans(outside);
  const lines = mergeSpans(merged.map((span) => widened(element, span)));
  const shownText = mergeSpans(shown).map(linesLabel).join(', ');
  const showing = lines.map(linesLabel).join(', ');
  return {
    seen: false,
    lines,
    reason:
      `PATCH_ELEMENT of ${element.path} changes ${merged.map(linesLabel).join(', ')}, which you were not shown ` +
      `(you saw ${shownText} of it). ${capitalize(showing)} ${lines.length === 1 && lines[0]?.[0] === lines[0]?.[1] ? 'is' : 'are'} ` +
      'shown below; write the patch again from them.',
  };
}

function capitalize(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** The file lines a SEARCH text covers inside the element, or undefined when it is not found exactly once. */
export function placeSearch(text: string, element: ElementNode, search: string): LineSpan | undefined {
  const index = new LineIndex(text);
  const lineAt = (offset: number): number => index.lineOf(offset);
  const code = text.slice(element.range.start, element.range.end);
  const normalized = search.replace(/\r\n/g, '\n');
  const exact = onlyIndexOf(code, normalized);
  if (exact !== undefined) {
    const start = lineAt(element.range.start + exact);
    return [start, start + lineCount(normalized.replace(/\n$/, '')) - 1];
  }
  // As written but indented otherwise: the same trimmed lines, once.
  const wanted = normalized
    .split('\n')
    .map((l) => l.trim())
    .filter((l, i, all) => l !== '' || (i > 0 && i < all.length - 1));
  if (wanted.length === 0) return undefined;
  const lines = code.split('\n').map((l) => l.trim());
  let found: number | undefined;
  for (let at = 0; at + wanted.length <= lines.length; at++) {
    if (wanted.every((line, k) => lines[at + k] === line || (k === 0 && lines[at]?.endsWith(line) === true))) {
      if (found !== undefined) return undefined;
      found = at;
    }
  }
  if (found === undefined) return undefined;
  const first = lineAt(element.range.start) + found;
  return [first, first + wanted.length - 1];
}

function onlyIndexOf(code: string, search: string): number | undefined {
  if (search === '') return undefined;
  const first = code.indexOf(search);
  if (first < 0 || code.indexOf(search, first + 1) >= 0) return undefined;
  return first;
}

function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}
