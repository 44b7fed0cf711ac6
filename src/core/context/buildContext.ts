import type { ElementNode, FileOutline } from '../elements/element';
import { resolveElementPathOrThrow } from '../elements/resolve';
import { windowsOf, type WindowPointers } from './elementWindows';
import { renderFocusedView, syntaxOf, type PartialView } from './focusedView';
import { wordsOfTask } from './taskWords';
import type { TokenCounter } from './tokens';
import { fenceFor, fixed, joinPieces, tokensAt, type DetailLevel, type LineSpan, type Piece } from './viewPieces';

export { fenceFor } from './viewPieces';
export type { DetailLevel, LineSpan } from './viewPieces';
export type { PartialView } from './focusedView';
export { signatureWithoutLineComments } from './signature';

/**
 * The focused context: what the model sees of the files a task touches. Focused elements appear in full, their
 * containers as headers around them, their siblings as signatures, and the rest of the file as one-line stubs,
 * each labelled with its path, in file order, with the imports the shown code uses (focusedView.ts). Under a token
 * budget, detail degrades from the outside in; a focus that does not fit even so is shown in part (a container's
 * members by name, a long element as windows) before the budget is declared too small. No file's view costs more
 * than the file sent whole plus a tenth: then the file goes whole.
 */

export interface ContextOptions {
  /** Token budget for the whole context; unlimited when undefined. */
  readonly budget?: number;
  /** Files of at most this many lines are sent whole (the hybrid rule). Default 50. */
  readonly smallFileLines?: number;
  /** Send every file whole. */
  readonly full?: boolean;
  /** The task: the lines of a very large focused element that hold its words are shown as windows around them. */
  readonly instruction?: string;
  /** Identifiers the model asked about (FIND): they point at lines like the task's words. */
  readonly symbols?: readonly string[];
  /**
   * False: a focus that does not fit is never shown in part; the budget error comes at once (the agent tools show it
   * in numbered slices instead, which an agent pages through). Default true.
   */
  readonly showInPart?: boolean;
}

/**
 * A container shown at the cost of a change to it (issue 28): its header, its own text between members, the members
 * `near` the position of the change in full, the others by signature or name. A member created at a position names
 * the members beside it; a patch of the container's own text names none.
 */
export interface ContainerFocus {
  readonly path: string;
  readonly near?: readonly string[];
}

export interface ContextFileRequest {
  readonly outline: FileOutline;
  /** Element paths to show in full; resolved tolerantly. An empty list sends the file as signatures and stubs. */
  readonly focus: readonly string[];
  /** Containers shown at the cost of a change to them, not in full. */
  readonly containers?: readonly ContainerFocus[];
  /** 1-based lines the user points at (cursor, selection): a very large element is shown as windows around them. */
  readonly lines?: readonly number[];
  /**
   * Elements shown apart from the view (the agent tools' numbered slices of a long element): the imports their code
   * uses are shown like those of the code in the view.
   */
  readonly shownApart?: readonly string[];
  /** Send this file whole whatever its size (a file the element model cannot read, or one the model asked for). */
  readonly whole?: boolean;
  /**
   * Text shown after the file's view, e.g. where its focused elements are used across the workspace
   * (`describeReferences`); the caller budgets it, and the view cuts it where it would cost more than the file.
   */
  readonly appendix?: string;
}

export interface ContextElementLevel {
  readonly path: string;
  readonly level: DetailLevel;
}

export interface ContextFileSummary {
  readonly file: string;
  readonly mode: 'whole' | 'focused';
  readonly lineCount: number;
  readonly wholeFileTokens: number;
  /** Canonical paths of the focused elements. */
  readonly focus: readonly string[];
  /** Tokens of the file's imports as shown (with the line naming those left out); 0 for a file sent whole. */
  readonly importTokens: number;
  /** Tokens of the appendix as shown (the references), after any cut. */
  readonly appendixTokens: number;
}

