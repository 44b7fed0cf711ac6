import type { CodeScan } from '../../language/languageSupport';
import type { SearchReplacePair } from '../operation';
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
 * SEARCH/REPLACE inside one element (or the text of a container or file, planFrame.ts). How a SEARCH matches, the same
 * in every language (docs/operations.md, "How SEARCH matches"):
 *
 * 1. As written, its line breaks read as the text's own (`\n` or `\r\n`). One place: replaced there. Several: refused
 *    as ambiguous, naming their lines (a looser reading could only find more).
 * 2. Only when that finds nothing, whitespace-tolerantly: line by line, each line with its indentation, its trailing
 *    whitespace and its runs of spaces and tabs inside it ignored (tabs vs spaces, a width of 2 vs 4, gofmt's
 *    alignment, trailing spaces, CR); blank lines at the SEARCH's edges ignored, those inside it matching blank lines
 *    one for one. Where indentation is syntax (Python), the SEARCH's lines must also nest as the matched lines do.
 *    Used only when exactly one place matches; several are refused as ambiguous. The lines the REPLACE keeps from the
 *    SEARCH (its leading and trailing lines that read the same) keep the file's own text; the others are moved onto
 *    the indentation the matched lines really have, in the file's indentation style.
 */

export type PatchOutcome =
  | {
      readonly ok: true;
      readonly text: string;
      /** 1-based numbers of the pairs that matched only whitespace-tolerantly. */
      readonly tolerantPairs: readonly number[];
    }
  | {
      readonly ok: false;
      /** Which pair failed (0-based) and why. */
      readonly pair: number;
      readonly reason: 'empty' | 'notFound' | 'ambiguous';
      readonly message: string;
      readonly hint: string;
    };

export interface PatchTarget extends MatchOptions {
  /** The element's text as it stands (after earlier operations of the batch on it). */
  readonly text: string;
  /** 1-based file line of the element's first line, for messages. */
  readonly firstLine: number;
  readonly describe: string;
}

export interface MatchOptions {
  readonly indent: IndentStyle;
  readonly scanCode: (text: string) => CodeScan;
  /** Indentation is syntax (Python): a tolerant match must nest its lines as the text does. */
  readonly indentBlocks: boolean;
}

/** Where one pair applies in a text: the range it replaces and the text put there. */
export type PairMatch =
  | {
      readonly ok: true;
      readonly start: number;
      readonly end: number;
      readonly replacement: string;
      readonly tolerant: boolean;
    }
  | {
      readonly ok: false;
      readonly reason: 'empty' | 'notFound' | 'ambiguous';
      /** For `ambiguous`: the 0-based line of each place, and whether it was the tolerant reading that found them. */
      readonly lines: readonly number[];
      readonly tolerant: boolean;
    };

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
  const tolerantPairs: number[] = [];
  for (let index = 0; index < patches.length; index++) {
    const pair = patches[index];
    if (pair === undefined) continue;
    const match = matchPair(text, pair, target);
    if (!match.ok) return failureOf(text, pair, index, match, target);
    if (match.tolerant) tolerantPairs.push(index + 1);
    text = text.slice(0, match.start) + match.replacement + text.slice(match.end);
  }
  return { ok: true, text, tolerantPairs };
}

/** The one place a pair applies in `text`, exactly or else whitespace-tolerantly (see the header). */
export function matchPair(text: string, pair: SearchReplacePair, options: MatchOptions): PairMatch {
  const search = pair.search.replace(/\r\n?/g, '\n');
  const replace = pair.replace.replace(/\r\n?/g, '\n');
  if (search.trim() === '') return { ok: false, reason: 'empty', lines: [], tolerant: false };
  const eol = detectEol(text);
  const exactSearch = eol === '\n' ? search : search.replace(/\n/g, eol);
  const exact = occurrences(text, exactSearch);
  const [at] = exact;
  if (exact.length === 1 && at !== undefined) {
    const styled = inStyleOfText(text, at, replace, options);
    const replacement = eol === '\n' ? styled : styled.replace(/\n/g, eol);
    return { ok: true, start: at, end: at + exactSearch.length, replacement, tolerant: false };
  }
  if (exact.length > 1)
    return {
      ok: false,
      reason: 'ambiguous',
      lines: exact.map((offset) => lineNumberAt(text, offset)),
      tolerant: false,
    };
  return matchTolerantly(text, search, replace, options);
}

