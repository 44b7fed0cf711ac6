import type { ElementNode } from '../../elements/element';

/**
 * Pairs the elements of two sibling lists that stay where they were (the anchors of the diff). First the elements
 * whose text did not change at all, then, between those, elements of the same kind and name, each time as a longest
 * common subsequence so that order is kept. Anything not paired was deleted, inserted or moved.
 */

export interface AnchorPair {
  readonly before: number;
  readonly after: number;
}

export function identityKey(element: ElementNode): string {
  return `${element.kind}\0${element.name}`;
}

export function alignElements(
  before: readonly ElementNode[],
  beforeText: string,
  after: readonly ElementNode[],
  afterText: string,
): AnchorPair[] {
  const textOf = (element: ElementNode, text: string): string => text.slice(element.range.start, element.range.end);
  const exactBefore = before.map((e) => `${identityKey(e)}\0${textOf(e, beforeText)}`);
  const exactAfter = after.map((e) => `${identityKey(e)}\0${textOf(e, afterText)}`);
  const exact = longestCommonSubsequence(exactBefore, 0, before.length, exactAfter, 0, after.length);

  const keysBefore = before.map(identityKey);
  const keysAfter = after.map(identityKey);
  const anchors: AnchorPair[] = [];
  let previous: AnchorPair = { before: -1, after: -1 };
  for (const next of [...exact, { before: before.length, after: after.length }]) {
    anchors.push(
      ...longestCommonSubsequence(
        keysBefore,
        previous.before + 1,
        next.before,
        keysAfter,
        previous.after + 1,
        next.after,
      ),
    );
    if (next.before < before.length) anchors.push(next);
    previous = next;
  }
  return anchors;
}

/** Index pairs of a longest common subsequence of a[aStart, aEnd) and b[bStart, bEnd). */
function longestCommonSubsequence(
  a: readonly string[],
  aStart: number,
  aEnd: number,
  b: readonly string[],
  bStart: number,
  bEnd: number,
): AnchorPair[] {
  // Equal heads and tails are taken directly: most lists differ in a few places, and the table stays small.
  const pairs: AnchorPair[] = [];
  while (aStart < aEnd && bStart < bEnd && a[aStart] === b[bStart]) {
    pairs.push({ before: aStart, after: bStart });
    aStart += 1;
    bStart += 1;
  }
  const tail: AnchorPair[] = [];
  while (aEnd > aStart && bEnd > bStart && a[aEnd - 1] === b[bEnd - 1]) {
    aEnd -= 1;
    bEnd -= 1;
    tail.unshift({ before: aEnd, after: bEnd });
  }
  const n = aEnd - aStart;
  const m = bEnd - bStart;
  if (n > 0 && m > 0) {
    const table = new Uint32Array((n + 1) * (m + 1));
    const at = (i: number, j: number): number => table[i * (m + 1) + j] ?? 0;
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * (m + 1) + j] =
          a[aStart + i] === b[bStart + j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[aStart + i] === b[bStart + j]) {
        pairs.push({ before: aStart + i, after: bStart + j });
        i += 1;
        j += 1;
      } else if (at(i + 1, j) >= at(i, j + 1)) {
        i += 1;
      } else {
        j += 1;
      }
    }
  }
  return [...pairs, ...tail];
}
