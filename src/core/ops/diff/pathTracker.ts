import type { ElementKind, ElementNode } from '../../elements/element';
import { formatElementPath, formatSegment } from '../../elements/elementPath';

/**
 * The apply engine resolves every path of a batch against the file as it was before the batch, and a sibling named
 * by BEFORE/AFTER may also be an element created earlier in the batch. The diff plans against element references
 * and writes paths only when the operations are put in order: snapshot paths for elements of the old text, the bare
 * `kind[name]` segment for elements the batch creates.
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

/** Writes paths of tracked elements. */
export class PathState {
  constructor(private readonly tree: TrackedTree) {}

  segmentOf(element: TrackedElement): string {
    const siblings = this.tree.roots.get(element.parent) ?? [];
    let count = 0;
    let ordinal = 0;
    for (const sibling of siblings) {
      if (sibling.kind !== element.kind || sibling.name !== element.name) continue;
      count += 1;
      if (sibling === element) ordinal = count;
    }
    // Not in the old text: created by the batch, and named by its bare segment.
    if (ordinal === 0) return formatSegment(element.kind, element.name);
    return formatSegment(element.kind, element.name, count > 1 ? ordinal : undefined);
  }

  pathOf(element: TrackedElement | undefined): string {
    const segments: string[] = [];
    for (let current = element; current !== undefined; current = current.parent)
      segments.unshift(this.segmentOf(current));
    return formatElementPath(this.tree.file, segments);
  }
}
