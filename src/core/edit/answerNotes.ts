import { answerProse } from '../ops/format/parseOperations';

/**
 * The model's notes: what it wrote beside its operations ("the calls are in _getQueryParam, which is not shown"). A
 * user who reads only "applied" would miss them, so every surface shows them. NEED and FIND lines are questions to
 * Scalpel, not notes; fences, tags and a bare lead-in ("Here is the change:") say nothing to the user.
 */
export function answerNotes(answer: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  const close = (): void => {
    const text = current.join('\n').trim();
    current = [];
    if (text !== '' && !isLeadIn(text)) paragraphs.push(text);
  };
  for (const line of answerProse(answer)) {
    const trimmed = line.trim();
    if (trimmed === '' || isQuestion(trimmed) || isMarkup(trimmed)) {
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

const QUESTION = /^[\s>*\-#`]*(?:NEED|FIND)[:\s]/;
const MARKUP = /^(?:`{3,}|~{3,})\S*$|^(?:<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?>\s*)+$/;
const LEAD_IN =
  /^(?:sure|okay|ok|certainly|done|understood|here(?:'s| is| are)|below (?:is|are)|the (?:edit|change|operation)s?\b|i(?:'ll| will) )/i;

function isQuestion(line: string): boolean {
  return QUESTION.test(line);
}

function isMarkup(line: string): boolean {
  return MARKUP.test(line);
}

/** A one-line opener that only introduces the operations. */
function isLeadIn(text: string): boolean {
  return !text.includes('\n') && text.length <= 100 && (LEAD_IN.test(text) || /^[^.]{0,60}:$/.test(text));
}
