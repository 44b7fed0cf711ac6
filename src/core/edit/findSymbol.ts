import type { TokenCounter } from '../context/tokens';
import type { ElementNode, FileOutline } from '../elements/element';
import { elementsAtOffset, walkElements } from '../elements/resolve';
import type { CodeGraph } from '../graph/codeGraph';
import type { MentioningFiles } from '../graph/importGraph';
import { isReferable, ReferenceFinder, type ReferenceSite } from '../graph/references';
import { isOutlinable, loadLanguagesFor, outlineSource } from '../language/languages';
import { filesMatchingSync } from '../search/textSearch';
import type { SnapshotReader } from '../ops/apply';
import type { ExclusionCheck } from './exclusion';

/**
 * `FIND <identifier or text>`, the model's question in planning and edit rounds: where a symbol is defined and where
 * it is used, as element paths and the lines themselves (no line numbers: the model acts on paths and code). With a
 * workspace (the code graph) a text search (src/core/search/) finds the files of every language that mention it, and
 * the uses of a definition come from the language's reference search (resolved by the compiler for TypeScript, by the
 * syntax and imports elsewhere, marked "by name" where only the name ties them); without one, the request's files
 * are searched as text. The first line says what was searched and what was not. Excluded files are never quoted.
 */

export interface SymbolFinder {
  /** The answer to one FIND, as the model reads it, under the finder's token budget. */
  find(query: string): Promise<string>;
}

export interface SymbolFinderOptions {
  readonly counter: TokenCounter;
  /** Token budget of one answer; default {@link DEFAULT_FIND_TOKENS}. */
  readonly budget?: number;
  /** Files the model may name with NEED and edit: the answer says when what it found lies elsewhere. */
  readonly requestFiles: readonly string[];
  /** The request's text (unsaved editors): read before the disk. */
  readonly snapshot: SnapshotReader;
  readonly exclusions?: ExclusionCheck;
  /** The workspace's code graph; without it only the request's files are searched. */
  readonly graph?: CodeGraph;
}

export const DEFAULT_FIND_TOKENS = 1_200;
/** Files searched by plain text at most: the answer is an aid, never worth a scan of a huge workspace. */
const MAX_TEXT_FILES = 400;
/** Definitions whose references are asked of the language at most. */
const MAX_DEFINITIONS_WITH_REFERENCES = 3;

interface Hit {
  readonly file: string;
  readonly elementPath: string | undefined;
  readonly lineText: string;
}

/** FIND lines answered per answer at most: each answer costs up to its budget. */
export const MAX_FINDS_PER_ANSWER = 5;

/** The answers to an answer's FIND lines, the ones past the limit named as not answered. */
export async function answerFinds(finder: SymbolFinder, queries: readonly string[]): Promise<string[]> {
  const answers: string[] = [];
  for (const query of queries.slice(0, MAX_FINDS_PER_ANSWER)) answers.push(await finder.find(query));
  const rest = queries.slice(MAX_FINDS_PER_ANSWER);
  if (rest.length > 0)
    answers.push(
      `Not answered (at most ${MAX_FINDS_PER_ANSWER} FIND lines per answer): ${rest.map((q) => `FIND ${q}`).join(', ')}`,
    );
  return answers;
}

export function createSymbolFinder(options: SymbolFinderOptions): SymbolFinder {
  return { find: (query) => findSymbol(query, options) };
}

/** How the uses of an answer were found, for its first line. */
interface UsesFound {
  readonly hits: readonly Hit[];
  /** `references`: the language's reference search; `text`: lines that mention the text. */
  readonly how: 'references' | 'text';
  /** Uses only the name ties to the definition. */
  readonly byName: number;
  /** What the search did not cover, in words; empty when it covered the workspace. */
  readonly gaps: readonly string[];
}

