import type { ElementKind, ElementNode } from '../../elements/element';
import type { ContainerFlavor, ContainerInfo } from '../../language/languageSupport';
import { indentBefore } from './textStyle';

/** How a container lays out its members, read from the members it has: what a new member copies. */

const BLOCK_KINDS = new Set<ElementKind>(['class', 'interface', 'enum', 'namespace', 'static', 'default']);
const FUNCTION_KINDS = new Set<ElementKind>(['function', 'method', 'constructor', 'getter', 'setter']);

/** Elements set apart by blank lines in most code: anything with a body, or over several lines. */
export function isBlock(element: ElementNode): boolean {
  if (element.startLine !== element.endLine || BLOCK_KINDS.has(element.kind)) return true;
  return FUNCTION_KINDS.has(element.kind) && element.bodyRange !== undefined;
}

/** What the layout of a member depends on: its kind, and whether it is block-like. */
export interface LayoutSide {
  readonly kind: ElementKind;
  readonly block: boolean;
}

export function layoutSideOf(element: ElementNode): LayoutSide {
  return { kind: element.kind, block: isBlock(element) };
}

/** The key of two neighbours in `BlankLines.pairs`. */
export function pairKey(above: LayoutSide, below: LayoutSide): string {
  return `${above.kind}${above.block ? '+' : ''}>${below.kind}${below.block ? '+' : ''}`;
}

export interface BlankLines {
  /** Next to a block-like member. */
  readonly block: number;
  /** Between two one-line members. */
  readonly line: number;
  /**
   * Between two neighbours of these kinds (`pairKey`), where the container has at least two such pairs: a file that
   * sets functions apart but keeps an interface flush with the constant of the same name, or its exports together.
   */
  readonly pairs: ReadonlyMap<string, number>;
}

/**
 * Blank lines the container puts next to block-like members and between one-line members: the most frequent count
 * among its neighbours; a class, namespace or file sets blocks apart by one line when it shows nothing.
 */
export function blankLinesOf(text: string, children: readonly ElementNode[], flavor: ContainerFlavor): BlankLines {
  const blocks: number[] = [];
  const lines: number[] = [];
  const byPair = new Map<string, number[]>();
  for (let i = 1; i < children.length; i++) {
    const a = children[i - 1];
    const b = children[i];
    if (a === undefined || b === undefined || a.endLine === b.startLine) continue;
    const between = text.slice(a.range.end, b.range.start).split('\n').slice(1, -1);
    const blanks = between.filter((l) => l.trim() === '').length;
    (isBlock(a) || isBlock(b) ? blocks : lines).push(blanks);
    // Comments between the two are text of their own, with blank lines of their own around them; overloads of one
    // name (Python's `@overload` defs) sit together whatever the spacing of other neighbours.
    const overloads = FUNCTION_KINDS.has(a.kind) && a.kind === b.kind && a.name !== '' && a.name === b.name;
    if (blanks < between.length || overloads) continue;
    const key = pairKey(layoutSideOf(a), layoutSideOf(b));
    const values = byPair.get(key);
    // Pushed, not copied: a file of 50,000 functions is one pair kind, and copying it per pair was quadratic.
    if (values === undefined) byPair.set(key, [blanks]);
    else values.push(blanks);
  }
  const mostFrequent = (values: readonly number[], fallback: number): number => {
    if (values.length === 0) return fallback;
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    let best = fallback;
    let bestCount = 0;
    for (const [value, count] of counts) {
      if (count > bestCount || (count === bestCount && value > best)) {
        best = value;
        bestCount = count;
      }
    }
    return Math.min(best, 2);
  };
  const wide = flavor === 'class' || flavor === 'file' || flavor === 'namespace' || flavor === 'callback';
  const pairs = new Map<string, number>();
  // One pair of a kind is no habit yet: a blank line there may set apart a group as much as the kinds.
  for (const [key, values] of byPair) if (values.length > 1) pairs.set(key, mostFrequent(values, 0));
  return { block: mostFrequent(blocks, wide ? 1 : 0), line: mostFrequent(lines, flavor === 'file' ? 1 : 0), pairs };
}

/** `;` or `,` when the members of an interface or type literal end with one (the last one aside), else ''. */
export function memberSeparatorOf(text: string, children: readonly ElementNode[], semicolons: boolean): string {
  const considered = children.length > 1 ? children.slice(0, -1) : children;
  if (considered.length === 0) return semicolons ? ';' : '';
  let semicolonCount = 0;
  let commaCount = 0;
  let noneCount = 0;
  for (const child of considered) {
    const last = text.slice(child.range.start, child.range.end).trimEnd().slice(-1);
    if (last === ';') semicolonCount += 1;
    else if (last === ',') commaCount += 1;
    else noneCount += 1;
  }
  if (commaCount > semicolonCount && commaCount >= noneCount) return ',';
  if (noneCount > semicolonCount && noneCount > commaCount) return '';
  return ';';
}

/** The indentation of the container's members: a member's own, else one level in from the container. */
export function childIndent(text: string, info: ContainerInfo, children: readonly ElementNode[], unit: string): string {
  for (const child of children) {
    const indent = indentBefore(text, child.range.start);
    if (indent !== undefined) return indent;
  }
  return info.flavor === 'file' ? '' : info.indent + unit;
}

/** For comma-separated members: whether the last one is followed by a comma (an empty container gets one). */
export function trailingCommaOf(text: string, children: readonly ElementNode[], info: ContainerInfo): boolean {
  if (info.flavor !== 'object' && info.flavor !== 'enum') return false;
  const last = children[children.length - 1];
  if (last === undefined) return true;
  return /^\s*,/.test(text.slice(last.range.end));
}
