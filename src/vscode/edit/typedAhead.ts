/**
 * Keys typed into the file between the key that runs an edit command and its instruction box appearing (the
 * extension host was busy): which they were, so the box can take them back. No `vscode` import: unit-tested alone.
 */

/** How quiet the file (and the box) must be before the box takes keys typed ahead into the file. */
export const TYPED_AHEAD_SETTLE_MS = 250;
/** Longer runs are not a few keys typed ahead. */
const TYPED_AHEAD_MAX = 200;

/** The file's text when the command arrived, and the selection then, as offsets (typing replaces a selection). */
export interface TextAtCommand {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/**
 * What was typed into the file at the selection since `ahead` was taken, or undefined when the file changed in any
 * other way (a line break, an edit elsewhere, an undo).
 */
export function typedIntoFile(ahead: TextAtCommand, now: string): string | undefined {
  const before = ahead.text.slice(0, ahead.start);
  const after = ahead.text.slice(ahead.end);
  if (now.length < before.length + after.length || !now.startsWith(before) || !now.endsWith(after)) return undefined;
  const typed = now.slice(before.length, now.length - after.length);
  if (typed === ahead.text.slice(ahead.start, ahead.end) || typed === '') return undefined;
  return typed.length <= TYPED_AHEAD_MAX && !/[\r\n]/.test(typed) ? typed : undefined;
}
