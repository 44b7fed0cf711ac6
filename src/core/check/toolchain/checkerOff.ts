import type { CheckerRun, LanguageChecker } from '../../graph/semantics';

/**
 * The checker of a language the user turned off (`scalpel.checkers`, the CLI's `--checker LANG=off`): it runs nothing
 * and says so, so every surface reports that language as checked for syntax only.
 */
export function checkerOff(reason: string): LanguageChecker {
  const run: CheckerRun = {
    before: new Map(),
    after: new Map(),
    checkedFiles: [],
    omittedFiles: 0,
    checker: undefined,
    skipped: reason,
  };
  return {
    checker: () => undefined,
    compare: () => Promise.resolve(run),
    dispose: () => undefined,
  };
}
