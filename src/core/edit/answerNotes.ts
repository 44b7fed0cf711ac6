import { linesOutsideFences } from '../ops/format/fences';
import { answerProse } from '../ops/format/parseOperations';

/**
 * The model's notes: what it wrote beside its operations ("the calls are in _getQueryParam, which is not shown"). A
 * user who reads only "applied" would miss them, so every surface shows them. Notes are prose only: NEED and FIND
 * lines are questions to Scalpel, a DECLINE line is the answer itself (see {@link answerDecline}), and code blocks
 * outside operations (a whole file written without a header) are code, not something to tell the user; fences, tags
 * and a bare lead-in ("Here is the change:") say nothing either.
 */
export function answerNotes(answer: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  const close = (): void => {
    const text = current.join('\n').trim();
    current = [];
    if (text !== '' && !isLeadIn(text)) paragraphs.push(text);
  };
  for (const line of outsideCode(answer).lines) {
    const trimmed = line.trim();
    if (trimmed === '' || isQuestion(trimmed) || isDecline(trimmed) || isMarkup(trimmed)) {
      close();
      continue;
    }
    current.push(line.trimEnd());
  }
  close();
  return paragraphs;
}

/** Notes of several answers (a request's rounds), each once, in order. */
export function mergeNotes(earlier: readonly string[], later: readonly string[]): string[] {
  return [...earlier, ...later.filter((note) => !earlier.includes(note))];
}

/** How many code blocks the answer holds outside its operations (code the model wrote without a header). */
export function codeBlocksOutsideOperations(answer: string): number {
  return outsideCode(answer).blocks;
}

/**
 * The reason of an answer that declines the task (issue 24): a line `DECLINE: <reason>` (upper case; the reason may
 * go on in the lines below it, up to a blank line). Undefined when the answer has no such line outside code. An
 * answer that declines and still holds operations is not a decline: the caller decides that, with the parse in hand.
 */
export function answerDecline(answer: string): string | undefined {
  const { lines } = outsideCode(answer);
  const at = lines.findIndex((line) => isDecline(line.trim()));
  if (at < 0) return undefined;
  const first = (lines[at] ?? '').trim().replace(DECLINE, '');
  const rest: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const trimmed = line.trim();
    if (trimmed === '' || isQuestion(trimmed) || isMarkup(trimmed)) break;
    rest.push(trimmed);
  }
  const reason = [first, ...rest]
    .join(' ')
    .replace(/[*_`]+$/, '')
    .trim();
  return reason === '' ? 'the model gave no reason' : reason;
}

/**
 * The answer's prose: its lines outside operations and outside fenced code blocks, a blank line standing in for each
 * block (it ends a paragraph), and how many such blocks there were.
 */
function outsideCode(answer: string): { lines: string[]; blocks: number } {
  const outside = linesOutsideFences(answerProse(answer));
  return { lines: outside.map((line) => line ?? ''), blocks: outside.filter((line) => line === undefined).length };
}

const QUESTION = /^[\s>*\-#`]*(?:NEED|FIND)[:\s]/;
/** `DECLINE: reason`, also as `**DECLINE:** reason` or in a list item. */
const DECLINE = /^[\s>*\-#`_]*DECLINE\b[*_`]*:?[*_`]*\s*/;
const MARKUP = /^(?:`{3,}|~{3,})\S*$|^(?:<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?>\s*)+$/;
const LEAD_IN =
  /^(?:sure|okay|ok|certainly|done|understood|here(?:'s| is| are)|below (?:is|are)|the (?:edit|change|operation)s?\b|i(?:'ll| will) )/i;

function isQuestion(line: string): boolean {
  return QUESTION.test(line);
}

function isDecline(line: string): boolean {
  return DECLINE.test(line);
}

function isMarkup(line: string): boolean {
  return MARKUP.test(line);
}

/** A one-line opener that only introduces the operations. */
function isLeadIn(text: string): boolean {
  return !text.includes('\n') && text.length <= 100 && (LEAD_IN.test(text) || /^[^.]{0,60}:$/.test(text));
}
