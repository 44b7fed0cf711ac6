import { diffArrays } from 'diff';

/**
 * The search/replace baseline: the edit written as blocks in the style of Aider's "diff" edit format (the file path on
 * its own line, then a fence holding `<<<<<<< SEARCH`, the old lines, `=======`, the new lines, `>>>>>>> REPLACE`).
 * Each block holds one run of changed lines plus the least unchanged context that makes its SEARCH part match exactly
 * one place in the file, since a search that matches twice or not at all is refused. Blocks whose context would
 * overlap are merged, as a person writing them would.
 */

export interface SearchReplaceBlock {
  /** Lines of the old text, each with its line break (the last line of a file may lack one). */
  readonly search: string;
  readonly replace: string;
}

/** A run of lines `[start, end)` of the old text and the lines that replace it. */
interface Block {
  start: number;
  end: number;
  replacement: string[];
}

export function searchReplaceBlocks(before: string, after: string): SearchReplaceBlock[] {
  const oldLines = splitLines(before);
  const blocks = changedRuns(oldLines, splitLines(after));
  for (let i = 0; i < blocks.length;) {
    const block = blocks[i];
    if (block === undefined) break;
    // Blocks apply in order, so a search must be unique in the text the earlier blocks leave as well as in the file
    // the model read.
    const current = i === 0 ? before : withBlocksApplied(oldLines, blocks.slice(0, i));
    const isUnique = (start: number, end: number): boolean => {
      if (end <= start) return false;
      const search = oldLines.slice(start, end).join('');
      return countLineMatches(before, search) === 1 && countLineMatches(current, search) === 1;
    };
    const previousEnd = blocks[i - 1]?.end ?? 0;
    const nextStart = blocks[i + 1]?.start ?? oldLines.length;
    const context = leastUniqueContext(block, block.start - previousEnd, nextStart - block.end, isUnique);
    if (context !== undefined) {
      block.replacement = [
        ...oldLines.slice(block.start - context.above, block.start),
        ...block.replacement,
        ...oldLines.slice(block.end, block.end + context.below),
      ];
      block.start -= context.above;
      block.end += context.below;
      i += 1;
      continue;
    }
    // Boxed in by its neighbours: one block for both, as the context would overlap anyway.
    const next = blocks[i + 1];
    if (next !== undefined) {
      blocks.splice(i, 2, merge(oldLines, block, next));
      continue;
    }
    const previous = blocks[i - 1];
    if (previous !== undefined) {
      blocks.splice(i - 1, 2, merge(oldLines, previous, block));
      i -= 1;
      continue;
    }
    // A single block that no context makes unique: the whole file is the search.
    block.replacement = [...oldLines.slice(0, block.start), ...block.replacement, ...oldLines.slice(block.end)];
    block.start = 0;
    block.end = oldLines.length;
    i += 1;
  }
  return blocks.map((block) => ({
    search: oldLines.slice(block.start, block.end).join(''),
    replace: block.replacement.join(''),
  }));
}

function withBlocksApplied(oldLines: readonly string[], blocks: readonly Block[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const block of blocks) {
    parts.push(...oldLines.slice(at, block.start), ...block.replacement);
    at = block.end;
  }
  parts.push(...oldLines.slice(at));
  return parts.join('');
}

/** The blocks as a model would write them in the answer. */
export function formatSearchReplaceBlocks(path: string, blocks: readonly SearchReplaceBlock[]): string {
  return blocks
    .map(
      (block) =>
        `${path}\n\`\`\`\n<<<<<<< SEARCH\n${withFinalBreak(block.search)}=======\n${withFinalBreak(block.replace)}>>>>>>> REPLACE\n\`\`\`\n`,
    )
    .join('\n');
}

/**
 * Applies the blocks in order, each to the text the earlier ones left, refusing a block whose search does not match
 * exactly one place: how an editor applying them behaves. Undefined when a block is refused.
 */
