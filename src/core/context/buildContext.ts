import type { ElementNode, FileOutline } from '../elements/element';
import { ancestryOf, resolveElementPathOrThrow } from '../elements/resolve';
import { type LevelMarks, markText, type SectionMark, sectionMarksOf } from '../elements/sectionMarks';
import { languageFor } from '../language/languages';
import { C_LIKE_SYNTAX, type CodeScan, type CodeSyntax } from '../language/languageSupport';
import type { TokenCounter } from './tokens';

/**
 * The focused context: what the model sees of the files a task touches. Focused elements appear in full, their
 * containers as headers around them, their siblings as signatures, and the rest of the file as one-line stubs,
 * each labelled with its path, in file order. Under a token budget, detail degrades from the outside in; focused
 * bodies are never cut.
 */

export type DetailLevel = 'whole-file' | 'full' | 'container' | 'signature' | 'stub' | 'dropped';

export interface ContextOptions {
  /** Token budget for the whole context; unlimited when undefined. */
  readonly budget?: number;
  /** Files of at most this many lines are sent whole (the hybrid rule). Default 50. */
  readonly smallFileLines?: number;
  /** Send every file whole. */
  readonly full?: boolean;
}

export interface ContextFileRequest {
  readonly outline: FileOutline;
  /** Element paths to show in full; resolved tolerantly. An empty list sends the file as signatures and stubs. */
  readonly focus: readonly string[];
  /** Send this file whole whatever its size (a file the element model cannot read, or one the model asked for). */
  readonly whole?: boolean;
  /**
   * Text shown after the file's view, e.g. where its focused elements are used across the workspace
   * (`describeReferences`); the caller budgets it.
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
  /** Elements shown as stubs instead of signatures to meet the budget. */
  readonly degraded: readonly string[];
  /** Elements left out to meet the budget. */
  readonly dropped: readonly string[];
}

export class ContextBudgetError extends Error {
  constructor(
    readonly required: number,
    readonly budget: number,
  ) {
    super(
      `the focused elements alone need ${required} tokens but the budget is ${budget} (over by ${required - budget}); ` +
        'raise the budget or focus on fewer elements',
    );
    this.name = 'ContextBudgetError';
  }
}

export const DEFAULT_SMALL_FILE_LINES = 50;

export const CONTEXT_LEGEND =
  'Lines `// @ <path>` (`# @` where comments start with `#`) label the element below with its path; ' +
  'a label without a file part is relative to the labelled element around it. `{ … }` (Python: `: …`) marks a body ' +
  'not shown; `// @ a, b, … (lines x-y)` names elements not shown (NEED a path to read it). A file sent ' +
  'whole is preceded by `Elements:`, its element paths with their lines (members in parentheses). ' +
  'Only elements shown in full may be replaced as a whole.';

/** A piece of the rendered context; degradable pieces carry their alternatives. */
interface Piece {
  readonly element?: ElementNode;
  /** Further elements the piece names, on one line with `element` (a run of elements shown by name only). */
  readonly more?: readonly ElementNode[];
  /** Set on the piece that closes a file's section: where the note about dropped elements goes. */
  readonly closesFile?: string;
  /** Lines from the nearest focused element, for degrading farthest first. */
  readonly distance: number;
  /** 0 for neighbours of a focused element, 1 for the rest of the file: the rest goes first. */
  readonly tier: number;
  level: DetailLevel;
  readonly texts: Partial<Record<DetailLevel, string>>;
  /** Token counts per level, filled on demand: only a budget needs them. */
  readonly tokens: Partial<Record<DetailLevel, number>>;
}

function joinPieces(pieces: readonly Piece[]): string {
  return pieces.map((p) => p.texts[p.level] ?? '').join('');
}

function tokensAt(piece: Piece, level: DetailLevel, counter: TokenCounter): number {
  let tokens = piece.tokens[level];
  if (tokens === undefined) {
    tokens = counter.count(piece.texts[level] ?? '');
    piece.tokens[level] = tokens;
  }
  return tokens;
}

