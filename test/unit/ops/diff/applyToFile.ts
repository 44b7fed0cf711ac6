import { applyOperations } from '../../../../src/core/ops/apply';
import type { Operation, RenameResolution } from '../../../../src/core/ops/operation';

/**
 * The file's text after the apply engine ran the operations on `before`; undefined when it refused them. `renames`:
 * the places of a RENAME_ELEMENT, as the diff gives them.
 */
export function applyToFile(
  file: string,
  before: string,
  operations: readonly Operation[],
  renames?: ReadonlyMap<Operation, RenameResolution>,
): string | undefined {
  const result = applyOperations(
    { read: (path) => (path === file ? before : undefined) },
    operations,
    renames === undefined ? {} : { renames },
  );
  if (!result.ok) return undefined;
  return result.changes.find((change) => change.path === file)?.after ?? before;
}
