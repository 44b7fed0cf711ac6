import type { ElementNode, FileOutline } from '../elements/element';
import { LineIndex } from '../elements/lines';
import { ancestryOf } from '../elements/resolve';
import { type LevelMarks, markText, type SectionMark, sectionMarksOf } from '../elements/sectionMarks';
import { C_LIKE_SYNTAX, type CodeSyntax } from '../language/languageSupport';
import { languageFor } from '../language/languages';
import { importsView, wordsOf } from './importsInView';
import type { TokenCounter } from './tokens';
import { fenceFor, fixed, linesLabel, mergeSpans, type LineSpan, type Piece } from './viewPieces';
import { signatureWithoutLineComments } from './signature';

/**
 * One file's focused view: focused elements in full (or, when very large, as windows), their containers as headers
 * around them, their siblings as signatures, the rest named only, each labelled with its path, in file order; the
 * imports the shown code uses, and one line for the others. A container shown at the cost of a change to it (a
 * member created at a position, its own text patched) shows its header, its own text between members, the members
 * at the position in full and the others by signature or name.
 */

export interface FocusedViewInput {
  readonly outline: FileOutline;
  /** Shown in full, or as windows when `windows` has spans for it. */
  readonly focus: readonly ElementNode[];
  /** Containers shown at the cost of a change: their own text, and `near` members in full. */
  readonly containers: readonly { readonly element: ElementNode; readonly near: readonly ElementNode[] }[];
  /** Spans of file lines shown of a very large focused element (its head, windows, its last line). */
  readonly windows: ReadonlyMap<string, readonly LineSpan[]>;
  readonly counter: TokenCounter;
  /** Code shown apart from the view: the imports it uses are shown too. */
  readonly alsoUsing?: string;
}

/** Lines of an element shown verbatim when not all of it was: what the seen-code rule lets a PATCH change. */
export interface PartialView {
  readonly path: string;
  readonly lines: readonly LineSpan[];
}

export interface FocusedView {
  readonly pieces: Piece[];
  readonly partial: readonly PartialView[];
}

/** How many siblings on each side of a focused element are shown as signatures. */
const NEIGHBOURS = 2;

/** A line of element names (a run shown by name only) wraps after about this many characters. */
const NAME_LINE_WIDTH = 160;

/** How the file's language writes comments and bodies. */
export function syntaxOf(file: string): CodeSyntax {
  return languageFor(file)?.syntax ?? C_LIKE_SYNTAX;
}

export function renderFocusedView(input: FocusedViewInput): FocusedView {
  return new FocusedFileRenderer(input).render();
}

class FocusedFileRenderer {
  private readonly outline: FileOutline;
  private readonly focused: ReadonlySet<string>;
  /** Paths of every element on the way to a focused element (containers). */
  private readonly containers: ReadonlySet<string>;
  /** Containers whose own text (between their members) is shown. */
  private readonly ownText: ReadonlySet<string>;
  private readonly windows: ReadonlyMap<string, readonly LineSpan[]>;
  private readonly focusLines: readonly number[];
  private readonly pieces: Piece[] = [];
  private readonly partial = new Map<string, LineSpan[]>();
  private readonly syntax: CodeSyntax;
  /** `// @`, `# @`: what starts a label. */
  private readonly at: string;
  private lineIndex: LineIndex | undefined;

  constructor(private readonly input: FocusedViewInput) {
    const { outline } = input;
    this.outline = outline;
    this.syntax = syntaxOf(outline.file);
    this.at = `${this.syntax.lineComment} @`;
    const shownInFull = [...input.focus, ...input.containers.flatMap((c) => c.near)];
    this.focused = new Set(shownInFull.map((e) => e.path));
    const containers = new Set<string>();
    for (const element of shownInFull) {
      for (const ancestor of ancestryOf(outline, element.path)?.slice(0, -1) ?? []) containers.add(ancestor.path);
    }
    for (const { element } of input.containers) {
      for (const ancestor of ancestryOf(outline, element.path) ?? []) containers.add(ancestor.path);
    }
    this.containers = containers;
    this.ownText = new Set(input.containers.map((c) => c.element.path));
    this.windows = input.windows;
    this.focusLines = [...shownInFull, ...input.containers.map((c) => c.element)].flatMap((e) => [
      e.startLine,
      e.endLine,
    ]);
  }

