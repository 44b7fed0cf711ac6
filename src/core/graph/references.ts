import type { ElementNode } from '../elements/element';
import { elementsAtOffset, resolveElementPathOrThrow } from '../elements/resolve';
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
    const semantics = this.graph.semanticsFor(file);
    if (!isReferable(element) || semantics === undefined) return { target: element.path, sites: [] };

    const topLevel = outline.elements.includes(element);
    const visible = topLevel ? new Set([file, ...imports.dependentsOf([file]).files]) : undefined;
    const direct = new Set(imports.importersOf(file));
    const mentioning = imports
      .filesMentioning(element.name)
      .filter((f) => f !== file && (visible === undefined || visible.has(f)));
    // Direct importers first: under the limit, the files most likely to hold real uses are the ones searched.
    const ordered = [...mentioning.filter((f) => direct.has(f)), ...mentioning.filter((f) => !direct.has(f))];
    const candidates = ordered.slice(0, options.maxFiles ?? DEFAULT_MAX_FILES);
    const unsearched = ordered.length - candidates.length;
    const { timeLimitMs } = options;
    let hits: ReferenceHit[];
    try {
      hits = semantics.references(file, element, candidates, texts, timeLimitMs === undefined ? {} : { timeLimitMs });
    } catch (error) {
      if (error instanceof ReferenceSearchCutShort) {
        return { target: element.path, sites: [], unsearched: ordered.length, cutShort: true };
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
    return { target: element.path, sites, ...(unsearched > 0 ? { unsearched } : {}) };
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
  if (references.cutShort === true) {
    const files = references.unsearched ?? 0;
    const mention = files === 1 ? '1 other file mentions' : `${files} other files mention`;
    return `References to ${target}: not searched in time (${mention} the name); uses may exist beyond what is shown.`;
  }
  const unsearched =
    references.unsearched === undefined
      ? ''
      : `\n- (${references.unsearched} more file${references.unsearched === 1 ? '' : 's'} mentioning the name not searched)`;
  if (sites.length === 0)
    return `No references to ${target} in the ${unsearched === '' ? 'workspace' : 'files searched'}.${unsearched}`;
  const limit = options.limit ?? 12;
  const files = new Set(sites.map((s) => s.file));
  const header = `References to ${target} (${sites.length} in ${files.size} file${files.size === 1 ? '' : 's'}):`;
  const lines = [header];
  for (const site of sites.slice(0, limit)) {
    lines.push(`- ${site.elementPath ?? `${site.file} (top level)`}: ${clip(site.lineText)}`);
  }
  if (sites.length > limit) {
    const rest = sites.slice(limit);
    const restFiles = [...new Set(rest.map((s) => s.file))];
    const named = restFiles.slice(0, 5).join(', ');
    lines.push(
      `- … and ${rest.length} more in ${named}${restFiles.length > 5 ? ` and ${restFiles.length - 5} more files` : ''}`,
    );
  }
  return `${lines.join('\n')}${unsearched}`;
}

/** A line of code as a references list quotes it: at most 160 characters. */
export function clip(text: string): string {
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`;
}
