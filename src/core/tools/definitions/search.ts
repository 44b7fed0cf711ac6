import { elementsAtOffset } from '../../elements/resolve';
import { searchText, TextSearchError, type TextHit, type TextPattern } from '../../search/textSearch';
import { normalizeWorkspacePath, type WorkspaceListing } from '../../workspace/workspaceFiles';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolEnv, type ToolSpec } from '../types';
import { numberArg, stringArg, stringsArg } from '../validateInput';
import { eachWithTurns } from '../turns';
import { CURSOR_PROPERTY, cursorOf, fileFilterOf, FILE_GLOBS, listingNotesOf, pagedAnswer, withinFile } from './common';

/**
 * `search`: text search over the workspace's files on ripgrep (src/core/search/), for what `references` cannot see:
 * names in strings and comments, property keys, configuration, duck-typed and dynamic uses. It reads the one
 * workspace listing (so what `.gitignore` and the exclusion settings leave out is never searched), places each
 * matching line in its enclosing element, and pages like the other tools.
 */

type CaseMode = 'smart' | 'sensitive' | 'insensitive';

interface SearchInput {
  readonly pattern: string;
  readonly regex: boolean;
  readonly case: CaseMode;
  readonly wholeWord: boolean;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly folder: string;
  readonly context: number;
  readonly cursor?: string;
}

/** Matches collected per call at most; past it the answer says so and asks for a narrower search. */
export const MAX_SEARCH_HITS = 5_000;
/** Time a search may take; past it the answer says which part was searched. */
const SEARCH_TIME_LIMIT_MS = 15_000;
/** Longest pattern accepted: a search pattern is a line, not a document. */
const MAX_PATTERN_CHARS = 1_000;
/** Characters of a line shown; a longer line shows a window around its first match. */
const MAX_CODE_CHARS = 200;
const MAX_CONTEXT_LINES = 5;

export interface SearchRow {
  readonly file: string;
  readonly line: number;
  /** The enclosing element's path, or '' (the file's top level, or a file Scalpel does not outline). */
  readonly element: string;
  readonly code: string;
  /** A line around a match, shown for context, not a match itself. */
  readonly context: boolean;
}

export const searchRowTable: TableSpec<SearchRow> = {
  columns: ['line', 'element', 'code'],
  group: (row) => row.file,
  cells: (row) => [row.context ? `${row.line}-` : String(row.line), withinFile(row.element, row.file), row.code],
  json: (row) => ({ file: row.file, line: row.line, element: row.element, code: row.code, context: row.context }),
};

/** Smart case: insensitive unless the pattern has an upper-case letter (an escape such as `\S` is not one). */
function caseSensitive(input: SearchInput): boolean {
  if (input.case !== 'smart') return input.case === 'sensitive';
  const letters = input.regex ? input.pattern.replace(/\\./g, '') : input.pattern;
  return letters !== letters.toLowerCase();
}

function patternOf(input: SearchInput): TextPattern {
  const sensitive = caseSensitive(input);
  if (input.regex)
    return {
      text: input.wholeWord ? `\\b(?:${input.pattern})\\b` : input.pattern,
      mode: 'regex',
      caseSensitive: sensitive,
    };
  return { text: input.pattern, mode: input.wholeWord ? 'identifier' : 'literal', caseSensitive: sensitive };
}

function clipAround(line: string, column: number): string {
  const flat = line.replace(/\t/g, ' ');
  if (flat.length <= MAX_CODE_CHARS) return flat.trim();
  const start = Math.max(0, Math.min(column - 1 - 40, flat.length - MAX_CODE_CHARS));
  return `${start > 0 ? '…' : ''}${flat.slice(start, start + MAX_CODE_CHARS).trim()}…`;
}

/** The answer's rows: one per matching line (several matches on a line are one row), with context lines around. */
async function rowsOf(env: ToolEnv, hits: readonly TextHit[], context: number): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  const byFile = new Map<string, TextHit[]>();
  for (const hit of hits) {
    const fileHits = byFile.get(hit.file);
    if (fileHits === undefined) byFile.set(hit.file, [hit]);
    else fileHits.push(hit);
  }
  await eachWithTurns(env, [...byFile], 'files with matches placed', ([file, fileHits]) => {
    // The outline holds the file's text as read for it: a file is read once, and not at all when its outline is cached.
    const outline = env.outlines.get(file);
    const text = outline?.text ?? env.workspace.read(file);
    const lines = text?.split('\n');
    const starts: number[] = [];
    if (lines !== undefined) {
      let offset = 0;
      for (const line of lines) {
        starts.push(offset);
        offset += line.length + 1;
      }
    }
    const elementAt = (line: number, column: number): string => {
      if (outline === undefined) return '';
      const offset = (starts[line - 1] ?? 0) + column - 1;
      return elementsAtOffset(outline, offset).at(-1)?.path ?? '';
    };
    const matched = new Map<number, TextHit>();
    for (const hit of fileHits) if (!matched.has(hit.line)) matched.set(hit.line, hit);
    let lastShown = 0;
    for (const [line, hit] of matched) {
      for (let before = Math.max(lastShown + 1, line - context); before < line; before++) {
        if (matched.has(before)) continue;
        rows.push(contextRow(file, before, lines, elementAt));
      }
      rows.push({
        file,
        line,
        element: elementAt(line, hit.column),
        code: clipAround(hit.lineText, hit.column),
        context: false,
      });
      lastShown = line;
      const last = Math.min(lines?.length ?? line, line + context);
      for (let after = line + 1; after <= last; after++) {
        if (matched.has(after)) break;
        rows.push(contextRow(file, after, lines, elementAt));
        lastShown = after;
      }
    }
  });
  return rows;
}

