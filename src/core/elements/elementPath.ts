import { LANGUAGE_CATALOG } from '../language/languageCatalog';
import { ELEMENT_KINDS, type ElementKind, NAMELESS_KINDS } from './element';

/**
 * Element paths: `<workspace-relative file>/<kind>[<name>]#<n>/...`. The grammar is written down in
 * docs/element-paths.md; this module is its only implementation.
 */

export interface PathSegment {
  /** The kind as written; for a parsed path this may be a synonym (`fn`, `field`), see {@link canonicalKind}. */
  readonly kind: string;
  readonly name: string;
  /** `#n` suffix: 1-based; an overload signature or one of several same-named siblings. */
  readonly ordinal?: number;
}

export interface ParsedElementPath {
  /** Workspace-relative file path, forward slashes, no `file:` prefix, no leading `./`. */
  readonly file: string;
  readonly segments: readonly PathSegment[];
}

export class ElementPathSyntaxError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`invalid element path "${path}": ${reason}`);
    this.name = 'ElementPathSyntaxError';
  }
}

/** A path segment that names a source file of a shipped language: the element segments start after it. */
const SOURCE_FILE_SEGMENT = new RegExp(
  `(?:${LANGUAGE_CATALOG.flatMap((l) => l.extensions)
    .map((e) => e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})$`,
  'i',
);

/**
 * Words accepted for each kind when resolving tolerantly. The canonical word comes first; everything is compared
 * lower-case.
 */
const KIND_SYNONYMS: Readonly<Record<ElementKind, readonly string[]>> = {
  import: ['import'],
  class: ['class'],
  interface: ['interface', 'iface'],
  enum: ['enum'],
  member: ['member', 'enummember', 'enum-member', 'case'],
  type: ['type', 'typealias', 'type-alias', 'alias'],
  function: ['function', 'fn', 'func', 'arrow', 'component'],
  method: ['method'],
  constructor: ['constructor', 'ctor'],
  property: ['property', 'prop', 'field', 'attribute'],
  getter: ['getter', 'get'],
  setter: ['setter', 'set'],
  index: ['index', 'indexer', 'index-signature'],
  call: ['call', 'call-signature'],
  namespace: ['namespace', 'module', 'ns'],
  variable: ['variable', 'var', 'const', 'let'],
  static: ['static', 'static-block'],
  default: ['default', 'export-default'],
  'export=': ['export='],
  export: ['export', 're-export', 'reexport'],
  statement: ['statement', 'stmt'],
  struct: ['struct', 'union'],
  trait: ['trait'],
  impl: ['impl', 'implementation'],
  record: ['record'],
};

const KIND_BY_WORD: ReadonlyMap<string, ElementKind> = new Map(
  ELEMENT_KINDS.flatMap((kind) => KIND_SYNONYMS[kind].map((word) => [word, kind] as const)),
);

/** The canonical kind for a kind word or synonym (case-insensitive), or undefined when it names no kind. */
export function canonicalKind(word: string): ElementKind | undefined {
  return KIND_BY_WORD.get(word.toLowerCase());
}

/**
 * Kinds that stand in for each other when a path does not match exactly: a model that says `method[render]` for
 * an arrow function held in a property, or `function[handler]` for `const handler = () => ...`.
 */
const COMPATIBLE_KINDS: ReadonlyArray<ReadonlySet<ElementKind>> = [
  new Set<ElementKind>(['function', 'method', 'variable', 'property']),
  new Set<ElementKind>(['property', 'getter', 'setter', 'member', 'variable']),
  new Set<ElementKind>(['class', 'variable', 'struct', 'record']),
  new Set<ElementKind>(['interface', 'type', 'trait', 'struct']),
  new Set<ElementKind>(['namespace']),
  // A nested test call is a statement of its callback: a model may well call it one.
  new Set<ElementKind>(['statement', 'call']),
  new Set<ElementKind>(['default', 'function', 'class', 'export=']),
];

export function kindsCompatible(a: ElementKind, b: ElementKind): boolean {
  return a === b || COMPATIBLE_KINDS.some((group) => group.has(a) && group.has(b));
}

/** Normalises the file part of a path as a user or a model may write it. */
export function normalizeFilePath(file: string): string {
  let normalized = file.trim().replace(/\\/g, '/');
  if (normalized.toLowerCase().startsWith('file:')) normalized = normalized.slice('file:'.length);
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  return normalized.replace(/\/{2,}/g, '/');
}

