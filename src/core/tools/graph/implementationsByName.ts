import type { ElementNode, FileOutline } from '../../elements/element';
import { walkElements } from '../../elements/resolve';
import type { CodeGraph as SharedCodeGraph } from '../../graph/codeGraph';
import { languageFor } from '../../language/languages';
import type { OutlineCache } from '../outlineCache';
import { count } from '../table';
import { ToolInputError } from '../types';
import type { DeclaredSite, ImplementationLookup } from './codeGraph';

/**
 * `implementations` where no compiler answers (issue 27): Java, C#, Python and Rust types say what they implement in
 * their own declaration (`implements`/`extends`, a base list, class bases, `impl Trait for Type`), so the types that
 * name an interface, base class or trait there are found by name, in the files of the language that mention it. The
 * answer says it is by name: a type naming another `Shape` of the same name is listed too, and only the types that
 * name it themselves (not their subclasses). Go's interfaces are met by any type with the methods, named nowhere:
 * the tools say so and what to do instead.
 */

/** Files one search reads at most: those of the language that mention the name. */
const MAX_SEARCHED_FILES = 2_000;

/** Files named in the answer's note; the rest are counted. */
const NAMED_FILES = 8;

interface BaseListLanguage {
  /** What was looked for, in words: `the Java types whose extends/implements name Shape`. */
  readonly found: (name: string) => string;
  /** Kinds another type can implement or extend. */
  readonly bases: ReadonlySet<string>;
  /** The names (last segment, no type arguments) a type's declaration lists as its bases; [] for none. */
  readonly basesOf: (element: ElementNode, text: string) => readonly string[];
}

/** `a.b.Shape<T>` → `Shape`; `crate::shapes::Shape` → `Shape`. */
function lastSegment(type: string): string {
  const plain = withoutNested(type, '<', '>').replace(/\s+/g, '');
  return plain.split(/\.|::/).at(-1) ?? '';
}

/** The text with every balanced `open … close` group removed (type arguments, parameters). */
function withoutNested(text: string, open: string, close: string): string {
  let depth = 0;
  let out = '';
  for (const char of text) {
    if (char === open) depth += 1;
    else if (char === close && depth > 0) depth -= 1;
    else if (depth === 0) out += char;
  }
  return out;
}

/** Splits at the commas outside brackets of any kind. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let part = '';
  for (const char of text) {
    if ('<([{'.includes(char)) depth += 1;
    else if ('>)]}'.includes(char)) depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(part);
      part = '';
    } else part += char;
  }
  parts.push(part);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The declaration up to its body, comments dropped: where a type names its bases. */
function headerOf(element: ElementNode, text: string, lineComment: string): string {
  const end = element.bodyRange?.start ?? element.declarationRange.end;
  const header = text.slice(element.declarationRange.start, end);
  return header
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .split('\n')
    .map((line) => {
      const at = line.indexOf(lineComment);
      return at < 0 ? line : line.slice(0, at);
    })
    .join(' ');
}

const TYPE_KINDS = new Set(['class', 'interface', 'record', 'enum', 'struct']);

