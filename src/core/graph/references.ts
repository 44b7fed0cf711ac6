import type { ElementNode } from '../elements/element';
import { elementsAtOffset, resolveElementPathOrThrow } from '../elements/resolve';
import { languageFor } from '../language/languages';
import type { CodeGraph } from './codeGraph';
import { ReferenceSearchCutShort, type OverlayText, type ReferenceHit } from './semantics';

/**
 * Where an element is used across the workspace: for a function, method, property, variable, class or type, every
 * reference the file's language finds (for TypeScript, the compiler's LanguageService) (declarations excluded), each with its file, the element that holds it and the line
 * itself. The compiler only looks where it could matter: files that mention the name, and for a top-level export
 * only those among the files that import the declaring file (directly or through a re-export). It is the data
 * behind "references in the context" (issue 18) and the agent tools' references/callers (issue 12).
 */

export interface ReferenceSite {
  /** Workspace-relative. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  /** The innermost element holding the reference; undefined at the top level of the file. */
  readonly elementPath: string | undefined;
  /** The line as written, trimmed. */
  readonly lineText: string;
  /** The reference is a write (`x = …`), as the compiler tells. */
  readonly isWrite: boolean;
  /** The reference calls it (or constructs it, or renders it as a JSX tag). */
  readonly isCall: boolean;
  /** Only the name ties it to the element (see ReferenceHit.byName); absent: resolved. */
  readonly byName?: true;
}

export interface ElementReferences {
  /** Canonical path of the element. */
  readonly target: string;
  /** Every reference: other files first (by path), then the declaring file, each in line order. */
  readonly sites: readonly ReferenceSite[];
  /** Files that mention the name but were not searched (over `maxFiles`, or not reached); absent when none. */
  readonly unsearched?: number;
  /** The search ran out of time: `sites` is empty and `unsearched` counts every other file that mentions the name. */
  readonly cutShort?: true;
  /** Why no search ran (a language without a reference search, a name that is no identifier); `sites` is empty. */
  readonly notSearched?: string;
  /** Why the search did not cover the whole workspace, when it did not (a listing or a name search cut short). */
  readonly partial?: string;
  /**
   * How the sites were found: `compiler` (each resolved by the language's compiler) or `syntax` (identifiers of code,
   * resolved through imports where cheap; the others marked byName).
   */
  readonly resolution?: 'compiler' | 'syntax';
}

export interface ReferencesOptions {
  /** Texts that differ from the disk (unsaved editors); undefined deletes a file. */
  readonly texts?: ReadonlyMap<string, OverlayText>;
  /** At most this many files are searched besides the declaring one; default 200. */
  readonly maxFiles?: number;
  /** Time in ms the search may take once the program is ready; past it the result says it was cut short. */
  readonly timeLimitMs?: number;
}

const DEFAULT_MAX_FILES = 200;

/** Kinds whose references mean something to a reader; imports, exports and bare statements have none. */
const REFERABLE: ReadonlySet<string> = new Set([
  'function',
  'method',
  'property',
  'getter',
  'setter',
  'variable',
  'class',
  'interface',
  'type',
  'enum',
  'member',
  'namespace',
  'struct',
  'trait',
  'record',
]);

export function isReferable(element: ElementNode): boolean {
  return REFERABLE.has(element.kind) && element.name.length > 0;
}

export class ReferenceFinder {
  constructor(private readonly graph: CodeGraph) {}

