import type { Action, DeleteAction, InsertAction, RewriteAction } from './actions';
import { type LayoutSide, pairKey } from './containerLayout';
import type { CodeScan, CodeSyntax } from '../../language/languageSupport';
import { EditBuffer } from './editBuffer';
import { isBlankLine, lineEndOf, lineStartOf as rawLineStartOf, nextLineStartOf, withEol } from './textStyle';

/**
 * Writes planned actions into the snapshot text. Insertions go first, then rewrites and deletions: every action
 * finds its elements by snapshot offsets (which the planner guarantees no other action touched) and reads the
 * current text around them for layout decisions: blank lines, commas, whether a line is left empty.
 */

export class RenderError extends Error {
  constructor(
    readonly ops: readonly number[],
    message: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}

/** What rendering needs of the file's language: its lexical scan and how it writes blocks. */
export interface Lexicon {
  readonly scanCode: (text: string) => CodeScan;
  readonly syntax: CodeSyntax;
}

export function renderActions(
  snapshot: string,
  actions: readonly Action[],
  eol: '\n' | '\r\n',
  lexicon: Lexicon,
): EditBuffer {
  const buffer = new EditBuffer(snapshot);
  const renderer = new Renderer(buffer, eol, lexicon);
  for (const action of actions) if (action.kind === 'rewrite' && action.frame === true) renderer.rewrite(action);
  for (const action of actions) if (action.kind === 'insert') renderer.insert(action);
  for (const action of actions) {
    if (action.kind === 'rewrite' && action.frame !== true) renderer.rewrite(action);
    else if (action.kind === 'delete') renderer.delete(action);
  }
  return buffer;
}

/**
 * Spaces and tabs right before `end`, not before `floor`. By hand: `/[ \t]*$/` tries every start in a run of blanks
 * and is quadratic in it.
 */
function blanksBefore(text: string, end: number, floor: number): number {
  let start = end;
  while (start > floor && (text.charAt(start - 1) === ' ' || text.charAt(start - 1) === '\t')) start -= 1;
  return end - start;
}

/**
 * The start of the line holding `offset`; the first line starts after a byte order mark, so that nothing is ever
 * written in front of it (an import added at the top of a file with a BOM went before it: issue 25).
 */
function lineStartOf(text: string, offset: number): number {
  const start = rawLineStartOf(text, offset);
  return start === 0 && text.charCodeAt(0) === 0xfeff ? 1 : start;
}

function lineWithoutBreak(text: string, start: number): string {
  return text.slice(start, lineEndOf(text, start));
}

/** The code on a line, a trailing comment dropped. */
function codeOfLine(line: string, scanCode: (text: string) => CodeScan): string {
  const scan = scanCode(line);
  const comment = scan.comments.find((c) => c.end >= line.trimEnd().length);
  return (comment === undefined ? line : line.slice(0, comment.start)).trim();
}

/** A line that opens a block: ends with a bracket, or with the `:` of an indented block. */
function opensBlock(line: string | undefined, lexicon: Lexicon): boolean {
  if (line === undefined) return true;
  const code = codeOfLine(line, lexicon.scanCode);
  return /[{([]$/.test(code) || (lexicon.syntax.blocks === 'indent' && code.endsWith(':'));
}

/**
 * A line that closes a block: starts with a closing bracket. In an indented language nothing closes a block, so a
 * line below only counts when it is a bracket's (a closing `)` of a call).
 */
function closesBlock(line: string | undefined): boolean {
  if (line === undefined) return true;
  return /^[})\]]/.test(line.trim());
}

class Renderer {
  private readonly scanCode: (text: string) => CodeScan;

  constructor(
    private readonly buffer: EditBuffer,
    private readonly eol: '\n' | '\r\n',
    private readonly lexicon: Lexicon,
  ) {
    this.scanCode = lexicon.scanCode;
  }

  private get text(): string {
    return this.buffer.text;
  }

  private at(offset: number, ops: readonly number[]): number {
    const mapped = this.buffer.mapOriginal(offset);
    if (mapped === undefined) throw new RenderError(ops, 'two operations of the batch edit the same text');
    return mapped;
  }

  private atEnd(offset: number, ops: readonly number[]): number {
    const mapped = this.buffer.mapOriginalEnd(offset);
    if (mapped === undefined) throw new RenderError(ops, 'two operations of the batch edit the same text');
    return mapped;
  }