const JAVA: BaseListLanguage = {
  found: (name) => `the Java types whose extends/implements name ${name}`,
  bases: new Set(['class', 'interface']),
  basesOf(element, text) {
    if (!TYPE_KINDS.has(element.kind)) return [];
    // Type arguments go first: a bound (`<T extends Comparable<T>>`) is no base.
    const header = withoutNested(withoutNested(headerOf(element, text, '//'), '<', '>'), '(', ')');
    const names: string[] = [];
    for (const match of header.matchAll(/\b(extends|implements)\b([^{]*?)(?=\bimplements\b|\bpermits\b|\{|$)/g))
      names.push(...topLevelParts(match[2] ?? '').map(lastSegment));
    return names;
  },
};

const CSHARP: BaseListLanguage = {
  found: (name) => `the C# types whose base list names ${name}`,
  bases: new Set(['class', 'interface', 'record']),
  basesOf(element, text) {
    if (!TYPE_KINDS.has(element.kind)) return [];
    // Type parameters, a record's parameters and a base's constructor arguments go first, then the constraints.
    const header = withoutNested(withoutNested(headerOf(element, text, '//'), '<', '>'), '(', ')').split(
      /\bwhere\b/,
    )[0];
    const colon = header?.indexOf(':') ?? -1;
    if (header === undefined || colon < 0) return [];
    return topLevelParts(header.slice(colon + 1).replace(/[{;].*$/, '')).map(lastSegment);
  },
};

const PYTHON: BaseListLanguage = {
  found: (name) => `the Python classes whose bases name ${name}`,
  bases: new Set(['class']),
  basesOf(element, text) {
    if (element.kind !== 'class') return [];
    const header = headerOf(element, text, '#');
    // `class Name[T](Base, metaclass=M):`: the parenthesized list after the name and its type parameters.
    const open = withoutNested(header, '[', ']').indexOf('(');
    if (open < 0) return [];
    const plain = withoutNested(header, '[', ']');
    let depth = 0;
    let end = open;
    for (let i = open; i < plain.length; i++) {
      if (plain[i] === '(') depth += 1;
      else if (plain[i] === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    return topLevelParts(plain.slice(open + 1, end))
      .filter((part) => !part.includes('=') && !part.startsWith('*'))
      .map(lastSegment);
  },
};

const RUST: BaseListLanguage = {
  found: (name) => `the Rust impl blocks of ${name} (impl ${name} for …)`,
  bases: new Set(['trait']),
  basesOf(element) {
    // The outline names an impl block `Trait for Type`; an inherent impl (`impl Type`) implements no trait.
    if (element.kind !== 'impl') return [];
    const at = element.name.indexOf(' for ');
    if (at < 0) return [];
    return [lastSegment(element.name.slice(0, at).replace(/^!/, ''))];
  },
};

const BY_LANGUAGE: Readonly<Record<string, BaseListLanguage>> = {
  java: JAVA,
  csharp: CSHARP,
  python: PYTHON,
  rust: RUST,
};

/** Whether implementations of this language's files are found by name. */
export function hasImplementationsByName(file: string): boolean {
  const id = languageFor(file)?.id;
  return id !== undefined && (id in BY_LANGUAGE || id === 'go');
}

/** The type the lookup is about, and the member of it when a member was asked for. */
function subjectOf(
  outline: FileOutline,
  element: ElementNode,
  language: BaseListLanguage,
): { type: ElementNode; member?: ElementNode } {
  if (language.bases.has(element.kind)) return { type: element };
  const container = [...walkElements(outline.elements)].find((candidate) => candidate.children.includes(element));
  if (container !== undefined && language.bases.has(container.kind)) return { type: container, member: element };
  const kinds = [...language.bases].join(', ');
  throw new ToolInputError(
    `${element.path} is a ${element.kind}; implementations are found of a ${kinds} or a member of one`,
  );
}

function signatureOf(element: ElementNode): string {
  const flat = element.signature.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

export function implementationsByName(
  graph: SharedCodeGraph,
  outlines: OutlineCache,
  file: string,
  element: ElementNode,
): ImplementationLookup {
  const languageSupport = languageFor(file);
  if (languageSupport?.id === 'go') {
    const method = element.children.find((child) => child.kind === 'method')?.name;
    throw new ToolInputError(
      `a Go type implements an interface by having its methods, without naming it anywhere, so implementations cannot be found by name; look for the types with its methods with find_symbols (name: ${method ?? "one of the interface's methods"}), or ask gopls (gopls implementation)`,
    );
  }
  const language = languageSupport === undefined ? undefined : BY_LANGUAGE[languageSupport.id];
  if (language === undefined || languageSupport === undefined)
    throw new ToolInputError(`${file}: no implementation search for ${languageSupport?.displayName ?? 'this file'}`);
  const { type, member } = subjectOf(outlines.getOrThrow(file), element, language);
  const { imports } = graph;
  imports.refresh();
  const mentions = imports.filesMentioning(type.name);
  const candidates = mentions.files.filter((f) => languageFor(f)?.id === languageSupport.id);
  const searched = candidates.slice(0, MAX_SEARCHED_FILES);
  const sites: DeclaredSite[] = [];
  for (const candidate of searched) {
    const outline = outlines.get(candidate);
    if (outline === undefined) continue;
    for (const implementer of walkElements(outline.elements)) {
      if (implementer === type || !language.basesOf(implementer, outline.text).includes(type.name)) continue;
      const shown = member === undefined ? [implementer] : implementer.children.filter((c) => c.name === member.name);
      for (const found of shown)
        sites.push({
          file: candidate,
          element: found.path,
          startLine: found.startLine,
          endLine: found.endLine,
          signature: signatureOf(found),
        });
    }
  }
  sites.sort((a, b) => (a.file === b.file ? a.startLine - b.startLine : a.file < b.file ? -1 : 1));
  const named = searched.slice(0, NAMED_FILES).join(', ');
  const gaps = [
    ...(candidates.length > searched.length
      ? [`${count(candidates.length - searched.length)} more files that mention ${type.name} not searched`]
      : []),
    ...(mentions.cutShort ? [`the name search stopped at its time limit after ${mentions.searched} files`] : []),
    ...(mentions.truncated ? ['the workspace listing stopped at its limit'] : []),
  ];
  return {
    sites,
    searched: searched.length,
    gaps,
    byName: {
      language: languageSupport.displayName,
      found: language.found(type.name),
      typeName: type.name,
      files: `${named}${searched.length > NAMED_FILES ? ` and ${count(searched.length - NAMED_FILES)} more` : ''}`,
      ...(member === undefined ? {} : { member: member.name }),
    },
  };
}
