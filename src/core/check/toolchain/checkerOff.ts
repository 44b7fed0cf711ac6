import type { LanguageChecker } from '../../graph/semantics';
import { skippedRun } from './checkerRuns';

/**
 * The checker of a language the user turned off (`scalpel.checkers`, the CLI's `--checker LANG=off`): it runs nothing
 * and says so, so every surface reports that language as checked for syntax only.
 */
export function checkerOff(reason: string): LanguageChecker {
  const run = skippedRun(undefined, reason);
  return {
    checker: () => undefined,
    compare: () => Promise.resolve(run),
    dispose: () => undefined,
  };
}