/**
 * The lines a replacement adds after its first, in the indentation character of the text's own lines: a model that
 * writes spaces into a tab-indented element (or tabs into a space-indented one) would leave it mixed, which CPython
 * refuses (issue 25). Lines that start inside a string literal are text and stay as they are.
 */
function inStyleOfText(text: string, at: number, replace: string, options: MatchOptions): string {
  if (!replace.includes('\n')) return replace;
  const style = detectIndent(text, options.indent);
  const prefix = text.slice(0, at);
  const inLiteral = linesStartingInside(prefix + replace, options.scanCode(prefix + replace).literals);
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

function failureOf(
  text: string,
  pair: SearchReplacePair,
  index: number,
  match: Extract<PairMatch, { ok: false }>,
  target: PatchTarget,
): PatchOutcome {
  const label = `SEARCH block ${index + 1} of PATCH_ELEMENT ${target.describe}`;
  if (match.reason === 'empty') {
    return {
      ok: false,
      pair: index,
      reason: 'empty',
      message: `${label} is empty`,
      hint: 'SEARCH must copy the existing lines to change; to add code, include the line it goes after and repeat it in REPLACE',
    };
  }
  if (match.reason === 'ambiguous') {
    const lines = match.lines.map((line) => target.firstLine + line).join(', ');
    return {
      ok: false,
      pair: index,
      reason: 'ambiguous',
      message: `${label} matches ${match.lines.length} places in the element${match.tolerant ? ' once whitespace is ignored' : ''} (lines ${lines})`,
      hint: 'add the lines around the change to SEARCH until it matches only one place',
    };
  }
  const searchLines = trimBlankEdges(pair.search.replace(/\r\n?/g, '\n').split('\n'));
  return {
    ok: false,
    pair: index,
    reason: 'notFound',
    message: `${label} matches nothing in the element; the closest lines are:\n${closestLines(text.split('\n'), searchLines, target.firstLine)}`,
    hint: 'copy the SEARCH lines exactly from the current code of that element (or use REPLACE_ELEMENT)',
  };
}

/** A line as the tolerant reading compares it: no indentation, no trailing whitespace, inner runs as one space. */
function comparable(line: string): string {
  return line.trim().replace(/[ \t]+/g, ' ');
}

function matchTolerantly(text: string, search: string, replace: string, options: MatchOptions): PairMatch {
  const textLines = text.split('\n');
  const searchLines = trimBlankEdges(search.split('\n'));
  const keys = textLines.map(comparable);
  const wanted = searchLines.map(comparable);
  const matches: number[] = [];
  for (let i = 0; i + wanted.length <= keys.length; i++) {
    let same = true;
    for (let j = 0; j < wanted.length && same; j++) same = keys[i + j] === wanted[j];
    if (
      same &&
      options.indentBlocks &&
      !sameNesting(searchLines, textLines.slice(i, i + wanted.length), options.indent)
    )
      same = false;
    if (same) matches.push(i);
  }
  const [first] = matches;
  if (first === undefined) return { ok: false, reason: 'notFound', lines: [], tolerant: true };
  if (matches.length > 1) return { ok: false, reason: 'ambiguous', lines: matches, tolerant: true };
  const matched = textLines.slice(first, first + searchLines.length);
  const eol = (matched[matched.length - 1] ?? '').endsWith('\r') || text.includes('\r\n') ? '\r\n' : '\n';
  const replacementLines = trimBlankEdges(replace.split('\n'));
  const moved = indentLike(replacementLines, searchLines, matched, options);
  // The lines the replacement keeps from the search stay as the file has them; a changed line in the place of a
  // search line, indented as that line was, takes the indentation of the file line matched there.
  const own = (line: string): string => line.replace(/\r$/, '');
  const replaceKeys = replacementLines.map(comparable);
  const literal = literalLines(replacementLines, options.scanCode);
  let previous = { search: -1, replace: -1 };
  for (const pair of [...keptLines(wanted, replaceKeys), { search: wanted.length, replace: replaceKeys.length }]) {
    const searchGap = pair.search - previous.search - 1;
    if (searchGap === pair.replace - previous.replace - 1) {
      for (let k = 1; k <= searchGap; k++) {
        const r = previous.replace + k;
        const line = replacementLines[r] ?? '';
        const written = searchLines[previous.search + k] ?? '';
        if (literal[r] !== true && !isBlankLine(line) && leadingWhitespace(line) === leadingWhitespace(written))
          moved[r] = leadingWhitespace(own(matched[previous.search + k] ?? '')) + line.trim();
      }
    }
    if (pair.search < wanted.length) moved[pair.replace] = own(matched[pair.search] ?? '');
    previous = pair;
  }
  const keepsCr = (matched[matched.length - 1] ?? '').endsWith('\r');
  const replaced = moved.map((line, i) => (eol === '\r\n' && (i < moved.length - 1 || keepsCr) ? `${line}\r` : line));
  const lineStart = (line: number): number => {
    let offset = 0;
    for (let i = 0; i < line; i++) offset += (textLines[i] ?? '').length + 1;
    return offset;
  };
  const start = lineStart(first);
  const after = first + searchLines.length;
  if (replaced.length > 0) {
    const end = lineStart(after - 1) + (textLines[after - 1] ?? '').length;
    return { ok: true, start, end, replacement: replaced.join('\n'), tolerant: true };
  }
  // Lines deleted: with the line break after them, or before them at the end of the text.
  if (after < textLines.length) return { ok: true, start, end: lineStart(after), replacement: '', tolerant: true };
  return { ok: true, start: Math.max(0, start - 1), end: text.length, replacement: '', tolerant: true };
}

/**
 * The lines a replacement keeps from its search, as pairs of indexes in order: a longest common subsequence of the
 * two (compared as the tolerant reading compares lines). Past a size where that costs too much, the lines they share
 * at their start and end.
 */
function keptLines(search: readonly string[], replace: readonly string[]): { search: number; replace: number }[] {
  const n = search.length;
  const m = replace.length;
  if (n * m > 250_000) {
    const pairs: { search: number; replace: number }[] = [];
    let head = 0;
    while (head < n && head < m && search[head] === replace[head]) pairs.push({ search: head, replace: head++ });
    let tail = 1;
    const tails: { search: number; replace: number }[] = [];
    while (tail <= n - head && tail <= m - head && search[n - tail] === replace[m - tail])
      tails.unshift({ search: n - tail, replace: m - tail++ });
    return [...pairs, ...tails];
  }
  // lengths[i][j]: the longest common subsequence of search[i..] and replace[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = lengths[i] ?? [];
    const below = lengths[i + 1] ?? [];
    for (let j = m - 1; j >= 0; j--)
      row[j] = search[i] === replace[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
  }
  const pairs: { search: number; replace: number }[] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (search[i] === replace[j]) pairs.push({ search: i++, replace: j++ });
    else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) i += 1;
    else j += 1;
  }
  return pairs;
}

