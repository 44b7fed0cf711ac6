/**
 * The layout habits of a file that an edit must keep: line breaks, byte order mark, final newline, indentation.
 * Code written by a model arrives with `\n`, no BOM and its own indentation; it is converted to these on the way in.
 */

export interface IndentStyle {
  /** One level of indentation: a tab, or a run of spaces. */
  readonly unit: string;
  /** Columns a tab counts for when widths are compared. */
  readonly tabWidth: number;
}

export interface TextStyle {
  readonly eol: '\n' | '\r\n';
  readonly bom: boolean;
  readonly finalNewline: boolean;
  readonly indent: IndentStyle;
}

const BOM = '\uFEFF';

export function hasBom(text: string): boolean {
  return text.startsWith(BOM);
}

export function stripBom(text: string): string {
  return hasBom(text) ? text.slice(1) : text;
}

export function detectEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf += 1;
    else lf += 1;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Whether most of the text's line breaks are a lone CR (classic Mac OS), not LF or CRLF. */
export function usesLoneCr(text: string): boolean {
  let cr = 0;
  let lf = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) lf += 1;
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) cr += 1;
  }
  return cr > lf;
}

/** Leading whitespace of every line that has code on it, skipping JSDoc continuation lines (` * text`). */
function indentations(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^[ \t]*/.exec(line);
    const indent = match?.[0] ?? '';
    const rest = line.slice(indent.length).replace(/\r$/, '');
    if (rest === '' || rest.startsWith('*')) continue;
    found.push(indent);
  }
  return found;
}

/**
 * The file's indentation unit: tabs when most indented lines start with a tab, else the most frequent step between
 * the indentation widths of consecutive lines (the way editors guess it). `fallback` when the file shows none.
 */
export function detectIndent(text: string, fallback: IndentStyle = { unit: '  ', tabWidth: 4 }): IndentStyle {
  const indents = indentations(text);
  let tabbed = 0;
  let spaced = 0;
  for (const indent of indents) {
    if (indent.startsWith('\t')) tabbed += 1;
    else if (indent.startsWith(' ')) spaced += 1;
  }
  if (tabbed === 0 && spaced === 0) return fallback;
  if (tabbed > spaced) return { unit: '\t', tabWidth: fallback.tabWidth };
  const steps = new Map<number, number>();
  let previous = 0;
  for (const indent of indents) {
    if (indent.includes('\t')) continue;
    const width = indent.length;
    const step = Math.abs(width - previous);
    if (step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = width;
  }
  let best = 0;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount || (count === bestCount && step < best)) {
      best = step;
      bestCount = count;
    }
  }
  if (best === 0) return fallback;
  return { unit: ' '.repeat(best), tabWidth: best };
}

export function detectStyle(text: string): TextStyle {
  const body = stripBom(text);
  return {
    eol: detectEol(body),
    bom: hasBom(text),
    finalNewline: body.length === 0 || body.endsWith('\n'),
    indent: detectIndent(body),
  };
}

/**
 * Leading whitespace in an indentation style where it uses the other character: spaces in front of a line of a
 * tab-indented file become tabs (a tab counting `tabWidth` columns, the remainder kept as alignment spaces), tabs in a
 * space-indented file become one `unit` each. Whitespace already in the style (tabs, then alignment spaces) is kept.
 * Code a model wrote with the other character must not be written mixed: CPython refuses it (TabError), and in any
 * language it breaks the file's alignment.
 */
export function inIndentStyle(indent: string, style: IndentStyle): string {
  if (style.unit === '\t') {
    if (!indent.startsWith(' ')) return indent;
    const width = indentWidth(indent, style.tabWidth);
    return '\t'.repeat(Math.floor(width / style.tabWidth)) + ' '.repeat(width % style.tabWidth);
  }
  return indent.includes('\t') ? indent.replace(/\t/g, style.unit) : indent;
}

/** The indentation style of a run of indentation when it shows one (a tab or spaces), else `fallback`. */
export function styleOfIndent(indent: string, fallback: IndentStyle): IndentStyle {
  if (indent.startsWith('\t')) return fallback.unit === '\t' ? fallback : { unit: '\t', tabWidth: 4 };
  if (indent.startsWith(' ') && fallback.unit === '\t') return { unit: '    ', tabWidth: 4 };
  return fallback;
}

/** Columns of a run of indentation, a tab counting `tabWidth`. */
export function indentWidth(indent: string, tabWidth: number): number {
  let width = 0;
  for (const char of indent) width += char === '\t' ? tabWidth : 1;
  return width;
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

export function withEol(lfText: string, eol: '\n' | '\r\n'): string {
  return eol === '\n' ? lfText : lfText.replace(/\n/g, '\r\n');
}

/** Offset of the start of the line holding `offset`. */
export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the line break ending the line holding `offset` (`\r` of a CRLF), or the text's end. */
export function lineEndOf(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline < 0) return text.length;
  return newline > 0 && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
}

/** Offset just after the line break ending the line holding `offset`, or the text's end. */
export function nextLineStartOf(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

/** The whitespace before `offset` on its line, when only whitespace precedes it; else undefined. */
export function indentBefore(text: string, offset: number): string | undefined {
  const start = lineStartOf(text, offset);
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** The indentation of the line holding `offset`. */
export function indentOfLine(text: string, offset: number): string {
  return leadingWhitespace(text.slice(lineStartOf(text, offset)));
}

export function isBlankLine(line: string): boolean {
  return /^[ \t\r\f\v]*$/.test(line);
}