  rewrite(action: RewriteAction): void {
    const { start, end } = action.range;
    if (!this.buffer.isIntact(start, end))
      throw new RenderError(action.ops, 'two operations of the batch edit the same element');
    if (start === end) {
      // An insertion (a trimmed frame): right before the snapshot character at its offset, or, when an operation
      // rewrote the element starting there, right after the character before it.
      const at = this.buffer.mapOriginal(start) ?? this.atEnd(start, action.ops);
      this.buffer.replace(at, at, action.newText);
      return;
    }
    this.buffer.replace(this.at(start, action.ops), this.atEnd(end, action.ops), action.newText);
  }

  // ---------------------------------------------------------------- blank lines

  /** Blank lines directly above a line start: their count and where the first begins. */
  private blanksAbove(lineStart: number): { count: number; from: number } {
    const text = this.text;
    let from = lineStart;
    let count = 0;
    while (from > 0) {
      const previous = lineStartOf(text, from - 1);
      if (previous === from || !isBlankLine(lineWithoutBreak(text, previous)) || text.charCodeAt(previous) === 0xfeff)
        break;
      from = previous;
      count += 1;
    }
    return { count, from };
  }

  /** Blank lines from a line start down: their count and where the next non-blank line begins. */
  private blanksBelow(lineStart: number): { count: number; to: number } {
    const text = this.text;
    let to = lineStart;
    let count = 0;
    while (to < text.length) {
      const next = nextLineStartOf(text, to);
      if (!isBlankLine(lineWithoutBreak(text, to)) || next === to || !text.slice(to, next).includes('\n')) break;
      to = next;
      count += 1;
    }
    return { count, to };
  }

  private lineAbove(lineStart: number): string | undefined {
    if (lineStart <= 0 || (lineStart === 1 && this.text.charCodeAt(0) === 0xfeff)) return undefined;
    return lineWithoutBreak(this.text, lineStartOf(this.text, lineStart - 1));
  }

  private lineAt(lineStart: number): string | undefined {
    return lineStart >= this.text.length ? undefined : lineWithoutBreak(this.text, lineStart);
  }

  // ---------------------------------------------------------------- insertion

  insert(action: InsertAction): void {
    const isComma = action.container.flavor === 'object' || action.container.flavor === 'enum';
    const place = this.placeOf(action);
    if (place.mode === 'expand') this.insertExpanded(action, place.open, place.close, isComma);
    else if (place.mode === 'inline') this.insertInline(action, place.offset, isComma);
    else this.insertLines(action, place.offset, isComma);
  }

  private placeOf(
    action: InsertAction,
  ):
    | { mode: 'line'; offset: number }
    | { mode: 'inline'; offset: number }
    | { mode: 'expand'; open: number; close: number } {
    const text = this.text;
    const slot = action.slot;
    const ops = action.ops;
    const isComma = action.container.flavor === 'object' || action.container.flavor === 'enum';
    switch (slot.kind) {
      case 'line':
        return { mode: 'line', offset: lineStartOf(text, this.at(slot.offset, ops)) };
      case 'end':
        return { mode: 'line', offset: text.length };
      case 'after': {
        let offset = this.atEnd(slot.anchor.end, ops);
        const rest = text.slice(offset, lineEndOf(text, offset));
        const comma = isComma ? /^[ \t]*,/.exec(rest) : null;
        // The `;` that ends a Java enum's constants, right after the last one: the new constants go on the lines
        // below, and take the `;` over.
        const terminator = isComma && comma === null ? /^[ \t]*;/.exec(rest) : null;
        const separator = comma ?? terminator;
        const afterSeparator = separator === null ? rest : rest.slice(separator[0].length);
        if (codeOfLine(afterSeparator, this.scanCode) === '')
          return { mode: 'line', offset: nextLineStartOf(text, offset) };
        if (comma !== null) offset += comma[0].length;
        return { mode: 'inline', offset };
      }
      case 'before': {
        const offset = this.at(slot.anchor.start, ops);
        const lineStart = lineStartOf(text, offset);
        if (/^[ \t]*$/.test(text.slice(lineStart, offset))) return { mode: 'line', offset: lineStart };
        return { mode: 'inline', offset };
      }
      case 'first':
      case 'last': {
        const { open, close, block } = action.container;
        if (block !== undefined) {
          // An indented body: a first member goes on the line where the body's members start, a last one on the
          // line after the body's end.
          if (slot.kind === 'first')
            return { mode: 'line', offset: lineStartOf(text, this.at(block.firstMemberStart, ops)) };
          return { mode: 'line', offset: nextLineStartOf(text, this.atEnd(block.end, ops)) };
        }
        if (open === undefined || close === undefined) {
          return slot.kind === 'last'
            ? { mode: 'line', offset: text.length }
            : { mode: 'line', offset: lineStartOf(text, 0) };
        }
        const openAt = this.at(open, ops);
        const closeAt = this.at(close, ops);
        const inside = text.slice(openAt + 1, closeAt);
        if (inside.trim() === '' && !inside.includes('\n')) return { mode: 'expand', open: openAt, close: closeAt };
        if (slot.kind === 'first') {
          const rest = text.slice(openAt + 1, lineEndOf(text, openAt + 1));
          if (codeOfLine(rest, this.scanCode) === '')
            return { mode: 'line', offset: nextLineStartOf(text, openAt + 1) };
          return { mode: 'inline', offset: openAt + 1 + (/^[ \t]*/.exec(rest)?.[0].length ?? 0) };
        }
        const lineStart = lineStartOf(text, closeAt);
        if (/^[ \t]*$/.test(text.slice(lineStart, closeAt))) return { mode: 'line', offset: lineStart };
        // After the last member: back over spaces before the brace.
        const trailing = blanksBefore(text, closeAt, openAt + 1);
        return { mode: 'inline', offset: closeAt - trailing };
      }
    }
  }

