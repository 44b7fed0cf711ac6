import type { OperationRecord } from '../core/edit/repairMerge';
import type { ApplyResult } from '../core/ops/apply';

/**
 * Every operation the model sent over a request's rounds, with its final status, for `scalpel edit --json`
 * (`history`) and the terminal: nothing the repair rounds reported as kept leaves the batch without a word.
 */

export interface HistoryContext {
  readonly apply: ApplyResult;
  /** The batch was written (not a dry run, not a failure). */
  readonly written: boolean;
  /** It verified (a dry run counts). */
  readonly verified: boolean;
  /** Batch positions a conflict with the user's edits kept out. */
  readonly keptOut: ReadonlySet<number>;
}

export type HistoryStatus = 'applied' | 'verified' | 'not applied' | 'conflict' | 'failed' | 'replaced' | 'set aside';

export function historyStatus(record: OperationRecord, context: HistoryContext): HistoryStatus {
  switch (record.fate) {
    case 'replaced':
      return 'replaced';
    case 'set-aside':
      return 'set aside';
    case 'failed':
      return 'failed';
    case 'batch': {
      const result = record.index === undefined ? undefined : context.apply.results[record.index];
      if (result?.status === 'failed') return 'failed';
      if (!context.verified) return 'not applied';
      if (record.index !== undefined && context.keptOut.has(record.index)) return 'conflict';
      return context.written ? 'applied' : 'verified';
    }
  }
}

export function historyAsJson(history: readonly OperationRecord[], context: HistoryContext): unknown[] {
  return history.map((record) => {
    const result = record.index === undefined ? undefined : context.apply.results[record.index];
    const message = record.message ?? (result?.status === 'failed' ? result.message : undefined);
    return {
      round: record.round + 1,
      type: record.operation.type,
      path: record.operation.path,
      status: historyStatus(record, context),
      ...(message === undefined ? {} : { message }),
      ...(record.replacedBy === undefined
        ? {}
        : {
            replacedBy: {
              round: record.replacedBy.round + 1,
              type: record.replacedBy.operation.type,
              path: record.replacedBy.operation.path,
            },
          }),
    };
  });
}

/** A kept operation the model sent again: the later version is what was verified, and the user is told. */
export function describeReplaced(history: readonly OperationRecord[]): string[] {
  return history.flatMap((record) =>
    record.replacedBy === undefined
      ? []
      : [
          `scalpel: the model sent ${record.operation.type} ${record.operation.path} again in round ${record.replacedBy.round + 1}: ` +
            `its later version replaced the one of round ${record.round + 1}`,
        ],
  );
}
