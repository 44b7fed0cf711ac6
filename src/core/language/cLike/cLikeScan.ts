import type { TextRange } from '../../elements/element';
import type { CodeScan } from '../languageSupport';

/**
 * A lexical pass over code of a C-like language (Go, Rust, Java, C#) that need not parse on its own: `//` and
 * `/* *\/` comments and string literals, so that re-indenting leaves the lines inside a multi-line string or comment
 * exactly as they are. Each language adds its own raw strings through the options.
 */
export interface CLikeScanOptions {
  /** Go: `` `raw` `` strings. */
  readonly backtickStrings?: boolean;
  /** Rust: `r"..."`, `r#"..."#`, `br"..."`; block comments nest. */
  readonly rustStrings?: boolean;
  /** C#: `@"..."` verbatim strings (`""` escapes a quote); `$@"..."` too. */
  readonly verbatimStrings?: boolean;
  /** Java text blocks and C# raw strings: `"""` ... `"""`. */
  readonly tripleQuotes?: boolean;
}

export function scanCLike(text: string, options: CLikeScanOptions): CodeScan {
  const comments: TextRange[] = [];
  const literals: TextRange[] = [];
  let lastCodeEnd = 0;
  let lastTokenStart = 0;
  const code = (start: number, end: number): void => {
    lastTokenStart = start;
    lastCodeEnd = end;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    const next = text.charAt(i + 1);
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      comments.push({ start: i, end: stop });
      i = stop;
      continue;
    }
    if (c === '/' && next === '*') {
      const stop = blockCommentEnd(text, i, options.rustStrings === true);
      comments.push({ start: i, end: stop });
      i = stop;
      continue;
    }
    const literalEnd = literalEndAt(text, i, options);
    if (literalEnd !== undefined) {
      literals.push({ start: i, end: literalEnd });
      code(i, literalEnd);
      i = literalEnd;
      continue;
    }
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    const word = /^[\p{L}\p{N}_]+/u.exec(text.slice(i, i + 200));
    const length = word === null ? 1 : word[0].length;
    code(i, i + length);
    i += length;
  }
  return {
    comments,
    literals,
    lastCodeEnd,
    lastToken: lastCodeEnd === 0 ? undefined : text.slice(lastTokenStart, lastCodeEnd),
  };
}

function blockCommentEnd(text: string, start: number, nests: boolean): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith('/*', i)) {
      depth = nests ? depth + 1 : 1;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth <= 0) return i;
    } else i += 1;
  }
  return text.length;
}

/** End of a string or character literal starting at `i`, or undefined when none starts there. */
function literalEndAt(text: string, i: number, options: CLikeScanOptions): number | undefined {
  const c = text.charAt(i);
  const wordBefore = i > 0 && /[\p{L}\p{N}_]/u.test(text.charAt(i - 1));
  if (options.rustStrings === true && !wordBefore) {
    const raw = /^b?r(#*)"/.exec(text.slice(i, i + 260));
    if (raw !== null) {
      const closer = `"${raw[1] ?? ''}`;
      const end = text.indexOf(closer, i + raw[0].length);
      return end < 0 ? text.length : end + closer.length;
    }
    if (text.startsWith('b"', i) || text.startsWith("b'", i)) return quotedEnd(text, i + 1, text.charAt(i + 1));
  }
  if (options.verbatimStrings === true && !wordBefore) {
    const verbatim = /^(\$@|@\$|@)"/.exec(text.slice(i, i + 3));
    if (verbatim !== null) {
      let at = i + verbatim[0].length;
      while (at < text.length) {
        if (text.charAt(at) === '"') {
          if (text.charAt(at + 1) === '"') at += 2;
          else return at + 1;
        } else at += 1;
      }
      return text.length;
    }
  }
  if (options.tripleQuotes === true && text.startsWith('"""', i)) {
    let quotes = 3;
    while (text.charAt(i + quotes) === '"') quotes += 1;
    const closer = '"'.repeat(quotes);
    const end = text.indexOf(closer, i + quotes);
    return end < 0 ? text.length : end + quotes;
  }
  if (c === '"') return quotedEnd(text, i, '"');
  if (c === '`' && options.backtickStrings === true) {
    const end = text.indexOf('`', i + 1);
    return end < 0 ? text.length : end + 1;
  }
  if (c === "'") {
    // A character literal closes within a few characters; a Rust lifetime (`'a`) does not close at all.
    const literal = /^'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)|[^'\\\n]{1,2})'/u.exec(
      text.slice(i, i + 16),
    );
    return literal === null ? undefined : i + literal[0].length;
  }
  return undefined;
}

/** End of a `"`- or `'`-quoted literal with backslash escapes; a line break ends an unterminated one. */
function quotedEnd(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else if (c === '\n' && quote === "'") return i;
    else i += 1;
  }
  return text.length;
}

/** A declaration (a Java import, a C# using) without its line and block comments, on one line. */
export function flattenCLikeDeclaration(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * An import operation's content as declarations, one a line: a line that already starts with the keyword stays as
 * it is, a line `isBody` accepts gets the keyword in front, and either gets the `;` it lacks. Comments, blank lines
 * and other code are left as they are (to fail as what they are). Java's `a.b.C`, C#'s `System.Text`.
 */
export function withDeclarationKeyword(
  content: string,
  keyword: string,
  hasKeyword: (code: string) => boolean,
  isBody: (code: string) => boolean,
): string {
  return content
    .split('\n')
    .map((line) => {
      const code = line.trim();
      if (code === '' || code.startsWith('//') || code.startsWith('/*') || code.startsWith('*')) return line;
      const present = hasKeyword(code);
      if (!present && !isBody(code.replace(/;$/, ''))) return line;
      const withKeyword = present ? code : `${keyword} ${code}`;
      return withKeyword.endsWith(';') ? withKeyword : `${withKeyword};`;
    })
    .join('\n');
}