/**
 * The replacement's lines on the file's indentation: the SEARCH showed which of its widths stands for which indentation
 * of the file (4 spaces for a tab, 2 for 4), so a REPLACE line at a width the SEARCH had takes that indentation, and a
 * deeper or shallower one steps from the nearest by the file's unit per step of the model's. Lines that start inside a
 * string literal are text and stay as written.
 */
function indentLike(
  lines: readonly string[],
  searchLines: readonly string[],
  matched: readonly string[],
  options: MatchOptions,
): string[] {
  const { tabWidth, unit } = options.indent;
  const widthOf = (line: string): number => indentWidth(leadingWhitespace(line), tabWidth);
  const searchLiteral = literalLines(searchLines, options.scanCode);
  // The file's indentation for each indentation the SEARCH wrote, as written (a mix of tabs and spaces is read
  // without guessing a tab's width), and by width for the lines the REPLACE indents otherwise.
  const asWritten = new Map<string, string>();
  const known = new Map<number, string>();
  searchLines.forEach((line, i) => {
    if (isBlankLine(line) || searchLiteral[i] === true) return;
    const own = leadingWhitespace((matched[i] ?? '').replace(/\r$/, ''));
    if (!asWritten.has(leadingWhitespace(line))) asWritten.set(leadingWhitespace(line), own);
    const width = widthOf(line);
    if (!known.has(width)) known.set(width, own);
  });
  const literal = literalLines(lines, options.scanCode);
  const widths = [...known.keys()].sort((a, b) => a - b);
  const replaceWidths = lines.filter((line, i) => !isBlankLine(line) && literal[i] !== true).map(widthOf);
  const unitWidth = indentWidth(unit, tabWidth);
  // The model's step: what its SEARCH shows, else its REPLACE when that shows whole steps, else the file's.
  const anyStep = stepOf([...widths, ...replaceWidths]);
  const modelUnit = stepOf(widths) ?? (anyStep !== undefined && anyStep >= 2 ? anyStep : unitWidth);
  return lines.map((line, i) => {
    if (literal[i] === true) return line;
    if (isBlankLine(line)) return '';
    const width = widthOf(line);
    // Trailing whitespace is layout the file does not have (or the kept lines keep it).
    const content = line.slice(leadingWhitespace(line).length).trimEnd();
    const exact = asWritten.get(leadingWhitespace(line)) ?? known.get(width);
    if (exact !== undefined) return exact + content;
    const below = [...widths].reverse().find((w) => w < width);
    if (below !== undefined) {
      // Deeper than a width the SEARCH had: whole steps become the file's unit, the rest stays as alignment.
      const extra = width - below;
      return `${known.get(below) ?? ''}${unit.repeat(Math.floor(extra / modelUnit))}${' '.repeat(extra % modelUnit)}${content}`;
    }
    // Shallower than every line of the SEARCH: that many steps out from its least indented line.
    const least = widths[0] ?? 0;
    const steps = Math.ceil((least - width) / modelUnit);
    const columns = Math.max(0, indentWidth(known.get(least) ?? '', tabWidth) - steps * unitWidth);
    const indent =
      unit === '\t'
        ? '\t'.repeat(Math.floor(columns / tabWidth)) + ' '.repeat(columns % tabWidth)
        : ' '.repeat(columns);
    return indent + content;
  });
}