export function applySearchReplaceBlocks(text: string, blocks: readonly SearchReplaceBlock[]): string | undefined {
  let current = text;
  for (const block of blocks) {
    if (countLineMatches(current, block.search) !== 1) return undefined;
    const at = findLineMatch(current, block.search, 0);
    current = current.slice(0, at) + block.replace + current.slice(at + block.search.length);
  }
  return current;
}

/**
 * The runs of changed lines of the old text as offset ranges into it (an insertion is an empty range where the new
 * lines go), independent of how any edit format expresses them.
 */
export function changedRanges(before: string, after: string): Array<{ start: number; end: number }> {
  const oldLines = splitLines(before);
  const lineStarts: number[] = [0];
  for (const line of oldLines) lineStarts.push((lineStarts[lineStarts.length - 1] ?? 0) + line.length);
  return changedRuns(oldLines, splitLines(after)).map((block) => {
    const start = lineStarts[block.start] ?? before.length;
    const end = block.end > block.start ? (lineStarts[block.end] ?? before.length) : start;
    return { start, end: end > start && before[end - 1] === '\n' ? end - 1 : end };
  });
}

/** How much of the file an edit rewrites: old lines removed or replaced, new lines written, of the old count. */
export function changedLineCounts(before: string, after: string): { removed: number; added: number; lines: number } {
  const oldLines = splitLines(before);
  let removed = 0;
  let added = 0;
  for (const change of diffArrays(oldLines, splitLines(after))) {
    if (change.removed) removed += change.count;
    else if (change.added) added += change.count;
  }
  return { removed, added, lines: oldLines.length };
}

/** Lines with their line breaks, so that joining them gives the text back. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function changedRuns(oldLines: string[], newLines: string[]): Block[] {
  const blocks: Block[] = [];
  let oldIndex = 0;
  let open: Block | undefined;
  for (const change of diffArrays(oldLines, newLines)) {
    if (!change.added && !change.removed) {
      open = undefined;
      oldIndex += change.count;
      continue;
    }
    if (open === undefined) {
      open = { start: oldIndex, end: oldIndex, replacement: [] };
      blocks.push(open);
    }
    if (change.removed) {
      oldIndex += change.count;
      open.end = oldIndex;
    } else {
      open.replacement.push(...change.value);
    }
  }
  return blocks;
}

/** The fewest context lines (above preferred) that make the block's search unique, within the room it has. */
function leastUniqueContext(
  block: Block,
  roomAbove: number,
  roomBelow: number,
  isUnique: (start: number, end: number) => boolean,
): { above: number; below: number } | undefined {
  for (let total = 0; total <= roomAbove + roomBelow; total++) {
    for (let above = Math.min(total, roomAbove); above >= 0 && total - above <= roomBelow; above--) {
      const below = total - above;
      if (isUnique(block.start - above, block.end + below)) return { above, below };
    }
  }
  return undefined;
}

function merge(oldLines: readonly string[], first: Block, second: Block): Block {
  return {
    start: first.start,
    end: second.end,
    replacement: [...first.replacement, ...oldLines.slice(first.end, second.start), ...second.replacement],
  };
}

/** Offset of the first match of `search` that starts at a line start, at or after `from`; -1 when none. */
function findLineMatch(text: string, search: string, from: number): number {
  for (let at = text.indexOf(search, from); at >= 0; at = text.indexOf(search, at + 1)) {
    const startsLine = at === 0 || text.charCodeAt(at - 1) === 10;
    const endsLine = search.endsWith('\n') || at + search.length === text.length;
    if (startsLine && endsLine) return at;
  }
  return -1;
}

function countLineMatches(text: string, search: string): number {
  if (search.length === 0) return 0;
  let count = 0;
  for (let at = findLineMatch(text, search, 0); at >= 0; at = findLineMatch(text, search, at + 1)) {
    count += 1;
    if (count > 1) return count;
  }
  return count;
}

function withFinalBreak(text: string): string {
  return text.length === 0 || text.endsWith('\n') ? text : `${text}\n`;
}
