import { describeTypeErrors, type TypeCheckService } from '../check/typeCheck';
import type { NewTypeError } from '../check/typeCheck';
import type { StepReport, VerificationProblem, VerificationStep } from './verification';

/**
 * Issue 18's type check as a verification step: the TypeScript errors the batch adds in the changed files and their
 * importers go back to the model in the repair loop. `mayRemain` (the CLI's --allow-new-errors) lets a batch whose
 * repair rounds are spent through with its errors reported.
 */

export const TYPES_STEP = 'types';

export function typeCheckStep(service: TypeCheckService, { mayRemain = false } = {}): VerificationStep {
  return {
    name: TYPES_STEP,
    mayRemain,
    async run({ apply }): Promise<VerificationProblem[]> {
      const result = await service.check(
        apply.changes.map((c) => ({ file: c.path, before: c.before, after: c.after })),
      );
      const byFile = new Map<string, typeof result.newErrors>();
      for (const error of result.newErrors) byFile.set(error.file, [...(byFile.get(error.file) ?? []), error]);
      return [...byFile].map(([file, errors]) => ({
        path: file,
        message:
          `the batch adds ${errors.length} TypeScript error${errors.length === 1 ? '' : 's'} here; ` +
          `fix them (callers included) with further operations:\n${describeTypeErrors(errors)}`,
        typeErrors: errors,
      }));
    },
  };
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
