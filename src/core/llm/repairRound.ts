import type { TokenCounter } from '../context/tokens';
import type { FailureKind } from '../edit/advice';
import { codeBlocksOutsideOperations } from '../edit/answerNotes';
import type { ShownFile, ShownRequest } from '../edit/shownRecord';
import { typeCheckSummary } from '../edit/typeCheckStep';
import { typeRepairSection } from '../edit/typeRepair';
import type { Verification, VerificationProblem, VerificationStep } from '../edit/verification';
import { isOutlinable, outlineSource } from '../elements/outline';
import { briefMessage } from '../check/newErrors';
import { errorCodeLabel, type CheckerDescription } from '../graph/semantics';
import type { ApplyResult, SnapshotReader } from '../ops/apply';
import type { ParseError } from '../ops/operation';
import { repairUserMessage } from './prompts';

/**
 * What a coding round's verification leads to in the edit's conversation (src/core/llm/pipeline.ts): whether the
 * remaining problems may stay, which operations failed, the failure in words for the progress line and for the user
 * when the rounds are spent, and the follow-up messages (the repair message, the one to an answer without operations,
 * the one answering NEED and FIND lines).
 */

/**
 * How a repair round's failures are sent: the type errors with the code holding them (src/core/edit/typeRepair.ts),
 * the failure section under a token cap, and the earlier rounds' failure text left out of the conversation.
 */
export interface RepairMessage {
  readonly content: string;
  /** The same message once a later round supersedes it: only the code it showed in full stays. */
  readonly superseded: string;
  readonly shown: readonly ShownFile[];
  readonly offered: readonly string[];
  /** Files outside the request whose code the message attaches: the batch may now change them. */
  readonly joined: readonly string[];
}

/** The batch applied and its only problems come from steps that let them remain (--allow-new-errors). */
export function onlyMayRemain(verified: Verification, steps: readonly VerificationStep[] | undefined): boolean {
  if (!verified.apply.ok) return false;
  const lenient = new Set((steps ?? []).filter((s) => s.mayRemain === true).map((s) => s.name));
  return verified.steps.every((report) => report.problems.length === 0 || lenient.has(report.step));
}

/** The follow-up that answers NEED and FIND lines and asks for the operations again. */
export function askedAgainMessage(
  needText: string,
  found: readonly string[],
  setAside: number,
  verifiedOnce: boolean,
): string {
  const parts: string[] = [];
  if (needText !== '') parts.push(needText);
  if (found.length > 0) parts.push(found.join('\n\n'));
  const aside =
    setAside === 0
      ? ''
      : ` The ${setAside} operation${setAside === 1 ? '' : 's'} of your last answer ${setAside === 1 ? 'was' : 'were'} not applied: write ${setAside === 1 ? 'it' : 'them'} again if still right.`;
  parts.push(
    `Nothing has been applied yet.${aside} Now answer with ${verifiedOnce ? 'corrected operations for the failed ones' : 'all the operations of the task'}, in the format described.`,
  );
  return parts.join('\n\n');
}

/** The follow-up to an answer without operations: code without a header is named as such, and a decline offered. */
export function noOperationsMessage(answer: string): string {
  const blocks = codeBlocksOutsideOperations(answer);
  const what =
    blocks === 0
      ? 'Your answer held no operations.'
      : `Your answer held ${blocks === 1 ? 'a code block' : `${blocks} code blocks`} without an operation header, so nothing could be applied: put each change under its header (REPLACE_ELEMENT <path>, CREATE_ELEMENT ..., or REPLACE_FILE <file> for a whole file).`;
  return `${what} Answer with edit operations in the format described, and nothing else; or, if the task should not be done, only DECLINE: <reason>.`;
}

/** The positions of the batch that failed or that a check blamed, with the message sent back about them. */
export function failuresOf(apply: ApplyResult, problems: readonly VerificationProblem[]): Map<number, string> {
  const failures = new Map<number, string>();
  for (const result of apply.results)
    if (result.status === 'failed') failures.set(result.index, result.message ?? 'failed');
  for (const problem of problems)
    if (problem.operationIndex !== undefined && !failures.has(problem.operationIndex))
      failures.set(problem.operationIndex, problem.message);
  return failures;
}

/** The first thing a repair round sends back, on one line: what the progress of the round names. */
function firstFailureOf(
  apply: ApplyResult,
  parseErrors: readonly ParseError[],
  problems: readonly VerificationProblem[],
  operationCount: number,
): string {
  if (operationCount === 0 && parseErrors.length === 0) return 'the answer held no operations';
  const failed = apply.results.find((r) => r.status === 'failed');
  const typeError = problems.flatMap((p) => p.typeErrors ?? [])[0];
  const problem = problems[0];
  const parseError = parseErrors[0];
  const text =
    failed !== undefined
      ? `${failed.operation.type} ${failed.operation.path}: ${failed.message ?? 'failed'}`
      : typeError !== undefined
        ? `${typeError.file}:${typeError.line}: TS${typeError.code} ${typeError.message}`
        : problem !== undefined
          ? `${problem.path}: ${problem.message}`
          : parseError !== undefined
            ? `unreadable line ${parseError.line}: ${parseError.message}`
            : 'the answer did not verify';
  const line = text.split('\n')[0] ?? text;
  return line.length > FIRST_FAILURE_MAX ? `${line.slice(0, FIRST_FAILURE_MAX - 1)}…` : line;
}