  /** The references of the element at `elementPath` in `file`; an element that cannot have any gets none. */
  referencesOf(file: string, elementPath: string, options: ReferencesOptions = {}): ElementReferences {
    const { imports } = this.graph;
    imports.refresh();
    const texts = options.texts ?? new Map<string, OverlayText>();
    const text = this.graph.textOf(file, texts);
    if (text === undefined) throw new Error(`${file}: no such file`);
    const outline = this.graph.outlineOf(file, text);
    const { element } = resolveElementPathOrThrow(outline, elementPath);
    if (!isReferable(element))
      return { target: element.path, sites: [], notSearched: `a ${element.kind} is not referred to by name` };
    const language = languageFor(file);
    const search = this.graph.referencesFor(file);
    if (search === undefined || language === undefined)
      return {
        target: element.path,
        sites: [],
        notSearched: `${language?.displayName ?? file} has no reference search`,
      };
    const name = search.searchName === undefined ? element.name : search.searchName(element);
    if (name === undefined)
      return { target: element.path, sites: [], notSearched: `its name "${element.name}" is not one identifier` };
    const resolution = search.resolution ?? 'compiler';

    // The compiler sees a top-level declaration only where its file is imported; a name search cannot tell.
    const topLevel = outline.elements.includes(element);
    const visible =
      topLevel && resolution === 'compiler' ? new Set([file, ...imports.dependentsOf([file]).files]) : undefined;
    const direct = new Set(imports.importersOf(file));
    const mentions = imports.filesMentioning(name, texts);
    const mentioning = mentions.files.filter(
      (f) => f !== file && languageFor(f) === language && (visible === undefined || visible.has(f)),
    );
    // Direct importers first: under the limit, the files most likely to hold real uses are the ones searched.
    const ordered = [...mentioning.filter((f) => direct.has(f)), ...mentioning.filter((f) => !direct.has(f))];
    const candidates = ordered.slice(0, options.maxFiles ?? DEFAULT_MAX_FILES);
    const unsearched = ordered.length - candidates.length;
    const partial = mentions.cutShort
      ? `the name search stopped at its time limit after ${mentions.searched} files`
      : mentions.truncated
        ? 'the workspace listing stopped at its limit, so files past it were not searched'
        : undefined;
    const { timeLimitMs } = options;
    let hits: ReferenceHit[];
    try {
      hits = search.references(file, element, candidates, texts, timeLimitMs === undefined ? {} : { timeLimitMs });
    } catch (error) {
      if (error instanceof ReferenceSearchCutShort) {
        return { target: element.path, sites: [], unsearched: ordered.length, cutShort: true, resolution };
      }
      throw error;
    }
    const lineStarts = new Map<string, number[]>();
    const sites = hits
      .map((hit) => this.site(hit, lineStarts))
      // An import or re-export names the element without using it; the uses that follow are what matter.
      .filter((site): site is ReferenceSite => site !== undefined);
    sites.sort(
      (a, b) =>
        Number(a.file === file) - Number(b.file === file) ||
        (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
        a.line - b.line ||
        a.column - b.column,
    );
    return {
      target: element.path,
      sites,
      resolution,
      ...(unsearched > 0 ? { unsearched } : {}),
      ...(partial === undefined ? {} : { partial }),
    };
  }

  /** `lineStarts` caches each file's line starts for the sites of one search: a file can hold thousands. */
  private site(hit: ReferenceHit, lineStarts: Map<string, number[]>): ReferenceSite | undefined {
    const { file, start, text } = hit;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const newline = text.indexOf('\n', start);
    const lineText = text.slice(lineStart, newline < 0 ? text.length : newline).trim();
    let starts = lineStarts.get(file);
    if (starts === undefined) {
      starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      lineStarts.set(file, starts);
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= start) low = mid;
      else high = mid - 1;
    }
    const line = low + 1;
    const holder = elementsAtOffset(this.graph.outlineOf(file, text), start).at(-1);
    if (holder !== undefined && (holder.kind === 'import' || holder.kind === 'export')) return undefined;
    return {
      file,
      line,
      column: start - lineStart + 1,
      elementPath: holder?.path,
      lineText,
      isWrite: hit.isWrite,
      isCall: hit.isCall,
      ...(hit.byName === true ? { byName: true } : {}),
    };
  }
}

export interface DescribeReferencesOptions {
  /** At most this many sites are listed; default 12. */
  readonly limit?: number;
}

/**
 * The references as the model reads them in a context: each site's element path and line, budgeted, with
 * "and N more" naming the files left out. No line numbers: a path and the code are what the model can act on.
 */
export function describeReferences(references: ElementReferences, options: DescribeReferencesOptions = {}): string {
  const { sites, target } = references;
  if (references.notSearched !== undefined)
    return `References to ${target}: not searched (${references.notSearched}); uses may exist.`;
  if (references.cutShort === true) {
    const files = references.unsearched ?? 0;
    const mention = files === 1 ? '1 other file mentions' : `${files} other files mention`;
    return `References to ${target}: not searched in time (${mention} the name); uses may exist beyond what is shown.`;
  }
  const notes = searchGapLines(references);
  const suffix = notes.length === 0 ? '' : `\n${notes.join('\n')}`;
  if (sites.length === 0) {
    const how = references.resolution === 'syntax' ? ` (${SYNTAX_SEARCH})` : '';
    return `No references to ${target} in the ${notes.length === 0 ? 'workspace' : 'files searched'}${how}.${suffix}`;
  }
  const limit = options.limit ?? 12;
  const byName = sites.filter((s) => s.byName === true).length;
  const lines = [referencesHeading(target, sites)];
  for (const site of sites.slice(0, limit)) {
    lines.push(
      `- ${site.elementPath ?? `${site.file} (top level)`}: ${clip(site.lineText)}${site.byName === true && byName < sites.length ? '  (by name)' : ''}`,
    );
  }
  if (sites.length > limit) lines.push(moreSitesLine(sites.slice(limit)));
  return `${lines.join('\n')}${suffix}`;
}

/** The heading of a list of references: how many sites, in how many files, how many tied by name only. */
export function referencesHeading(target: string, sites: readonly ReferenceSite[]): string {
  const files = new Set(sites.map((s) => s.file));
  const byName = sites.filter((s) => s.byName === true).length;
  return `References to ${target} (${sites.length} in ${files.size} file${files.size === 1 ? '' : 's'}${byName === 0 ? '' : `; ${byName === sites.length ? 'all' : byName} by name only`}):`;
}

/** The line counting the sites past those listed, naming their first files. */
export function moreSitesLine(rest: readonly ReferenceSite[]): string {
  const restFiles = [...new Set(rest.map((s) => s.file))];
  const named = restFiles.slice(0, 5).join(', ');
  return `- … and ${rest.length} more in ${named}${restFiles.length > 5 ? ` and ${restFiles.length - 5} more files` : ''}`;
}

/** What the search did not cover, one line each: files that mention the name left unsearched, a partial search. */
export function searchGapLines(references: ElementReferences): string[] {
  return [
    ...(references.unsearched === undefined
      ? []
      : [
          `- (${references.unsearched} more file${references.unsearched === 1 ? '' : 's'} mentioning the name not searched)`,
        ]),
    ...(references.partial === undefined ? [] : [`- (${references.partial}: uses may exist beyond these)`]),
  ];
}

/** How a `syntax` search looked, in the words a "no references" line gives. */
export const SYNTAX_SEARCH = 'searched by name in code, outside comments and strings';

/** A line of code as a references list quotes it: at most 160 characters. */
export function clip(text: string): string {
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`;
}
