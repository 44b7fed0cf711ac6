import { LANGUAGE_CATALOG } from '../../language/languageCatalog';
import { OPERATION_TYPES, type OperationType } from '../operation';

/**
 * Header lines (`REPLACE_ELEMENT src/user.ts/class[User]/method[validate]`) as models actually write them: with
 * markdown around them, wrapper tags in front, quotes or backticks around the path.
 */

export type HeaderLine =
  | { readonly kind: 'operation'; readonly type: OperationType; readonly args: string }
  /** Reads like an operation keyword (`MODIFY_ELEMENT`) but is none: an error, never silently prose. */
  | { readonly kind: 'unknown'; readonly word: string };

const KNOWN_TYPES: ReadonlyMap<string, OperationType> = new Map(OPERATION_TYPES.map((type) => [type, type]));

// An all-caps word is an attempted operation only if it has both halves of one; `MAX_RETRIES` in prose is not.
const OPERATION_VERBS = new Set(
  'ADD APPEND CHANGE CREATE DELETE EDIT INSERT MODIFY MOVE PATCH PREPEND REMOVE RENAME REPLACE REWRITE UPDATE WRITE'.split(
    ' ',
  ),
);
const OPERATION_NOUNS = new Set(
  'BLOCK CLASS CODE ELEMENT ELEMENTS FILE FILES FUNCTION IMPORT IMPORTS MEMBER METHOD PROPERTY'.split(' '),
);

