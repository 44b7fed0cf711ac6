/**
 * Which errors a batch caused, for any checker (TypeScript's compiler now; pyright and the toolchains of the other
 * languages later): plain diagnostics (file, code, message, element) before and after the batch, compared. Nothing
 * here knows a language: a checker marks the errors that only say its environment lacks something, and the caller
 * says which files the request may change.
 *
 * The rule (issue 24):
 * - an error whose code and message (identifiers included, positions and line text excluded) already occur in the
 *   same file before the batch is old, however many more copies the batch adds of it: a test file with a hundred
 *   `Cannot find name 'expect'` gets no new one from a new test;
 * - a message the checker prints with a union's members in another order (it orders them by when it met their
 *   types) matches on the same line;
 * - what is left is caused by the batch; of that, what the checker marks as environment (a package not installed,
 *   the project's configuration) is set aside and reported apart, never sent to the model.
 */

/** A diagnostic as the comparison sees it. */
export interface PlainDiagnostic {
  /** Workspace-relative. */
  readonly file: string;
  /** The checker's code: 2554 for TypeScript's TS2554, a rule name for others. */
  readonly code: number | string;
  readonly message: string;
  /** The line as written, trimmed (used only to tell a union printed in another order from a new error). */
  readonly lineText: string;
  /** The innermost element holding it, or undefined at the top level. */
  readonly elementPath: string | undefined;
}

export interface ErrorComparison<T> {
  /** Errors after the batch that are not old: caused by it. */
  readonly added: T[];
  /** Errors before the batch that no longer occur (counted per copy). */
  readonly removed: number;
}

/** The message as identity: whitespace (the chain's line breaks included) collapsed. */
export function messageIdentity(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

/** The message's words in sorted order, so `"a" | "b"` and `"b" | "a"` read the same. */
function wordsInAnyOrder(message: string): string {
  return (message.match(/[\w$.'"`?:-]+/g) ?? []).sort().join(' ');
}

/**
 * The errors `after` has that the batch caused, by the rule above, and how many of `before` are gone. Both lists hold
 * the diagnostics of the same files (a file missing on one side has none there).
 */
export function compareErrors<T extends PlainDiagnostic>(
  before: readonly T[],
  after: readonly T[],
): ErrorComparison<T> {
  const byMessage = (d: PlainDiagnostic): string => `${d.file}\0${d.code}\0${messageIdentity(d.message)}`;
  const reordered = (d: PlainDiagnostic): string =>
    `${d.file}\0${d.code}\0${d.lineText}\0${wordsInAnyOrder(messageIdentity(d.message))}`;
  const oldMessages = new Set(before.map(byMessage));
  const oldReordered = new Set(before.map(reordered));
  const added = after.filter((d) => !oldMessages.has(byMessage(d)) && !oldReordered.has(reordered(d)));

  const afterCounts = new Map<string, number>();
  for (const d of after) afterCounts.set(byMessage(d), (afterCounts.get(byMessage(d)) ?? 0) + 1);
  const beforeCounts = new Map<string, number>();
  for (const d of before) beforeCounts.set(byMessage(d), (beforeCounts.get(byMessage(d)) ?? 0) + 1);
  let removed = 0;
  for (const [key, count] of beforeCounts) removed += Math.max(0, count - (afterCounts.get(key) ?? 0));
  return { added, removed };
}

/** Where the errors a batch caused can be fixed. */
export type ErrorReach =
  /** In a file of the request: the model fixes them with further operations. */
  | 'request'
  /** In a workspace file outside the request the model may bring in (`NEED <file>/<element>`). */
  | 'need'
  /** In a file this request cannot change: reported with the edit, never a reason for another round. */
  | 'none';

export interface SortedErrors<T> {
  /** Caused by the batch, by where they can be fixed. */
  readonly caused: { readonly [R in ErrorReach]: T[] };
  /** Caused by the batch but only saying the environment lacks something: set aside, never sent to the model. */
  readonly environment: T[];
}

/**
 * The errors a batch caused, sorted: environment errors apart (`environmentOf` gives the reason, or undefined), the
 * others by where they can be fixed.
 */
export function sortCausedErrors<T extends PlainDiagnostic>(
  added: readonly T[],
  environmentOf: (error: T) => string | undefined,
  reachOf: (file: string) => ErrorReach,
): SortedErrors<T> {
  const sorted: SortedErrors<T> = { caused: { request: [], need: [], none: [] }, environment: [] };
  for (const error of added) {
    if (environmentOf(error) !== undefined) sorted.environment.push(error);
    else sorted.caused[reachOf(error.file)].push(error);
  }
  return sorted;
}

/** The longest a diagnostic's message is shown to the model or on one line of a terminal. */
export const MAX_DIAGNOSTIC_CHARS = 300;

/**
 * A message cut for the model and the terminal: its first line (a compiler's chain of elaborations and "Imported via"
 * explanations goes), then at most {@link MAX_DIAGNOSTIC_CHARS} characters.
 */
export function briefMessage(message: string): string {
  const first = (message.split('\n').find((line) => line.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  return first.length <= MAX_DIAGNOSTIC_CHARS ? first : `${first.slice(0, MAX_DIAGNOSTIC_CHARS - 1)}…`;
}

/** Absolute paths under the workspace root written workspace-relative (`/tmp/x/src/a.ts` → `src/a.ts`). */
export function relativeMessage(message: string, root: string): string {
  const normalized = root.replace(/\\/g, '/').replace(/\/+$/, '');
  if (normalized === '') return message;
  return message.split(`${normalized}/`).join('').split(normalized).join('.');
}
