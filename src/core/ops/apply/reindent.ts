import type { CodeScan } from '../../language/languageSupport';
import { linesStartingInside } from './codeScan';
import {
  indentWidth,
  inIndentStyle,
  type IndentStyle,
  isBlankLine,
  leadingWhitespace,
  stripBom,
  styleOfIndent,
} from './textStyle';

/**
 * Moves a piece of code written elsewhere (by a model, at its own indentation) onto the indentation of the place it
 * goes, in the file's indentation style. Lines that start inside a string or template literal are text and are left
 * exactly as they are.
 */

/** `\n` line breaks, no BOM, no blank lines around, no trailing whitespace at the end. */
export function normalizeContent(content: string): string {
  const lf = stripBom(content).replace(/\r\n?/g, '\n');
  return lf.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

interface LineFacts {
  readonly lines: readonly string[];
  /** Lines whose start is inside a literal. */
  readonly literal: readonly boolean[];
}

function lineFacts(content: string, scanCode: (text: string) => CodeScan): LineFacts {
  return { lines: content.split('\n'), literal: linesStartingInside(content, scanCode(content).literals) };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The indentation step of space-indented code: the gcd of its relative widths, 2 when it shows none. */
function spaceUnitOf(widths: readonly number[]): number {
  const positive = widths.filter((w) => w > 0);
  if (positive.length === 0) return 2;
  const step = positive.reduce((a, b) => gcd(a, b));
  return step >= 2 ? step : Math.min(...positive);
}

/** Drops `columns` columns of indentation from the front of `indent`; a tab straddling the cut becomes spaces. */
function dropColumns(indent: string, columns: number, tabWidth: number): string {
  let width = 0;
  let i = 0;
  while (i < indent.length && width < columns) {
    width += indent[i] === '\t' ? tabWidth : 1;
    i += 1;
  }
  const overshoot = width - columns;
  return (overshoot > 0 ? ' '.repeat(overshoot) : '') + indent.slice(i);
}

/** Rewrites relative indentation in the file's style; text already in that style is kept as it is. */
function convertRelative(relative: string, style: IndentStyle, contentSpaceUnit: number): string {
  if (relative === '') return '';
  const tabsWanted = style.unit === '\t';
  if (tabsWanted && /^\t*$/.test(relative)) return relative;
  if (!tabsWanted && /^ *$/.test(relative)) return relative;
  if (tabsWanted) {
    // Spaces (or a mix) to tabs: whole steps of the content's own unit become tabs, the rest stays as alignment.
    const columns = indentWidth(relative, contentSpaceUnit);
    return '\t'.repeat(Math.floor(columns / contentSpaceUnit)) + ' '.repeat(columns % contentSpaceUnit);
  }
  return relative.replace(/\t/g, style.unit);
}

export interface ReindentTarget {
  /** The indentation the code's base level takes. */
  readonly indent: string;
  readonly style: IndentStyle;
  /** The language's lexer: lines that start inside its string literals are left as they are. */
  readonly scanCode: (text: string) => CodeScan;
  /** The content's base level in columns, when the caller knows it (a SEARCH block's indentation). */
  readonly baseWidth?: number;
  /**
   * How to read a first line at column 0: `auto` decides from the other lines; `cut` takes the other lines as
   * already in place (text cut from the file at the element's first token); `dedented` as relative to column 0.
   */
  readonly mode?: 'auto' | 'cut' | 'dedented';
  /**
   * Indentation is syntax (Python): a line ending with `:` opens a block whose lines must sit deeper than it, which
   * settles whether a first line at column 0 was cut from the file or the lines are relative to it.
   */
  readonly indentBlocks?: boolean;
}

/** Whether a line's code (its trailing comment dropped) ends with the `:` that opens an indented block. */
function opensIndentedBlock(line: string, scanCode: (text: string) => CodeScan): boolean {
  const comment = scanCode(line).comments.at(-1);
  const code = (comment === undefined ? line : line.slice(0, comment.start)).trimEnd();
  return code.endsWith(':');
}

/**
 * In an indented language, whether every line that opens a block is followed by a deeper line: a reading of the
 * content's indentation that breaks this cannot be what the model meant.
 */
function blocksNest(lines: readonly string[], target: ReindentTarget): boolean {
  const widthOf = (line: string): number => indentWidth(leadingWhitespace(line), target.style.tabWidth);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (isBlankLine(line) || !opensIndentedBlock(line, target.scanCode)) continue;
    const next = lines.slice(i + 1).find((l) => !isBlankLine(l));
    if (next !== undefined && widthOf(next) <= widthOf(line)) return false;
  }
  return true;
}

/**
 * Re-bases normalised content onto `target.indent`. Every returned line carries its full indentation, the first
 * included; a caller writing at a column that already has the indentation drops it from the first line.
 *
 * The content's base is its first line's indentation, or the least indentation of the lines after it when that is
 * smaller. A first line at column 0 followed only by lines at or beyond the target's own indentation is text cut
 * out of a file at the element's first token (the form an element's range has): it is already in place.
 */
export function reindent(content: string, target: ReindentTarget): string[] {
  const { lines, literal } = lineFacts(content, target.scanCode);
  if (target.mode === 'cut') {
    // Text cut from the file keeps its lines, but never indentation in the other character (spaces among tabs).
    const style = styleOfIndent(target.indent, target.style);
    return lines.map((line, i) => {
      if (i === 0) return target.indent + line;
      if (literal[i]) return line;
      const indent = leadingWhitespace(line);
      return inIndentStyle(indent, style) + line.slice(indent.length);
    });
  }
  const tabWidth = target.style.tabWidth;
  const widthOf = (line: string): number => indentWidth(leadingWhitespace(line), tabWidth);
  const firstWidth = widthOf(lines[0] ?? '');
  const restWidths: number[] = [];
  lines.forEach((line, i) => {
    if (i > 0 && !literal[i] && !isBlankLine(line)) restWidths.push(widthOf(line));
  });
  const restMin = restWidths.length === 0 ? Infinity : Math.min(...restWidths);
  const targetWidth = indentWidth(target.indent, tabWidth);
  // A continuation line (`| b`, `.then(`, `? a : b`) sits deeper than the line it continues; one at exactly the
  // target's indentation means the lines are relative to column 0, not already in place.
  const continuationAtTarget = lines.some(
    (line, i) => i > 0 && !literal[i] && widthOf(line) === targetWidth && /^\s*(?:[|&.?:+]|=>)/.test(line),
  );
  const cutFromFile =
    target.baseWidth === undefined &&
    target.mode !== 'dedented' &&
    firstWidth === 0 &&
    targetWidth > 0 &&
    restWidths.length > 0 &&
    restMin >= targetWidth &&
    !continuationAtTarget &&
    // The block a first line opens holds deeper lines: at the target's own width they are relative to column 0.
    !(target.indentBlocks === true && restMin === targetWidth && opensIndentedBlock(lines[0] ?? '', target.scanCode));
  const base = target.baseWidth ?? (cutFromFile ? targetWidth : Math.min(firstWidth, restMin));
  const relativeSpaces: number[] = [];
  lines.forEach((line, i) => {
    if (literal[i] || isBlankLine(line)) return;
    const indent = leadingWhitespace(line);
    if (!indent.includes('\t')) relativeSpaces.push(Math.max(0, indent.length - (i === 0 && cutFromFile ? 0 : base)));
  });
  const spaceUnit = spaceUnitOf(relativeSpaces);
  return lines.map((line, i) => {
    if (literal[i]) return line;
    if (isBlankLine(line)) return '';
    const indent = leadingWhitespace(line);
    const relative = i === 0 && cutFromFile ? '' : dropColumns(indent, base, tabWidth);
    return target.indent + convertRelative(relative, target.style, spaceUnit) + line.slice(indent.length);
  });
}

/**
 * Re-bases content that replaces `original`: when its first line is at column 0 the rest could be meant in place or
 * relative to it, and the reading that keeps more of the original lines as they were wins (an edit changes few).
 */
export function reindentReplacing(content: string, target: ReindentTarget, original: string): string[] {
  const automatic = reindent(content, target);
  const firstLine = content.split('\n', 1)[0] ?? '';
  if (target.indent === '' || leadingWhitespace(firstLine) !== '' || !content.includes('\n')) return automatic;
  const originalLines = new Map<string, number>();
  for (const line of original.split('\n').slice(1)) originalLines.set(line, (originalLines.get(line) ?? 0) + 1);
  const kept = (candidate: readonly string[]): number => {
    const left = new Map(originalLines);
    let count = 0;
    for (const line of candidate.slice(1)) {
      const n = left.get(line) ?? 0;
      if (n > 0) {
        count += 1;
        left.set(line, n - 1);
      }
    }
    return count;
  };
  // A closing line (`}`, `})`, `];`) ends an element at the element's own indentation: a reading that puts it
  // elsewhere is wrong however many lines it keeps.
  const lastLine = content.slice(content.lastIndexOf('\n') + 1);
  const closes = /^\s*[})\]]/.test(lastLine);
  const plausible = (candidate: readonly string[]): boolean =>
    (!closes || leadingWhitespace(candidate[candidate.length - 1] ?? '') === target.indent) &&
    (target.indentBlocks !== true || blocksNest(candidate, target));
  const candidates = [
    automatic,
    ...(['cut', 'dedented'] as const).map((mode) => reindent(content, { ...target, mode })),
  ];
  const considered = candidates.some(plausible) ? candidates.filter(plausible) : candidates;
  let best = considered[0] ?? automatic;
  let bestKept = kept(best);
  for (const candidate of considered.slice(1)) {
    const score = kept(candidate);
    if (score > bestKept) {
      best = candidate;
      bestKept = score;
    }
  }
  return best;
}