  render(): FocusedView {
    const { outline } = this;
    const fence = fenceFor(outline.text);
    this.push(
      `File ${outline.file} (focused view of ${outline.lineCount} lines; elements not in focus are shown as signatures or by name)\n${fence}${outline.language}\n`,
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
    const lastHead = heads.at(-1);
    const importsAt = this.pieces.length;
    this.renderLevel(
      outline.elements.filter((e) => e.kind !== 'import' && !heads.includes(e)),
      undefined,
      true,
      marks,
    );
    this.pieces.push({ ...fixed(`${fence}\n`), closesFile: outline.file });
    if (imports.length > 0) {
      // The package line above the imports is not code that uses them (`package demo;` would match `demo.parts.X`).
      const used = wordsOf(
        this.pieces
          .slice(importsAt)
          .filter(
            (p) => p.level === 'full' || p.level === 'window' || p.level === 'container' || p.level === 'signature',
          )
          .map((p) => p.texts[p.level] ?? '')
          .concat(this.input.alsoUsing ?? '')
          .join('\n'),
      );
      const view = importsView({
        outline,
        imports,
        used,
        syntax: this.syntax,
        counter: this.input.counter,
        verbatim: (element) => this.verbatim(element),
        blankBefore: (element, previous) => this.blankLineBefore(element, previous ?? lastHead),
      });
      this.pieces.splice(importsAt, 0, ...view.pieces, fixed('\n'));
    }
    return {
      pieces: this.pieces,
      partial: [...this.partial].map(([path, lines]) => ({ path, lines: mergeSpans(lines) })),
    };
  }

  private push(text: string): void {
    this.pieces.push(fixed(text));
  }

  /**
   * Renders one level of siblings. A level that holds a focused element shows its nearest siblings as signatures
   * (where an edit lands, and what it sits between); everything farther, and every member of a level that only holds a
   * container of the focus, is named only, in runs of labels on as few lines as fit: the model can still address and
   * NEED any of them, but their signatures would cost most of the view in a long module. Under a container whose own
   * text is shown, the comments between members are shown where they stand; elsewhere a section comment is one marked
   * line.
   */
  private renderLevel(
    elements: readonly ElementNode[],
    parent: ElementNode | undefined,
    isTopLevel: boolean,
    marks: LevelMarks,
  ): void {
    const neighbours = this.neighboursIn(elements);
    const ownText = parent !== undefined && this.ownText.has(parent.path);
    // Nothing in focus at this level: the file's top level, or a container shown for its own text, lists signatures.
    const showSignatures =
      (isTopLevel && this.focused.size === 0 && this.ownText.size === 0) ||
      (ownText && !elements.some((e) => this.focused.has(e.path) || this.containers.has(e.path)));
    let previous: ElementNode | undefined;
    let run: ElementNode[] = [];
    let runBlank = '';
    const flush = (): void => {
      if (run.length > 0) this.pieces.push(...this.nameRun(run, parent, runBlank));
      run = [];
    };
    for (const element of elements) {
      if (ownText && parent !== undefined) {
        const between = this.ownTextBefore(parent, previous, element);
        if (between !== undefined) {
          flush();
          this.pieces.push(between);
        }
      }
      // A section comment above the element is one marked line where the file has it; it ends a run of names.
      const sections = ownText ? [] : (marks.before.get(element) ?? []);
      if (sections.length > 0) flush();
      const blank = `${this.blankLineBefore(element, previous)}${this.markLines(sections, element)}`;
      previous = element;
      if (this.focused.has(element.path)) {
        flush();
        const spans = this.windows.get(element.path);
        if (spans === undefined) {
          this.pieces.push(
            fixed(`${blank}${this.indentOf(element)}${this.at} ${element.path}\n${this.verbatim(element)}\n`, element),
          );
        } else {
          this.pieces.push(fixed(`${blank}${this.windowed(element, spans)}`, element, 'window'));
        }
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
    if (ownText && parent !== undefined) {
      const after = this.ownTextBefore(parent, previous, undefined);
      if (after !== undefined) this.pieces.push(after);
      return;
    }
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

  /**
   * The container's own lines between two members (or its opening and its first member, its last member and its end):
   * comments and code that belong to no member, shown as written; blank lines are left to the blank-line rule.
   */
  private ownTextBefore(
    parent: ElementNode,
    previous: ElementNode | undefined,
    next: ElementNode | undefined,
  ): Piece | undefined {
    const body = parent.bodyRange;
    if (body === undefined) return undefined;
    const braces = this.syntax.blocks === 'braces';
    const from = previous?.range.end ?? (braces ? body.start + 1 : body.start);
    const to = next?.range.start ?? (braces ? body.end - 1 : body.end);
    if (to <= from) return undefined;
    const text = this.outline.text.slice(from, to);
    const lines = text.split('\n');
    // The first piece ends the line before (a `,` after a member, the `{`); the last is the next line's indentation.
    const inner = lines.slice(1, next === undefined && !braces ? lines.length : lines.length - 1);
    const firstLine = this.lineOf(from) + 1;
    const shown: string[] = [];
    inner.forEach((line, index) => {
      if (line.trim() === '') return;
      shown.push(line.trimEnd());
      this.markPartial(parent.path, [firstLine + index, firstLine + index]);
    });
    return shown.length === 0 ? undefined : fixed(`${shown.join('\n')}\n`);
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
      const labels = members.map((e) => this.labelFor(e, parent)).join(', ');
      const stub = `${index === 0 ? blank : ''}${indent}${this.at} ${labels} (${linesLabel([head.startLine, last.endLine])})\n`;
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
    const ownText = this.ownText.has(element.path);
    if (ownText) this.markPartial(element.path, [element.startLine, this.lineOf(body.start)]);
    const marks = sectionMarksOf(this.outline, element);
    if (this.syntax.blocks === 'indent') {
      // The head down to its `:`, a mark of its docstring (its own text shows the docstring itself); the members
      // follow at their own indentation, and nothing closes the body.
      const head = text.slice(element.range.start, body.start).trimEnd();
      const first = element.children[0];
      const docstring =
        ownText || marks.docstring === undefined || first === undefined ? '' : this.markLines([marks.docstring], first);
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
    if (ownText) this.markPartial(element.path, [this.lineOf(body.end - 1), element.endLine]);
    this.push(`${indent}${tail}${this.trailingComma(element)}\n`);
  }

  /**
   * A very large element as its head, windows and last line, each run of lines left out as one comment that says
   * which lines it leaves out: `// … lines 40-388 not shown`, indented like the first line it stands for.
   */
  private windowed(element: ElementNode, spans: readonly LineSpan[]): string {
    const merged = mergeSpans(spans);
    const out: string[] = [
      `${this.indentOf(element)}${this.at} ${element.path} (${linesLabel([element.startLine, element.endLine])}, shown in part; PATCH only lines shown, NEED <path> LINES a-b for others)`,
    ];
    let line = element.startLine;
    for (const [start, end] of merged) {
      if (start > line) out.push(this.elision([line, start - 1]));
      for (let at = Math.max(start, line); at <= end; at++) out.push(this.lineText(at));
      line = Math.max(line, end + 1);
      this.markPartial(element.path, [start, end]);
    }
    if (line <= element.endLine) out.push(this.elision([line, element.endLine]));
    return `${out.join('\n')}${this.trailingComma(element)}\n`;
  }

  private elision(span: LineSpan): string {
    const indent = /^[ \t]*/.exec(this.lineText(span[0]))?.[0] ?? '';
    return `${indent}${this.syntax.lineComment} … ${linesLabel(span)} not shown`;
  }

  private markPartial(path: string, span: LineSpan): void {
    const spans = this.partial.get(path) ?? [];
    spans.push(span);
    this.partial.set(path, spans);
  }

  private lines(): LineIndex {
    this.lineIndex ??= new LineIndex(this.outline.text);
    return this.lineIndex;
  }

  /** The 1-based line holding an offset. */
  private lineOf(offset: number): number {
    return this.lines().lineOf(offset);
  }

  /** Line `line` (1-based) as written, without its line break. */
  private lineText(line: number): string {
    return this.lines().lineText(this.outline.text, line);
  }

  private degradable(element: ElementNode, label: string, level: 'signature' | 'stub', blank = ''): Piece {
    const indent = this.indentOf(element);
    const shown = signatureWithoutLineComments(element, this.outline);
    const hasBody = element.bodyRange !== undefined && !shown.endsWith('…}');
    // Decorators stand one a line above the signature, as the file writes them (`@property`, `@app.route("/x")`).
    const decorators = (element.decorators ?? []).map((decorator) => `${indent}${decorator}\n`).join('');
    const signature = `${blank}${decorators}${indent}${shown}${hasBody ? this.syntax.elidedBody : ''}${this.trailingComma(element)} ${this.at} ${label}\n`;
    const stub = `${blank}${indent}${this.at} ${label} (${linesLabel([element.startLine, element.endLine])})\n`;
    const texts: Piece['texts'] = level === 'signature' ? { signature, stub, dropped: '' } : { stub, dropped: '' };
    const tokens: Piece['tokens'] = { dropped: 0 };
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
