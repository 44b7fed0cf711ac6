import type { TokenCounter } from '../context/tokens';
import type { ElementNode, FileOutline } from '../elements/element';
import { elementsAtOffset, walkElements } from '../elements/resolve';
import type { CodeGraph } from '../graph/codeGraph';
import { isReferable, ReferenceFinder, type ReferenceSite } from '../graph/references';
import { isOutlinable, outlineSource } from '../language/languages';
import type { SnapshotReader } from '../ops/apply';
import type { ExclusionCheck } from './exclusion';

/**
 * `FIND <identifier or text>`, the model's question in planning and edit rounds: where a symbol is defined and where
 * it is used, as element paths and the lines themselves (no line numbers: the model acts on paths and code). With a
 * workspace (the code graph) it searches every source file, uses of a definition coming from the language's
 * references; without one, the request's files by plain text. Excluded files are never quoted.
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

async function findSymbol(query: string, options: SymbolFinderOptions): Promise<string> {
  const symbol = query.trim().replace(/^[`'"]+|[`'"]+$/g, '');
  if (symbol === '') return 'FIND needs a name or some text: FIND <identifier or text>.';
  const identifier = /^[A-Za-z_$][\w$]*$/.test(symbol);
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

  let candidates: string[];
  if (graph !== undefined) {
    graph.imports.refresh();
    const mentioning = identifier
      ? graph.imports.filesMentioning(symbol)
      : graph.fileSystem.listSourceFiles().filter((file) => textOf(file)?.includes(symbol) === true);
    candidates = [...new Set([...options.requestFiles, ...mentioning])];
  } else {
    candidates = [...options.requestFiles];
  }
  candidates = candidates.filter((file) => textOf(file)?.includes(symbol) === true).slice(0, MAX_TEXT_FILES);
  const allowed: string[] = [];
  for (const file of candidates)
    if ((await options.exclusions?.firstExclusion([file])) === undefined) allowed.push(file);

  const definitions: Array<{ file: string; element: ElementNode }> = [];
  for (const file of allowed) {
    const text = textOf(file);
    const outline = text === undefined ? undefined : outlineOf(file, text);
    if (outline === undefined) continue;
    for (const element of walkElements(outline.elements))
      if (element.name === symbol && element.kind !== 'import' && element.kind !== 'export')
        definitions.push({ file, element });
  }

  // Uses: the language's references of what is defined, else every line that mentions the text.
  let uses: Hit[] | undefined;
  if (graph !== undefined && definitions.length > 0 && definitions.every((d) => isReferable(d.element))) {
    const finder = new ReferenceFinder(graph);
    const sites: ReferenceSite[] = [];
    try {
      for (const { file, element } of definitions.slice(0, MAX_DEFINITIONS_WITH_REFERENCES))
        sites.push(...finder.referencesOf(file, element.path).sites);
      const visible = new Set(allowed);
      uses = sites
        .filter((site) => visible.has(site.file))
        .map((site) => ({ file: site.file, elementPath: site.elementPath, lineText: site.lineText }));
    } catch {
      // A file the language cannot read: the plain text search below still answers.
      uses = undefined;
    }
  }
  uses ??= textHits(allowed, textOf, outlineOf, matches, definitions);

  return render(symbol, definitions, uses, options);
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
  uses: readonly Hit[],
  options: SymbolFinderOptions,
): string {
  const budget = options.budget ?? DEFAULT_FIND_TOKENS;
  const { counter } = options;
  if (definitions.length === 0 && uses.length === 0) {
    return `FIND ${symbol}: not found in ${options.graph === undefined ? "this request's files" : 'the workspace'}.`;
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
  add(
    `FIND ${symbol}: ${definitions.length === 0 ? 'no definition found' : `defined ${definitions.length === 1 ? 'once' : `${definitions.length} times`}`}, ${uses.length} use${uses.length === 1 ? '' : 's'}`,
  );
  let shownDefinitions = 0;
  for (const { element } of definitions) {
    if (!add(`- defined: ${element.path}  ${clip(element.signature)}`)) break;
    shownDefinitions += 1;
  }
  let shownUses = 0;
  for (const use of uses) {
    if (!add(`- used in ${use.elementPath ?? `${use.file} (top level)`}: ${clip(use.lineText)}`)) break;
    shownUses += 1;
  }
  const left = definitions.length - shownDefinitions + uses.length - shownUses;
  if (left > 0) {
    const files = [
      ...new Set([
        ...definitions.slice(shownDefinitions).map((d) => d.file),
        ...uses.slice(shownUses).map((u) => u.file),
      ]),
    ];
    lines.push(
      `- … and ${left} more in ${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more files` : ''}`,
    );
  }
  const request = new Set(options.requestFiles);
  const elsewhere = [...new Set([...definitions.map((d) => d.file), ...uses.map((u) => u.file)])].filter(
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