export interface ContextResult {
  readonly text: string;
  readonly tokens: number;
  /** Tokens of the same files sent whole, for comparison. */
  readonly wholeFileTokens: number;
  readonly encoding: string;
  readonly budget?: number;
  readonly files: readonly ContextFileSummary[];
  /** The level chosen for every element the context mentions, in file order. */
  readonly elements: readonly ContextElementLevel[];
  /**
   * Elements shown in part, with the file lines shown as written: a container's header and own text, a very large
   * element's head and windows. The seen-code rule lets a PATCH change those lines.
   */
  readonly partial: readonly PartialView[];
  /** Elements shown as stubs instead of signatures to meet the budget. */
  readonly degraded: readonly string[];
  /** Elements left out to meet the budget. */
  readonly dropped: readonly string[];
  /** Focused elements shown in part to meet the budget (members by name, or windows). */
  readonly shownInPart: readonly string[];
}

export class ContextBudgetError extends Error {
  constructor(
    readonly required: number,
    readonly budget: number,
  ) {
    super(
      `the focused elements alone need ${required} tokens but the budget is ${budget} (over by ${required - budget}), ` +
        'even with their members named only and long elements shown as windows; raise the budget or focus on fewer elements',
    );
    this.name = 'ContextBudgetError';
  }
}

export const DEFAULT_SMALL_FILE_LINES = 50;

/** A focused view (with its appendix) may cost at most this much more than the file sent whole. */
export const WHOLE_FILE_ALLOWANCE = 0.1;

export const CONTEXT_LEGEND =
  'Lines `// @ <path>` (`# @` where comments start with `#`) label the element below with its path; ' +
  'a label without a file part is relative to the labelled element around it. `{ … }` (Python: `: …`) marks a body ' +
  'not shown; `// @ a, b, … (lines x-y)` names elements not shown (NEED a path to read it). A file sent ' +
  'whole is preceded by `Elements:`, its element paths with their lines (members in parentheses). ' +
  'Only elements shown in full may be replaced as a whole.';

/** Focused elements shorter than this are never shown in part to meet a budget: their windows would save little. */
const SHRINK_MIN_LINES = 12;

export function buildContext(
  requests: readonly ContextFileRequest[],
  counter: TokenCounter,
  options: ContextOptions = {},
): ContextResult {
  const shrunk = new Set<string>();
  // Each file's text is counted once, not again on every attempt: a 20,000-line file is the slow count.
  const fileTokens = new Map<FileOutline, number>();
  for (;;) {
    try {
      return attempt(requests, counter, options, shrunk, fileTokens);
    } catch (error) {
      if (!(error instanceof ContextBudgetError) || options.showInPart === false) throw error;
      // The largest focused element not yet shown in part goes first: a container to its members by name, a long
      // element to its head, windows and last line.
      const next = shrinkable(requests)
        .filter((e) => !shrunk.has(e.path))
        .sort((a, b) => b.range.end - b.range.start - (a.range.end - a.range.start))[0];
      if (next === undefined) throw error;
      shrunk.add(next.path);
    }
  }
}

function shrinkable(requests: readonly ContextFileRequest[]): ElementNode[] {
  return requests.flatMap((request) =>
    request.whole === true
      ? []
      : [...request.focus, ...(request.containers ?? []).flatMap((c) => c.near ?? [])]
          .map((path) => resolveElementPathOrThrow(request.outline, path).element)
          .filter((e) => e.children.length > 0 || e.endLine - e.startLine + 1 >= SHRINK_MIN_LINES),
  );
}

interface FileView {
  readonly summary: ContextFileSummary;
  readonly pieces: Piece[];
  readonly partial: readonly PartialView[];
}

function attempt(
  requests: readonly ContextFileRequest[],
  counter: TokenCounter,
  options: ContextOptions,
  shrunk: ReadonlySet<string>,
  fileTokens: Map<FileOutline, number>,
): ContextResult {
  const pieces: Piece[] = [];
  const files: ContextFileSummary[] = [];
  const partial: PartialView[] = [];
  let wholeFileTokens = 0;
  const pointers: WindowPointers = {
    words: wordsOfTask(options.instruction ?? ''),
    ...(options.symbols === undefined ? {} : { symbols: options.symbols }),
  };

  const sorted = [...requests].sort((a, b) => a.outline.file.localeCompare(b.outline.file));
  for (const request of sorted) {
    const view = fileView(request, counter, options, { ...pointers, ...lines(request) }, shrunk, fileTokens);
    wholeFileTokens += view.summary.wholeFileTokens;
    files.push(view.summary);
    partial.push(...view.partial);
    if (pieces.length > 0) pieces.push(fixed('\n'));
    pieces.push(...view.pieces);
  }

  const degraded: string[] = [];
  const dropped: string[] = [];
  let counted: number | undefined;
  if (options.budget !== undefined) {
    counted = degradeToBudget(pieces, options.budget, counter, degraded, dropped);
    noteDroppedElements(pieces, dropped);
  }

  const text = joinPieces(pieces);
  const elements = pieces.flatMap((p) =>
    p.element === undefined ? [] : [p.element, ...(p.more ?? [])].map((e) => ({ path: e.path, level: p.level })),
  );
  return {
    text,
    // The budget's last count is of this very text unless notes of dropped elements were added since.
    tokens: counted !== undefined && dropped.length === 0 ? counted : counter.count(text),
    wholeFileTokens,
    encoding: counter.encoding,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    files,
    elements,
    partial,
    degraded,
    dropped,
    shownInPart: [...shrunk],
  };
}