/** Splits off a leading `file:` prefix and returns where the element segments start, or -1 if there are none. */
function findSegmentsStart(path: string): number {
  // 1. The first `/` after a source-file name: `src/app.ts/class[A]`.
  let offset = 0;
  while (offset < path.length) {
    const slash = path.indexOf('/', offset);
    if (slash < 0) break;
    const previousSlash = path.lastIndexOf('/', slash - 1);
    const segment = path.slice(previousSlash + 1, slash);
    if (SOURCE_FILE_SEGMENT.test(segment)) return slash + 1;
    offset = slash + 1;
  }
  // 2. The first segment that reads as `<kind>[`, `<kind>#n` or a nameless kind: files outside the usual extensions.
  offset = 0;
  while (offset < path.length) {
    const slash = path.indexOf('/', offset);
    if (slash < 0) break;
    const rest = path.slice(slash + 1);
    const word = /^([A-Za-z][\w-]*=?)(?=\[|#|\/|$)/.exec(rest);
    if (word?.[1] !== undefined) {
      const kind = canonicalKind(word[1]);
      const bracketFollows = rest.charAt(word[1].length) === '[';
      if (kind !== undefined && (bracketFollows || NAMELESS_KINDS.has(kind))) return slash + 1;
    }
    offset = slash + 1;
  }
  return -1;
}

/**
 * Parses a path. Never resolves anything: kinds are kept as written (so tolerant resolution can treat synonyms)
 * but must name a known kind or synonym.
 */
export function parseElementPath(input: string): ParsedElementPath {
  let path = input.trim();
  if (path.toLowerCase().startsWith('file:')) path = path.slice('file:'.length);
  while (path.startsWith('./') || path.startsWith('.\\')) path = path.slice(2);
  if (path.length === 0) throw new ElementPathSyntaxError(input, 'the path is empty');
  // Backslashes are folder separators in the file part but escapes inside names: find the split on a copy of the
  // same length with every backslash as a slash, then treat the two parts apart.
  const start = findSegmentsStart(path.replace(/\\/g, '/'));
  if (start < 0) return { file: normalizeFilePath(path).replace(/\/$/, ''), segments: [] };
  const file = normalizeFilePath(path.slice(0, start - 1));
  const segments: PathSegment[] = [];
  let i = start;
  while (i < path.length) {
    const wordMatch = /^[A-Za-z][\w-]*=?/.exec(path.slice(i));
    if (wordMatch === null) {
      throw new ElementPathSyntaxError(input, `expected a kind such as "method[" at column ${i + 1}`);
    }
    const word = wordMatch[0];
    const kind = canonicalKind(word);
    if (kind === undefined) {
      throw new ElementPathSyntaxError(input, `unknown kind "${word}" (known: ${ELEMENT_KINDS.join(', ')})`);
    }
    i += word.length;
    let name = '';
    if (path[i] === '[') {
      const parsed = readBracketedName(path, i, input);
      name = parsed.name;
      i = parsed.end;
    } else if (!NAMELESS_KINDS.has(kind)) {
      throw new ElementPathSyntaxError(input, `"${word}" needs a name in brackets, e.g. ${word}[name]`);
    }
    let ordinal: number | undefined;
    if (path[i] === '#') {
      const digits = /^#(\d+)/.exec(path.slice(i));
      if (digits?.[1] === undefined || Number(digits[1]) < 1) {
        throw new ElementPathSyntaxError(input, `"#" must be followed by a number from 1 (column ${i + 1})`);
      }
      ordinal = Number(digits[1]);
      i += digits[0].length;
    }
    segments.push(ordinal === undefined ? { kind: word, name } : { kind: word, name, ordinal });
    if (i < path.length) {
      if (path[i] !== '/') {
        throw new ElementPathSyntaxError(input, `expected "/" after segment ${segments.length} at column ${i + 1}`);
      }
      i += 1;
      if (i === path.length) break; // a trailing slash is harmless
    }
  }
  return { file, segments };
}

function readBracketedName(path: string, open: number, input: string): { name: string; end: number } {
  let depth = 0;
  let name = '';
  for (let i = open + 1; i < path.length; i++) {
    const char = path.charAt(i);
    if (char === '\\' && i + 1 < path.length) {
      name += path.charAt(i + 1);
      i += 1;
    } else if (char === '[') {
      depth += 1;
      name += char;
    } else if (char === ']') {
      if (depth === 0) return { name, end: i + 1 };
      depth -= 1;
      name += char;
    } else {
      name += char;
    }
  }
  throw new ElementPathSyntaxError(input, `unclosed "[" at column ${open + 1}`);
}

/** Escapes a name for a segment: backslash before `\` and before brackets that would unbalance it. */
function escapeName(name: string): string {
  let depth = 0;
  let balanced = true;
  for (const char of name) {
    if (char === '[') depth += 1;
    else if (char === ']') depth -= 1;
    if (depth < 0) balanced = false;
  }
  if (depth !== 0) balanced = false;
  const escaped = name.replace(/\\/g, '\\\\');
  return balanced ? escaped : escaped.replace(/[[\]]/g, (c) => `\\${c}`);
}

export function formatSegment(kind: ElementKind, name: string, ordinal?: number): string {
  const head = NAMELESS_KINDS.has(kind) && name === '' ? kind : `${kind}[${escapeName(name)}]`;
  return ordinal === undefined ? head : `${head}#${ordinal}`;
}

export function formatElementPath(file: string, segments: readonly string[]): string {
  return segments.length === 0 ? file : `${file}/${segments.join('/')}`;
}

/** The last segment of a canonical path, e.g. `method[validate]`. */
export function lastSegmentOf(path: string): string {
  const parsed = parseElementPath(path);
  const last = parsed.segments.at(-1);
  if (last === undefined) return parsed.file;
  const kind = canonicalKind(last.kind) ?? 'statement';
  return formatSegment(kind, last.name, last.ordinal);
}

/** The file part of an element path (or of a file path), or undefined when the path does not parse. */
export function filePartOf(path: string): string | undefined {
  try {
    return parseElementPath(path).file;
  } catch (error) {
    if (error instanceof ElementPathSyntaxError) return undefined;
    throw error;
  }
}