  private itemBlank(action: InsertAction, block: boolean): number {
    return block ? action.blankLines.block : action.blankLines.line;
  }

  /** The blank lines the container puts between neighbours of these kinds; undefined when it has no such pair. */
  private pairBlank(
    action: InsertAction,
    above: LayoutSide | undefined,
    below: LayoutSide | undefined,
  ): number | undefined {
    if (above === undefined || below === undefined) return undefined;
    return action.blankLines.pairs?.get(pairKey(above, below));
  }

  /** The items joined, with commas for comma-separated members; the last one's comma is `lastComma`. */
  private block(action: InsertAction, isComma: boolean, lastComma: boolean, indentFirst: boolean): string {
    const parts: string[] = [];
    action.items.forEach((item, i) => {
      const last = i === action.items.length - 1;
      let text = item.text;
      if (isComma && (!last || lastComma)) text += ',';
      if (!indentFirst) text = text.replace(/^[ \t]+/, '');
      if (i > 0) {
        const previous = action.items[i - 1];
        const blank =
          item.blankLines?.above ??
          previous?.blankLines?.below ??
          this.pairBlank(action, previous?.sides?.last, item.sides?.first) ??
          this.itemBlank(action, item.block || (previous?.block ?? false));
        parts.push('\n'.repeat(blank + 1));
      }
      parts.push(text);
    });
    return withEol(parts.join(''), this.eol);
  }

  private hasBlockItem(action: InsertAction): boolean {
    return action.items.some((i) => i.block);
  }

