import type { UseEdge } from './codeGraph';

export interface PathStep {
  /** Canonical element path. */
  readonly element: string;
  /** How the previous step reaches this one; undefined for the first step. */
  readonly via?: UseEdge;
}

export interface PathSearch {
  /** Shortest first. */
  readonly paths: readonly (readonly PathStep[])[];
  /** Elements whose uses were read. */
  readonly explored: number;
  /** True when the search stopped at the node limit before the depth limit. */
  readonly truncated: boolean;
}

export interface PathSearchOptions {
  readonly maxDepth: number;
  readonly maxPaths: number;
  /** Stop expanding after reading the uses of this many elements. */
  readonly maxNodes: number;
  readonly callsOnly: boolean;
}

/**
 * Breadth-first from `from` over the uses of each element, so the first paths found are the shortest. Every
 * shortest way to a node is kept (its parents at the previous level), then paths to `to` (or to an element inside it)
 * are spelled out level by level until `maxPaths`.
 */
export async function shortestPaths(
  from: string,
  to: string,
  usesOf: (element: string) => Promise<readonly UseEdge[]> | readonly UseEdge[],
  options: PathSearchOptions,
): Promise<PathSearch> {
  const isTarget = (element: string): boolean => element === to || element.startsWith(`${to}/`);
  const level = new Map<string, number>([[from, 0]]);
  const parents = new Map<string, Array<{ from: string; edge: UseEdge }>>();
  const hits: string[] = [];
  let frontier = [from];
  let explored = 0;
  let truncated = false;
  for (let depth = 0; depth < options.maxDepth && frontier.length > 0 && hits.length === 0; depth++) {
    const next: string[] = [];
    for (const element of frontier) {
      if (explored >= options.maxNodes) {
        truncated = true;
        break;
      }
      explored++;
      for (const edge of await usesOf(element)) {
        if (options.callsOnly && edge.kind !== 'call') continue;
        const known = level.get(edge.target);
        if (known !== undefined && known < depth + 1) continue;
        if (known === undefined) {
          level.set(edge.target, depth + 1);
          next.push(edge.target);
          if (isTarget(edge.target)) hits.push(edge.target);
        }
        const list = parents.get(edge.target) ?? [];
        list.push({ from: element, edge });
        parents.set(edge.target, list);
      }
    }
    if (truncated) break;
    frontier = next;
  }
  const paths: PathStep[][] = [];
  const spell = (element: string, suffix: PathStep[]): void => {
    if (paths.length >= options.maxPaths) return;
    if (element === from) {
      paths.push([{ element: from }, ...suffix]);
      return;
    }
    for (const parent of parents.get(element) ?? []) {
      spell(parent.from, [{ element, via: parent.edge }, ...suffix]);
      if (paths.length >= options.maxPaths) return;
    }
  };
  if (isTarget(from)) paths.push([{ element: from }]);
  for (const hit of hits) spell(hit, []);
  return { paths, explored, truncated };
}