function lines(request: ContextFileRequest): Pick<WindowPointers, 'lines'> {
  return request.lines === undefined ? {} : { lines: request.lines };
}

/** One file's pieces: whole, or focused when that costs less than whole (with its appendix, at most a tenth more). */
function fileView(
  request: ContextFileRequest,
  counter: TokenCounter,
  options: ContextOptions,
  pointers: WindowPointers,
  shrunk: ReadonlySet<string>,
  countedFiles: Map<FileOutline, number>,
): FileView {
  const { outline } = request;
  const smallFileLines = options.smallFileLines ?? DEFAULT_SMALL_FILE_LINES;
  const fileTokens = countedFiles.get(outline) ?? counter.count(outline.text);
  countedFiles.set(outline, fileTokens);
  const resolve = (path: string): ElementNode => resolveElementPathOrThrow(outline, path).element;
  const sendWhole = request.whole === true || options.full === true || outline.lineCount <= smallFileLines;
  // Paths resolve even when the file goes whole, so a focus that names nothing fails the same way for every file.
  const focusElements = request.whole === true ? [] : unique(request.focus.map(resolve));
  const containerFoci =
    request.whole === true
      ? []
      : (request.containers ?? []).map((c) => ({
          element: resolve(c.path),
          near: unique((c.near ?? []).map(resolve)),
        }));
  const summary = (mode: 'whole' | 'focused', importTokens: number, appendixTokens: number): ContextFileSummary => ({
    file: outline.file,
    mode,
    lineCount: outline.lineCount,
    wholeFileTokens: fileTokens,
    focus: unique([...focusElements, ...containerFoci.flatMap((c) => c.near)].map((e) => e.path)),
    importTokens,
    appendixTokens,
  });
  const appendix = request.appendix?.trim() ?? '';
  // What "the whole file" costs: its text in a fence under its path. A view, its appendix and a whole file's index of
  // element paths together stay within a tenth more than that (issue 28).
  // Counted in parts (the text is counted once; its path line, fences and index apart): they meet at line breaks, so
  // the sum is the count to a token or two, and a 20,000-line file is not counted three times.
  const index = (room: number): string => elementIndexWithin(outline, room, counter);
  const framing = counter.count(joinPieces(renderWholeFile({ ...outline, text: '' }, '')));
  const bare = fileTokens + framing;
  const limit = Math.floor(bare * (1 + WHOLE_FILE_ALLOWANCE));
  const wholeIndex = index(limit - bare);
  const wholeRendered = renderWholeFile(outline, wholeIndex);
  const wholeTokens = bare + counter.count(wholeIndex);
  const wholeView = (): FileView => {
    const pieces = [...wholeRendered];
    const kept = appendix === '' ? '' : appendixWithin(appendix, limit - wholeTokens, counter);
    if (kept !== '') pieces.push(fixed(`${kept}\n`));
    return { summary: summary('whole', 0, kept === '' ? 0 : counter.count(kept)), pieces, partial: [] };
  };
  if (sendWhole) return wholeView();

  // A focused container becomes one at the cost of a change once the budget needs it: its members by name.
  const focus = focusElements.filter((e) => !(shrunk.has(e.path) && e.children.length > 0));
  const containers = [
    ...containerFoci,
    ...focusElements
      .filter((e) => shrunk.has(e.path) && e.children.length > 0)
      .map((element) => ({ element, near: [] as ElementNode[] })),
  ];
  const windows = new Map<string, LineSpan[]>();
  for (const element of [...focus, ...containers.flatMap((c) => c.near)]) {
    if (element.children.length > 0) continue;
    const spans = windowsOf(outline, element, pointers, shrunk.has(element.path));
    if (spans !== undefined) windows.set(element.path, spans);
  }
  const apart = (request.shownApart ?? []).map((path) => {
    const element = resolve(path);
    return outline.text.slice(element.range.start, element.range.end);
  });
  const view = renderFocusedView({ outline, focus, containers, windows, counter, alsoUsing: apart.join('\n') });
  const viewTokens = counter.count(joinPieces(view.pieces));
  // A focused view is never worth more than the file itself (a file of one-line exports, a focus covering most of
  // it): then the file goes whole, which the model reads more easily.
  if (viewTokens >= wholeTokens) return wholeView();
  const kept = appendix === '' ? '' : appendixWithin(appendix, limit - viewTokens, counter);
  const pieces = [...view.pieces];
  if (kept !== '') pieces.push(fixed(`${kept}\n`));
  const importTokens = view.pieces
    .filter((p) => p.element?.kind === 'import')
    .reduce((sum, p) => sum + tokensAt(p, p.level, counter), 0);
  return {
    summary: summary('focused', importTokens, kept === '' ? 0 : counter.count(kept)),
    pieces,
    partial: view.partial,
  };
}

