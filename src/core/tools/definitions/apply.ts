import { createTwoFilesPatch } from 'diff';
import {
  fileOfOperation,
  isConflictPolicy,
  resolveAgainstCurrent,
  type ConflictPolicy,
  type Resolution,
} from '../../edit/rebase';
import { answerDecline } from '../../edit/answerNotes';
import type { VerifyLevel } from '../../edit/editSettings';
import { remainingTypeErrors } from '../../edit/typeCheckStep';
import { blockingProblems, verificationNotes } from '../../edit/verification';
import { languageFor } from '../../language/languages';
import type { ApplyResult, FileChange, SnapshotReader } from '../../ops/apply';
import { parseOperations } from '../../ops/format';
import type { OperationResult } from '../../ops/operation';
import { compactTable, count, diffWithinBudget, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { stringArg } from '../validateInput';

interface ApplyInput {
  readonly operations: string;
  readonly dryRun: boolean;
  readonly partial: boolean;
  readonly onConflict: ConflictPolicy;
  readonly verify: VerifyLevel;
  readonly allowNewErrors: boolean;
}

export const resultTable: TableSpec<OperationResult> = {
  columns: ['#', 'status', 'operation', 'path', 'note'],
  cells: (r) => [
    String(r.index + 1),
    r.status,
    r.operation.type,
    r.operation.path,
    [
      r.message,
      r.hint === undefined ? undefined : `hint: ${r.hint}`,
      r.suggestions?.length ? `nearest: ${r.suggestions.join(', ')}` : undefined,
    ]
      .filter((x) => x !== undefined)
      .join('; '),
  ],
  json: (r) => ({
    index: r.index,
    status: r.status,
    type: r.operation.type,
    path: r.operation.path,
    ...(r.message === undefined ? {} : { message: r.message }),
    ...(r.hint === undefined ? {} : { hint: r.hint }),
    ...(r.suggestions === undefined ? {} : { suggestions: r.suggestions }),
  }),
};

function diffOf(changes: readonly FileChange[]): string {
  return changes
    .map((c) =>
      createTwoFilesPatch(
        c.before === undefined ? '/dev/null' : `a/${c.path}`,
        `b/${c.path}`,
        c.before ?? '',
        c.after,
        undefined,
        undefined,
        {
          context: 2,
        },
      ),
    )
    .join('')
    .replace(/^=+\n/gm, '');
}

export const applyTool: ToolSpec<ApplyInput> = {
  name: 'apply',
  title: 'Apply operations',
  description:
    'Apply element operations (REPLACE_ELEMENT, CREATE_ELEMENT, DELETE_ELEMENT, PATCH_ELEMENT, RENAME_ELEMENT, ADD_IMPORT, REMOVE_IMPORT, CREATE_FILE, REPLACE_FILE), verified (syntax, targets only, no new type errors), written all or nothing.',
  inputSchema: {
    type: 'object',
    properties: {
      operations: {
        type: 'string',
        maxLength: 4_000_000,
        description: 'E.g. "REPLACE_ELEMENT src/a.ts/function[f]\\n```ts\\nfunction f() {}\\n```".',
      },
      dryRun: { type: 'boolean' },
      partial: {
        type: 'boolean',
        description: 'Write what verified.',
      },
      verify: {
        type: 'string',
        enum: ['types', 'syntax'],
      },
      allowNewErrors: {
        type: 'boolean',
      },
      onConflict: {
        type: 'string',
        enum: ['user_wins', 'agent_wins', 'ask'],
        description: 'Default user_wins.',
      },
    },
    required: ['operations'],
    additionalProperties: false,
  },
  writes: true,
  parse: (input) => {
    const operations = stringArg(input, 'operations') ?? '';
    if (operations.trim() === '') throw new ToolInputError('"operations" is empty');
    const onConflict = typeof input['onConflict'] === 'string' ? input['onConflict'] : 'user_wins';
    if (!isConflictPolicy(onConflict)) throw new ToolInputError('"onConflict" is user_wins, agent_wins or ask');
    const verify = typeof input['verify'] === 'string' ? input['verify'] : 'types';
    if (verify !== 'types' && verify !== 'syntax') throw new ToolInputError('"verify" is types or syntax');
    return {
      operations,
      dryRun: input['dryRun'] === true,
      partial: input['partial'] === true,
      onConflict,
      verify,
      allowNewErrors: input['allowNewErrors'] === true,
    };
  },
  describe: (input) => {
    const parsed = parseOperations(input.operations);
    const targets = parsed.operations.map((o) => `${o.type} ${o.path}`);
    return `${input.dryRun ? 'check' : 'apply'} ${targets.length} operation${targets.length === 1 ? '' : 's'}: ${targets.slice(0, 5).join(', ')}${targets.length > 5 ? ', …' : ''}`;
  },
  async handle(input, env, budget) {
    const parsed = parseOperations(input.operations);
    const declined = parsed.operations.length === 0 ? answerDecline(input.operations) : undefined;
    if (declined !== undefined)
      return { text: `the answer declines the task: ${declined}\nnothing was written`, isError: true };
    if (parsed.operations.length === 0) {
      const reasons = parsed.errors.map(
        (e) => `line ${e.line}: ${e.message}${e.expected === undefined ? '' : ` (expected ${e.expected})`}`,
      );
      return { text: ['no operations could be read; nothing was written', ...reasons].join('\n'), isError: true };
    }
    const current = env.writer.snapshot();
    // Files the user changed since the agent last saw them: the batch is verified against what the agent saw, then
    // merged per element into the text as it is now (issue 11).
    const moved = new Map<string, string>();
    const deleted: string[] = [];
    for (const [path, seen] of [...env.conversation.baselines]) {
      const touched = parsed.operations.some((o) => fileOfOperation(o, [path]) !== undefined);
      if (!touched) continue;
      const now = current.read(path);
      if (now === undefined) {
        // Deleted outside the server since the agent saw (or wrote) it: the disk says what is there, so a CREATE_FILE
        // creates it again and an edit of it fails as one of a missing file.
        env.conversation.forget(path);
        deleted.push(path);
      } else if (now !== seen) moved.set(path, seen);
    }
    if (env.progress !== undefined) await env.progress(`verifying ${count(parsed.operations.length)} operations`);
    const seen: SnapshotReader = { read: (path) => moved.get(path) ?? current.read(path) };
    // The verification of `scalpel edit` and `scalpel apply`, by the surface's edit service.
    const verification = await env.writer.verify({
      snapshot: moved.size === 0 ? current : seen,
      operations: parsed.operations,
      partial: input.partial,
      verify: input.verify,
      allowNewErrors: input.allowNewErrors,
    });
    let result: ApplyResult = verification.apply;
    const problems = verification.steps.slice(1).flatMap((report) => report.problems);
    const blocking = blockingProblems(verification, {
      allowNewErrors: input.allowNewErrors,
      allowBrokenReferences: input.allowNewErrors,
    });
    let resolution: Resolution | undefined;
    if (moved.size > 0 && result.changes.length > 0) {
      resolution = mergeWithUser(result, moved, current, input.onConflict);
      result = { ...result, changes: resolution.changes };
    }
    const lines: string[] = [];
    if (deleted.length > 0)
      lines.push(`deleted since you last saw ${deleted.length === 1 ? 'it' : 'them'}: ${deleted.join(', ')}`);
    const unreadable = parsed.errors.map(
      (e) => `unreadable line ${e.line}: ${e.message}${e.expected === undefined ? '' : ` (expected ${e.expected})`}`,
    );
    const verified = result.ok && blocking.length === 0 && parsed.errors.length === 0;
    const writable = (verified || (input.partial && result.changes.length > 0)) && verification.ok;
    const failed = result.results.filter((r) => r.status !== 'ok').length;
    const files = result.changes.map((c) => c.path);
    lines.push(
      verified
        ? `verified: ${count(parsed.operations.length)} operations; ${files.length === 0 ? 'no file changes' : `changes ${files.join(', ')}`}`
        : failed > 0 || unreadable.length > 0
          ? `not verified: ${count(failed)} of ${count(parsed.operations.length)} operations failed${unreadable.length > 0 ? `, ${unreadable.length} unreadable` : ''}${blocking.length > 0 ? `, ${count(blocking.length)} checks refused it` : ''}`
          : `not verified: ${count(blocking.length)} check${blocking.length === 1 ? '' : 's'} refused the batch`,
    );
    lines.push(...unreadable);
    lines.push(compactTable(resultTable, result.results));
    for (const problem of problems)
      lines.push(`${blocking.includes(problem) ? 'refused' : 'allowed'} ${problem.path}: ${problem.message}`);
    lines.push(...verificationNotes(verification.steps).map((note) => `note: ${note}`));
    if (resolution !== undefined) lines.push(...describeMerge(resolution, [...moved.keys()]));
    if (!writable) {
      lines.push('nothing was written; fix the failed operations and send the whole batch again');
      return { text: lines.join('\n'), isError: true };
    }
    if (resolution !== undefined && result.changes.length === 0) {
      lines.push("nothing was written: every change conflicts with the user's edits (see above)");
      return { text: lines.join('\n'), isError: true };
    }
    if (input.dryRun) {
      const diff = diffOf(result.changes).split('\n');
      const head = `dry run, nothing written; the diff:`;
      lines.push(head, ...diffWithinBudget(env.counter, budget, diff, [...lines, head]));
      return { text: lines.join('\n') };
    }
    if (result.changes.length === 0) {
      // Bodies equal to what the files hold: there is nothing to write, and no file to name as written.
      lines.push('nothing was written: the operations leave every file as it is');
      return { text: lines.join('\n'), isError: true };
    }
    if (env.signal?.aborted === true) {
      lines.push('cancelled before the write: nothing was written');
      env.logger.info(
        `apply cancelled before the write: nothing written (${count(parsed.operations.length)} operations)`,
      );
      return { text: lines.join('\n'), isError: true };
    }
    const typeErrors = remainingTypeErrors(verification.steps);
    const outcome = await env.writer.write(
      {
        title: `agent edit: ${count(parsed.operations.length)} operations`,
        operations: parsed.operations,
        results: result.results,
        changes: result.changes,
        ...(typeErrors.length === 0 ? {} : { typeErrors }),
      },
      env.signal,
    );
    if (outcome.status === 'cancelled') env.logger.info(`apply cancelled before the write: ${outcome.message}`);
    lines.push(`${outcome.status}: ${outcome.message}`);
    // What the agent wrote is what it has seen of those files now, and the state `diagnostics since batch` compares with.
    if (outcome.status === 'written' || outcome.status === 'applied') {
      for (const change of result.changes) env.conversation.recordShown(change.path, change.after);
      env.history.lastBatch = new Map(result.changes.map((change) => [change.path, change.before] as const));
    }
    if (outcome.status === 'written' || outcome.status === 'applied') {
      const unchecked =
        input.verify === 'syntax' ? files : files.filter((file) => languageFor(file)?.semantics === undefined);
      if (unchecked.length > 0)
        lines.push(
          `the types of ${unchecked.join(', ')} were not checked (${input.verify === 'syntax' ? 'verify: syntax' : 'no type checker for the language'}): the diagnostics tool shows what the language reports`,
        );
    }
    return { text: lines.join('\n'), isError: !['written', 'applied', 'preview'].includes(outcome.status) };
  },
};

/** The verified batch (against what the agent saw) merged per element into the current text. */
function mergeWithUser(
  verified: ApplyResult,
  moved: ReadonlyMap<string, string>,
  current: SnapshotReader,
  policy: ConflictPolicy,
): Resolution {
  const baseline = new Map(verified.changes.map((c) => [c.path, moved.get(c.path) ?? c.before] as const));
  const proposed = new Map(verified.changes.map((c) => [c.path, c.after] as const));
  const operations = verified.results
    .filter((r) => r.status === 'ok')
    .map((r) => ({ index: r.index, operation: r.operation }));
  return resolveAgainstCurrent(operations, baseline, current, 'hybrid', {
    policy,
    proposed: { read: (path) => proposed.get(path) },
  });
}

function describeMerge(resolution: Resolution, files: readonly string[]): string[] {
  const lines = [`the user changed ${files.join(', ')} since you last saw it: merged per element`];
  for (const c of resolution.conflicts) {
    const name = c.element ?? c.path;
    if (c.decision === 'pending') {
      lines.push(`#${c.index + 1} not written, the user decides: ${name} (${c.reason})`);
      if (c.userText !== undefined) lines.push("the user's version:", c.userText);
      lines.push('your version:', c.modelText ?? '(deleted)');
    } else lines.push(`#${c.index + 1} dropped, the user's text kept: ${name} (${c.reason})`);
  }
  for (const c of resolution.overridden ?? [])
    lines.push(
      `#${c.index + 1} written over the user's change to ${c.element ?? c.path}; theirs was:`,
      c.userText ?? '',
    );
  return lines;
}
