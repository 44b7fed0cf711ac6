import type { DeleteElementOperation } from '../../operation';
import type { PlanState } from './planState';

/** DELETE_ELEMENT: an element (or one overload signature) goes, with its comments and separator. */

export function planDelete(state: PlanState, index: number, op: DeleteElementOperation): void {
  const resolved = state.resolve(index, op.path);
  if (resolved === undefined) return;
  const { element, node } = resolved;
  const label = `DELETE_ELEMENT ${node.path}`;
  const overloads = element.overloads;
  if (overloads !== undefined && node === overloads[overloads.length - 1] && node.bodyRange !== undefined) {
    state.fail(index, {
      message: `${label} would leave the overload signatures of ${element.path} without their implementation`,
      hint: `delete the whole set with DELETE_ELEMENT ${element.path}, or one of the signatures before it`,
      suggestions: [element.path],
    });
    return;
  }
  const probe = state.newTarget(element, node, index, 'deleted', '');
  const existing = state.targets.get(state.keyOf(probe.range));
  if (existing !== undefined) {
    const first = (existing.ops[0] ?? 0) + 1;
    state.fail(index, {
      message:
        existing.state === 'deleted'
          ? `${label} repeats operation #${first}, which already deletes it`
          : `${label} conflicts with operation #${first}, which edits that element; deleting it would discard that edit`,
      hint:
        existing.state === 'deleted' ? 'send each operation once' : 'either delete the element or edit it, not both',
    });
    return;
  }
  if (state.collides(index, probe.range, label)) return;
  state.targets.set(state.keyOf(probe.range), probe);
  // A deleted import no longer holds its names: an ADD_IMPORT after it may import one of them from another module
  // (`import invariant from 'tiny-invariant'` replaced by `import { invariant } from '@tanstack/router-core'`).
  // Only a declaration no import operation changed: one that is both edited and deleted is refused as it was.
  for (const declaration of state.imports?.declarations ?? []) {
    if (declaration.element === element && declaration.ops.length === 0) declaration.removed = true;
  }
}