function contextRow(
  file: string,
  line: number,
  lines: readonly string[] | undefined,
  elementAt: (line: number, column: number) => string,
): SearchRow {
  const text = (lines?.[line - 1] ?? '').replace(/\r$/, '');
  const indent = text.length - text.trimStart().length;
  return { file, line, element: elementAt(line, indent + 1), code: clipAround(text, 1), context: true };
}

export const searchTool: ToolSpec<SearchInput> = {
  name: 'search',
  title: 'Search text',
  description:
    'Text search (ripgrep), hits by line and element path. Finds what references cannot: strings, comments, property keys, duck-typed uses.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string' },
      regex: { type: 'boolean' },
      case: {
        type: 'string',
        enum: ['smart', 'sensitive', 'insensitive'],
      },
      wholeWord: { type: 'boolean' },
      ...FILE_GLOBS,
      folder: { type: 'string' },
      context: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_CONTEXT_LINES,
      },
      cursor: CURSOR_PROPERTY,
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => {
    const pattern = stringArg(input, 'pattern') ?? '';
    if (pattern === '') throw new ToolInputError('give a pattern to search for');
    if (pattern.length > MAX_PATTERN_CHARS)
      throw new ToolInputError(
        `the pattern is ${count(pattern.length)} characters; at most ${count(MAX_PATTERN_CHARS)}`,
      );
    const include = stringsArg(input, 'include');
    const exclude = stringsArg(input, 'exclude');
    return {
      pattern,
      regex: input['regex'] === true,
      case: (stringArg(input, 'case') ?? 'smart') as CaseMode,
      wholeWord: input['wholeWord'] === true,
      ...(include === undefined || include.length === 0 ? {} : { include }),
      ...(exclude === undefined || exclude.length === 0 ? {} : { exclude }),
      folder: normalizeWorkspacePath(stringArg(input, 'folder') ?? ''),
      context: numberArg(input, 'context') ?? 0,
      ...cursorOf(input),
    };
  },
  describe: (input) =>
    `search for ${JSON.stringify(input.pattern.length > 60 ? `${input.pattern.slice(0, 59)}…` : input.pattern)}`,
  async handle(input, env, budget) {
    if (input.folder !== '' && !env.workspace.isFolder(input.folder))
      throw new ToolInputError(`${input.folder}: no such folder in the workspace`);
    const listing: WorkspaceListing = env.workspace.listing?.(input.folder) ?? {
      files: env.workspace.listSourceFiles(input.folder),
      skippedLinks: [],
      truncated: false,
      foldersRead: 0,
    };
    const files = listing.files.filter(fileFilterOf(input.include, input.exclude));
    const texts = new Map<string, string | undefined>();
    for (const file of env.workspace.unsavedFiles?.() ?? [])
      if (files.includes(file)) texts.set(file, env.workspace.read(file));
    let result;
    try {
      result = await searchText(
        patternOf(input),
        { root: env.workspace.root, files, texts },
        { maxHits: MAX_SEARCH_HITS, timeLimitMs: SEARCH_TIME_LIMIT_MS },
      );
    } catch (error) {
      if (error instanceof TextSearchError) throw new ToolInputError(error.message);
      throw error;
    }
    const rows = await rowsOf(env, result.hits, input.context);
    const matchedFiles = new Set(result.hits.map((hit) => hit.file)).size;
    const lines = rows.filter((row) => !row.context).length;
    const how = `${input.regex ? 'regex' : 'literal'}, ${caseSensitive(input) ? 'case-sensitive' : 'case-insensitive'}${input.wholeWord ? ', whole words' : ''}`;
    const heading = `search ${JSON.stringify(input.pattern)} (${how}): ${count(result.hits.length)} matches on ${count(lines)} lines in ${count(matchedFiles)} of ${count(files.length)} files searched`;
    const notes = [
      ...(input.context > 0 ? ["lines whose number ends with '-' are context, not matches"] : []),
      ...(result.limitReached
        ? [`stopped at ${count(MAX_SEARCH_HITS)} matches: more may follow; narrow the pattern, the folder or the globs`]
        : []),
      ...(result.cutShort
        ? [
            `stopped at the time limit after ${count(result.filesSearched)} of ${count(files.length)} files: the rest were not searched`,
          ]
        : []),
      ...listingNotesOf(listing),
    ];
    return pagedAnswer(env, budget, { ...input }, heading, searchRowTable, rows, 'lines', notes);
  },
};
