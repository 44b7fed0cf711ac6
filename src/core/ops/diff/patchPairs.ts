import { diffArrays } from 'diff';
import type { SearchReplacePair } from '../operation';
import { splitLinesKeepingBreaks, withoutLineBreak } from './textLines';

/**
 * Search/replace pairs that turn one element text into another. Each search is whole lines of the old text: the
 * changed lines plus the fewest context lines that make it occur exactly once, at most MAX_CONTEXT on either side,
 * because a model (and a reviewer) reads these and long searches cost as much as a replace.
 */

const MAX_CONTEXT = 3;

/** Context line counts (before, after) tried in order: the smallest search first, context above preferred. */
const CONTEXT_STEPS: readonly (readonly [number, number])[] = (() => {
  const steps: [number, number][] = [];
  for (let total = 0; total <= MAX_CONTEXT * 2; total++) {
    for (let above = Math.min(total, MAX_CONTEXT); above >= 0 && total - above <= MAX_CONTEXT; above--) {
      steps.push([above, total - above]);
    }
  }
  return steps;
})();

interface ChangeBlock {
  /** Old lines [oldStart, oldEnd) are replaced by new lines [newStart, newEnd). */
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

interface Hunk extends ChangeBlock {
  readonly pair: SearchReplacePair;
}

/**
 * The pairs: one per change where a few lines of context make the search unique, else a single pair from the first
 * changed line to the last, widened until it is unique (at most the whole text, which always is).
 */
export function searchReplacePairs(oldText: string, newText: string): SearchReplacePair[] | undefined {
  if (oldText === newText) return [];
  const oldLines = splitLinesKeepingBreaks(oldText);
  const newLines = splitLinesKeepingBreaks(newText);
  const blocks = changeBlocks(oldLines, newLines);
  return (
    smallPairs(oldText, newText, oldLines, newLines, blocks) ?? onePair(oldText, newText, oldLines, newLines, blocks)
  );
}

function onePair(
  oldText: string,
  newText: string,
  oldLines: readonly string[],
  newLines: readonly string[],
  blocks: readonly ChangeBlock[],
): SearchReplacePair[] | undefined {
  const first = blocks[0];
  const last = blocks.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const span: ChangeBlock = {
    oldStart: first.oldStart,
    oldEnd: last.oldEnd,
    newStart: first.newStart,
    newEnd: last.newEnd,
  };
  const room = Math.max(span.oldStart, oldLines.length - span.oldEnd);
  for (let context = 0; context <= room; context++) {
    const above = Math.min(context, span.oldStart);
    const below = Math.min(context, oldLines.length - span.oldEnd);
    const search = joinWithoutFinalBreak(oldLines.slice(span.oldStart - above, span.oldEnd + below));
    if (search.trim() === '' || countOccurrences(oldText, search) !== 1) continue;
    const pairs = [
      { search, replace: joinWithoutFinalBreak(newLines.slice(span.newStart - above, span.newEnd + below)) },
    ];
    return appliesInOrder(oldText, newText, pairs) ? pairs : undefined;
  }
  return undefined;
}

function smallPairs(
  oldText: string,
  newText: string,
  oldLines: readonly string[],
  newLines: readonly string[],
  blocks: readonly ChangeBlock[],
): SearchReplacePair[] | undefined {
  const hunks: Hunk[] = [];
  let index = 0;
  while (index < blocks.length) {
    let block = blocks[index];
    if (block === undefined) break;
    let next = index + 1;
    let hunk: Hunk | undefined;
    for (;;) {
      const limitAbove = block.oldStart - (hunks.at(-1)?.oldEnd ?? 0);
      const following = blocks[next];
      const limitBelow = (following?.oldStart ?? oldLines.length) - block.oldEnd;
      const found = hunkFor(block, oldLines, newLines, oldText, limitAbove, limitBelow);
      if (found !== 'needs-more' || following === undefined) {
        hunk = found === 'needs-more' ? undefined : found;
        break;
      }
      // The context this change needs runs into the next change: both go into one pair.
      block = {
        oldStart: block.oldStart,
        oldEnd: following.oldEnd,
        newStart: block.newStart,
        newEnd: following.newEnd,
      };
      next += 1;
    }
    if (hunk === undefined) return undefined;
    hunks.push(hunk);
    index = next;
  }
  const pairs = hunks.map((h) => h.pair);
  return appliesInOrder(oldText, newText, pairs) ? pairs : undefined;
}

function changeBlocks(oldLines: readonly string[], newLines: readonly string[]): ChangeBlock[] {
  const blocks: ChangeBlock[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  let open: ChangeBlock | undefined;
  for (const change of diffArrays([...oldLines], [...newLines])) {
    if (!change.added && !change.removed) {
      if (open !== undefined) blocks.push(open);
      open = undefined;
      oldIndex += change.count;
      newIndex += change.count;
      continue;
    }
    open ??= { oldStart: oldIndex, oldEnd: oldIndex, newStart: newIndex, newEnd: newIndex };
    if (change.removed) {
      oldIndex += change.count;
      open.oldEnd = oldIndex;
    } else {
      newIndex += change.count;
      open.newEnd = newIndex;
    }
  }
  if (open !== undefined) blocks.push(open);
  return blocks;
}

function hunkFor(
  block: ChangeBlock,
  oldLines: readonly string[],
  newLines: readonly string[],
  oldText: string,
  limitAbove: number,
  limitBelow: number,
): Hunk | 'needs-more' {
  for (const [above, below] of CONTEXT_STEPS) {
    if (above > limitAbove || below > limitBelow) continue;
    // Whole lines removed with no line kept around them: the search cannot hold their last line break (it ends
    // without one), so replacing it with nothing would leave an empty line behind.
    if (block.newStart === block.newEnd && above + below === 0) continue;
    const searchLines = oldLines.slice(block.oldStart - above, block.oldEnd + below);
    const search = joinWithoutFinalBreak(searchLines);
    if (search.trim() === '') continue;
    if (countOccurrences(oldText, search) !== 1) continue;
    const replace = joinWithoutFinalBreak(newLines.slice(block.newStart - above, block.newEnd + below));
    return { ...block, pair: { search, replace } };
  }
  return 'needs-more';
}

function joinWithoutFinalBreak(lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return lines.slice(0, -1).join('') + withoutLineBreak(lines[lines.length - 1] ?? '');
}

export function countOccurrences(text: string, search: string, stopAt = 2): number {
  let count = 0;
  for (let at = text.indexOf(search); at >= 0 && count < stopAt; at = text.indexOf(search, at + 1)) count += 1;
  return count;
}

/**
 * Applying the pairs one after another, each search found exactly once in the text as it is by then, must give the
 * new text: a replacement can create a second copy of a later search.
 */
function appliesInOrder(oldText: string, newText: string, pairs: readonly SearchReplacePair[]): boolean {
  let text = oldText;
  for (const { search, replace } of pairs) {
    if (countOccurrences(text, search) !== 1) return false;
    const at = text.indexOf(search);
    text = text.slice(0, at) + replace + text.slice(at + search.length);
  }
  return text === newText;
}
