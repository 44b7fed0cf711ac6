import { insideAny, scanCode } from './codeScan';

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

/** Lower-case words of a comment, ellipses and punctuation gone; `ellipsis` says whether it had one. */
function normalizePhrase(raw: string): { phrase: string; ellipsis: boolean } {
  let text = raw
    .replace(/^\s*(?:\/\/+|\/\*+|\{\s*\/\*+)/, '')
    .replace(/(?:\*+\/\s*\}?|\*+\/)\s*$/, '')
    .replace(/^\s*\*+/gm, ' ');
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

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function candidates(text: string): Candidate[] {
  const scan = scanCode(text);
  const found: Candidate[] = [];
  for (const comment of scan.comments) {
    const raw = text.slice(comment.start, comment.end);
    const { phrase, ellipsis } = normalizePhrase(raw);
    if (isLazyPhrase(phrase, ellipsis)) {
      found.push({ key: `${ellipsis ? '…' : ''}${phrase}`, line: lineOf(text, comment.start), text: raw.trim() });
    }
  }
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (insideAny(scan.literals, start + line.length - line.trimStart().length)) continue;
    if (scan.comments.some((c) => c.start <= start + line.search(/\S|$/) && start + line.search(/\S|$/) < c.end))
      continue;
    const trimmed = line.trim();
    const lonelyEllipsis = /^(?:\.{3}|…)[;,]?$/.test(trimmed);
    const ellipsisBlock = /\{\s*(?:\.{3}|…)\s*\}/.test(trimmed);
    // Prose in brackets standing alone on a line: `(rest of methods ...)`, `[existing code]`.
    const bracketedProse =
      /^[([<].*[)\]>][;,]?$/.test(trimmed) && /^[([<]\s*[a-z .…]+[)\]>]/i.test(trimmed)
        ? normalizePhrase(trimmed)
        : undefined;
    if (
      lonelyEllipsis ||
      ellipsisBlock ||
      (bracketedProse !== undefined && isLazyPhrase(bracketedProse.phrase, bracketedProse.ellipsis))
    ) {
      found.push({ key: `line:${trimmed.replace(/\s+/g, ' ')}`, line: lineOf(text, start), text: trimmed });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** The first placeholder of `content` that `original` (the text it replaces, if any) does not hold already. */
export function findNewPlaceholder(content: string, original: string | undefined): Placeholder | undefined {
  const existing = new Set(original === undefined ? [] : candidates(original).map((c) => c.key));
  const fresh = candidates(content).find((c) => !existing.has(c.key));
  return fresh === undefined ? undefined : { line: fresh.line, text: fresh.text };
}