export function buildContext(
  requests: readonly ContextFileRequest[],
  counter: TokenCounter,
  options: ContextOptions = {},
): ContextResult {
  const smallFileLines = options.smallFileLines ?? DEFAULT_SMALL_FILE_LINES;
  const pieces: Piece[] = [];
  const files: ContextFileSummary[] = [];
  let wholeFileTokens = 0;

  const sorted = [...requests].sort((a, b) => a.outline.file.localeCompare(b.outline.file));
  for (const request of sorted) {
    const { outline } = request;
    const fileTokens = counter.count(outline.text);
    wholeFileTokens += fileTokens;
    const focusElements =
      request.whole === true ? [] : request.focus.map((path) => resolveElementPathOrThrow(outline, path).element);
    let whole = request.whole === true || options.full === true || outline.lineCount <= smallFileLines;
    let filePieces = whole ? renderWholeFile(outline) : new FocusedFileRenderer(outline, focusElements).render();
    if (!whole) {
      // A focused view is never worth more than the file itself (a file of one-line exports, a focus covering most
      // of it): then the file goes whole, which the model reads more easily.
      const wholePieces = renderWholeFile(outline);
      if (counter.count(joinPieces(filePieces)) >= counter.count(joinPieces(wholePieces))) {
        whole = true;
        filePieces = wholePieces;
      }
    }
    files.push({
      file: outline.file,
      mode: whole ? 'whole' : 'focused',
      lineCount: outline.lineCount,
      wholeFileTokens: fileTokens,
      focus: unique(focusElements.map((e) => e.path)),
    });
    if (pieces.length > 0) pieces.push(fixed('\n'));
    pieces.push(...filePieces);
    const appendix = request.appendix?.trim();
    if (appendix !== undefined && appendix.length > 0) pieces.push(fixed(`${appendix}\n`));
  }

  const degraded: string[] = [];
  const dropped: string[] = [];
  if (options.budget !== undefined) {
    degradeToBudget(pieces, options.budget, counter, degraded, dropped);
    noteDroppedElements(pieces, dropped);
  }

  const text = pieces.map((p) => p.texts[p.level] ?? '').join('');
  const elements = pieces.flatMap((p) =>
    p.element === undefined ? [] : [p.element, ...(p.more ?? [])].map((e) => ({ path: e.path, level: p.level })),
  );
  return {
    text,
    tokens: counter.count(text),
    wholeFileTokens,
    encoding: counter.encoding,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    files,
    elements,
    degraded,
    dropped,
  };
}

/** Tokens kept aside for the note that tells the model some elements are not shown. */
const DROPPED_NOTE_RESERVE = 16;

/** How the file's language writes comments and bodies. */
function syntaxOf(file: string): CodeSyntax {
  return languageFor(file)?.syntax ?? C_LIKE_SYNTAX;
}

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

