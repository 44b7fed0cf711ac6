/**
 * The words of a task, as the code is searched for them: identifiers split at camelCase and underscores, lowercased,
 * short and function words left out (`fix onKeyDown` gives key, down). The planning outline's usage notes and the
 * windows of a very large element both point at the code holding them.
 */

/** Words of the task that are rarely the element meant, though code uses them everywhere. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  'the and for with from into onto that this these those when then than not all any its are was were has have make add fix use should would could which where what there their them they you your also only just more less each does doesn done work works working instead still'.split(
    ' ',
  ),
);

/** Lowercased words of a text, identifiers split like code's: `onKeyDown` gives on, key, down. */
export function splitWords(text: string): string[] {
  return (text.match(/[A-Za-z][a-z]*|[A-Z]+(?![a-z])/g) ?? []).map((w) => w.toLowerCase());
}

/** Lowercased words of the task, identifiers split like the code's: `fix onKeyDown` gives key, down. */
export function wordsOfTask(instruction: string): string[] {
  return [...new Set(splitWords(instruction).filter((w) => w.length >= 3 && !STOP_WORDS.has(w)))];
}