/** The indentation step of some widths: the gcd of their differences, undefined when they show none. */
function stepOf(widths: readonly number[]): number | undefined {
  const distinct = [...new Set(widths)].sort((a, b) => a - b);
  let step = 0;
  for (let i = 1; i < distinct.length; i++) step = gcd(step, (distinct[i] ?? 0) - (distinct[i - 1] ?? 0));
  return step > 0 ? step : undefined;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Which lines start inside a string literal (a docstring's or template's lines). */
function literalLines(lines: readonly string[], scanCode: (text: string) => CodeScan): boolean[] {
  const text = lines.join('\n');
  const { literals } = scanCode(text);
  const result: boolean[] = [];
  let offset = 0;
  for (const line of lines) {
    result.push(offset > 0 && literals.some((l) => l.start < offset && offset < l.end));
    offset += line.length + 1;
  }
  return result;
}

/**
 * Whether two runs of lines nest alike: every pair of non-blank lines is deeper, level or shallower in both (the
 * order of their indentation widths is the same), so the replacement cannot move code into or out of a block. A tab
 * in the SEARCH may stand for the file's tab width or 2, 4 or 8 columns: models write tabs for any of them.
 */
function sameNesting(searchLines: readonly string[], textLines: readonly string[], indent: IndentStyle): boolean {
  const ranks = (lines: readonly string[], tabWidth: number): number[] => {
    const widths = lines.filter((l) => !isBlankLine(l)).map((l) => indentWidth(leadingWhitespace(l), tabWidth));
    const distinct = [...new Set(widths)].sort((a, b) => a - b);
    return widths.map((w) => distinct.indexOf(w));
  };
  const file = ranks(textLines, indent.tabWidth);
  return [...new Set([indent.tabWidth, 2, 4, 8])].some((tabWidth) => {
    const search = ranks(searchLines, tabWidth);
    return search.length === file.length && search.every((rank, i) => rank === file[i]);
  });
}
