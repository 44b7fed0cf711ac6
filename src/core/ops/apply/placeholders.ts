import type { LanguageSupport } from '../../language/languageSupport';
import { scanCode as scanTypeScript } from './codeScan';

/**
 * Lazy placeholders: what a model writes instead of code it did not want to repeat (`// ... existing code ...`,
 * `// rest of the method unchanged`, `{ ... }`). Written into a file they silently delete that code, so content
 * holding one is refused. Only placeholders that are new count: a file may legitimately hold a `// ...` already.
 */

export interface Placeholder {
  /** 1-based line in the content. */
  readonly line: number;
  /** The offending text as written. */
  readonly text: string;
}

const QUALIFIERS = new Set([
  'rest',
  'remainder',
  'remaining',
  'other',
  'others',
  'existing',
  'previous',
  'original',
  'old',
  'unchanged',
  'same',
  'more',
  'additional',
  'prior',
  'current',
]);

/** Qualifiers that mean "what was there" even without an ellipsis; `other` and `more` also head real comments. */
const STRONG_QUALIFIERS = new Set(['rest', 'remainder', 'remaining', 'existing', 'previous', 'original', 'unchanged']);

const NOUNS = new Set(
  (
    'code implementation implementations method methods function functions property properties field fields member ' +
    'members logic content contents body bodies file class classes import imports case cases test tests line lines ' +
    'statement statements declaration declarations handler handlers helper helpers prop props type types export ' +
    'exports route routes style styles component components element elements option options config configuration ' +
    'stuff part parts section sections getter getters setter setters value values entry entries item items ' +
    'definition definitions call calls check checks constructor module parameters arguments logic jsx markup ' +
    'template templates attributes children block blocks branch branches hooks hook state effects effect'
  ).split(' '),
);

const FILLERS = new Set(
  'the of this that these those all everything else any and in from here is are be will would should remain remains stay stays left kept keep leave retain preserve include insert paste copy goes go as'.split(
    ' ',
  ),
);

/** Endings that say "nothing written here on purpose". */
const STATE_ENDINGS: readonly RegExp[] = [
  /(?:^| )(?:is |are |remains? |stays? |will (?:remain|stay|be) |should (?:remain|stay|be) |left |kept )?(?:unchanged|untouched|not changed|the same|same|as before|as is|as-is|omitted|elided|truncated|skipped|not shown|preserved|intact|identical)(?: for brevity| here| above| below)?$/,
  /(?:^| )(?:goes |go |remains? |stays? |is |are )?here$/,
  /(?:^| )(?:same as (?:before|above|original|previous|existing)|no changes?(?: here| needed)?|for brevity)$/,
];

function words(text: string): string[] {
  return text.split(' ').filter((w) => w !== '');
}

/**
 * Drops a closing star-slash (any number of stars, an optional `}` after it) and the spaces around it. By hand: the
 * end-anchored pattern it replaces backtracked over every run of stars, quadratic in a comment of stars.
 */
function withoutCommentEnd(text: string): string {
  const isSpace = (index: number): boolean => /\s/.test(text.charAt(index));
  let cut = text.length;
  while (cut > 0 && isSpace(cut - 1)) cut -= 1;
  if (text.charAt(cut - 1) === '}') {
    cut -= 1;
    while (cut > 0 && isSpace(cut - 1)) cut -= 1;
  }
  if (text.charAt(cut - 1) !== '/' || text.charAt(cut - 2) !== '*') return text;
  cut -= 1;
  while (cut > 0 && text.charAt(cut - 1) === '*') cut -= 1;
  return text.slice(0, cut);
}

