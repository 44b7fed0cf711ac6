import { loadLanguagesForPaths } from '../language/languages';
import { applyOperations, type ApplyOptions, type ApplyResult, type SnapshotReader } from '../ops/apply';
import type { Operation } from '../ops/operation';
import type { ErrorReach } from '../check/newErrors';
import type { NewTypeError, TypeCheckSummary } from '../check/typeCheck';
import type { LineSpan } from '../context/viewPieces';
import type { BrokenReference } from './referencesStep';
import type { RenameResolver } from './renameResolver';
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
  /** The files the request may change (its own, and those the model brought in); absent: any file. */
  readonly requestFiles?: ReadonlySet<string>;
  /** Reports what a slow step is doing (the first type check builds a program for a while). */
  readonly progress?: (message: string) => void;
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
  /**
   * Where it can be fixed (type errors): in the request's files (the default), in a file the model may bring in with
   * NEED, or nowhere in this request, which is never a reason for another round (`reachNote` says why).
   */
  readonly reach?: ErrorReach;
  readonly reachNote?: string;
  /** Uses of a renamed or deleted element the batch leaves in place (the references step), behind the message. */
  readonly brokenReferences?: readonly BrokenReference[];
}

/** What a step found, with what the type check has to say beyond its problems, and what it could not check. */
export interface StepOutcome {
  readonly problems: readonly VerificationProblem[];
  readonly typeCheck?: TypeCheckSummary;
  /** What the step could not check, in words (said, never passed off as checked). */
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
  /** The type check's checker and the errors it set aside, when the step is the type check. */
  readonly typeCheck?: TypeCheckSummary;
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
  hooks: { readonly progress?: (message: string) => void; readonly renames?: RenameResolver } = {},
): Promise<Verification> {
  // A model may touch files in a language no file of the request was in: its parser loads before the apply.
  await loadLanguagesForPaths(operations.map((o) => o.path));
  // A RENAME_ELEMENT's places come from the compiler, found against the same snapshot before the pure apply.
  const renames =
    hooks.renames !== undefined && operations.some((o) => o.type === 'RENAME_ELEMENT')
      ? await hooks.renames(operations, snapshot, options.visibleFiles)
      : undefined;
  const apply =
    operations.length === 0
      ? EMPTY_APPLY
      : applyOperations(snapshot, operations, renames === undefined ? options : { ...options, renames });
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
      const output = await step.run({
        snapshot,
        operations,
        apply,
        ...(shown === undefined ? {} : { shown }),
        ...(options.visibleFiles === undefined ? {} : { requestFiles: options.visibleFiles }),
        ...(hooks.progress === undefined ? {} : { progress: hooks.progress }),
      });
      const outcome: StepOutcome = 'problems' in output ? output : { problems: output };
      reports.push({
        step: step.name,
        problems: outcome.problems,
        ...(outcome.typeCheck === undefined ? {} : { typeCheck: outcome.typeCheck }),
        ...(outcome.notes === undefined || outcome.notes.length === 0 ? {} : { notes: outcome.notes }),
      });
      problems.push(...outcome.problems);
    }
  }
  return { ok: apply.ok && problems.length === 0, apply, steps: reports, problems };
}

/** What the steps could not check, every step's notes in order. */
export function verificationNotes(steps: readonly StepReport[]): string[] {
  return steps.flatMap((report) => report.notes ?? []);
}

/** What a caller lets through: new type errors, uses left to a renamed or deleted element. */
export interface Allowances {
  readonly allowNewErrors?: boolean;
  readonly allowBrokenReferences?: boolean;
}

/** The problems that stop a batch: all but the kinds the caller lets through. */
export function blockingProblems(
  verification: Pick<Verification, 'problems'>,
  allowed: Allowances,
): VerificationProblem[] {
  return verification.problems.filter(
    (problem) =>
      !(allowed.allowNewErrors === true && problem.typeErrors !== undefined) &&
      !(allowed.allowBrokenReferences === true && problem.brokenReferences !== undefined),
  );
}
