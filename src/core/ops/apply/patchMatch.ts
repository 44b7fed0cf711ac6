import type { CodeScan } from '../../language/languageSupport';
import type { SearchReplacePair } from '../operation';
import { reindent } from './reindent';
import { linesStartingInside } from './codeScan';
import {
  detectEol,
  detectIndent,
  indentWidth,
  inIndentStyle,
  type IndentStyle,
  isBlankLine,
  leadingWhitespace,
} from './textStyle';

/**
 * SEARCH/REPLACE inside one element. A search must match exactly once: first as written (line breaks in the
 * element's own style), then, only when that finds nothing, line by line ignoring indentation and trailing
 * whitespace; a tolerant match is used only when it is unique, and its replacement is moved onto the indentation
 * the matched lines really have.
 */

export type PatchOutcome =
  | { readonly ok: true; readonly text: string; readonly tolerant: boolean }
  | {
      readonly ok: false;
      /** Which pair failed (0-based) and why. */
      readonly pair: number;
      readonly reason: 'empty' | 'notFound' | 'ambiguous';
      readonly message: string;
      readonly hint: string;
    };

export interface PatchTarget {
  /** The element's text as it stands (after earlier operations of the batch on it). */
  readonly text: string;
  /** 1-based file line of the element's first line, for messages. */
  readonly firstLine: number;
  readonly describe: string;
  readonly indent: IndentStyle;
  readonly scanCode: (text: string) => CodeScan;
}

