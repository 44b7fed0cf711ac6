import type { ElementNode } from '../elements/element';
import { canonicalKind } from '../elements/elementPath';
import { globMatcher } from './glob';
import { ToolInputError } from './types';

/**
 * find_symbols' name patterns (issue 27): a name (`validate`), a name path (`User/validate`: validate inside
 * something named User) or segments in the element-path form (`class[User]/method[*]`), matched against the
 * innermost elements of a path, so no file part is needed. A leading `/` anchors the pattern at the top of a file.
 * A plain last segment matches as a name always has (a substring, or a glob with `*` and `?`); the other segments,
 * and a bracketed one, match exactly (case aside) unless they hold a wildcard, as in an element path.
 */
export type NamePathMatcher = (chain: readonly ElementNode[]) => boolean;

interface NameSegment {
  readonly kind?: string;
  readonly matches: (name: string) => boolean;
}

/** Splits at `/` outside brackets: a computed name (`method[[Symbol.iterator]]`) may hold one. */
function segmentsOf(pattern: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of pattern) {
    if (char === '[') depth += 1;
    else if (char === ']') depth = Math.max(0, depth - 1);
    if (char === '/' && depth === 0) {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments;
}

function segmentOf(text: string, last: boolean, pattern: string): NameSegment {
  const bracketed = /^([\w=-]+)\[(.*)\]$/.exec(text);
  const kindWord = bracketed?.[1];
  const name = bracketed === null ? text : (bracketed[2] ?? '');
  let kind: string | undefined;
  if (kindWord !== undefined) {
    kind = canonicalKind(kindWord);
    if (kind === undefined)
      throw new ToolInputError(`"${pattern}": no element kind "${kindWord}" (class, method, function, ...)`);
  }
  if (name === '' && kind === undefined) throw new ToolInputError(`"${pattern}": an empty segment`);
  const glob = /[*?]/.test(name);
  const lower = name.toLowerCase();
  const matches =
    name === '' || name === '*'
      ? () => true
      : (last && bracketed === null) || glob
        ? globMatcher(name)
        : (candidate: string) => candidate.toLowerCase() === lower;
  return kind === undefined ? { matches } : { kind, matches };
}

export function namePathMatcher(pattern: string): NamePathMatcher {
  const anchored = pattern.startsWith('/');
  const texts = segmentsOf(anchored ? pattern.slice(1) : pattern);
  const segments = texts.map((text, i) => segmentOf(text, i === texts.length - 1, pattern));
  return (chain) => {
    if (chain.length < segments.length || (anchored && chain.length !== segments.length)) return false;
    const tail = chain.slice(chain.length - segments.length);
    return segments.every((segment, i) => {
      const element = tail[i];
      if (element === undefined) return false;
      return (segment.kind === undefined || segment.kind === element.kind) && segment.matches(element.name);
    });
  };
}
