import type { ElementNode, TextRange } from '../../../elements/element';
import type { SearchReplacePair } from '../../operation';
import { matchPair } from '../patchMatch';
import type { PlanState } from './planState';

/**
 * A container's own text: everything in its range outside its members (the frames). The first frame is its header
 * (doc comment, decorators, modifiers, type parameters, heritage clause, the opening brace), the last one its closing
 * part, and those between hold the comments and blank lines that separate members. For the file, the frames are the
 * text around its top-level elements: a header comment, comments and commented-out code between declarations, the
 * blank lines. A PATCH_ELEMENT whose every change lies inside the frames leaves each member as it is, so it composes
 * with operations on the members in the same batch (a class whose `extends` clause and one method change is one
 * patch of its header and one operation on the method, not a patch of the whole class).
 */

/** A frame a patch rewrote: its snapshot range and new text, in the file's line breaks. */
export interface FrameEdit {
  readonly range: TextRange;
  text: string;
  readonly ops: number[];
  /** The container; undefined for the file. */
  readonly owner: ElementNode | undefined;
  /** Kind/name chain of the owner's containers, for the check that the owner is still there. */
  readonly parentChain: readonly string[];
}

/** The frames of a container (or of the file), in order: one more than it has members. */
export function frameRanges(state: PlanState, owner: ElementNode | undefined): TextRange[] {
  const members = owner === undefined ? state.outline.elements : owner.children;
  const ranges: TextRange[] = [];
  let at = owner === undefined ? 0 : owner.range.start;
  for (const member of members) {
    ranges.push({ start: at, end: member.range.start });
    at = member.range.end;
  }
  ranges.push({ start: at, end: owner === undefined ? state.text.length : owner.range.end });
  return ranges;
}

export type FramePatchOutcome =
  | {
      readonly ok: true;
      readonly frames: readonly string[];
      /** 1-based numbers of the pairs that matched only whitespace-tolerantly. */
      readonly tolerantPairs: readonly number[];
    }
  /** `pair` (0-based) changes text of a member, or its search is not found exactly once. */
  | { readonly ok: false; readonly pair: number; readonly reason: 'member' | 'notFound' | 'ambiguous' };

/**
 * Applies the pairs to the container's text with each change kept inside one frame. A search matches as in any patch
 * (patchMatch.ts): as written, else whitespace-tolerantly when that finds one place only.
 */
export function patchFrames(
  state: PlanState,
  owner: ElementNode | undefined,
  patches: readonly SearchReplacePair[],
): FramePatchOutcome {
  const ranges = frameRanges(state, owner);
  const members = owner === undefined ? state.outline.elements : owner.children;
  const frames = ranges.map(
    (range) => state.frames.get(state.keyOf(range))?.text ?? state.text.slice(range.start, range.end),
  );
  const memberTexts = members.map((m) => state.text.slice(m.range.start, m.range.end));
  const options = { indent: state.style.indent, scanCode: state.scanCode, indentBlocks: state.indentBlocks };
  const tolerantPairs: number[] = [];
  for (const [index, pair] of patches.entries()) {
    // The text as it stands, with where each frame starts in it.
    const starts: number[] = [];
    let joined = '';
    for (const [i, frame] of frames.entries()) {
      starts.push(joined.length);
      joined += frame + (memberTexts[i] ?? '');
    }
    const match = matchPair(joined, pair, options);
    if (!match.ok) return { ok: false, pair: index, reason: match.reason === 'ambiguous' ? 'ambiguous' : 'notFound' };
    if (match.tolerant) tolerantPairs.push(index + 1);
    // The match as the exact pair that makes the same change there.
    const at = match.start;
    const search = joined.slice(match.start, match.end);
    const replace = match.replacement;
    const frameAt = (start: number, end: number): number =>
      starts.findIndex((frameStart, i) => frameStart <= start && end <= frameStart + (frames[i]?.length ?? 0));
    const candidates = placeChange(search, replace).map(({ from, to, text }) => ({
      start: at + from,
      end: at + to,
      text,
    }));
    const placement =
      candidates.find((c) => frameAt(c.start, c.end) >= 0) ??
      candidates.map((c) => slid(joined, c, frameAt)).find((c) => c !== undefined);
    const frame = placement === undefined ? -1 : frameAt(placement.start, placement.end);
    const current = frames[frame];
    const frameStart = starts[frame];
    if (placement === undefined || current === undefined || frameStart === undefined)
      return { ok: false, pair: index, reason: 'member' };
    frames[frame] =
      current.slice(0, placement.start - frameStart) + placement.text + current.slice(placement.end - frameStart);
  }
  return { ok: true, frames, tolerantPairs };
}

/**
 * Where in the search the change is: the search minus what it shares with the replacement at both ends. An insertion
 * between two equal runs of text can sit at either end of them, so both placements are offered.
 */
function placeChange(search: string, replace: string): { from: number; to: number; text: string }[] {
  const shortest = Math.min(search.length, replace.length);
  let prefix = 0;
  while (prefix < shortest && search[prefix] === replace[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < shortest && search[search.length - 1 - suffix] === replace[replace.length - 1 - suffix]) suffix += 1;
  const prefixFirst = { prefix, suffix: Math.min(suffix, shortest - prefix) };
  const suffixFirst = { prefix: Math.min(prefix, shortest - suffix), suffix };
  return [prefixFirst, suffixFirst].map((cut) => ({
    from: cut.prefix,
    to: search.length - cut.suffix,
    text: replace.slice(cut.prefix, replace.length - cut.suffix),
  }));
}

interface Placement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The same insertion (or deletion) moved along text that repeats it, to where it lies in a frame: inserting a comment
 * block above an element whose own leading comment is the same block reads as an insertion inside that comment as
 * well as one above it, and only the one above it is the element's frame. Every place it moves to gives the same text.
 */
function slid(
  text: string,
  placement: Placement,
  frameAt: (start: number, end: number) => number,
): Placement | undefined {
  const { start, end } = placement;
  const inserted = placement.text;
  if (start === end && inserted !== '') {
    // An insertion moves one character left while that character equals the inserted text's last (rotating it).
    const rotated = (by: number): string => {
      const k = ((by % inserted.length) + inserted.length) % inserted.length;
      return inserted.slice(inserted.length - k) + inserted.slice(0, inserted.length - k);
    };
    for (let at = start, by = 0; at > 0 && text[at - 1] === rotated(by).at(-1);) {
      at -= 1;
      by += 1;
      if (frameAt(at, at) >= 0) return { start: at, end: at, text: rotated(by) };
    }
    for (let at = start, by = 0; at < text.length && text[at] === rotated(by)[0];) {
      at += 1;
      by -= 1;
      if (frameAt(at, at) >= 0) return { start: at, end: at, text: rotated(by) };
    }
  } else if (start < end && inserted === '') {
    // A deletion moves while the character it takes in equals the one it gives up.
    for (let from = start, to = end; from > 0 && text[from - 1] === text[to - 1];) {
      from -= 1;
      to -= 1;
      if (frameAt(from, to) >= 0) return { start: from, end: to, text: '' };
    }
    for (let from = start, to = end; to < text.length && text[to] === text[from];) {
      from += 1;
      to += 1;
      if (frameAt(from, to) >= 0) return { start: from, end: to, text: '' };
    }
  }
  return undefined;
}
