import { languageFor } from '../language/languages';
import type { ElementNode, FileOutline, TextRange } from './element';
import { LineIndex } from './lines';

/**
 * The text of a container that steers where code goes but belongs to no element: section comments standing apart
 * between members (`// DEPRECATED`, `# --- helpers ---`: a blank line below them, so they join no element's range),
 * and the docstring that opens a Python module or class body. The views (focused context, planning outline, outline
 * tool) show each as a one-line mark, so the model sees the sections a file is divided into and that a docstring is
 * there, without the text of either.
 */

export interface SectionMark {
  readonly kind: 'comment' | 'docstring';
  /** 1-based lines of the comment run or docstring. */
  readonly startLine: number;
  readonly endLine: number;
  /** Its first line that holds words, comment markers, quotes and rules stripped, at most {@link MARK_TEXT_LIMIT} characters. */
  readonly text: string;
}

export interface LevelMarks {
  /** The docstring that opens the container's body (Python), or the module's for the file. */
  readonly docstring?: SectionMark;
  /** Section comments standing directly before a member (after the one before it). */
  readonly before: ReadonlyMap<ElementNode, readonly SectionMark[]>;
  /** Section comments after the last member. */
  readonly after: readonly SectionMark[];
}

const MARK_TEXT_LIMIT = 100;
const NO_MARKS: LevelMarks = { before: new Map(), after: [] };

/**
 * The marks of one level: the file's top-level elements (`container` undefined) or a container's members. Comments
 * above the file's first element (a licence, a shebang) are the file's header, not a section; a comment trailing code
 * on its line is that code's.
 */
export function sectionMarksOf(outline: FileOutline, container: ElementNode | undefined): LevelMarks {
  const language = languageFor(outline.file);
  if (language === undefined) return NO_MARKS;
  const members = container === undefined ? outline.elements : container.children;
  const body = container === undefined ? { start: 0, end: outline.text.length } : container.bodyRange;
  if (body === undefined || members.length === 0) return NO_MARKS;
  const lines = lineIndexOf(outline);
  // Module and class docstrings: a function's is part of the code shown with it.
  const docstrings = language.syntax?.docstrings === true && (container === undefined || container.kind === 'class');
  const before = new Map<ElementNode, SectionMark[]>();
  let docstring: SectionMark | undefined;
  let from = body.start;
  for (const [index, member] of members.entries()) {
    const gap = { start: from, end: member.range.start };
    if (index === 0) {
      if (docstrings) docstring = docstringIn(outline.text, gap, language.scanCode, lines);
      if (container !== undefined) {
        const marks = commentsIn(outline.text, gap, language.scanCode, lines);
        if (marks.length > 0) before.set(member, marks);
      }
    } else {
      const marks = commentsIn(outline.text, gap, language.scanCode, lines);
      if (marks.length > 0) before.set(member, marks);
    }
    from = member.range.end;
  }
  const after = commentsIn(outline.text, { start: from, end: body.end }, language.scanCode, lines);
  return { ...(docstring === undefined ? {} : { docstring }), before, after };
}

/** `§ DEPRECATED (line 488)`, `§ docstring: Render a table. (lines 13-40)`: what every view writes for a mark. */
export function markText(mark: SectionMark): string {
  const lines = mark.startLine === mark.endLine ? `line ${mark.startLine}` : `lines ${mark.startLine}-${mark.endLine}`;
  return `§ ${mark.kind === 'docstring' ? 'docstring: ' : ''}${mark.text} (${lines})`;
}

type Scan = (text: string) => { readonly comments: readonly TextRange[]; readonly literals: readonly TextRange[] };

/** Runs of comments on their own lines in a gap between members; a blank line ends a run. */
function commentsIn(text: string, gap: TextRange, scan: Scan, lines: LineIndex): SectionMark[] {
  const slice = text.slice(gap.start, gap.end);
  if (!/[#/]/.test(slice)) return [];
  const scanned = scan(slice);
  // Between statements of a body (a function's nested definitions, a test callback's calls) a comment explains the
  // code beside it: only a gap of comments, separators and brackets (a docstring aside) holds sections.
  let code = slice;
  for (const range of [...scanned.comments, ...scanned.literals].sort((a, b) => b.start - a.start))
    code = code.slice(0, range.start) + code.slice(range.end);
  if (/[^\s,;{}()[\]]/.test(code)) return [];
  const runs: TextRange[] = [];
  for (const comment of scanned.comments) {
    const start = gap.start + comment.start;
    const end = gap.start + comment.end;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    // A comment after code on its line (`x = 1  # why`, `} // end`) belongs to that code.
    if (text.slice(lineStart, start).trim() !== '') continue;
    const last = runs[runs.length - 1];
    if (last !== undefined && !/\n[ \t]*\r?\n/.test(text.slice(last.end, start)))
      runs[runs.length - 1] = { start: last.start, end };
    else runs.push({ start, end });
  }
  const marks: SectionMark[] = [];
  for (const run of runs) {
    const words = firstWords(text.slice(run.start, run.end), stripCommentMarkers);
    if (words === undefined) continue;
    marks.push({ kind: 'comment', startLine: lines.lineOf(run.start), endLine: lines.lineOf(run.end), text: words });
  }
  return marks;
}

/** A string literal that is the first code of the gap: the body's docstring. */
function docstringIn(text: string, gap: TextRange, scan: Scan, lines: LineIndex): SectionMark | undefined {
  const slice = text.slice(gap.start, gap.end);
  const scanned = scan(slice);
  const literal = scanned.literals[0];
  if (literal === undefined) return undefined;
  // Only blank space and comments may come before it.
  let code = slice.slice(0, literal.start);
  for (const comment of [...scanned.comments].reverse()) {
    if (comment.end <= literal.start) code = code.slice(0, comment.start) + code.slice(comment.end);
  }
  if (code.trim() !== '') return undefined;
  const start = gap.start + literal.start;
  const end = gap.start + literal.end;
  const words = firstWords(text.slice(start, end), stripQuotes) ?? '…';
  return { kind: 'docstring', startLine: lines.lineOf(start), endLine: lines.lineOf(end), text: words };
}

/** The first line that holds a letter or digit once `strip` has taken its markup off, shortened. */
function firstWords(text: string, strip: (line: string) => string): string | undefined {
  for (const line of text.split('\n')) {
    const words = strip(line)
      .replace(/^[\s\-=*#/~_+<>|.:]+/, '')
      .replace(/[\s\-=*#/~_+<>|]+$/, '')
      .replace(/\s+/g, ' ');
    if (!/[\p{L}\p{N}]/u.test(words)) continue;
    return words.length <= MARK_TEXT_LIMIT ? words : `${words.slice(0, MARK_TEXT_LIMIT - 1)}…`;
  }
  return undefined;
}

function stripCommentMarkers(line: string): string {
  return line
    .trim()
    .replace(/^(?:\/\/[/!]?|\/\*+!?|\*\/|\*|#+|--)/, '')
    .replace(/\*+\/$/, '');
}

function stripQuotes(line: string): string {
  return line
    .trim()
    .replace(/^[rRbBuUfF]{0,2}(?:"""|'''|"|')/, '')
    .replace(/(?:"""|'''|"|')$/, '');
}

const lineIndexCache = new WeakMap<FileOutline, LineIndex>();

/** The outline's line index, made once however many levels ask for it. */
function lineIndexOf(outline: FileOutline): LineIndex {
  let index = lineIndexCache.get(outline);
  if (index === undefined) {
    index = new LineIndex(outline.text);
    lineIndexCache.set(outline, index);
  }
  return index;
}
