import type { TextEdit } from './types';

/**
 * The text of one file while a batch is written into it, as a piece table over the snapshot: every later edit is
 * expressed against the current text, every element is still found by its snapshot offsets, and the final edits
 * come out in snapshot offsets, sorted and non-overlapping by construction.
 */

type Segment =
  | { readonly original: true; readonly start: number; readonly end: number }
  | { readonly original: false; readonly text: string };

export class EditBuffer {
  private segments: Segment[];
  private current: string;

  constructor(readonly original: string) {
    this.segments = original.length === 0 ? [] : [{ original: true, start: 0, end: original.length }];
    this.current = original;
  }

  get text(): string {
    return this.current;
  }

  /** Current offset of the snapshot character at `offset`; undefined when an edit removed it. */
  mapOriginal(offset: number): number | undefined {
    let position = 0;
    for (const segment of this.segments) {
      if (segment.original) {
        if (segment.start <= offset && offset < segment.end) return position + offset - segment.start;
        position += segment.end - segment.start;
      } else {
        position += segment.text.length;
      }
    }
    if (offset === this.original.length) return this.endOfOriginal(offset);
    return undefined;
  }

  /** Current offset just after the snapshot character at `offset - 1` (an element's end). */
  mapOriginalEnd(offset: number): number | undefined {
    if (offset === 0) return this.mapOriginal(0);
    const before = this.mapOriginal(offset - 1);
    return before === undefined ? undefined : before + 1;
  }

  private endOfOriginal(offset: number): number | undefined {
    // The snapshot's end: after the last snapshot character still present, when that is the snapshot's last one.
    let position = 0;
    let found: number | undefined = offset === 0 ? 0 : undefined;
    for (const segment of this.segments) {
      if (segment.original) {
        position += segment.end - segment.start;
        if (segment.end === offset) found = position;
      } else {
        position += segment.text.length;
      }
    }
    return found;
  }

  /** Whether every snapshot character of the range is still present, unchanged and contiguous. */
  isIntact(start: number, end: number): boolean {
    if (start === end) return true;
    return this.segments.some((s) => s.original && s.start <= start && end <= s.end);
  }

  /** Replaces `[start, end)` of the current text. */
  replace(start: number, end: number, newText: string): void {
    if (start < 0 || end < start || end > this.current.length) {
      throw new RangeError(`edit [${start}, ${end}) outside the text (length ${this.current.length})`);
    }
    if (start === end && newText === '') return;
    const next: Segment[] = [];
    let position = 0;
    let inserted = false;
    const insert = (): void => {
      if (!inserted && newText !== '') next.push({ original: false, text: newText });
      inserted = true;
    };
    for (const segment of this.segments) {
      const length = segment.original ? segment.end - segment.start : segment.text.length;
      const segmentStart = position;
      const segmentEnd = position + length;
      position = segmentEnd;
      if (segmentEnd <= start) {
        next.push(segment);
      } else if (segmentStart >= end) {
        insert();
        next.push(segment);
      } else {
        if (start > segmentStart) next.push(slice(segment, 0, start - segmentStart));
        insert();
        if (segmentEnd > end) next.push(slice(segment, end - segmentStart, length));
      }
    }
    insert();
    this.segments = next;
    this.current = this.current.slice(0, start) + newText + this.current.slice(end);
  }

  /** The edits that turn the snapshot into the current text, in snapshot offsets, trimmed to what differs. */
  edits(): TextEdit[] {
    const raw: TextEdit[] = [];
    let originalPosition = 0;
    let pending = '';
    for (const segment of this.segments) {
      if (segment.original) {
        if (segment.start !== originalPosition || pending !== '') {
          raw.push({ start: originalPosition, end: segment.start, newText: pending });
        }
        pending = '';
        originalPosition = segment.end;
      } else {
        pending += segment.text;
      }
    }
    if (originalPosition !== this.original.length || pending !== '') {
      raw.push({ start: originalPosition, end: this.original.length, newText: pending });
    }
    return raw.map((edit) => trimEdit(this.original, edit)).filter((e) => e.start !== e.end || e.newText !== '');
  }
}

function slice(segment: Segment, from: number, to: number): Segment {
  return segment.original
    ? { original: true, start: segment.start + from, end: segment.start + to }
    : { original: false, text: segment.text.slice(from, to) };
}

/** Whether a cut at `offset` would split a CRLF or a surrogate pair. */
function splitsPair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return (
    (before === 13 && after === 10) || (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff)
  );
}

/** Drops the common head and tail of the replaced text and its replacement. */
export function trimEdit(original: string, edit: TextEdit): TextEdit {
  const old = original.slice(edit.start, edit.end);
  const replacement = edit.newText;
  let head = 0;
  const maxHead = Math.min(old.length, replacement.length);
  while (head < maxHead && old.charCodeAt(head) === replacement.charCodeAt(head)) head += 1;
  while (head > 0 && (splitsPair(original, edit.start + head) || splitsPair(replacement, head))) head -= 1;
  let tail = 0;
  const maxTail = Math.min(old.length, replacement.length) - head;
  while (
    tail < maxTail &&
    old.charCodeAt(old.length - 1 - tail) === replacement.charCodeAt(replacement.length - 1 - tail)
  ) {
    tail += 1;
  }
  while (tail > 0 && (splitsPair(original, edit.end - tail) || splitsPair(replacement, replacement.length - tail))) {
    tail -= 1;
  }
  return {
    start: edit.start + head,
    end: edit.end - tail,
    newText: replacement.slice(head, replacement.length - tail),
  };
}

/** Applies sorted, non-overlapping edits. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = '';
  let position = 0;
  for (const edit of edits) {
    result += text.slice(position, edit.start) + edit.newText;
    position = edit.end;
  }
  return result + text.slice(position);
}
