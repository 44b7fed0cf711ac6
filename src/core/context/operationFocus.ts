import type { ElementNode, FileOutline } from '../elements/element';
import { resolveElementPath } from '../elements/resolve';
import type { CreatePosition, Operation } from '../ops/operation';
import type { ContainerFocus } from './buildContext';
import { placeSearch } from '../check/seenLines';

/**
 * The context a batch of operations needs, read from the operations themselves (issue 28's "operation targets"):
 * what a model must have seen to write them. A replaced, patched or deleted element is focused in full; a member
 * created at a position makes its container a container at the cost of that change (the members at the position in
 * full, the others by signature or name); a patch of a container's own text (its header, a comment between members)
 * makes it one with no member in full; import operations need no focus (the view shows the imports the code uses,
 * and ADD_IMPORT/REMOVE_IMPORT need no sight of the block); a whole-file operation needs the whole file.
 */

export interface OperationFocus {
  readonly focus: readonly string[];
  readonly containers: readonly ContainerFocus[];
  readonly whole: boolean;
  /** Operation paths the old file does not hold (what the batch itself creates or renames), placed at their container. */
  readonly unresolved: readonly string[];
}

/** The members shown in full beside a position: the sibling it names and the one on its other side. */
export function nearMembers(children: readonly ElementNode[], position: CreatePosition | undefined): ElementNode[] {
  const members = children.filter((e) => e.kind !== 'import');
  if (position === undefined || members.length === 0) return [];
  switch (position.kind) {
    case 'FIRST_CHILD':
      return members.slice(0, 1);
    case 'LAST_CHILD':
      return members.slice(-1);
    case 'BEFORE':
    case 'AFTER': {
      const index = members.findIndex((m) => m.path === position.sibling || m.path.endsWith(`/${position.sibling}`));
      if (index < 0) return members.slice(-1);
      const other = position.kind === 'BEFORE' ? index - 1 : index + 1;
      return [members[index], members[other]].filter((m): m is ElementNode => m !== undefined);
    }
  }
}

export function focusOfOperations(outline: FileOutline, operations: readonly Operation[]): OperationFocus {
  const focus = new Set<string>();
  const containers = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  let whole = false;
  /** The element at `path`, or its nearest existing container when the batch creates or renames it. */
  const existing = (path: string): ElementNode | undefined => {
    for (let candidate = path; candidate.includes('/'); candidate = candidate.slice(0, candidate.lastIndexOf('/'))) {
      if (candidate === outline.file) break;
      const resolved = resolveElementPath(outline, candidate);
      if (resolved.ok) {
        if (candidate !== path) unresolved.push(path);
        return resolved.element;
      }
    }
    unresolved.push(path);
    return undefined;
  };
  const atCost = (container: ElementNode, near: readonly ElementNode[]): void => {
    const set = containers.get(container.path) ?? new Set<string>();
    for (const member of near) set.add(member.path);
    containers.set(container.path, set);
  };
  for (const operation of operations) {
    switch (operation.type) {
      case 'REPLACE_FILE':
      case 'CREATE_FILE':
        whole = true;
        break;
      case 'ADD_IMPORT':
      case 'REMOVE_IMPORT':
      // The compiler finds a rename's places; no code has to be shown for it.
      case 'RENAME_ELEMENT':
        break;
      case 'PATCH_ELEMENT': {
        // A patch of the file itself (its comments between elements) is written from the whole file (seen-code rule).
        if (operation.path === outline.file) {
          whole = true;
          break;
        }
        const element = existing(operation.path);
        if (element === undefined) break;
        if (element.children.length > 0 && operation.patches.every((p) => inOwnText(outline, element, p.search))) {
          atCost(element, []);
        } else focus.add(element.path);
        break;
      }
      case 'REPLACE_ELEMENT':
      case 'DELETE_ELEMENT': {
        const element = existing(operation.path);
        if (element !== undefined) focus.add(element.path);
        break;
      }
      case 'CREATE_ELEMENT': {
        if (operation.path === outline.file) {
          // Top level: the siblings at the position, in full.
          const near = nearMembers(outline.elements, operation.position);
          for (const member of near) focus.add(member.path);
          break;
        }
        const container = existing(operation.path);
        if (container === undefined) break;
        if (container.path !== operation.path && container.children.length === 0) focus.add(container.path);
        else atCost(container, nearMembers(container.children, operation.position));
        break;
      }
    }
  }
  // A container also focused in full needs no second view.
  const atCostFoci = [...containers]
    .filter(([path]) => !focus.has(path) && ![...focus].some((f) => path.startsWith(`${f}/`)))
    .map(([path, near]) => ({ path, near: [...near] }));
  return { focus: [...focus], containers: atCostFoci, whole, unresolved };
}

/** Whether a SEARCH text lies in the container's own text (its header, the text between members), not in a member. */
function inOwnText(outline: FileOutline, container: ElementNode, search: string): boolean {
  const span = placeSearch(outline.text, container, search);
  if (span === undefined) return false;
  return !container.children.some((child) => child.startLine <= span[1] && child.endLine >= span[0]);
}
