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

/**
 * Blank lines the container puts next to block-like members and between one-line members: the most frequent count
 * among its neighbours; a class, namespace or file sets blocks apart by one line when it shows nothing.
 */
export function blankLinesOf(
  text: string,
  children: readonly ElementNode[],
  flavor: ContainerFlavor,
): { block: number; line: number } {
  const blocks: number[] = [];
  const lines: number[] = [];
  for (let i = 1; i < children.length; i++) {
    const a = children[i - 1];
    const b = children[i];
    if (a === undefined || b === undefined || a.endLine === b.startLine) continue;
    const between = text.slice(a.range.end, b.range.start).split('\n').slice(1, -1);
    const blanks = between.filter((l) => l.trim() === '').length;
    (isBlock(a) || isBlock(b) ? blocks : lines).push(blanks);
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
  return { block: mostFrequent(blocks, wide ? 1 : 0), line: mostFrequent(lines, flavor === 'file' ? 1 : 0) };
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
