import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';

/**
 * What CPython refuses though tree-sitter's grammar parses it (issue 25): indentation as CPython's tokenizer reads
 * it, `from __future__` imports after other code, and characters the tokenizer rejects. Tree-sitter's Python scanner
 * is lenient by design (an editor must read half-typed code); a file Scalpel writes must compile. Each message is
 * CPython's own, so the model reads what `python -m py_compile` would say.
 */

/** CPython's MAXINDENT: at most this many indentation levels. */
const MAX_INDENT = 100;
/** CPython measures a tab to the next multiple of 8 columns, and again as 1 column to catch inconsistent use. */
const TAB_SIZE = 8;

/** Where a problem is, for messages: 1-based line and column. */
class Positions {
  private line = 1;
  private lineStart = 0;
  private at = 0;

  constructor(private readonly text: string) {}

  /** Position of `offset`; offsets must be asked in increasing order. */
  of(offset: number): { line: number; column: number } {
    for (; this.at < offset; this.at++) {
      if (this.text.charCodeAt(this.at) === 10) {
        this.line += 1;
        this.lineStart = this.at + 1;
      }
    }
    return { line: this.line, column: offset - this.lineStart + 1 };
  }
}

// A byte order mark is no identifier character: read as one, it made a docstring right after it look prefixed, so
// the scan took its closing quotes for an opening and read the rest of the file as a string (issue 25).
const isIdentifierChar = (code: number): boolean =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  code === 95 ||
  (code > 127 && code !== 0xfeff);

/** Length of a string prefix (`rb`, `f`, ...) followed by a quote at `i`, or -1 when no string starts there. */
function stringStart(text: string, i: number): number {
  let length = 0;
  while (length < 3) {
    const c = text.charAt(i + length);
    if (c === '"' || c === "'") return length;
    if (length === 2 || !/[rRbBuUfF]/.test(c)) return -1;
    length += 1;
  }
  return -1;
}

/** What the tokenizer pass finds: its problems, and where each logical line ends (CPython's NEWLINE tokens). */
export interface PythonLines {
  readonly problems: SyntaxProblem[];
  /** The line break that ends each logical line holding code, with its 1-based position. */
  readonly ends: ReadonlyArray<{ offset: number; line: number; column: number }>;
}

/**
 * Indentation as CPython's tokenizer checks it, with the parser's "unexpected indent" and "expected an indented
 * block": one pass over the text that knows strings, comments, brackets and backslash continuations (lines inside
 * them are not logical lines), plus the characters the tokenizer refuses outside strings and comments.
 */
