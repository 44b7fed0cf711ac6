import type { CheckerDescription, CheckerRun } from '../../graph/semantics';

/** What the checkers of languages without semantics share (pyright, the toolchains, a checker turned off). */

/** A check that did not run or did not finish: no errors on either side, and why, for every surface to say. */
export function skippedRun(checker: CheckerDescription | undefined, why: string): CheckerRun {
  return { before: new Map(), after: new Map(), checkedFiles: [], omittedFiles: 0, checker, skipped: why };
}

/** Runs checks one at a time, in the order asked: both sides of a check are states of one server or one build. */
export class CheckQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** The offset where a 0-based line starts in `text` (its length past the last line). */
export function lineStart(text: string, line: number): number {
  let offset = 0;
  for (let current = 0; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}