function trimBlankEdges(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlankLine(lines[start] ?? '')) start += 1;
  while (end > start && isBlankLine(lines[end - 1] ?? '')) end -= 1;
  return lines.slice(start, end);
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function lineNumberAt(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** Dice similarity of two lines, 0..1. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const left = bigrams(a);
  const right = bigrams(b);
  let shared = 0;
  for (const [gram, count] of left) shared += Math.min(count, right.get(gram) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

/** The window of element lines most like the search lines, for the error message. */
function closestLines(elementLines: readonly string[], searchLines: readonly string[], firstLine: number): string {
  const keys = elementLines.map((l) => l.trim());
  const wanted = searchLines.map((l) => l.trim());
  const size = Math.min(wanted.length, keys.length);
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i + size <= keys.length; i++) {
    let score = 0;
    for (let j = 0; j < size; j++) score += similarity(keys[i + j] ?? '', wanted[j] ?? '');
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  const shown = elementLines.slice(best, best + Math.max(size, 1)).slice(0, 12);
  return shown.map((line, i) => `${String(firstLine + best + i).padStart(5)} | ${line.replace(/\r$/, '')}`).join('\n');
}

export function applyPatches(target: PatchTarget, patches: readonly SearchReplacePair[]): PatchOutcome {
  let text = target.text;
  for (let index = 0; index < patches.length; index++) {
    const pair = patches[index];
    if (pair === undefined) continue;
    const outcome = applyOne(text, pair, index, target);
    if (!outcome.ok) return outcome;
    text = outcome.text;
  }
  return { ok: true, text, tolerant: false };
}

function applyOne(text: string, pair: SearchReplacePair, index: number, target: PatchTarget): PatchOutcome {
  const label = `SEARCH block ${index + 1} of PATCH_ELEMENT ${target.describe}`;
  const search = pair.search.replace(/\r\n?/g, '\n');
  const replace = pair.replace.replace(/\r\n?/g, '\n');
  if (search.trim() === '') {
    return {
      ok: false,
      pair: index,
      reason: 'empty',
      message: `${label} is empty`,
      hint: 'SEARCH must copy the existing lines to change; to add code, include the line it goes after and repeat it in REPLACE',
    };
  }
  const eol = detectEol(text);
  const exactSearch = eol === '\n' ? search : search.replace(/\n/g, eol);
  const exact = occurrences(text, exactSearch);
  if (exact.length === 1 && exact[0] !== undefined) {
    const at = exact[0];
    const styled = inStyleOfElement(text, at, replace, target);
    const replacement = eol === '\n' ? styled : styled.replace(/\n/g, eol);
    return { ok: true, text: text.slice(0, at) + replacement + text.slice(at + exactSearch.length), tolerant: false };
  }
  if (exact.length > 1) {
    const lines = exact.map((at) => target.firstLine + lineNumberAt(text, at));
    return {
      ok: false,
      pair: index,
      reason: 'ambiguous',
      message: `${label} matches ${exact.length} places in the element (lines ${lines.join(', ')})`,
      hint: 'add the lines around the change to SEARCH until it matches only one place',
    };
  }
  return applyTolerant(text, search, replace, index, label, target);
}

/**
 * The lines a replacement adds after its first, in the indentation character of the element's own lines: a model
 * that writes spaces into a tab-indented element (or tabs into a space-indented one) would leave it mixed, which
 * CPython refuses (issue 25). Lines that start inside a string literal are text and stay as they are.
 */
function inStyleOfElement(text: string, at: number, replace: string, target: PatchTarget): string {
  if (!replace.includes('\n')) return replace;
  const style = detectIndent(text, target.indent);
  const prefix = text.slice(0, at);
  const inLiteral = linesStartingInside(prefix + replace, target.scanCode(prefix + replace).literals);
  const firstLine = inLiteral.length - replace.split('\n').length;
  return replace
    .split('\n')
    .map((line, i) => {
      if (i === 0 || inLiteral[firstLine + i] === true) return line;
      const indent = leadingWhitespace(line);
      return inIndentStyle(indent, style) + line.slice(indent.length);
    })
    .join('\n');
}

function applyTolerant(
  text: string,
  search: string,
  replace: string,
  index: number,
  label: string,
  target: PatchTarget,
): PatchOutcome {
  const elementLines = text.split('\n');
  const searchLines = trimBlankEdges(search.split('\n'));
  const keys = elementLines.map((l) => l.trim());
  const wanted = searchLines.map((l) => l.trim());
  const matches: number[] = [];
  for (let i = 0; i + wanted.length <= keys.length; i++) {
    let same = true;
    for (let j = 0; j < wanted.length && same; j++) same = keys[i + j] === wanted[j];
    if (same) matches.push(i);
  }
  if (matches.length === 0) {
    return {
      ok: false,
      pair: index,
      reason: 'notFound',
      message: `${label} matches nothing in the element; the closest lines are:\n${closestLines(elementLines, searchLines, target.firstLine)}`,
      hint: 'copy the SEARCH lines exactly from the current code of that element (or use REPLACE_ELEMENT)',
    };
  }
  if (matches.length > 1) {
    return {
      ok: false,
      pair: index,
      reason: 'ambiguous',
      message: `${label} matches ${matches.length} places in the element once indentation is ignored (lines ${matches.map((m) => target.firstLine + m).join(', ')})`,
      hint: 'add the lines around the change to SEARCH until it matches only one place',
    };
  }
  const start = matches[0] ?? 0;
  const matched = elementLines.slice(start, start + searchLines.length);
  const eol = (matched[matched.length - 1] ?? '').endsWith('\r') || text.includes('\r\n') ? '\r\n' : '\n';
  // The first non-blank search line and the line it matched give the indentation shift for the replacement.
  const anchor = searchLines.findIndex((l) => !isBlankLine(l));
  const searchBase = indentWidth(leadingWhitespace(searchLines[anchor] ?? ''), target.indent.tabWidth);
  const matchedIndent = leadingWhitespace(matched[anchor] ?? '');
  const replacementLines = trimBlankEdges(replace.split('\n'));
  const moved =
    replacementLines.length === 0
      ? []
      : reindent(replacementLines.join('\n'), {
          indent: matchedIndent,
          style: target.indent,
          baseWidth: searchBase,
          scanCode: target.scanCode,
        });
  const lastMatched = matched[matched.length - 1] ?? '';
  const keepsCr = lastMatched.endsWith('\r');
  const before = elementLines.slice(0, start);
  const after = elementLines.slice(start + searchLines.length);
  const replaced = moved.map((line, i) => (eol === '\r\n' && (i < moved.length - 1 || keepsCr) ? `${line}\r` : line));
  const joined = [...before, ...replaced, ...after];
  return { ok: true, text: joined.join('\n'), tolerant: true };
}
