import type { ElementKind, ElementNode } from '../../elements/element';
import { formatElementPath, formatSegment } from '../../elements/elementPath';

/**
 * Operations apply in order, and an element's path depends on the elements around it at that moment: deleting or
 * creating a same-named sibling renumbers `#n`. The diff therefore plans against element references and writes
 * paths only when the operations are put in order, by replaying the structural changes on a copy of the tree.
 */

export interface TrackedElement {
  readonly kind: ElementKind;
  readonly name: string;
  /** The container, or undefined for a top-level element. */
  readonly parent: TrackedElement | undefined;
}

export interface TrackedTree {
  readonly file: string;
  /** Children lists by container; `undefined` is the file. */
  readonly roots: ReadonlyMap<TrackedElement | undefined, readonly TrackedElement[]>;
  /** The reference for each element of the outline it was built from. */
  readonly byNode: ReadonlyMap<ElementNode, TrackedElement>;
}

export function trackOutline(file: string, elements: readonly ElementNode[]): TrackedTree {
  const roots = new Map<TrackedElement | undefined, TrackedElement[]>();
  const byNode = new Map<ElementNode, TrackedElement>();
  const visit = (nodes: readonly ElementNode[], parent: TrackedElement | undefined): void => {
    const list: TrackedElement[] = [];
    for (const node of nodes) {
      const tracked: TrackedElement = { kind: node.kind, name: node.name, parent };
      byNode.set(node, tracked);
      list.push(tracked);
      if (node.children.length > 0) visit(node.children, tracked);
    }
    roots.set(parent, list);
  };
  visit(elements, undefined);
  return { file, roots, byNode };
}

/** A working copy of the tree that structural operations change as they are written out. */
export class PathState {
  private readonly lists = new Map<TrackedElement | undefined, TrackedElement[]>();

  constructor(private readonly tree: TrackedTree) {}

  private listOf(container: TrackedElement | undefined): TrackedElement[] {
    let list = this.lists.get(container);
    if (list === undefined) {
      list = [...(this.tree.roots.get(container) ?? [])];
      this.lists.set(container, list);
    }
    return list;
  }

  segmentOf(element: TrackedElement): string {
    const siblings = this.listOf(element.parent);
    let count = 0;
    let ordinal = 0;
    for (const sibling of siblings) {
      if (sibling.kind !== element.kind || sibling.name !== element.name) continue;
      count += 1;
      if (sibling === element) ordinal = count;
    }
    if (ordinal === 0) throw new Error(`element ${element.kind}[${element.name}] is not in the tree`);
    return formatSegment(element.kind, element.name, count > 1 ? ordinal : undefined);
  }

  pathOf(element: TrackedElement | undefined): string {
    const segments: string[] = [];
    for (let current = element; current !== undefined; current = current.parent) segments.unshift(this.segmentOf(current));
    return formatElementPath(this.tree.file, segments);
  }

  remove(element: TrackedElement): void {
    const list = this.listOf(element.parent);
    const index = list.indexOf(element);
    if (index >= 0) list.splice(index, 1);
  }

  /** Inserts after `previous`, before `next`, or (neither given) at the end. */
  insert(element: TrackedElement, previous: TrackedElement | undefined, next: TrackedElement | undefined): void {
    const list = this.listOf(element.parent);
    if (previous !== undefined) list.splice(list.indexOf(previous) + 1, 0, element);
    else if (next !== undefined) list.splice(Math.max(0, list.indexOf(next)), 0, element);
    else list.push(element);
  }

  /** Where an added import goes: after the last import of the file, or first. */
  insertImport(element: TrackedElement): void {
    const list = this.listOf(undefined);
    let last = -1;
    list.forEach((sibling, index) => {
      if (sibling.kind === 'import') last = index;
    });
    list.splice(last + 1, 0, element);
  }
}