async function findSymbol(query: string, options: SymbolFinderOptions): Promise<string> {
  const symbol = query.trim().replace(/^[`'"]+|[`'"]+$/g, '');
  if (symbol === '') return 'FIND needs a name or some text: FIND <identifier or text>.';
  const identifier = /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(symbol);
  const matches = identifier
    ? (line: string): boolean => new RegExp(`(?<![\\w$])${escapeRegExp(symbol)}(?![\\w$])`).test(line)
    : (line: string): boolean => line.includes(symbol);
  const { snapshot, graph } = options;
  const textOf = (file: string): string | undefined => snapshot.read(file) ?? graph?.textOf(file);
  const outlineOf = (file: string, text: string): FileOutline | undefined => {
    if (!isOutlinable(file)) return undefined;
    const outline = graph === undefined ? outlineSource(file, text) : graph.outlineOf(file, text);
    return outline;
  };

  const gaps: string[] = [];
  let candidates: string[];
  let searchedFiles: number | undefined;
  if (graph !== undefined) {
    graph.imports.refresh();
    // The request's texts (unsaved editors) are searched in place of the disk.
    const overlay = new Map<string, string | undefined>();
    for (const file of options.requestFiles) {
      const text = snapshot.read(file);
      if (text !== undefined) overlay.set(file, text);
    }
    const listing = graph.imports.files();
    const found = identifier
      ? graph.imports.filesMentioning(symbol, overlay)
      : literalSearch(symbol, graph, [...new Set([...listing, ...overlay.keys()])], overlay);
    searchedFiles = found.searched;
    if (found.cutShort) gaps.push(`the text search stopped at its time limit after ${found.searched} files`);
    if (found.truncated) gaps.push('the workspace listing stopped at its limit');
    candidates = [
      ...new Set([...options.requestFiles.filter((f) => overlay.get(f)?.includes(symbol) === true), ...found.files]),
    ];
  } else {
    candidates = options.requestFiles.filter((file) => textOf(file)?.includes(symbol) === true);
  }
  if (candidates.length > MAX_TEXT_FILES) {
    gaps.push(`only the first ${MAX_TEXT_FILES} of the ${candidates.length} files that mention it were read`);
    candidates = candidates.slice(0, MAX_TEXT_FILES);
  }
  await loadLanguagesFor(candidates);
  const allowed: string[] = [];
  for (const file of candidates)
    if ((await options.exclusions?.firstExclusion([file])) === undefined) allowed.push(file);

  const definitions: Array<{ file: string; element: ElementNode }> = [];
  for (const file of allowed) {
    const text = textOf(file);
    const outline = text === undefined ? undefined : outlineOf(file, text);
    if (outline === undefined) continue;
    for (const element of walkElements(outline.elements))
      if (nameInCode(element, file, graph) === symbol && element.kind !== 'import' && element.kind !== 'export')
        definitions.push({ file, element });
  }

  const uses = referenceUses(definitions, allowed, graph, gaps) ?? {
    hits: textHits(allowed, textOf, outlineOf, matches, definitions),
    how: 'text' as const,
    byName: 0,
    gaps,
  };
  return render(symbol, definitions, uses, options, searchedFiles);
}

/**
 * The name code writes for an element, as its language's reference search has it (Go's `method[(*Server).Start]` is
 * `Start`); without a workspace, a receiver-qualified name's last part.
 */
function nameInCode(element: ElementNode, file: string, graph: CodeGraph | undefined): string | undefined {
  const search = graph?.referencesFor(file);
  if (search !== undefined) return search.searchName === undefined ? element.name : search.searchName(element);
  if (element.kind !== 'method') return element.name;
  return /^\(?\*?[\p{L}_][\p{L}\p{N}_]*\)?\.([\p{L}_][\p{L}\p{N}_]*)$/u.exec(element.name)?.[1] ?? element.name;
}

/** The files holding a text that is no identifier, found by a literal text search of the listing. */
function literalSearch(
  text: string,
  graph: CodeGraph,
  files: readonly string[],
  overlay: ReadonlyMap<string, string | undefined>,
): MentioningFiles {
  const found = filesMatchingSync({ text, mode: 'literal' }, { root: graph.fileSystem.root, files, texts: overlay });
  return {
    files: found.files,
    searched: files.length,
    cutShort: found.cutShort,
    truncated: graph.fileSystem.listingTruncated?.() === true,
  };
}

/**
 * The uses of the definitions from the language's reference search; undefined when it cannot answer for all of them
 * (no workspace, a language or an element without one, more definitions than are looked up), so the text answers.
 */
function referenceUses(
  definitions: ReadonlyArray<{ file: string; element: ElementNode }>,
  allowed: readonly string[],
  graph: CodeGraph | undefined,
  gaps: readonly string[],
): UsesFound | undefined {
  if (graph === undefined || definitions.length === 0 || definitions.length > MAX_DEFINITIONS_WITH_REFERENCES)
    return undefined;
  if (!definitions.every((d) => isReferable(d.element))) return undefined;
  const finder = new ReferenceFinder(graph);
  const sites: ReferenceSite[] = [];
  const moreGaps: string[] = [];
  try {
    for (const { file, element } of definitions) {
      const found = finder.referencesOf(file, element.path);
      if (found.notSearched !== undefined || found.cutShort === true) return undefined;
      sites.push(...found.sites);
      if (found.unsearched !== undefined)
        moreGaps.push(`${found.unsearched} more file${found.unsearched === 1 ? '' : 's'} that mention it not searched`);
      if (found.partial !== undefined) moreGaps.push(found.partial);
    }
  } catch {
    // A file the language cannot read: the plain text search still answers.
    return undefined;
  }
  const visible = new Set(allowed);
  const shown = sites.filter((site) => visible.has(site.file));
  return {
    hits: shown.map((site) => ({ file: site.file, elementPath: site.elementPath, lineText: site.lineText })),
    how: 'references',
    byName: shown.filter((site) => site.byName === true).length,
    gaps: [...new Set([...gaps, ...moreGaps])],
  };
}

function textHits(
  files: readonly string[],
  textOf: (file: string) => string | undefined,
  outlineOf: (file: string, text: string) => FileOutline | undefined,
  matches: (line: string) => boolean,
  definitions: ReadonlyArray<{ file: string; element: ElementNode }>,
): Hit[] {
  const hits: Hit[] = [];
  for (const file of files) {
    const text = textOf(file);
    if (text === undefined) continue;
    const outline = outlineOf(file, text);
    let offset = 0;
    for (const line of text.split('\n')) {
      const start = offset;
      offset += line.length + 1;
      if (!matches(line)) continue;
      const holders =
        outline === undefined ? [] : elementsAtOffset(outline, start + (line.length - line.trimStart().length));
      const holder = holders.at(-1);
      // The declaration line of a definition is listed as the definition; an import names without using.
      if (holder?.kind === 'import') continue;
      if (definitions.some((d) => d.file === file && lineStartOf(text, d.element.declarationRange.start) === start))
        continue;
      hits.push({ file, elementPath: holder?.path, lineText: line.trim() });
    }
  }
  return hits;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function render(
  symbol: string,
  definitions: ReadonlyArray<{ file: string; element: ElementNode }>,
  uses: UsesFound,
  options: SymbolFinderOptions,
  searchedFiles: number | undefined,
): string {
  const budget = options.budget ?? DEFAULT_FIND_TOKENS;
  const { counter } = options;
  const gaps = uses.gaps.length === 0 ? '' : `; not searched in full: ${uses.gaps.join('; ')}`;
  if (definitions.length === 0 && uses.hits.length === 0) {
    const where =
      options.graph === undefined
        ? "this request's files"
        : `the workspace (${searchedFiles ?? 0} source file${searchedFiles === 1 ? '' : 's'} searched; ignored and excluded files are not)`;
    return `FIND ${symbol}: not found in ${where}${gaps}.`;
  }
  const lines: string[] = [];
  let used = 0;
  const add = (line: string): boolean => {
    const cost = counter.count(line) + 1;
    if (used + cost > budget) return false;
    used += cost;
    lines.push(line);
    return true;
  };
  const count = uses.hits.length;
  const found =
    uses.how === 'references'
      ? `${count} use${count === 1 ? '' : 's'}${uses.byName === 0 ? '' : ` (${uses.byName === count ? 'all' : uses.byName} by name only)`}`
      : `${count} line${count === 1 ? '' : 's'} mention${count === 1 ? 's' : ''} it (a text search${options.graph === undefined ? " of this request's files" : ''})`;
  add(
    `FIND ${symbol}: ${definitions.length === 0 ? 'no definition found' : `defined ${definitions.length === 1 ? 'once' : `${definitions.length} times`}`}, ${found}${gaps}`,
  );
  let shownDefinitions = 0;
  for (const { element } of definitions) {
    if (!add(`- defined: ${element.path}  ${clip(element.signature)}`)) break;
    shownDefinitions += 1;
  }
  let shownUses = 0;
  for (const use of uses.hits) {
    if (!add(`- used in ${use.elementPath ?? `${use.file} (top level)`}: ${clip(use.lineText)}`)) break;
    shownUses += 1;
  }
  const left = definitions.length - shownDefinitions + uses.hits.length - shownUses;
  if (left > 0) {
    const files = [
      ...new Set([
        ...definitions.slice(shownDefinitions).map((d) => d.file),
        ...uses.hits.slice(shownUses).map((u) => u.file),
      ]),
    ];
    lines.push(
      `- … and ${left} more in ${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more files` : ''}`,
    );
  }
  const request = new Set(options.requestFiles);
  const elsewhere = [...new Set([...definitions.map((d) => d.file), ...uses.hits.map((u) => u.file)])].filter(
    (file) => !request.has(file),
  );
  if (elsewhere.length > 0)
    lines.push(
      `  (${elsewhere.length === 1 ? `${elsewhere[0]} is` : `${elsewhere.length} of these files are`} not part of this request: they cannot be shown with NEED or edited here)`,
    );
  return lines.join('\n');
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 160 ? line : `${line.slice(0, 159)}…`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
