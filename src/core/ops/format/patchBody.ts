import type { SearchReplacePair } from '../operation';
import { clip } from './operationParts';

/**
 * The body of PATCH_ELEMENT: one or more blocks of
 *
 *     <<<<<<< SEARCH
 *     old lines
 *     =======
 *     new lines
 *     >>>>>>> REPLACE
 *
 * Markers are 7 characters long by default. Like fences, they may be longer, and a block's three markers then all
 * have that one length; that is how a search text holding a line of seven `=` stays writable.
 */

const SEARCH_MARKER = /^(<{5,})[ \t]?SEARCH[ \t]*$/i;
const DIVIDER = /^(={5,})[ \t]*$/;
const REPLACE_MARKER = /^(>{5,})[ \t]?REPLACE[ \t]*$/i;

export const DEFAULT_MARKER_LENGTH = 7;

export interface PatchBodyProblem {
  /** Index into the body lines handed in. */
  readonly index: number;
  readonly message: string;
  readonly expected: string;
}

export type PatchBodyResult =
  | { readonly ok: true; readonly patches: readonly SearchReplacePair[] }
  | { readonly ok: false; readonly problem: PatchBodyProblem };

function markerLength(pattern: RegExp, line: string): number | undefined {
  return pattern.exec(line)?.[1]?.length;
}

export function isSearchMarker(line: string): boolean {
  return SEARCH_MARKER.test(line);
}

export function isReplaceMarker(line: string): boolean {
  return REPLACE_MARKER.test(line);
}

const PAIR_SHAPE = '<<<<<<< SEARCH, the exact old lines, =======, the new lines, >>>>>>> REPLACE';

export function parsePatchBody(lines: readonly string[]): PatchBodyResult {
  const patches: SearchReplacePair[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      index += 1;
      continue;
    }
    const length = markerLength(SEARCH_MARKER, line);
    if (length === undefined) {
      return fail(index, `text outside a SEARCH/REPLACE pair: "${clip(line.trim())}"`, `a pair: ${PAIR_SHAPE}`);
    }
    const pair = readPair(lines, index, length);
    if (!pair.ok) return pair;
    patches.push(pair.pair);
    index = pair.next;
  }
  if (patches.length === 0) {
    return fail(0, 'PATCH_ELEMENT has no SEARCH/REPLACE pair', `at least one pair: ${PAIR_SHAPE}`);
  }
  return { ok: true, patches };
}

function readPair(
  lines: readonly string[],
  start: number,
  length: number,
): { ok: true; pair: SearchReplacePair; next: number } | { ok: false; problem: PatchBodyProblem } {
  const search: string[] = [];
  const replace: string[] = [];
  let divider: number | undefined;
  const markers = `${'='.repeat(length)} and ${'>'.repeat(length)} REPLACE`;
  for (let index = start + 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (markerLength(SEARCH_MARKER, line) === length) {
      return divider === undefined
        ? fail(start, 'SEARCH has no ======= divider before the next SEARCH', markers)
        : fail(
            start,
            'SEARCH/REPLACE pair has no >>>>>>> REPLACE before the next SEARCH',
            `${'>'.repeat(length)} REPLACE`,
          );
    }
    if (divider === undefined) {
      if (markerLength(DIVIDER, line) === length) {
        divider = index;
      } else if (markerLength(REPLACE_MARKER, line) === length) {
        return fail(start, 'SEARCH has no ======= divider before >>>>>>> REPLACE', markers);
      } else {
        search.push(line);
      }
      continue;
    }
    if (markerLength(REPLACE_MARKER, line) === length) {
      if (search.length === 0 || (search.length === 1 && search[0] === '')) {
        return fail(start, 'SEARCH text is empty', 'the exact lines to find, copied from the element');
      }
      return { ok: true, pair: { search: search.join('\n'), replace: replace.join('\n') }, next: index + 1 };
    }
    if (markerLength(DIVIDER, line) === length) {
      return fail(index, 'a second ======= divider in one SEARCH/REPLACE pair', `${'>'.repeat(length)} REPLACE`);
    }
    replace.push(line);
  }
  return divider === undefined
    ? fail(start, 'SEARCH without ======= and >>>>>>> REPLACE markers', markers)
    : fail(divider, 'SEARCH/REPLACE pair without >>>>>>> REPLACE', `${'>'.repeat(length)} REPLACE`);
}

function fail(index: number, message: string, expected: string): { ok: false; problem: PatchBodyProblem } {
  return { ok: false, problem: { index, message, expected } };
}

/** The shortest marker length (from 7) that no line of any pair could be mistaken for. */
function markerLengthFor(patches: readonly SearchReplacePair[]): number {
  const taken = new Set<number>();
  for (const { search, replace } of patches) {
    for (const line of `${search}\n${replace}`.split('\n')) {
      for (const pattern of [SEARCH_MARKER, DIVIDER, REPLACE_MARKER]) {
        const length = markerLength(pattern, line);
        if (length !== undefined) taken.add(length);
      }
    }
  }
  let length = DEFAULT_MARKER_LENGTH;
  while (taken.has(length)) length += 1;
  return length;
}

export function serializePatchBody(patches: readonly SearchReplacePair[]): string {
  const length = markerLengthFor(patches);
  const blocks = patches.map(({ search, replace }) =>
    [
      `${'<'.repeat(length)} SEARCH`,
      search,
      '='.repeat(length),
      ...(replace === '' ? [] : [replace]),
      `${'>'.repeat(length)} REPLACE`,
    ].join('\n'),
  );
  return blocks.join('\n');
}
