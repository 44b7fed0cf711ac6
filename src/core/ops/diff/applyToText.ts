import { applyOperations } from '../apply';
import type { Operation, RenameResolution } from '../operation';

/** The file's text after the apply engine ran the operations on `before`; undefined when it refused them. */
export function applyToFileText(
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
  const change = result.changes.find((c) => c.path === file);
  return change === undefined ? before : change.after;
}
