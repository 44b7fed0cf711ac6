/**
 * How deep Scalpel reads nested elements. The outline itself is built without recursion, but the context, the
 * planner and the verification walk the element tree recursively; past this depth a file is refused with a clear
 * error instead of a stack overflow somewhere downstream (issue 25). Real code stays far below it: rustc and javac
 * themselves overflow on 1,500 nested modules or classes, and CPython stops at 100 levels of indentation.
 */
export const MAX_ELEMENT_DEPTH = 2_000;

/** A file nested deeper than Scalpel reads: a clear refusal, never an internal error. */
export class ElementNestingError extends Error {
  constructor(
    readonly file: string,
    reason: string = `nests elements more than ${MAX_ELEMENT_DEPTH.toLocaleString('en-US')} levels deep`,
  ) {
    super(
      `${file} ${reason}; Scalpel reads files nested up to ${MAX_ELEMENT_DEPTH.toLocaleString('en-US')} levels, so edit this one by hand`,
    );
    this.name = 'ElementNestingError';
  }
}

/** Whether an error is the JavaScript engine's stack overflow (a parser recursing on deep nesting). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size/i.test(error.message);
}