function fixed(text: string, element?: ElementNode, level: DetailLevel = 'full'): Piece {
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

function languageTag(outline: FileOutline): string {
  return outline.language;
}

function renderWholeFile(outline: FileOutline): Piece[] {
  const fence = fenceFor(outline.text);
  const body = outline.text.endsWith('\n') ? outline.text : `${outline.text}\n`;
  const index = elementIndex(outline);
  const text = `File ${outline.file} (whole file, ${outline.lineCount} lines)\n${index}${fence}${languageTag(outline)}\n${body}${fence}\n`;
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

function relativeLabel(path: string, base: string): string {
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}

function lineSpan(element: ElementNode): string {
  return element.startLine === element.endLine ? `${element.startLine}` : `${element.startLine}-${element.endLine}`;
}

class FocusedFileRenderer {
  private readonly focused: ReadonlySet<string>;
  /** Paths of every element on the way to a focused element (containers). */
  private readonly containers: ReadonlySet<string>;
  private readonly focusLines: readonly number[];
  private readonly pieces: Piece[] = [];
  private readonly syntax: CodeSyntax;
  /** `// @`, `# @`: what starts a label. */
  private readonly at: string;

  constructor(
    private readonly outline: FileOutline,
    focusElements: readonly ElementNode[],
  ) {
    this.syntax = syntaxOf(outline.file);
    this.at = `${this.syntax.lineComment} @`;
    this.focused = new Set(focusElements.map((e) => e.path));
    const containers = new Set<string>();
    for (const element of focusElements) {
      for (const ancestor of ancestryOf(outline, element.path)?.slice(0, -1) ?? []) containers.add(ancestor.path);
    }
    this.containers = containers;
    this.focusLines = focusElements.flatMap((e) => [e.startLine, e.endLine]);
  }

  render(): Piece[] {
    const { outline } = this;
    const fence = fenceFor(outline.text);
    this.push(
      `File ${outline.file} (focused view of ${outline.lineCount} lines; elements not in focus are shown as signatures or by name)\n${fence}${languageTag(outline)}\n`,
    );
    const marks = sectionMarksOf(outline, undefined);
    if (marks.docstring !== undefined) this.push(`${this.syntax.lineComment} ${markText(marks.docstring)}\n`);
    const imports = outline.elements.filter((e) => e.kind === 'import');
    // What heads the file above its imports (Go's and Java's `package` line) is shown there, as the file has it.
    const firstImport = imports[0];
    const heads = outline.elements.filter(
      (e) =>
        firstImport !== undefined &&
        e.kind !== 'import' &&
        e.range.end <= firstImport.range.start &&
        e.startLine === e.endLine,
    );
    for (const element of heads)
      this.pieces.push(this.degradable(element, this.labelFor(element, undefined), 'signature'));
    let previous: ElementNode | undefined = heads.at(-1);
    for (const element of imports) {
      this.pieces.push(fixed(`${this.blankLineBefore(element, previous)}${this.verbatim(element)}\n`, element));
      previous = element;
    }
    if (imports.length > 0) this.push('\n');
    this.renderLevel(
      outline.elements.filter((e) => e.kind !== 'import' && !heads.includes(e)),
      undefined,
      true,
      marks,
    );
    this.pieces.push({ ...fixed(`${fence}\n`), closesFile: outline.file });
    return this.pieces;
  }

  private push(text: string): void {
    this.pieces.push(fixed(text));
  }

  /**
   * Renders one level of siblings. A level that holds a focused element shows its nearest siblings as signatures
   * (where an edit lands, and what it sits between); everything farther, and every member of a level that only holds a
   * container of the focus, is named only, in runs of labels on as few lines as fit: the model can still address and
   * NEED any of them, but their signatures would cost most of the view in a long module.
   */
  private renderLevel(
    elements: readonly ElementNode[],
    parent: ElementNode | undefined,
    isTopLevel: boolean,
    marks: LevelMarks,
  ): void {
    const neighbours = this.neighboursIn(elements);
    const showSignatures = isTopLevel && this.focused.size === 0;
    let previous: ElementNode | undefined;
    let run: ElementNode[] = [];
    let runBlank = '';
    const flush = (): void => {
      if (run.length > 0) this.pieces.push(...this.nameRun(run, parent, runBlank));
      run = [];
    };
    for (const element of elements) {
      // A section comment above the element is one marked line where the file has it; it ends a run of names.
      const sections = marks.before.get(element) ?? [];
      if (sections.length > 0) flush();
      const blank = `${this.blankLineBefore(element, previous)}${this.markLines(sections, element)}`;
      previous = element;
      if (this.focused.has(element.path)) {
        flush();
        this.pieces.push(
          fixed(`${blank}${this.indentOf(element)}${this.at} ${element.path}\n${this.verbatim(element)}\n`, element, 'full'),
        );
      } else if (this.containers.has(element.path)) {
        flush();
        this.renderContainer(element, blank);
      } else if (neighbours.has(element) || showSignatures) {
        flush();
        this.pieces.push(this.degradable(element, this.labelFor(element, parent), 'signature', blank));
      } else {
        if (run.length === 0) runBlank = blank;
        run.push(element);
      }
    }
    flush();
    const last = elements[elements.length - 1];
    const [after] = marks.after;
    if (after !== undefined && last !== undefined)
      this.push(`${after.startLine - last.endLine > 1 ? '\n' : ''}${this.markLines(marks.after, last)}`);
  }

  /** Section comments (or a docstring) as marked lines at the element's indentation: `// § DEPRECATED (line 488)`. */
  private markLines(marks: readonly SectionMark[], element: ElementNode): string {
    const indent = this.indentOf(element);
    return marks.map((mark) => `${indent}${this.syntax.lineComment} ${markText(mark)}\n`).join('');
  }

  /** The siblings within {@link NEIGHBOURS} places of a focused element of this level. */
  private neighboursIn(elements: readonly ElementNode[]): ReadonlySet<ElementNode> {
    const neighbours = new Set<ElementNode>();
    elements.forEach((element, index) => {
      if (!this.focused.has(element.path)) return;
      for (let at = Math.max(0, index - NEIGHBOURS); at <= Math.min(elements.length - 1, index + NEIGHBOURS); at++) {
        const sibling = elements[at];
        if (sibling !== undefined) neighbours.add(sibling);
      }
    });
    return neighbours;
  }

  /**
   * Consecutive elements shown by name only: `// @ label, label, … (lines a-b)`, wrapped so that no line runs much
   * past {@link NAME_LINE_WIDTH} characters. Each line is one piece, so a budget drops the farthest lines first.
   */
  private nameRun(run: readonly ElementNode[], parent: ElementNode | undefined, blank: string): Piece[] {
    const first = run[0];
    if (first === undefined) return [];
    const indent = this.indentOf(first);
    const lines: ElementNode[][] = [];
    let line: ElementNode[] = [];
    let width = 0;
    for (const element of run) {
      const label = this.labelFor(element, parent);
      if (line.length > 0 && width + label.length > NAME_LINE_WIDTH) {
        lines.push(line);
        line = [];
        width = 0;
      }
      line.push(element);
      width += label.length + 2;
    }
    lines.push(line);
    return lines.map((members, index) => {
      const [head, ...more] = members as [ElementNode, ...ElementNode[]];
      const last = members[members.length - 1] ?? head;
      const span =
        head.startLine === last.endLine ? `line ${head.startLine}` : `lines ${head.startLine}-${last.endLine}`;
      const labels = members.map((e) => this.labelFor(e, parent)).join(', ');
      const stub = `${index === 0 ? blank : ''}${indent}${this.at} ${labels} (${span})\n`;
      const distance = Math.min(...members.map((e) => this.distanceOf(e)));
      return {
        element: head,
        ...(more.length > 0 ? { more } : {}),
        distance,
        tier: 1,
        level: 'stub' as const,
        texts: { stub, dropped: '' },
        tokens: { dropped: 0 },
      };
    });
  }

  /** A blank line where the file has one between two siblings, so groups read as in the file. */
  private blankLineBefore(element: ElementNode, previous: ElementNode | undefined): string {
    if (previous === undefined) return '';
    return /\n[ \t]*\r?\n/.test(this.outline.text.slice(previous.range.end, element.range.start)) ? '\n' : '';
  }

  /** The `,` that ends an object-literal or enum member in the file (it is not part of the member's range). */
  private trailingComma(element: ElementNode): string {
    const { text } = this.outline;
    let at = element.range.end;
    while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at += 1;
    return text[at] === ',' && !text.slice(element.range.start, element.range.end).trimEnd().endsWith(',') ? ',' : '';
  }

  private renderContainer(element: ElementNode, blank = ''): void {
    const indent = this.indentOf(element);
    const { text } = this.outline;
    const body = element.bodyRange;
    if (body === undefined) {
      // A container without a braced body (should not happen for elements with children): show it whole.
      this.pieces.push(fixed(`${indent}${this.at} ${element.path}\n${this.verbatim(element)}\n`, element, 'full'));
      return;
    }
    const marks = sectionMarksOf(this.outline, element);
    if (this.syntax.blocks === 'indent') {
      // The head down to its `:`, a mark of its docstring; the members follow at their own indentation, and nothing
      // closes the body.
      const head = text.slice(element.range.start, body.start).trimEnd();
      const first = element.children[0];
      const docstring =
        marks.docstring === undefined || first === undefined ? '' : this.markLines([marks.docstring], first);
      this.pieces.push(
        fixed(`${blank}${indent}${this.at} ${element.path}\n${indent}${head}\n${docstring}`, element, 'container'),
      );
      this.renderLevel(element.children, element, false, marks);
      return;
    }
    const head = text.slice(element.range.start, body.start + 1);
    const tail = text.slice(body.end - 1, element.range.end);
    this.pieces.push(fixed(`${blank}${indent}${this.at} ${element.path}\n${indent}${head}\n`, element, 'container'));
    this.renderLevel(element.children, element, false, marks);
    this.push(`${indent}${tail}${this.trailingComma(element)}\n`);
  }

  private degradable(element: ElementNode, label: string, level: 'signature' | 'stub', blank = ''): Piece {
    const indent = this.indentOf(element);
    const shown = signatureWithoutLineComments(element, this.outline);
    const hasBody = element.bodyRange !== undefined && !shown.endsWith('…}');
    // Decorators stand one a line above the signature, as the file writes them (`@property`, `@app.route("/x")`).
    const decorators = (element.decorators ?? []).map((decorator) => `${indent}${decorator}\n`).join('');
    const signature = `${blank}${decorators}${indent}${shown}${hasBody ? this.syntax.elidedBody : ''}${this.trailingComma(element)} ${this.at} ${label}\n`;
    const lines =
      element.startLine === element.endLine
        ? `line ${element.startLine}`
        : `lines ${element.startLine}-${element.endLine}`;
    const stub = `${blank}${indent}${this.at} ${label} (${lines})\n`;
    const texts: Partial<Record<DetailLevel, string>> =
      level === 'signature' ? { signature, stub, dropped: '' } : { stub, dropped: '' };
    const tokens: Partial<Record<DetailLevel, number>> = { dropped: 0 };
    return { element, distance: this.distanceOf(element), tier: level === 'signature' ? 0 : 1, level, texts, tokens };
  }

  private labelFor(element: ElementNode, parent: ElementNode | undefined): string {
    const base = parent === undefined ? this.outline.file : parent.path;
    return element.path.startsWith(`${base}/`) ? element.path.slice(base.length + 1) : element.path;
  }

  private distanceOf(element: ElementNode): number {
    if (this.focusLines.length === 0) return element.startLine;
    let distance = Number.POSITIVE_INFINITY;
    for (const line of this.focusLines) {
      distance = Math.min(distance, Math.abs(element.startLine - line), Math.abs(element.endLine - line));
    }
    return distance;
  }

  /** The element's text as written, its first line indented as in the file, with its trailing comma. */
  private verbatim(element: ElementNode): string {
    return `${this.indentOf(element)}${this.outline.text.slice(element.range.start, element.range.end)}${this.trailingComma(element)}`;
  }

  private indentOf(element: ElementNode): string {
    const { text } = this.outline;
    const lineStart = text.lastIndexOf('\n', element.range.start - 1) + 1;
    const before = text.slice(lineStart, element.range.start);
    return /^[ \t]*$/.test(before) ? before : '';
  }
}

/** How many siblings on each side of a focused element are shown as signatures. */
const NEIGHBOURS = 2;

/** A line of element names (a run shown by name only) wraps after about this many characters. */
const NAME_LINE_WIDTH = 160;

/** Lowers detail, farthest from the focus first: signatures become stubs, then stubs are dropped. */
function degradeToBudget(
  pieces: Piece[],
  budget: number,
  counter: TokenCounter,
  degraded: string[],
  dropped: string[],
): void {
  const reserve = (): number => (dropped.length > 0 ? DROPPED_NOTE_RESERVE : 0);
  const exact = (): number => counter.count(pieces.map((p) => p.texts[p.level] ?? '').join('')) + reserve();
  const estimate = (): number => pieces.reduce((sum, p) => sum + tokensAt(p, p.level, counter), 0) + reserve();
  let tokens = exact();
  if (tokens <= budget) return;
  // Pieces are counted apart, which overestimates a little (tokens merge across piece boundaries); scale the sum by
  // what the whole really costs so that the exact count, which is the slow one, runs only near the goal.
  const scale = tokens / Math.max(1, estimate());
  const byDistance = pieces.filter((p) => p.element !== undefined && (p.level === 'signature' || p.level === 'stub'));
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
    piece.level = to;
    if (estimate() * scale <= budget) {
      tokens = exact();
      if (tokens <= budget) return;
    }
  }
  tokens = exact();
  if (tokens > budget) throw new ContextBudgetError(tokens, budget);
}

/**
 * The element's one-line signature, safe to follow with `{ … }` and a label: a `//` comment inside the declaration
 * head (`run(x: number) // why`) would swallow everything after it on the line, so such comments become block
 * comments, read from the file as written (the outline's signature has already joined the lines). The language's
 * own lexer finds the comments, so `//` inside a string is left alone.
 */
export function signatureWithoutLineComments(element: ElementNode, outline: FileOutline): string {
  const language = languageFor(outline.file);
  const syntax = language?.syntax ?? C_LIKE_SYNTAX;
  const marker = syntax.lineComment;
  if (language === undefined || !element.signature.includes(marker)) return element.signature;
  const scan = (code: string): CodeScan => language.scanCode(code);
  const lineComments = (code: string): Array<{ start: number; end: number }> =>
    scan(code).comments.filter((c) => code.startsWith(marker, c.start));
  if (lineComments(element.signature).length === 0) return element.signature;
  const head = outline.text.slice(element.declarationRange.start, element.bodyRange?.start ?? element.range.end);
  let out = '';
  let at = 0;
  for (const comment of lineComments(head)) {
    const inner = head
      .slice(comment.start + marker.length, comment.end)
      .trim()
      .replace(/\*\//g, '* /');
    // A language without block comments loses the comment; the signature is a summary, not code to copy.
    out += `${head.slice(at, comment.start)}${syntax.blocks === 'braces' ? `/* ${inner} */` : ''}`;
    at = comment.end;
  }
  out += head.slice(at);
  const collapsed = out
    .replace(/\s+/g, ' ')
    .trim()
    .replace(syntax.blocks === 'braces' ? /\s*[;,]$/ : /\s*:$/, '');
  return collapsed.length <= SIGNATURE_LIMIT ? collapsed : `${collapsed.slice(0, SIGNATURE_LIMIT - 1)}…`;
}

/** Matches the outline's limit on signature length. */
const SIGNATURE_LIMIT = 200;