  private insertLines(action: InsertAction, lineStart: number, isComma: boolean): void {
    const ops = action.ops;
    let at = lineStart;
    let followedByMember = false;
    /** The new members come after the `;` that ended a Java enum's constants, and end the list with it. */
    let endsConstants = false;
    if (isComma && action.container.open !== undefined && action.container.close !== undefined) {
      const openAt = this.at(action.container.open, ops);
      const before = this.scanCode(this.text.slice(openAt + 1, at));
      if (before.lastCodeEnd > 0) {
        const lastAt = openAt + before.lastCodeEnd;
        const lastChar = this.text.charAt(lastAt);
        if (lastChar === ';') {
          this.buffer.replace(lastAt, lastAt + 1, ',');
          endsConstants = true;
        } else if (lastChar !== ',') {
          this.buffer.replace(lastAt + 1, lastAt + 1, ',');
          at += 1;
        }
      }
      const closeAt = this.at(action.container.close, ops);
      followedByMember = !endsConstants && this.scanCode(this.text.slice(at, closeAt)).lastCodeEnd > 0;
    }
    const text = this.text;
    const eol = this.eol;
    // A file that is only a byte order mark is empty: its first line starts after the mark.
    const empty = text.length === 0 || (text.length === 1 && text.charCodeAt(0) === 0xfeff);
    const atEndWithoutBreak = at >= text.length && !empty && !text.endsWith('\n');
    const above = this.blanksAbove(at);
    const below = atEndWithoutBreak ? { count: 0, to: at } : this.blanksBelow(at);
    const gap = above.count + below.count;
    const lineAbove = this.lineAbove(above.from);
    const lineBelow = this.lineAt(below.to);
    const multi = this.hasBlockItem(action) || action.neighbourBlock;
    // The end of an indented body: the line below belongs to the code after the container, and the blank lines
    // before it separate that code, not members; so they stay, and the new member takes its container's spacing.
    const endOfIndentedBody = this.endsIndentedBody(action, lineBelow);
    // The first member of an indented body: what is above (the header, a docstring) keeps its spacing.
    const firstOfIndentedBody = action.container.block !== undefined && action.slot.kind === 'first';
    const kept = gap > 0 && !endOfIndentedBody && !firstOfIndentedBody ? Math.min(gap, 2) : 0;
    const style = kept > 0 ? kept : Math.min(this.itemBlank(action, multi), 2);
    // Each side takes what the container puts between such neighbours: an export joins the exports above it, an
    // interface sits flush with the constant after it, where the file does so.
    let styleBefore = this.pairBlank(action, action.above, action.items[0]?.sides?.first) ?? style;
    let styleAfter = this.pairBlank(action, action.items.at(-1)?.sides?.last, action.below) ?? style;
    if (styleBefore < kept && styleAfter < kept) {
      // The blank lines at the slot set apart what is above from what is below; they stay, on the far side from
      // the sibling the new elements were placed next to.
      if (action.slot.kind === 'before' || action.slot.kind === 'first') styleBefore = kept;
      else styleAfter = kept;
    }
    const aboveIsEdge = (opensBlock(lineAbove, this.lexicon) && action.slot.kind !== 'line') || firstOfIndentedBody;
    const belowIsEdge = closesBlock(lineBelow) || lineBelow === undefined || endOfIndentedBody;
    // New constants join the constants above them; the blank lines below still set the constants apart from the rest.
    let blankBefore =
      action.items[0]?.blankLines?.above ??
      action.blankBefore ??
      (endsConstants ? action.blankLines.line : undefined) ??
      (action.blankAfter !== undefined
        ? above.count
        : lineAbove === undefined
          ? 0
          : aboveIsEdge
            ? above.count
            : styleBefore);
    const askedAfter = action.items.at(-1)?.blankLines?.below;
    let blankAfter = askedAfter ?? action.blankAfter ?? (belowIsEdge || endsConstants ? below.count : styleAfter);
    if (action.minBlankAfter !== undefined && lineBelow !== undefined && askedAfter === undefined)
      blankAfter = Math.max(blankAfter, action.minBlankAfter);
    if (lineAbove === undefined) blankBefore = 0;
    const listed = this.block(action, isComma, !endsConstants && (followedByMember || action.trailingComma), true);
    const content = endsConstants ? `${listed};` : listed;
    if (atEndWithoutBreak) {
      this.buffer.replace(above.from, at, eol + eol.repeat(blankBefore) + content);
      return;
    }
    const replacement = eol.repeat(blankBefore) + content + eol + eol.repeat(lineBelow === undefined ? 0 : blankAfter);
    this.buffer.replace(above.from, below.to, replacement);
  }

  /** Whether the line below an insertion is outside the indented body the insertion goes into. */
  private endsIndentedBody(action: InsertAction, lineBelow: string | undefined): boolean {
    if (this.lexicon.syntax.blocks !== 'indent' || action.container.flavor === 'file') return false;
    if (lineBelow === undefined) return true;
    const width = (indent: string): number => indent.replace(/\t/g, '        ').length;
    return width(/^[ \t]*/.exec(lineBelow)?.[0] ?? '') <= width(action.container.indent);
  }

  private insertInline(action: InsertAction, offset: number, isComma: boolean): void {
    const text = this.text;
    const before = text.slice(0, offset).trimEnd();
    const previousChar = before.charAt(before.length - 1);
    const nextChar = text.slice(offset).trimStart().charAt(0);
    const separated =
      (action.container.flavor === 'interface' || action.container.flavor === 'typeLiteral') &&
      this.lexicon.syntax.membersEndThemselves !== true;
    const separator = isComma ? ',' : separated ? ';' : '';
    const followedByMember = nextChar !== '}' && nextChar !== '';
    const terminate = (body: string): string =>
      separator !== '' && !isComma && !/[;,]$/.test(body) ? `${body}${separator}` : body;
    const prefixing = action.slot.kind === 'before' || action.slot.kind === 'first';
    if (prefixing) {
      // In front of a member: the new ones, each closed by its separator, then a space.
      const body = this.block(action, isComma, true, false);
      this.buffer.replace(offset, offset, `${terminate(body)} `);
      return;
    }
    // After a member: its separator if it has none, a space, the new ones.
    const needsSeparator = separator !== '' && previousChar !== '{' && !/[;,]/.test(previousChar);
    let body = this.block(action, isComma, isComma && followedByMember, false);
    if (followedByMember) body = terminate(body);
    this.buffer.replace(offset, offset, `${needsSeparator ? separator : ''} ${body}`);
  }