const LEADING_TAGS = /^(?:<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?>\s*)+/;
const TAG = /^<\/?[A-Za-z][\w-]*>$/;
const LEADING_MARKDOWN = /^(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,3}[.)][ \t]+|>[ \t]?)/;
const WRAPPERS = ['**', '__', '`', '*'] as const;
const KEYWORD = /^(\*\*|__|`)?([A-Za-z]+(?:_[A-Za-z]+)+):?(?:\1)?:?(?=\s|$)/;

/** Strips what a model decorates a line with; returns the bare text, possibly empty. */
export function stripDecoration(rawLine: string): string {
  let line = rawLine.trim();
  for (let round = 0; round < 8; round++) {
    const before = line;
    line = stripTrailingTags(line.replace(LEADING_TAGS, ''));
    line = line.replace(LEADING_MARKDOWN, '').trim();
    if (line.endsWith(':')) line = line.slice(0, -1).trimEnd();
    for (const wrapper of WRAPPERS) {
      const inner = line.slice(wrapper.length, -wrapper.length);
      // `REPLACE_ELEMENT` `src/a.ts` starts and ends with a backtick but is two spans, not one wrapped line.
      if (
        line.length > 2 * wrapper.length &&
        line.startsWith(wrapper) &&
        line.endsWith(wrapper) &&
        !inner.includes(wrapper)
      ) {
        line = inner.trim();
        break;
      }
    }
    if (line === before) break;
  }
  return line;
}

// Done by hand rather than with an end-anchored regex, which would go quadratic on a long line of spaces.
function stripTrailingTags(text: string): string {
  let line = text.trim();
  while (line.endsWith('>')) {
    const open = line.lastIndexOf('<');
    if (open < 0 || !TAG.test(line.slice(open))) break;
    line = line.slice(0, open).trimEnd();
  }
  return line;
}

export function readHeaderLine(rawLine: string): HeaderLine | undefined {
  // Cheap rejection first: almost every line of an answer is code or prose without an underscore word.
  if (!rawLine.includes('_')) return undefined;
  const line = stripDecoration(rawLine);
  const match = KEYWORD.exec(line);
  if (match === null) return undefined;
  const word = match[2] ?? '';
  const type = KNOWN_TYPES.get(word.toUpperCase());
  let args = line.slice(match[0].length).trim();
  if (args.endsWith('**')) args = args.slice(0, -2).trimEnd();
  if (args.endsWith(':')) args = args.slice(0, -1).trimEnd();
  if (type !== undefined) return { kind: 'operation', type, args };
  if (word !== word.toUpperCase()) return undefined;
  const parts = word.split('_');
  const looksLikeOperation = OPERATION_VERBS.has(parts[0] ?? '') && OPERATION_NOUNS.has(parts[parts.length - 1] ?? '');
  return looksLikeOperation ? { kind: 'unknown', word } : undefined;
}

const QUOTES = new Set(['"', "'", '`']);

/**
 * Splits header arguments at whitespace, keeping a quoted token (`"my file.ts"`) and anything inside `[...]` or
 * `(...)` together, since element names may hold spaces (`statement[describe('a b')]`).
 */
export function splitArguments(text: string): string[] {
  // Where each quote could last close a token: a quote that opens after it never closes, known without a scan (an
  // unclosed quote per word would otherwise cost a scan to the end each).
  const lastClosing = new Map<string, number>();
  for (const quote of QUOTES) lastClosing.set(quote, findLastClosing(text, quote));
  const tokens: string[] = [];
  let index = 0;
  while (index < text.length) {
    while (index < text.length && /\s/.test(text.charAt(index))) index += 1;
    if (index >= text.length) break;
    const char = text.charAt(index);
    const quoted = (lastClosing.get(char) ?? -1) > index ? readQuoted(text, index) : undefined;
    const end = quoted ?? readBare(text, index);
    tokens.push(text.slice(index, end));
    index = end;
  }
  return tokens;
}

function closesQuote(text: string, index: number, quote: string): boolean {
  return text.charAt(index) === quote && (index + 1 === text.length || /\s/.test(text.charAt(index + 1)));
}

function findLastClosing(text: string, quote: string): number {
  for (let index = text.length - 1; index >= 0; index--) if (closesQuote(text, index, quote)) return index;
  return -1;
}

/** End of a quoted token: its quote followed by whitespace or the end; undefined if the quote never closes. */
function readQuoted(text: string, start: number): number | undefined {
  const quote = text.charAt(start);
  for (let index = start + 1; index < text.length; index++) if (closesQuote(text, index, quote)) return index + 1;
  return undefined;
}

function readBare(text: string, start: number): number {
  let depth = 0;
  let index = start;
  for (; index < text.length; index++) {
    const char = text.charAt(index);
    if (depth > 0 && char === '\\') {
      index += 1; // element paths escape brackets inside names with a backslash
    } else if (char === '[' || char === '(') {
      depth += 1;
    } else if ((char === ']' || char === ')') && depth > 0) {
      depth -= 1;
    } else if (depth === 0 && /\s/.test(char)) {
      break;
    }
  }
  return Math.min(index, text.length);
}

export function unquote(token: string): string {
  const first = token.charAt(0);
  if (token.length >= 2 && QUOTES.has(first) && token.endsWith(first)) return token.slice(1, -1);
  return token;
}

/** A file name of a shipped language (`page.tsx`, `views.py`, `Main.java`) followed by a separator. */
const SOURCE_FILE_NAME = new RegExp(
  `(?:${LANGUAGE_CATALOG.flatMap((l) => l.extensions)
    .map((e) => e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?=[\\\\/])`,
  'i',
);

/**
 * Where the file part of a path ends: after the first file name of a shipped language followed by a separator
 * (`src/app/[id]/page.tsx/function[x]`), else before the first `kind[` segment, else at the end. The rule of
 * docs/element-paths.md, with `\` accepted as a separator.
 */
export function filePartLength(path: string): number {
  const sourceFile = SOURCE_FILE_NAME.exec(path);
  if (sourceFile !== null) return sourceFile.index + sourceFile[0].length;
  // A sibling may be a bare last segment (`method[a\\b]`): no file part at all.
  const kindSegment = /(?:^|[\\/])[A-Za-z][\w-]*=?\[/.exec(path);
  return kindSegment === null ? path.length : kindSegment.index;
}

/**
 * A path as the model wrote it, minus the noise: a `file:` prefix, quotes or backticks around it, a trailing colon,
 * and Windows separators in the file part (names after it keep their backslashes, which escape brackets). Nothing
 * is resolved here.
 */
export function normalizePath(token: string): string {
  let path = unquote(token.trim());
  if (/^file:/i.test(path)) path = unquote(path.slice('file:'.length).trim());
  if (path.endsWith(':')) path = path.slice(0, -1);
  const fileEnd = filePartLength(path);
  return path.slice(0, fileEnd).replace(/\\/g, '/') + path.slice(fileEnd);
}