/** Lower-case words of a comment, ellipses and punctuation gone; `ellipsis` says whether it had one. */
function normalizePhrase(raw: string): { phrase: string; ellipsis: boolean } {
  let text = withoutCommentEnd(raw.replace(/^\s*(?:\/\/+|\/\*+|\{\s*\/\*+|#+)/, '')).replace(/^\s*\*+/gm, ' ');
  const ellipsis = /\.\s*\.\s*\.|…/.test(text);
  text = text
    .toLowerCase()
    .replace(/\.\s*\.\s*\.+|…/g, ' ')
    .replace(/[()[\]<>{}"'`*_#:;,.!?=-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { phrase: text, ellipsis };
}

function isLazyPhrase(phrase: string, ellipsis: boolean): boolean {
  const list = words(phrase);
  if (list.length === 0) return ellipsis;
  if (list.length > 12) return false;
  // `// ... same as validate ...`: code pointed at instead of written.
  if (ellipsis && /^(?:the )?(?:same|similar) (?:as|to|like)\b/.test(phrase)) return true;
  const first = list[0] ?? '';
  if ((first === 'rest' || first === 'remainder') && list[1] === 'of') return true;
  if (list[0] === 'the' && (list[1] === 'rest' || list[1] === 'remainder') && list[2] === 'of') return true;
  const known = (w: string): boolean => QUALIFIERS.has(w) || NOUNS.has(w) || FILLERS.has(w);
  const ending = STATE_ENDINGS.find((pattern) => pattern.test(phrase));
  if (ending !== undefined) {
    const prefix = words(phrase.replace(ending, ''));
    if (prefix.every(known)) return true;
  }
  const hasQualifier = list.some((w) => QUALIFIERS.has(w));
  const hasNoun = list.some((w) => NOUNS.has(w));
  if (ellipsis && list.length <= 8 && hasQualifier && list.every(known)) return true;
  if (ellipsis && list.length <= 4 && hasNoun && list.every(known)) return true;
  return list.length <= 6 && hasNoun && list.some((w) => STRONG_QUALIFIERS.has(w)) && list.every(known);
}

interface Candidate {
  readonly key: string;
  readonly line: number;
  readonly text: string;
}

/** 1-based line of each offset, by binary search over the line starts: one pass, however many candidates. */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/**
 * Ranges sorted by start and not overlapping (what the scanner yields), walked with offsets that only grow: each
 * range is passed once, so the whole scan stays linear in the size of the content.
 */
class RangeCursor {
  private next = 0;

  constructor(private readonly ranges: readonly { readonly start: number; readonly end: number }[]) {}

  /** Whether `offset` lies in a range: strictly inside, or from its start on when `fromStart`. */
  contains(offset: number, fromStart: boolean): boolean {
    while (this.next < this.ranges.length && (this.ranges[this.next]?.end ?? 0) <= offset) this.next += 1;
    const range = this.ranges[this.next];
    if (range === undefined) return false;
    return fromStart ? range.start <= offset : range.start < offset;
  }
}

/** Longer comments are prose or documentation, never a stand-in for code, and are not worth normalizing. */
const LONGEST_PLACEHOLDER_COMMENT = 400;

/**
 * The language whose comments are searched: a `// ...` is what models write in C-like code, a `# ...` in Python.
 * Without one (a file no language reads), the TypeScript scanner finds `//` and block comments.
 */
export type PlaceholderLanguage = Pick<LanguageSupport, 'scanCode' | 'syntax'>;

function candidates(text: string, language: PlaceholderLanguage | undefined): Candidate[] {
  const scan = language === undefined ? scanTypeScript(text) : language.scanCode(text);
  const ellipsisIsCode = language?.syntax?.ellipsisIsCode === true;
  const lineOf = lineFinder(text);
  const found: Candidate[] = [];
  for (const comment of scan.comments) {
    if (comment.end - comment.start > LONGEST_PLACEHOLDER_COMMENT) continue;
    const raw = text.slice(comment.start, comment.end);
    const { phrase, ellipsis } = normalizePhrase(raw);
    if (isLazyPhrase(phrase, ellipsis)) {
      found.push({ key: `${ellipsis ? '…' : ''}${phrase}`, line: lineOf(comment.start), text: raw.trim() });
    }
  }
  const literals = new RangeCursor(scan.literals);
  const comments = new RangeCursor(scan.comments);
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const lineEnd = newline < 0 ? text.length : newline;
    const line = text.slice(start, lineEnd);
    const lineStart = start;
    start = lineEnd + 1;
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const firstCode = lineStart + line.length - line.trimStart().length;
    if (literals.contains(firstCode, false)) continue;
    if (comments.contains(firstCode, true)) continue;
    // Python's `...` is the Ellipsis, a body of its own (`def f(): ...`); `…` is never code.
    const lonelyEllipsis = ellipsisIsCode ? trimmed === '…' : /^(?:\.{3}|…)[;,]?$/.test(trimmed);
    const ellipsisBlock = /\{\s*(?:\.{3}|…)\s*\}/.test(trimmed);
    // Prose in brackets standing alone on a line: `(rest of methods ...)`, `[existing code]`.
    const bracketedProse =
      trimmed.length <= LONGEST_PLACEHOLDER_COMMENT &&
      /^[([<].*[)\]>][;,]?$/.test(trimmed) &&
      /^[([<]\s*[a-z .…]+[)\]>]/i.test(trimmed)
        ? normalizePhrase(trimmed)
        : undefined;
    if (
      lonelyEllipsis ||
      ellipsisBlock ||
      (bracketedProse !== undefined && isLazyPhrase(bracketedProse.phrase, bracketedProse.ellipsis))
    ) {
      found.push({ key: `line:${trimmed.replace(/\s+/g, ' ')}`, line: lineOf(lineStart), text: trimmed });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** The first placeholder of `content` that `original` (the text it replaces, if any) does not hold already. */
export function findNewPlaceholder(
  content: string,
  original: string | undefined,
  language?: PlaceholderLanguage,
): Placeholder | undefined {
  const existing = new Set(original === undefined ? [] : candidates(original, language).map((c) => c.key));
  const fresh = candidates(content, language).find((c) => !existing.has(c.key));
  return fresh === undefined ? undefined : { line: fresh.line, text: fresh.text };
}