/**
 * The appendix as far as `room` tokens allow, cut after a whole line with a note of how many were left out (a file's
 * heading is never left without a line under it); empty when not even the first line and the note fit.
 */
function appendixWithin(appendix: string, room: number, counter: TokenCounter): string {
  if (counter.count(appendix) <= room) return appendix;
  const lines = appendix.split('\n');
  for (let keep = lines.length - 1; keep >= 1; keep--) {
    // A line ending in `:` heads the lines under it (a file of the references): it does not end a cut.
    if (keep > 1 && lines[keep - 1]?.endsWith(':') === true) continue;
    const left = lines.slice(keep).filter((line) => !line.endsWith(':')).length;
    const text = `${lines.slice(0, keep).join('\n')}\n(… ${left} more line${left === 1 ? '' : 's'} left out to keep this file's view within its whole size: FIND lists them)`;
    if (counter.count(text) <= room) return text;
  }
  return '';
}

/** Tokens kept aside for the note that tells the model some elements are not shown. */
const DROPPED_NOTE_RESERVE = 16;

function noteDroppedElements(pieces: Piece[], dropped: readonly string[]): void {
  for (const [index, piece] of pieces.entries()) {
    if (piece.closesFile === undefined) continue;
    const count = dropped.filter((path) => path.startsWith(`${piece.closesFile}/`)).length;
    if (count === 0) continue;
    const note = `${syntaxOf(piece.closesFile).lineComment} … ${count} more element${count === 1 ? '' : 's'} not shown (token budget)\n`;
    const text = `${note}${piece.texts[piece.level] ?? ''}`;
    pieces[index] = { ...piece, texts: { [piece.level]: text } };
  }
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function renderWholeFile(outline: FileOutline, index: string): Piece[] {
  const fence = fenceFor(outline.text);
  const body = outline.text.endsWith('\n') ? outline.text : `${outline.text}\n`;
  const text = `File ${outline.file} (whole file, ${outline.lineCount} lines)\n${index}${fence}${outline.language}\n${body}${fence}\n`;
  return [fixed(text)];
}

/**
 * A file sent whole still names its elements, so the model writes paths it can know instead of guessing the grammar:
 * one line of labels (relative to the file) with their lines, members of a top-level element in parentheses. The
 * file's text itself stays as written, so a REPLACE_FILE copied from it carries no labels.
 */
export function elementIndex(outline: FileOutline): string {
  // Imports and re-exports are edited with ADD_IMPORT/REMOVE_IMPORT or whole; listing them would only cost tokens.
  const entries = outline.elements
    .filter((e) => e.kind !== 'import' && e.kind !== 'export')
    .map((element) => {
      const label = `${relativeLabel(element.path, outline.file)} ${lineSpan(element)}`;
      if (element.children.length === 0) return label;
      const members = element.children.map((child) => relativeLabel(child.path, element.path));
      return `${label} (${members.join(', ')})`;
    });
  return entries.length === 0 ? '' : `Elements: ${entries.join('; ')}\n`;
}

/**
 * The index within `room` tokens: whole; else without the members; else the entries whose path the code does not
 * spell (a statement, an ordinal, a default export) before the others, in file order, and how many are left out.
 */
function elementIndexWithin(outline: FileOutline, room: number, counter: TokenCounter): string {
  const full = elementIndex(outline);
  if (full === '' || counter.count(full) <= room) return full;
  const elements = outline.elements.filter((e) => e.kind !== 'import' && e.kind !== 'export');
  const label = (element: ElementNode): string => `${relativeLabel(element.path, outline.file)} ${lineSpan(element)}`;
  const unspelled = (element: ElementNode): boolean =>
    element.ordinal !== undefined || UNSPELLED_KINDS.has(element.kind);
  const ranked = [...elements.filter(unspelled), ...elements.filter((e) => !unspelled(e))];
  for (let keep = ranked.length; keep >= 1; keep = keep === ranked.length ? keep - 1 : Math.floor(keep * 0.8)) {
    const kept = new Set(ranked.slice(0, keep));
    const more = elements.length - keep;
    const entries = elements.filter((e) => kept.has(e)).map(label);
    const text = `Elements: ${entries.join('; ')}${more === 0 ? '' : `; … ${more} more named as the code names them`}\n`;
    if (counter.count(text) <= room) return text;
  }
  return '';
}

/** Kinds whose path segment the code does not spell: what an index is for. */
const UNSPELLED_KINDS: ReadonlySet<string> = new Set(['statement', 'call', 'default', 'export=', 'static']);

function relativeLabel(path: string, base: string): string {
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}

function lineSpan(element: ElementNode): string {
  return element.startLine === element.endLine ? `${element.startLine}` : `${element.startLine}-${element.endLine}`;
}

/**
 * Lowers detail, farthest from the focus first: signatures become stubs, then stubs are dropped. Returns the tokens
 * of the pieces' text as left (before any note of dropped elements), so the caller need not count it again.
 */
function degradeToBudget(
  pieces: Piece[],
  budget: number,
  counter: TokenCounter,
  degraded: string[],
  dropped: string[],
): number {
  const reserve = (): number => (dropped.length > 0 ? DROPPED_NOTE_RESERVE : 0);
  let textTokens = 0;
  const exact = (): number => {
    textTokens = counter.count(joinPieces(pieces));
    return textTokens + reserve();
  };
  let tokens = exact();
  if (tokens <= budget) return textTokens;
  // Pieces are counted apart, which overestimates a little (tokens merge across piece boundaries); scale the sum by
  // what the whole really costs so that the exact count, which is the slow one, runs only near the goal.
  let sum = pieces.reduce((total, p) => total + tokensAt(p, p.level, counter), 0);
  const scale = tokens / Math.max(1, sum);
  const byDistance = pieces.filter(
    (p) => p.element !== undefined && p.pinned !== true && (p.level === 'signature' || p.level === 'stub'),
  );
  byDistance.sort(
    (a, b) => b.tier - a.tier || b.distance - a.distance || (b.element?.startLine ?? 0) - (a.element?.startLine ?? 0),
  );
  const steps: Array<{ piece: Piece; to: DetailLevel }> = [
    ...byDistance.filter((p) => p.level === 'signature').map((piece) => ({ piece, to: 'stub' as const })),
    ...byDistance.map((piece) => ({ piece, to: 'dropped' as const })),
  ];
  for (const { piece, to } of steps) {
    const path = piece.element?.path ?? '';
    if (to === 'stub') {
      degraded.push(path);
    } else {
      dropped.push(path, ...(piece.more ?? []).map((e) => e.path));
      const at = degraded.indexOf(path);
      if (at >= 0) degraded.splice(at, 1);
    }
    sum += tokensAt(piece, to, counter) - tokensAt(piece, piece.level, counter);
    piece.level = to;
    if ((sum + reserve()) * scale <= budget) {
      tokens = exact();
      if (tokens <= budget) return textTokens;
    }
  }
  tokens = exact();
  if (tokens > budget) throw new ContextBudgetError(tokens, budget);
  return textTokens;
}
