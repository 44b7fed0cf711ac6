import type { ElementNode } from '../elements/element';
import type { TokenCounter } from './tokens';

/**
 * The pieces a focused context is rendered into. Each piece is one element (or a run of elements named on one line)
 * at one detail level, or fixed text; a piece that may degrade under a budget carries the text of every level it may
 * take, so degrading is picking another text.
 */

export type DetailLevel = 'whole-file' | 'full' | 'window' | 'container' | 'signature' | 'stub' | 'dropped';

/** A piece of the rendered context; degradable pieces carry their alternatives. */
export interface Piece {
  readonly element?: ElementNode;
  /** Further elements the piece names, on one line with `element` (a run of elements shown by name only). */
  readonly more?: readonly ElementNode[];
  /** Set on the piece that closes a file's section: where the note about dropped elements goes. */
  readonly closesFile?: string;
  /** Lines from the nearest focused element, for degrading farthest first. */
  readonly distance: number;
  /** 0 for neighbours of a focused element, 1 for the rest of the file: the rest goes first. */
  readonly tier: number;
  /** Never degraded by the budget (the summary of the imports not shown is what keeps them addressable). */
  readonly pinned?: boolean;
  level: DetailLevel;
  readonly texts: Partial<Record<DetailLevel, string>>;
  /** Token counts per level, filled on demand: only a budget needs them. */
  readonly tokens: Partial<Record<DetailLevel, number>>;
}

export function joinPieces(pieces: readonly Piece[]): string {
  return pieces.map((p) => p.texts[p.level] ?? '').join('');
}

export function tokensAt(piece: Piece, level: DetailLevel, counter: TokenCounter): number {
  let tokens = piece.tokens[level];
  if (tokens === undefined) {
    tokens = counter.count(piece.texts[level] ?? '');
    piece.tokens[level] = tokens;
  }
  return tokens;
}

export function fixed(text: string, element?: ElementNode, level: DetailLevel = 'full'): Piece {
  return {
    distance: 0,
    tier: 0,
    level,
    texts: { [level]: text },
    tokens: {},
    ...(element === undefined ? {} : { element }),
  };
}

/** A fence longer than any backtick run in the text, so the text can never close it. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** 1-based first and last line, both included. */
export type LineSpan = readonly [number, number];

/** Sorted, merged spans (touching spans join). */
export function mergeSpans(spans: readonly LineSpan[]): LineSpan[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Whether every line of `span` lies in `spans`. */
export function spansCover(spans: readonly LineSpan[], span: LineSpan): boolean {
  let from = span[0];
  for (const [start, end] of mergeSpans(spans)) {
    if (start > from) return false;
    if (end >= from) from = end + 1;
    if (from > span[1]) return true;
  }
  return from > span[1];
}

/** `lines 3-9`, `line 3`. */
export function linesLabel([start, end]: LineSpan): string {
  return start === end ? `line ${start}` : `lines ${start}-${end}`;
}

/** Lines `span` (1-based, both included) of a text, as written. */
export function linesOf(text: string, [first, last]: LineSpan): string {
  let start = 0;
  for (let line = 1; line < first && start >= 0; line++) start = text.indexOf('\n', start) + 1 || -1;
  if (start < 0) return '';
  let end = start;
  for (let line = first; line <= last; line++) {
    const next = text.indexOf('\n', end);
    if (next < 0) {
      end = text.length;
      break;
    }
    end = line === last ? next : next + 1;
  }
  return text.slice(start, end).replace(/\r$/, '');
}