export function pythonLines(text: string): PythonLines {
  const problems: SyntaxProblem[] = [];
  const ends: Array<{ offset: number; line: number; column: number }> = [];
  const positions = new Positions(text);
  const report = (offset: number, message: string): void => {
    const { line, column } = positions.of(offset);
    problems.push({ message, line, column });
  };
  const columns = [0];
  const altColumns = [0];
  let depth = 0;
  let continued = false;
  /** The last logical line ended with the `:` of a block header. */
  let opensBlock = false;
  let lastSignificant = '';
  let i = 0;
  // A byte order mark at byte 0 is the encoding's, not the code's.
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  let atLineStart = true;
  while (i < text.length) {
    if (atLineStart) {
      atLineStart = false;
      let column = 0;
      let altColumn = 0;
      let j = i;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (c === 32) {
          column += 1;
          altColumn += 1;
        } else if (c === 9) {
          column = (Math.floor(column / TAB_SIZE) + 1) * TAB_SIZE;
          altColumn += 1;
        } else if (c === 12) {
          column = 0;
          altColumn = 0;
        } else break;
      }
      const next = text.charCodeAt(j);
      const blank = j >= text.length || next === 35 || next === 10 || next === 13;
      if (!blank && depth === 0 && !continued) {
        const top = columns.length - 1;
        const current = columns[top] ?? 0;
        const currentAlt = altColumns[top] ?? 0;
        if (column === current) {
          if (altColumn !== currentAlt) report(j, 'inconsistent use of tabs and spaces in indentation');
          else if (opensBlock) report(j, 'expected an indented block');
        } else if (column > current) {
          if (columns.length > MAX_INDENT) report(j, 'too many levels of indentation');
          else if (altColumn <= currentAlt) report(j, 'inconsistent use of tabs and spaces in indentation');
          else if (!opensBlock) report(j, 'unexpected indent');
          columns.push(column);
          altColumns.push(altColumn);
        } else {
          while (columns.length > 1 && column < (columns[columns.length - 1] ?? 0)) {
            columns.pop();
            altColumns.pop();
          }
          if (column !== (columns[columns.length - 1] ?? 0))
            report(j, 'unindent does not match any outer indentation level');
          else if (altColumn !== (altColumns[altColumns.length - 1] ?? 0))
            report(j, 'inconsistent use of tabs and spaces in indentation');
          else if (opensBlock) report(j, 'expected an indented block');
        }
        opensBlock = false;
      }
      continued = false;
      i = j;
      continue;
    }
    const c = text.charCodeAt(i);
    // CPython reads a lone CR as a line break too (universal newlines).
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      // The end of a physical line; a logical line ends only outside brackets and without a backslash.
      if (depth === 0 && !continued && lastSignificant !== '') {
        opensBlock = lastSignificant === ':';
        lastSignificant = '';
        ends.push({ offset: i, ...positions.of(i) });
      }
      atLineStart = true;
      i += 1;
      continue;
    }
    if (c === 35) {
      while (i < text.length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i += 1;
      continue;
    }
    if (c === 92) {
      // A backslash at the end of a line joins the next one to this logical line.
      const next = text.charCodeAt(i + 1);
      if (next === 10 || next === 13) {
        continued = true;
        i += next === 13 && text.charCodeAt(i + 2) === 10 ? 2 : 1;
        continue;
      }
      i += 1;
      continue;
    }
    const prefix = i > 0 && isIdentifierChar(text.charCodeAt(i - 1)) ? -1 : stringStart(text, i);
    if (prefix >= 0) {
      i = skipString(text, i + prefix);
      lastSignificant = '"';
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth += 1;
    else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth -= 1;
    if (c === 0xfeff) report(i, 'invalid non-printable character U+FEFF');
    if (c !== 32 && c !== 9 && c !== 12 && c !== 13) lastSignificant = text.charAt(i);
    i += 1;
  }
  if (opensBlock || (lastSignificant === ':' && depth === 0 && !continued))
    report(text.length, 'expected an indented block');
  // Anywhere, strings and comments included.
  const nul = text.indexOf('\0');
  if (nul >= 0) problems.push({ message: 'source code cannot contain null bytes', ...new Positions(text).of(nul) });
  return { problems, ends };
}

/** The offset after a string literal whose quote is at `i` (an unterminated one ends at its line's end). */
function skipString(text: string, i: number): number {
  const quote = text.charAt(i);
  const triple = text.startsWith(quote.repeat(3), i);
  let at = i + (triple ? 3 : 1);
  while (at < text.length) {
    const d = text.charCodeAt(at);
    if (d === 92) {
      at += 2;
      continue;
    }
    if (!triple && (d === 10 || d === 13)) return at;
    if (text.charAt(at) === quote && (!triple || text.startsWith(quote.repeat(3), at))) return at + (triple ? 3 : 1);
    at += 1;
  }
  return text.length;
}

/** The features `from __future__ import` accepts (CPython 3.7 and later). */
const FUTURE_FEATURES = new Set([
  'nested_scopes',
  'generators',
  'division',
  'absolute_import',
  'with_statement',
  'print_function',
  'unicode_literals',
  'barry_as_FLUFL',
  'generator_stop',
  'annotations',
]);

function isDocstring(node: Node): boolean {
  return node.type === 'expression_statement' && node.namedChildCount === 1 && node.namedChildren[0]?.type === 'string';
}

/**
 * `from __future__` imports: only at the beginning of the module (after its docstring, comments and other future
 * imports), and only of features CPython knows.
 */
export function futureImportProblems(root: Node, text: string): SyntaxProblem[] {
  const futures = root.descendantsOfType('future_import_statement').filter((n): n is Node => n !== null);
  if (futures.length === 0) return [];
  const problems: SyntaxProblem[] = [];
  const positions = new Positions(text);
  const allowed = new Set<number>();
  let statements = 0;
  for (const node of root.namedChildren) {
    if (node.type === 'comment') continue;
    statements += 1;
    if (node.type === 'future_import_statement') allowed.add(node.id);
    else if (!(statements === 1 && isDocstring(node))) break;
  }
  for (const node of futures) {
    const { line, column } = positions.of(node.startIndex);
    if (!allowed.has(node.id)) {
      problems.push({ message: 'from __future__ imports must occur at the beginning of the file', line, column });
      continue;
    }
    for (const name of node.childrenForFieldName('name')) {
      const feature = (name.type === 'aliased_import' ? name.childForFieldName('name') : name)?.text ?? '';
      if (feature === 'braces') problems.push({ message: 'not a chance', line, column });
      else if (!FUTURE_FEATURES.has(feature))
        problems.push({ message: `future feature ${feature} is not defined`, line, column });
    }
  }
  return problems;
}
