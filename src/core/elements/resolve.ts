import type { ElementKind, ElementNode, FileOutline } from './element';
import {
  canonicalKind,
  ElementPathSyntaxError,
  kindsCompatible,
  parseElementPath,
  type PathSegment,
} from './elementPath';

export interface ResolvedElement {
  readonly element: ElementNode;
  /** The element's canonical path (differs from the request when resolved tolerantly). */
  readonly path: string;
  /** True when the request did not match exactly and was resolved by the tolerant rules. */
  readonly tolerant: boolean;
  /** When `#n` addressed one signature of an overload set: that signature (element holds the whole set). */
  readonly overload?: ElementNode;
}

export type ResolveResult =
  | ({ readonly ok: true } & ResolvedElement)
  | { readonly ok: false; readonly message: string; readonly suggestions: readonly string[] };

export class ElementNotFoundError extends Error {
  constructor(
    message: string,
    readonly suggestions: readonly string[],
  ) {
    super(suggestions.length === 0 ? message : `${message}; nearest: ${suggestions.join(', ')}`);
    this.name = 'ElementNotFoundError';
  }
}

/** Every element of an outline, depth first in file order. */
export function* walkElements(elements: readonly ElementNode[]): Generator<ElementNode> {
  for (const element of elements) {
    yield element;
    yield* walkElements(element.children);
  }
}

export function allElements(outline: FileOutline): ElementNode[] {
  return [...walkElements(outline.elements)];
}