/** A progress line is read at a glance. */
const FIRST_FAILURE_MAX = 160;

function countFailures(
  apply: ApplyResult,
  parseErrors: readonly ParseError[],
  problems: readonly VerificationProblem[],
): number {
  return apply.results.filter((r) => r.status === 'failed').length + parseErrors.length + problems.length;
}

function describeFailure(
  apply: ApplyResult,
  parseErrors: readonly ParseError[],
  problems: readonly VerificationProblem[],
  operationCount: number,
): string {
  if (operationCount === 0 && parseErrors.length === 0) return 'the answer held no operations';
  const failures = apply.results.filter((r) => r.status === 'failed');
  const parts = failures
    .slice(0, 3)
    .map((r) => `${r.operation.type} ${r.operation.path}: ${briefMessage(r.message ?? 'failed')}`);
  parts.push(...problems.slice(0, 3).map((p) => `${p.path}: ${briefMessage(p.message)}`));
  if (parseErrors.length > 0)
    parts.push(
      `${parseErrors.length} unreadable part${parseErrors.length === 1 ? '' : 's'} (line ${parseErrors[0]?.line}: ${parseErrors[0]?.message})`,
    );
  if (failures.length > 3) parts.push(`and ${failures.length - 3} more`);
  return parts.join('; ');
}

/**
 * The failure when every operation applied and passed every other check but type errors remain: the count, the first
 * few one line each (the CLI lists them all), and the kind the advice reads ("apply anyway", not "rephrase").
 */
function typeErrorsOnly(
  verified: Verification,
  parseErrors: readonly ParseError[],
): { failure: string; kind: FailureKind } | undefined {
  if (!verified.apply.ok || parseErrors.length > 0 || verified.problems.length === 0) return undefined;
  if (verified.problems.some((p) => p.typeErrors === undefined)) return undefined;
  const errors = verified.problems.flatMap((p) => p.typeErrors ?? []);
  const unreachable = verified.problems.filter((p) => p.reach === 'none').flatMap((p) => p.typeErrors ?? []).length;
  const environment = typeCheckSummary(verified.steps)?.environmentErrors.length ?? 0;
  const listed = errors
    .slice(0, 3)
    .map((e) => `${e.file}:${e.line}:${e.column} ${errorCodeLabel(e.code)} ${briefMessage(e.message)}`)
    .join('; ');
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : '';
  return {
    failure: `the edit adds ${errors.length} type error${errors.length === 1 ? '' : 's'} the model did not fix (${listed}${more}); nothing was applied`,
    kind: { kind: 'typeErrors', count: errors.length, unreachable, environment },
  };
}

/** The progress line of a repair round: the first failure it sends back, and how many more. */
export function failureProgressLine(
  apply: ApplyResult,
  parseErrors: readonly ParseError[],
  problems: readonly VerificationProblem[],
  operationCount: number,
): string {
  const count = countFailures(apply, parseErrors, problems);
  return `${firstFailureOf(apply, parseErrors, problems, operationCount)}${count > 1 ? ` (and ${count - 1} more)` : ''}`;
}

/** Why the batch is given up once the rounds are spent: the type errors alone when only they remain, else every failure. */
export function unverifiedFailure(
  verified: Verification,
  parseErrors: readonly ParseError[],
  operationCount: number,
  attempts: number,
  hasAnswer: boolean,
): { failure: string; kind: FailureKind } {
  const typesOnly = typeErrorsOnly(verified, parseErrors);
  if (typesOnly !== undefined) return typesOnly;
  const reason = describeFailure(verified.apply, parseErrors, verified.problems, operationCount);
  return {
    failure: `the model's operations did not verify after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}; nothing was applied`,
    kind: { kind: 'unverified', hasAnswer },
  };
}

/** The repair message of a round, with the type errors' section and what it shows in full. */
export function repairMessageOf(
  apply: ApplyResult,
  parseErrors: readonly ParseError[],
  problems: readonly VerificationProblem[],
  context: {
    readonly shown: readonly ShownRequest[];
    readonly snapshot: SnapshotReader;
    readonly counter: TokenCounter;
    readonly budget: number;
    readonly checker: CheckerDescription | undefined;
  },
): RepairMessage {
  const types = typeRepairSection({
    problems,
    shown: context.shown,
    outlineOf: (file) => {
      const text = context.snapshot.read(file);
      return text === undefined || !isOutlinable(file) ? undefined : outlineSource(file, text);
    },
    counter: context.counter,
    budget: context.budget,
    ...(context.checker === undefined ? {} : { checker: context.checker }),
  });
  const content = repairUserMessage(apply.results, parseErrors, problems, { counter: context.counter, types });
  const shownCode = [
    ...problems.flatMap((p) => (p.shows === undefined ? [] : [p.message.split('\n').slice(1).join('\n').trim()])),
    types.attachments,
  ].filter((part) => part !== '');
  return {
    content,
    superseded: [
      "(This round's failures are superseded by a later message.)",
      ...(shownCode.length === 0 ? [] : ['The code it showed in full:', ...shownCode]),
    ].join('\n\n'),
    shown: types.shown,
    offered: types.offered,
    joined: types.joined,
  };
}