  private insertExpanded(action: InsertAction, open: number, close: number, isComma: boolean): void {
    const eol = this.eol;
    const content = this.block(action, isComma, action.trailingComma, true);
    this.buffer.replace(open + 1, close, eol + content + eol + action.container.indent);
  }

  // ---------------------------------------------------------------- deletion

  delete(action: DeleteAction): void {
    const { start, end } = action.range;
    const ops = action.ops;
    if (!this.buffer.isIntact(start, end))
      throw new RenderError(ops, 'two operations of the batch edit the same element');
    let s = this.at(start, ops);
    let e = this.atEnd(end, ops);
    let text = this.text;
    const lineStart = lineStartOf(text, s);
    const ownsLineStart = /^[ \t]*$/.test(text.slice(lineStart, s));
    const lineEnd = lineEndOf(text, e);
    const rest = text.slice(e, lineEnd);
    const comma = action.commaContainerOpen === undefined ? null : /^[ \t]*,/.exec(rest);
    const afterComma = comma === null ? rest : rest.slice(comma[0].length);
    const ownsLineEnd = codeOfLine(afterComma, this.scanCode) === '';
    if (action.commaContainerOpen !== undefined && comma === null) {
      // The last member without a trailing comma: the comma before it goes with it.
      const openAt = this.at(action.commaContainerOpen, ops);
      const scan = this.scanCode(text.slice(openAt + 1, s));
      const commaAt = openAt + scan.lastCodeEnd;
      if (scan.lastCodeEnd > 0 && text.charAt(commaAt) === ',') {
        if (ownsLineStart && ownsLineEnd) {
          this.buffer.replace(commaAt, commaAt + 1, '');
          s -= 1;
          e -= 1;
        } else {
          this.buffer.replace(commaAt, e, '');
          return;
        }
      }
    }
    text = this.text;
    if (!(ownsLineStart && ownsLineEnd)) {
      if (comma !== null) {
        const spaces = /^[ \t]*/.exec(text.slice(e + comma[0].length))?.[0].length ?? 0;
        this.buffer.replace(s, e + comma[0].length + spaces, '');
        return;
      }
      const following = /^[ \t]*/.exec(text.slice(e))?.[0].length ?? 0;
      const restOfLine = text.slice(e + following, lineEndOf(text, e));
      if (restOfLine.trim() !== '' && !/^[})\]]/.test(restOfLine.trim())) {
        this.buffer.replace(s, e + following, '');
      } else {
        const preceding = blanksBefore(text, s, lineStartOf(text, s));
        this.buffer.replace(s - preceding, e, '');
      }
      return;
    }
    const from = lineStartOf(text, s);
    const lineEndAfter = lineEndOf(text, e);
    if (!text.slice(lineEndAfter).includes('\n')) {
      // The last line of a file without a final newline: the line breaks (and blank lines) before it go instead,
      // so the file still ends without one.
      const blankFrom = this.blanksAbove(from).from;
      const removeFrom = blankFrom > 0 ? blankFrom - (text.charAt(blankFrom - 2) === '\r' ? 2 : 1) : 0;
      this.buffer.replace(Math.max(0, removeFrom), text.length, '');
      return;
    }
    this.buffer.replace(from, nextLineStartOf(text, lineEndAfter), '');
    this.tidyBlankLines(from);
  }

  /** After a line was removed at `at` (now the start of the line that followed it): no double or edge blank lines. */
  private tidyBlankLines(at: number): void {
    const text = this.text;
    if (at > text.length) return;
    const above = this.blanksAbove(at);
    const below = this.blanksBelow(at);
    const lineAbove = this.lineAbove(above.from);
    const lineBelow = this.lineAt(below.to);
    if (above.count > 0 && below.count > 0) {
      this.buffer.replace(at, nextLineStartOf(text, at), '');
    } else if (above.count > 0 && (lineBelow === undefined || closesBlock(lineBelow))) {
      this.buffer.replace(lineStartOf(text, at - 1), at, '');
    } else if (below.count > 0 && (lineAbove === undefined || opensBlock(lineAbove, this.lexicon))) {
      this.buffer.replace(at, nextLineStartOf(text, at), '');
    }
  }
}
