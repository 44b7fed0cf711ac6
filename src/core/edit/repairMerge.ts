import type { Operation } from '../ops/operation';
import type { OperationIdentity } from './operationIdentity';

/**
 * The batch a request builds over its repair rounds, and what became of every operation the model sent (issue 24:
 * "no kept operation vanishes"). After a verification, the operations that failed (or that a check blamed) leave the
 * batch, since their failure goes back to the model; the others are kept, and the repair message says so. The next
 * answer's operations join the batch; one of them takes the place of a kept operation only when both have the same
 * identity (src/core/edit/operationIdentity.ts), never because they share a type and a file.
 */

export type OperationFate =
  /** In the last verified batch: its result is `apply.results[index]`. */
  | 'batch'
  /** A later answer's operation with the same identity took its place (`replacedBy`). */
  | 'replaced'
  /** It failed, or a check blamed it; it left the batch and the failure went back to the model. */
  | 'failed'
  /** Written beside NEED or FIND lines: set aside unverified, for the next answer to write again. */
  | 'set-aside';

export interface OperationRecord {
  /** The answer it came in: 0 for the first, 1 for the first repair round, ... */
  readonly round: number;
  readonly operation: Operation;
  readonly fate: OperationFate;
  /** Its position in the last verified batch, when `fate` is `batch`. */
  readonly index?: number;
  /** Why it failed, when `fate` is `failed`: the first line of the message sent back. */
  readonly message?: string;
  /** The operation that took its place, when `fate` is `replaced`. */
  readonly replacedBy?: { readonly round: number; readonly operation: Operation };
}

interface Entry {
  readonly round: number;
  readonly operation: Operation;
  fate: OperationFate;
  message?: string;
  replacedBy?: Entry;
}

export class RepairBatch {
  private readonly entries: Entry[] = [];
  /** The entries of the batch, in batch order. */
  private batch: Entry[] = [];

  constructor(private readonly identityOf: (operation: Operation) => OperationIdentity) {}

  /** The batch to verify. */
  get operations(): Operation[] {
    return this.batch.map((entry) => entry.operation);
  }

  /** Operations of an answer that asked NEED or FIND: recorded, not verified. */
  setAside(round: number, operations: readonly Operation[]): void {
    for (const operation of operations) this.entries.push({ round, operation, fate: 'set-aside' });
  }

  /**
   * The answer of `round` joins the batch. `failures` are the positions in the current batch that failed or were
   * blamed, with their message: they leave it. A kept operation leaves only for a new one with its identity.
   */
  add(round: number, operations: readonly Operation[], failures: ReadonlyMap<number, string> = new Map()): void {
    const added = operations.map((operation): Entry => ({ round, operation, fate: 'batch' }));
    const byIdentity = new Map<OperationIdentity, Entry>();
    for (const entry of added) {
      const identity = this.identityOf(entry.operation);
      // Two operations of one answer with one identity: the first is the one that replaces (both stay in the batch).
      if (!byIdentity.has(identity)) byIdentity.set(identity, entry);
    }
    const kept: Entry[] = [];
    this.batch.forEach((entry, index) => {
      const failure = failures.get(index);
      if (failure !== undefined) {
        entry.fate = 'failed';
        entry.message = firstLine(failure);
        return;
      }
      const replacement = byIdentity.get(this.identityOf(entry.operation));
      if (replacement !== undefined) {
        entry.fate = 'replaced';
        entry.replacedBy = replacement;
        return;
      }
      kept.push(entry);
    });
    this.entries.push(...added);
    this.batch = [...kept, ...added];
  }

  /** Every operation the model sent, in the order sent, with its fate. */
  records(): OperationRecord[] {
    return this.entries.map((entry) => {
      const index = this.batch.indexOf(entry);
      return {
        round: entry.round,
        operation: entry.operation,
        fate: entry.fate,
        ...(index < 0 ? {} : { index }),
        ...(entry.message === undefined ? {} : { message: entry.message }),
        ...(entry.replacedBy === undefined
          ? {}
          : { replacedBy: { round: entry.replacedBy.round, operation: entry.replacedBy.operation } }),
      };
    });
  }
}

function firstLine(message: string): string {
  const line = message.split('\n')[0]?.trim() ?? '';
  return line.length <= 300 ? line : `${line.slice(0, 299)}…`;
}