/** The chain from the top-level element down to the element with this path, or undefined. */
export function ancestryOf(outline: FileOutline, path: string): ElementNode[] | undefined {
  const visit = (elements: readonly ElementNode[], chain: ElementNode[]): ElementNode[] | undefined => {
    for (const element of elements) {
      if (element.path === path) return [...chain, element];
      if (path.startsWith(`${element.path}/`)) {
        const found = visit(element.children, [...chain, element]);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return visit(outline.elements, []);
}

/** The innermost element whose range contains the offset, with its containers (outermost first). */
export function elementsAtOffset(outline: FileOutline, offset: number): ElementNode[] {
  const chain: ElementNode[] = [];
  let level: readonly ElementNode[] = outline.elements;
  for (;;) {
    const hit = level.find((e) => e.range.start <= offset && offset <= e.range.end);
    if (hit === undefined) return chain;
    chain.push(hit);
    level = hit.children;
  }
}

/** The elements a range touches, outermost that is fully inside or innermost that contains it. */
export function elementsInRange(outline: FileOutline, start: number, end: number): ElementNode[] {
  if (start === end) return elementsAtOffset(outline, start).slice(-1);
  const result: ElementNode[] = [];
  const visit = (elements: readonly ElementNode[]): void => {
    for (const element of elements) {
      if (element.range.end < start || element.range.start > end) continue;
      const inside = element.range.start >= start && element.range.end <= end;
      const touchesChildren = element.children.some((c) => c.range.end >= start && c.range.start <= end);
      if (inside || !touchesChildren) result.push(element);
      else visit(element.children);
    }
  };
  visit(outline.elements);
  return result;
}

function segmentMatchesExactly(element: ElementNode, segment: PathSegment): boolean {
  return element.kind === segment.kind && element.name === segment.name && element.ordinal === segment.ordinal;
}

/**
 * Resolves a path against the outline of its file. An exact path resolves to exactly one element; otherwise the
 * tolerant rules apply (kind synonyms, a missing container, case), and only a unique result is accepted.
 */
export function resolveElementPath(outline: FileOutline, path: string): ResolveResult {
  let parsed;
  try {
    parsed = parseElementPath(path);
  } catch (error) {
    // A path the model mistyped (a lost bracket) is still near one that exists: offer those, as for unknown names.
    if (error instanceof ElementPathSyntaxError)
      return { ok: false, message: error.message, suggestions: nearestPaths(outline, path) };
    throw error;
  }
  if (parsed.segments.length === 0) {
    return { ok: false, message: `"${path}" names a file, not an element`, suggestions: topLevelPaths(outline) };
  }
  const exact = resolveExactly(outline.elements, parsed.segments);
  if (exact !== undefined) return { ok: true, ...exact, tolerant: false };

  let matches = tolerantMatches(outline, parsed.segments);
  if (matches.length === 0) matches = macroCallMatches(outline, parsed.segments);
  if (matches.length === 1 && matches[0] !== undefined) return { ok: true, ...matches[0], tolerant: true };
  if (matches.length > 1) {
    return {
      ok: false,
      message: `"${path}" is ambiguous in ${outline.file}: it could be any of ${matches.length} elements`,
      suggestions: matches.map((m) => m.path).slice(0, 8),
    };
  }
  return {
    ok: false,
    message: `no element "${path}" in ${outline.file}`,
    suggestions: nearestPaths(outline, path),
  };
}

export function resolveElementPathOrThrow(outline: FileOutline, path: string): ResolvedElement {
  const result = resolveElementPath(outline, path);
  if (!result.ok) throw new ElementNotFoundError(result.message, result.suggestions);
  return result;
}

function resolveExactly(
  elements: readonly ElementNode[],
  segments: readonly PathSegment[],
): Omit<ResolvedElement, 'tolerant'> | undefined {
  let level = elements;
  let found: ElementNode | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === undefined) return undefined;
    const isLast = i === segments.length - 1;
    found = level.find((e) => segmentMatchesExactly(e, segment));
    if (found === undefined && isLast && segment.ordinal !== undefined) {
      const set = level.find((e) => e.kind === segment.kind && e.name === segment.name && e.overloads !== undefined);
      const overload = set?.overloads?.[segment.ordinal - 1];
      if (set !== undefined && overload !== undefined) return { element: set, path: overload.path, overload };
    }
    if (found === undefined) return undefined;
    level = found.children;
  }
  return found === undefined ? undefined : { element: found, path: found.path };
}

/** Candidates for a segment: same name (case-insensitive as a fallback) and a compatible kind. */
function segmentMatches(element: ElementNode, segment: PathSegment, caseInsensitive: boolean): boolean {
  const kind = canonicalKind(segment.kind);
  if (kind === undefined || !kindsCompatible(element.kind, kind)) return false;
  if (segment.ordinal !== undefined && element.ordinal !== undefined && element.ordinal !== segment.ordinal)
    return false;
  if (element.name === segment.name) return true;
  return caseInsensitive && element.name.toLowerCase() === segment.name.toLowerCase();
}

function tolerantMatches(outline: FileOutline, segments: readonly PathSegment[]): ResolvedElement[] {
  for (const caseInsensitive of [false, true]) {
    const matches: ResolvedElement[] = [];
    const last = segments[segments.length - 1];
    if (last === undefined) return [];
    const containers = segments.slice(0, -1);
    for (const element of walkElements(outline.elements)) {
      if (!segmentMatches(element, last, caseInsensitive)) continue;
      const ancestors = ancestryOf(outline, element.path)?.slice(0, -1) ?? [];
      if (!containersGiven(ancestors, containers, caseInsensitive)) continue;
      const overload =
        last.ordinal !== undefined && element.overloads !== undefined ? element.overloads[last.ordinal - 1] : undefined;
      if (last.ordinal !== undefined && element.ordinal === undefined && overload === undefined) continue;
      matches.push(
        overload === undefined
          ? { element, path: element.path, tolerant: true }
          : { element, path: overload.path, overload, tolerant: true },
      );
    }
    if (matches.length > 0) return matches;
  }
  return [];
}

/** Containers that were given must appear, in order, among the element's ancestors; missing ones are fine. */
function containersGiven(
  ancestors: readonly ElementNode[],
  containers: readonly PathSegment[],
  caseInsensitive: boolean,
): boolean {
  let next = 0;
  for (const ancestor of ancestors) {
    const container = containers[next];
    if (container !== undefined && segmentMatches(ancestor, container, caseInsensitive)) next += 1;
  }
  return next === containers.length;
}

/**
 * A macro call by the path it had before calls were named by their first identifier argument: `statement[test_lit!]#5`
 * is the fifth `test_lit!` call among its siblings, now `statement[test_lit! pfx_group1]`; without an ordinal, the one
 * such call of its container.
 */
function macroCallMatches(outline: FileOutline, segments: readonly PathSegment[]): ResolvedElement[] {
  const last = segments[segments.length - 1];
  if (last === undefined || canonicalKind(last.kind) !== 'statement' || !/^\S+!$/.test(last.name)) return [];
  const containers = segments.slice(0, -1);
  const matches: ResolvedElement[] = [];
  const visit = (elements: readonly ElementNode[], ancestors: readonly ElementNode[]): void => {
    const calls = elements.filter(
      (e) => e.kind === 'statement' && (e.name === last.name || e.name.startsWith(`${last.name} `)),
    );
    if (calls.length > 0 && containersGiven(ancestors, containers, false)) {
      const chosen = last.ordinal === undefined ? calls : [calls[last.ordinal - 1]];
      for (const call of chosen) if (call !== undefined) matches.push({ element: call, path: call.path, tolerant: true });
    }
    for (const element of elements) visit(element.children, [...ancestors, element]);
  };
  visit(outline.elements, []);
  return matches;
}

function topLevelPaths(outline: FileOutline): string[] {
  return outline.elements
    .filter((e) => e.kind !== 'import')
    .slice(0, 8)
    .map((e) => e.path);
}

/** The existing paths nearest to a requested one, by edit distance of the element part, closest first. */
export function nearestPaths(outline: FileOutline, requested: string, limit = 5): string[] {
  const requestedTail = tailOf(requested, outline.file).toLowerCase();
  const requestedName = lastName(requestedTail);
  const scored = allElements(outline)
    .filter((e) => e.kind !== 'import')
    .map((element) => {
      const tail = tailOf(element.path, outline.file).toLowerCase();
      const nameDistance = levenshtein(requestedName, element.name.toLowerCase());
      return { path: element.path, score: nameDistance * 4 + levenshtein(requestedTail, tail) };
    });
  scored.sort((a, b) => a.score - b.score || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}

function tailOf(path: string, file: string): string {
  const normalized = path.replace(/^file:/i, '').replace(/^\.\//, '');
  return normalized.startsWith(`${file}/`) ? normalized.slice(file.length + 1) : normalized;
}

function lastName(tail: string): string {
  const match = /\[([^\]]*)\][^/]*$/.exec(tail);
  return match?.[1] ?? tail.split('/').at(-1) ?? tail;
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Kind helper for callers holding a kind word from a model. */
export function kindOf(word: string): ElementKind | undefined {
  return canonicalKind(word);
}
