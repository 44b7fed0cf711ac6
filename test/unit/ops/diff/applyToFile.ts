import { applyOperations } from '../../../../src/core/ops/apply';
import type { Operation } from '../../../../src/core/ops/operation';

/** The file's text after the apply engine ran the operations on `before`; undefined when it refused them. */
export function applyToFile(file: string, before: string, operations: readonly Operation[]): string | undefined {
  const result = applyOperations({ read: (path) => (path === file ? before : undefined) }, operations);
  if (!result.ok) return undefined;
  return result.changes.find((change) => change.path === file)?.after ?? before;
}
