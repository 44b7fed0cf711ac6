import type { TextRange } from '../../elements/element';
import type { CodeScan } from '../languageSupport';

/**
 * A lexical pass over Python that need not parse on its own: `#` comments and string literals (any prefix, single
 * or triple quoted), so that re-indenting leaves the lines inside a triple-quoted string exactly as they are.
 */
export function scanPython(text: string): CodeScan {
  const comments: TextRange[] = [];
  const literals: TextRange[] = [];
  let lastCodeEnd = 0;
  let lastTokenStart = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '#') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      comments.push({ start: i, end: stop });
      i = stop;
      continue;
    }
    const prefix = /^[rRbBuUfFtT]{0,2}(?=['"])/.exec(text.slice(i, i + 3));
    const atWordStart = i === 0 || !/[\w]/.test(text.charAt(i - 1));
    if (prefix !== null && (prefix[0] === '' || atWordStart)) {
      const start = i;
      i += prefix[0].length;
      const quote = text.charAt(i);
      const triple = text.startsWith(quote.repeat(3), i);
      const closer = triple ? quote.repeat(3) : quote;
      i += closer.length;
      while (i < text.length) {
        const d = text.charAt(i);
        // A backslash escapes the next character, in raw strings too (`r"\""` is one string).
        if (d === '\\') {
          i += 2;
          continue;
        }
        if (!triple && d === '\n') break;
        if (text.startsWith(closer, i)) {
          i += closer.length;
          break;
        }
        i += 1;
      }
      const end = Math.min(i, text.length);
      literals.push({ start, end });
      lastTokenStart = start;
      lastCodeEnd = end;
      continue;
    }
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    // A word or a run of one punctuation character is one token as far as the last token goes.
    const word = /^(?:[\w.]+|\S)/.exec(text.slice(i, i + 200));
    const length = word?.[0].length ?? 1;
    lastTokenStart = i;
    lastCodeEnd = i + length;
    i += length;
  }
  const lastToken = lastCodeEnd > 0 ? text.slice(lastTokenStart, lastCodeEnd) : undefined;
  return { comments, literals, lastCodeEnd, lastToken };
}
