import type { ImportDeclarationState } from '../importModel';
import type { ImportOrder } from './languageSpec';

/**
 * Where a new import declaration goes in a language that orders its imports (ImportSpec.orderOf): into the group of
 * the existing declaration nearest to it, at its sorted place when that group is sorted, else after the group's
 * last declaration. People group imports by blank lines (java.*, then javax.*, then the project's; static imports
 * apart) and keep each group sorted; a new import put at the end of the file's list would break both.
 */

export interface PlacedDeclaration {
  readonly state: ImportDeclarationState;
  readonly order: ImportOrder;
  /** Declarations with the same group number are one run, without blank lines or a container between them. */
  readonly group: number;
}

export type OrderCompare = (a: ImportOrder, b: ImportOrder) => number;

const ORDERS: readonly OrderCompare[] = [
  (a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  (a, b) => a.rank - b.rank || a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
];

/** How many leading dotted parts two names share (`java.util.List` and `java.util.Map` share 2). */
function sharedParts(a: string, b: string): number {
  const left = a.split(/\.|::/);
  const right = b.split(/\.|::/);
  let count = 0;
  while (count < left.length && count < right.length && left[count] === right[count]) count += 1;
  return count;
}

/** Whether `a` sorts after `b` among declarations of one kind (ordinal comparison). */
export function sortsAfter(a: ImportOrder, b: ImportOrder): boolean {
  const compare = ORDERS[0];
  return a.kind === b.kind && compare !== undefined && compare(a, b) > 0;
}

/** The order a sorted list follows, or undefined when it is not sorted (a list of one is sorted by any). */
export function sortOrderOf(orders: readonly ImportOrder[]): OrderCompare | undefined {
  return ORDERS.find((compare) => orders.every((order, i) => i === 0 || compare(orders[i - 1] ?? order, order) <= 0));
}

/** The declaration a new one goes after or before; undefined when no existing declaration can anchor it. */
export function orderedPlace(
  existing: readonly PlacedDeclaration[],
  request: ImportOrder,
): { readonly after?: ImportDeclarationState; readonly before?: ImportDeclarationState } | undefined {
  let nearest: PlacedDeclaration | undefined;
  let best = -1;
  for (const declaration of existing) {
    const score =
      (declaration.order.kind === request.kind ? 1000 : 0) + sharedParts(declaration.order.name, request.name);
    // Ties go to the later declaration: a new import with nothing in common goes to the end, as before.
    if (score >= best) {
      best = score;
      nearest = declaration;
    }
  }
  if (nearest === undefined) return undefined;
  const group = existing.filter((d) => d.group === nearest.group);
  const sameKind = group.filter((d) => d.order.kind === request.kind);
  const members = sameKind.length > 0 ? sameKind : group;
  const last = members.at(-1)?.state;
  const compare = sortOrderOf(members.map((d) => d.order));
  if (compare === undefined) return last === undefined ? undefined : { after: last };
  const next = members.find((d) => compare(d.order, request) > 0);
  if (next !== undefined) return { before: next.state };
  return last === undefined ? undefined : { after: last };
}
