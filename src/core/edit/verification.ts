import { loadLanguagesForPaths } from '../language/languages';
import { applyOperations, type ApplyOptions, type ApplyResult, type SnapshotReader } from '../ops/apply';
import type { Operation } from '../ops/operation';
import type { NewTypeError } from '../check/typeCheck';
import type { BrokenReference } from './referencesStep';
import type { ShownRequest } from './shownRecord';

/**
 * Verification as a list of steps. The first is always the apply engine's own (every operation resolves, the result
 * parses, only the targeted elements changed, no lazy placeholders); further steps (issue 18's type check) run on
 * its changes when it passed, and their problems go back to the model in the repair loop like failed operations.
 */

export interface VerificationInput {
  readonly snapshot: SnapshotReader;
  readonly operations: readonly Operation[];
  /** The apply step's result: `changes` are what the batch would write. */
  readonly apply: ApplyResult;
  /** What the model was shown in this request so far; absent for operations from elsewhere (pasted). */
  readonly shown?: readonly ShownRequest[];
}

export interface VerificationProblem {
  /** The file the problem is in. */
  readonly path: string;
  readonly message: string;
  /** The operation of the batch it is blamed on, when the step knows; that operation goes back for repair. */
  readonly operationIndex?: number;
  /** The message shows this file (or element, by canonical path) in full: the repair round counts it as seen. */
  readonly shows?: { readonly file: string; readonly path?: string };
  /** The type check's errors behind the message, for surfaces that mark them where they are (the preview). */
  readonly typeErrors?: readonly NewTypeError[];
  /** Uses of a renamed or deleted element the batch leaves in place (the references step), behind the message. */
  readonly brokenReferences?: readonly BrokenReference[];
}

/** What a step found: problems, and notes on what it could not check (said, never passed off as checked). */
export interface StepOutcome {
  readonly problems: readonly VerificationProblem[];
  readonly notes?: readonly string[];
}

export interface VerificationStep {
  /** Names the step in the result and in the repair message (`types`, ...). */
  readonly name: string;
  /** Its problems go back for repair, but when the repair rounds are spent they do not stop the batch. */
  readonly mayRemain?: boolean;
  run(
    input: VerificationInput,
  ): readonly VerificationProblem[] | StepOutcome | Promise<readonly VerificationProblem[] | StepOutcome>;
}

export interface StepReport {
  readonly step: string;
  readonly problems: readonly VerificationProblem[];
  /** What the step could not check, in words ("references to X were not checked: ..."). */
  readonly notes?: readonly string[];
}

export interface Verification {
  readonly ok: boolean;
  readonly apply: ApplyResult;
  /** One report per step that ran, the apply step first (its problems are the failed operations). */
  readonly steps: readonly StepReport[];
  /** Problems of the steps after the apply step. */
  readonly problems: readonly VerificationProblem[];
}

const EMPTY_APPLY: ApplyResult = { ok: false, results: [], changes: [] };

export const APPLY_STEP = 'apply';

export async function verifyBatch(
  snapshot: SnapshotReader,
  operations: readonly Operation[],
  options: ApplyOptions,
  steps: readonly VerificationStep[],
  shown?: readonly ShownRequest[],
): Promise<Verification> {
  // A model may touch files in a language no file of the request was in: its parser loads before the apply.
  await loadLanguagesForPaths(operations.map((o) => o.path));
  const apply = operations.length === 0 ? EMPTY_APPLY : applyOperations(snapshot, operations, options);
  const reports: StepReport[] = [
    {
      step: APPLY_STEP,
      problems: apply.results
        .filter((r) => r.status === 'failed')
        .map((r) => ({ path: r.operation.path, message: r.message ?? 'failed', operationIndex: r.index })),
    },
  ];
  const problems: VerificationProblem[] = [];
  // With `partial`, what applied is checked too: it is what would be written.
  if (apply.ok || (options.partial === true && apply.changes.length > 0)) {
    for (const step of steps) {
      const found = await step.run({ snapshot, operations, apply, ...(shown === undefined ? {} : { shown }) });
      const outcome: StepOutcome = isStepOutcome(found) ? found : { problems: found };
      reports.push({
        step: step.name,
        problems: outcome.problems,
        ...(outcome.notes === undefined || outcome.notes.length === 0 ? {} : { notes: outcome.notes }),
      });
      problems.push(...outcome.problems);
    }
  }
  return { ok: apply.ok && problems.length === 0, apply, steps: reports, problems };
}

function isStepOutcome(found: readonly VerificationProblem[] | StepOutcome): found is StepOutcome {
  return !Array.isArray(found);
}

/** What the steps could not check, every step's notes in order. */
export function verificationNotes(steps: readonly StepReport[]): string[] {
  return steps.flatMap((report) => report.notes ?? []);
}

/** The problems that stop a batch: all but the kinds the caller lets through. */
export function blockingProblems(
  verification: Pick<Verification, 'problems'>,
  allowed: { readonly allowNewErrors?: boolean; readonly allowBrokenReferences?: boolean },
): VerificationProblem[] {
  return verification.problems.filter(
    (problem) =>
      !(allowed.allowNewErrors === true && problem.typeErrors !== undefined) &&
      !(allowed.allowBrokenReferences === true && problem.brokenReferences !== undefined),
  );
}
