import type { ElementNode, FileOutline } from '../elements/element';
import { C_LIKE_SYNTAX, type CodeScan } from '../language/languageSupport';
import { languageFor } from '../language/languages';

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
