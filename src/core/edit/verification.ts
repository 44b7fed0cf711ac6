import { loadLanguagesForPaths } from '../language/languages';
import { applyOperations, type ApplyOptions, type ApplyResult, type SnapshotReader } from '../ops/apply';
import type { Operation } from '../ops/operation';
import type { NewTypeError } from '../check/typeCheck';
import type { LineSpan } from '../context/viewPieces';
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
  /**
   * The message shows this file (or element, by canonical path) in full, or only `lines` of the element: the repair
   * round counts it as seen.
   */
  readonly shows?: { readonly file: string; readonly path?: string; readonly lines?: readonly LineSpan[] };
  /** The type check's errors behind the message, for surfaces that mark them where they are (the preview). */
  readonly typeErrors?: readonly NewTypeError[];
}

export interface VerificationStep {
  /** Names the step in the result and in the repair message (`types`, ...). */
  readonly name: string;
  /** Its problems go back for repair, but when the repair rounds are spent they do not stop the batch. */
  readonly mayRemain?: boolean;
  run(input: VerificationInput): readonly VerificationProblem[] | Promise<readonly VerificationProblem[]>;
}

export interface StepReport {
  readonly step: string;
  readonly problems: readonly VerificationProblem[];
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
  if (apply.ok) {
    for (const step of steps) {
      const found = await step.run({ snapshot, operations, apply, ...(shown === undefined ? {} : { shown }) });
      reports.push({ step: step.name, problems: found });
      problems.push(...found);
    }
  }
  return { ok: apply.ok && problems.length === 0, apply, steps: reports, problems };
}
