import { briefMessage, type ErrorReach } from '../check/newErrors';
import { errorsByFile, type NewTypeError, type TypeCheckService } from '../check/typeCheck';
import type { StepOutcome, StepReport, VerificationProblem, VerificationStep } from './verification';

/**
 * Issue 18's type check as a verification step, with issue 24's rule of what counts: only errors the batch caused,
 * environment errors set aside (reported in the step's summary, never to the model), and each file's errors sorted
 * by where they can be fixed. Errors in the request's files go back to the model in the repair loop; errors in a
 * workspace file outside the request go back with the offer to bring that file in (`NEED <file>/<element>`) when
 * `mayBringIn` allows it, and otherwise are reported with the edit and are no reason for another round.
 * `mayRemain` (the CLI's --allow-new-errors, VS Code) lets a batch whose repair rounds are spent through with its
 * errors reported.
 */

export const TYPES_STEP = 'types';

export interface TypeCheckStepOptions {
  readonly mayRemain?: boolean;
  /**
   * Whether the model may bring a workspace file outside the request in (NEED) and edit it: undefined when it may,
   * else why not, in the user's terms (`excluded by scalpel.exclude`). Absent: no file outside the request may.
   */
  readonly mayBringIn?: (file: string) => Promise<string | undefined>;
}

export function typeCheckStep(service: TypeCheckService, options: TypeCheckStepOptions = {}): VerificationStep {
  const { mayRemain = false, mayBringIn } = options;
  return {
    name: TYPES_STEP,
    mayRemain,
    async run({ apply, requestFiles, progress }): Promise<StepOutcome> {
      const result = await service.check(
        apply.changes.map((c) => ({ file: c.path, before: c.before, after: c.after })),
        progress === undefined ? {} : { onProgress: progress },
      );
      const changed = new Set(apply.changes.map((c) => c.path));
      const problems: VerificationProblem[] = [];
      for (const [file, errors] of errorsByFile(result.newErrors)) {
        const { reach, note } = await reachOf(file, requestFiles, changed, mayBringIn);
        problems.push({
          path: file,
          message: summaryOf(errors),
          typeErrors: errors,
          reach,
          ...(note === undefined ? {} : { reachNote: note }),
        });
      }
      return {
        problems,
        typeCheck: {
          checker: result.checker,
          environmentErrors: result.environmentErrors,
          checkedFiles: result.checkedFiles.length,
          omittedImporters: result.omittedImporters,
        },
      };
    },
  };
}

async function reachOf(
  file: string,
  requestFiles: ReadonlySet<string> | undefined,
  changed: ReadonlySet<string>,
  mayBringIn: TypeCheckStepOptions['mayBringIn'],
): Promise<{ reach: ErrorReach; note?: string }> {
  if (requestFiles === undefined || requestFiles.has(file) || changed.has(file)) return { reach: 'request' };
  if (mayBringIn === undefined) return { reach: 'none', note: 'it is not a file of this request' };
  const refused = await mayBringIn(file);
  return refused === undefined ? { reach: 'need' } : { reach: 'none', note: refused };
}

/** One line for a file's errors (the failure line, logs): how many, and the first. */
function summaryOf(errors: readonly NewTypeError[]): string {
  const [first] = errors;
  const count = `${errors.length} TypeScript error${errors.length === 1 ? '' : 's'}`;
  return first === undefined
    ? count
    : `the batch adds ${count} here (first: TS${first.code} ${briefMessage(first.message)})`;
}

/**
 * The new type errors a verification left (a batch let through with them: the CLI's --allow-new-errors, the VS Code
 * preview), file by file in the order the check found them.
 */
export function remainingTypeErrors(verification: readonly StepReport[]): NewTypeError[] {
  return verification.flatMap((report) =>
    report.step === TYPES_STEP ? report.problems.flatMap((problem) => problem.typeErrors ?? []) : [],
  );
}

/** The type check's summary of a verification (its checker, the environment errors it set aside), when it ran. */
export function typeCheckSummary(verification: readonly StepReport[]): StepReport['typeCheck'] {
  return verification.find((report) => report.step === TYPES_STEP)?.typeCheck;
}
