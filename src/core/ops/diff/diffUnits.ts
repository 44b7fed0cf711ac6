import type { ElementNode } from '../../elements/element';
import type { OpSpec } from './opSpecs';

/**
 * The unit tree DiffPlanner draws up for one file's diff: each unit a stretch of the file that changed, with its
 * candidate operations sorted by cost, and how units whose elements moved between them merge.
 */

export type DiffFallbackKind = 'file' | 'container' | 'element';

export interface DiffFallback {
  /** `file`: REPLACE_FILE; `container`: a container replaced or patched instead of diffed member by member;
   * `element`: a bigger operation on the same element than the cheapest one. */
  readonly kind: DiffFallbackKind;
  readonly path: string;
  readonly reason: string;
}

export interface Region {
  readonly beforeStart: number;
  readonly beforeEnd: number;
  readonly afterStart: number;
  readonly afterEnd: number;
  /**
   * The whole file as this unit alone leaves it, when that is not the old text with this region's new text in it:
   * a container's own text changed in several places between unchanged members.
   */
  readonly expected?: string;
}

export type CandidateLabel =
  'descend' | 'imports' | 'structure' | 'patch' | 'replace' | 'replace-verbatim' | 'replace-file';

export interface LeafCandidate {
  readonly label: Exclude<CandidateLabel, 'descend'>;
  readonly cost: number;
  readonly specs: readonly OpSpec[];
}

export interface DescendCandidate {
  readonly label: 'descend';
  readonly cost: number;
  readonly parts: readonly Unit[];
}

export type Candidate = LeafCandidate | DescendCandidate;

export interface Unit {
  readonly path: string;
  readonly region: Region;
  readonly candidates: readonly Candidate[];
  /** Why the unit cannot be diffed member by member although it has members; set for containers only. */
  readonly notDescended?: string;
  readonly isFile?: boolean;
  /** The leading import declarations of the file, as one unit. */
  readonly isImportBlock?: boolean;
  /** Imports deleted and inserted between two unchanged neighbours, and nothing else. */
  readonly isImportSegment?: boolean;
  /** For elements deleted and inserted between two unchanged neighbours: what those are. */
  readonly segment?: { readonly deleted: readonly ElementNode[]; readonly inserted: readonly ElementNode[] };
}

const LABEL_ORDER: readonly CandidateLabel[] = [
  'descend',
  'imports',
  'structure',
  'patch',
  'replace',
  'replace-verbatim',
  'replace-file',
];

/**
 * How much cheaper an operation on the whole container must be to win over operations on its members: a member
 * operation says precisely what changed, and each costs a header line more.
 */
const DESCEND_PREFERENCE = 1.25;

export function sortCandidates(candidates: readonly Candidate[], descendFirst = false): Candidate[] {
  const weighted = (candidate: Candidate): number =>
    candidate.label === 'descend' ? (descendFirst ? -Infinity : candidate.cost / DESCEND_PREFERENCE) : candidate.cost;
  return [...candidates].sort(
    (a, b) => weighted(a) - weighted(b) || LABEL_ORDER.indexOf(a.label) - LABEL_ORDER.indexOf(b.label),
  );
}

/**
 * Replaces, in place, the segment units an element moved between with one unit made by `merge`. Segments are
 * grouped when one deletes an element (kind and name) that another inserts; unnamed elements never move.
 */
export function mergeMoves(parts: Unit[], merge: (group: readonly Unit[]) => Unit): void {
  const key = (element: ElementNode): string | undefined =>
    element.name === '' ? undefined : `${element.kind}[${element.name}]`;
  const segments = parts.filter((part) => part.segment !== undefined);
  if (segments.length < 2) return;
  // Union-find over the segments, joined by the names one deletes and another inserts.
  const root = new Map<Unit, Unit>(segments.map((s) => [s, s]));
  const find = (unit: Unit): Unit => {
    let at = unit;
    while (root.get(at) !== at) at = root.get(at) ?? at;
    return at;
  };
  const deletedBy = new Map<string, Unit>();
  for (const unit of segments)
    for (const element of unit.segment?.deleted ?? []) {
      const name = key(element);
      if (name !== undefined && !deletedBy.has(name)) deletedBy.set(name, unit);
    }
  for (const unit of segments)
    for (const element of unit.segment?.inserted ?? []) {
      const name = key(element);
      const other = name === undefined ? undefined : deletedBy.get(name);
      if (other !== undefined && other !== unit) root.set(find(other), find(unit));
    }
  const groups = new Map<Unit, Unit[]>();
  for (const unit of segments) groups.set(find(unit), [...(groups.get(find(unit)) ?? []), unit]);
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const merged = merge(group);
    const at = parts.indexOf(group[0] as Unit);
    for (const unit of group) parts.splice(parts.indexOf(unit), 1);
    parts.splice(Math.min(at, parts.length), 0, merged);
  }
}