/**
 * Content whose first line is at column 0 and whose other lines keep the indentation they had in the file (text cut
 * at an element's first token, decorators included), moved so the other lines are relative to column 0: their least
 * indentation is taken off each of them. Lines that start inside a literal stay as they are. Undefined when there is
 * nothing to move.
 */
export function dedentAfterFirst(
  content: string,
  target: Pick<ReindentTarget, 'style' | 'scanCode'>,
): string | undefined {
  const { lines, literal } = lineFacts(content, target.scanCode);
  if (lines.length < 2 || leadingWhitespace(lines[0] ?? '') !== '') return undefined;
  const widthOf = (line: string): number => indentWidth(leadingWhitespace(line), target.style.tabWidth);
  const widths = lines.flatMap((line, i) => (i > 0 && !literal[i] && !isBlankLine(line) ? [widthOf(line)] : []));
  const least = widths.length === 0 ? 0 : Math.min(...widths);
  if (least === 0) return undefined;
  return lines
    .map((line, i) => {
      if (i === 0 || literal[i] || isBlankLine(line)) return line;
      const indent = leadingWhitespace(line);
      return dropColumns(indent, least, target.style.tabWidth) + line.slice(indent.length);
    })
    .join('\n');
}

/** Removes the target indentation from the first line (it is written at a column that already has it). */
export function withoutFirstIndent(lines: readonly string[], indent: string): string[] {
  return lines.map((line, i) => (i === 0 && line.startsWith(indent) ? line.slice(indent.length) : line));
}
