import { parseElementPath } from '../../elements/elementPath';
import type { CodeGraph, DeclaredSite, UseEdge, UseSite } from '../graph/codeGraph';
import { count, type TableSpec } from '../table';
import type { AnswerBudget } from '../budget';
import { languageFor } from '../../language/languages';
import { ToolInputError, type ToolAnswer, type ToolEnv, type ToolSpec } from '../types';
import { numberArg, stringArg, stringsArg } from '../validateInput';
import {
  canonicalPathOrThrow,
  semanticsOrThrow,
  CURSOR_PROPERTY,
  cursorOf,
  FILE_GLOBS,
  fileFilterOf,
  graphOf,
  lastSegmentOf,
  lineRange,
  pagedAnswer,
  withinFile,
} from './common';

type Relation = 'references' | 'callers' | 'callees' | 'declaration' | 'implementations';

interface ReferencesInput {
  /** One element, or several (`paths`): then each with its count of uses, not the uses. */
  readonly paths: readonly string[];
  readonly several: boolean;
  readonly relation: Relation;
  /** `declaration`: the identifier whose declaration is asked for, as used in the path (on `line` when given). */
  readonly name?: string;
  readonly line?: number;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly cursor?: string;
}

/** Elements one call counts the uses of. */
const MAX_COUNTED = 100;

export interface UseCountRow {
  readonly file: string;
  readonly element: string;
  readonly uses: number;
  readonly files: number;
  /** Why the count may be short (a search cut at a limit), or why there is none. */
  readonly note?: string;
}

export const useCountTable: TableSpec<UseCountRow> = {
  columns: ['uses', 'files', 'element', 'note'],
  group: (row) => row.file,
  cells: (row) => [
    row.note?.startsWith('not searched') === true ? '?' : String(row.uses),
    String(row.files),
    withinFile(row.element, row.file),
    row.note ?? '',
  ],
  json: (row) => ({ file: row.file, element: row.element, uses: row.uses, files: row.files, note: row.note }),
};

export const useSiteTable: TableSpec<UseSite> = {
  columns: ['line', 'element', 'use', 'code'],
  group: (row) => row.file,
  cells: (row) => [String(row.line), withinFile(row.element, row.file), useOf(row), row.code],
  json: (row) => ({
    file: row.file,
    line: row.line,
    element: row.element,
    use: useOf(row),
    code: row.code,
  }),
};

/** `call` or `ref`, with `~` when only the name ties the use to the element. */
function useOf(row: UseSite): string {
  return `${row.call ? 'call' : 'ref'}${row.byName === true ? '~' : ''}`;
}

export interface CallerRow {
  readonly file: string;
  readonly element: string;
  readonly line: number;
  readonly calls: number;
}

export const callerTable: TableSpec<CallerRow> = {
  columns: ['line', 'caller', 'calls'],
  group: (row) => row.file,
  cells: (row) => [String(row.line), withinFile(row.element, row.file), String(row.calls)],
  json: (row) => ({ file: row.file, line: row.line, caller: row.element, calls: row.calls }),
};

export interface CalleeRow {
  readonly file: string;
  readonly edge: UseEdge;
}

/** Grouped by the callee's file; `line` is where the call is, in the queried element. */
export const calleeTable: TableSpec<CalleeRow> = {
  columns: ['line', 'callee', 'calls'],
  group: (row) => row.file,
  cells: (row) => [String(row.edge.line), withinFile(row.edge.target, row.file), String(row.edge.count)],
  json: (row) => ({ line: row.edge.line, callee: row.edge.target, calls: row.edge.count }),
};

/** Declarations (`used`: the lines of the uses that lead there) or implementations (no `used`). */
function declaredTable(withUses: boolean): TableSpec<DeclaredSite> {
  return {
    columns: withUses ? ['lines', 'element', 'used', 'signature'] : ['lines', 'element', 'signature'],
    group: (row) => row.file,
    cells: (row) => [
      lineRange(row.startLine, row.endLine),
      row.element === undefined ? (row.note ?? '') : withinFile(row.element, row.file),
      ...(withUses ? [(row.useLines ?? []).join(',')] : []),
      row.signature,
    ],
    json: (row) => ({ ...row }),
  };
}

export function callersOf(sites: readonly UseSite[]): CallerRow[] {
  const byElement = new Map<string, CallerRow>();
  for (const site of sites) {
    if (!site.call) continue;
    const known = byElement.get(site.element);
    byElement.set(
      site.element,
      known === undefined
        ? { file: site.file, element: site.element, line: site.line, calls: 1 }
        : { ...known, calls: known.calls + 1 },
    );
  }
  return [...byElement.values()];
}

export const referencesTool: ToolSpec<ReferencesInput> = {
  name: 'references',
  title: 'References',
  description:
    'Resolved uses of an element (TypeScript/JavaScript by the compiler, else by name), callers, callees, implementations, or the declaration of name used in path. Not strings, keys, duck-typed uses: search. paths: counts.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      paths: {
        type: 'array',
        items: { type: 'string' },
      },
      relation: {
        type: 'string',
        enum: ['references', 'callers', 'callees', 'implementations', 'declaration'],
      },
      name: { type: 'string' },
      line: { type: 'integer', minimum: 1 },
      ...FILE_GLOBS,
      cursor: CURSOR_PROPERTY,
    },
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => {
    const one = stringArg(input, 'path');
    const several = stringsArg(input, 'paths');
    if ((one === undefined) === (several === undefined))
      throw new ToolInputError('give either "path" (one element) or "paths" (several, each with its count of uses)');
    const relation = (stringArg(input, 'relation') ?? 'references') as Relation;
    if (several !== undefined && relation !== 'references')
      throw new ToolInputError(`"paths" counts references; ask for ${relation} with "path", one element at a time`);
    if (several !== undefined && (several.length === 0 || several.length > MAX_COUNTED))
      throw new ToolInputError(`"paths" takes 1 to ${MAX_COUNTED} element paths, got ${count(several.length)}`);
    const name = stringArg(input, 'name');
    const line = numberArg(input, 'line');
    if (relation === 'declaration' && (name === undefined || name === '') && line === undefined)
      throw new ToolInputError(
        'a declaration needs "name" (the identifier as used in "path", a file or element; "line" picks one use) or "line" alone (every name used on it)',
      );
    if (relation !== 'declaration' && (name !== undefined || line !== undefined))
      throw new ToolInputError(
        `"name" and "line" say which use to find the declaration of (relation "declaration"); ${relation} takes "path" only`,
      );
    const include = stringsArg(input, 'include');
    const exclude = stringsArg(input, 'exclude');
    return {
      paths: several ?? [one ?? ''],
      several: several !== undefined,
      relation,
      ...(name === undefined || relation !== 'declaration' ? {} : { name }),
      ...(line === undefined ? {} : { line }),
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      ...cursorOf(input),
    };
  },
  describe: (input) =>
    input.several
      ? `uses of ${count(input.paths.length)} elements`
      : input.relation === 'declaration'
        ? `declaration of ${input.name ?? `the names on line ${input.line ?? 0}`} in ${input.paths[0] ?? ''}`
        : `${input.relation} of ${input.paths[0] ?? ''}`,
  async handle(input, env, budget) {
    const filtered = input.include !== undefined || input.exclude !== undefined;
    const keep = fileFilterOf(input.include, input.exclude);
    const filterNote = filtered
      ? [
          `only files ${[input.include === undefined ? '' : `matching ${input.include.join(', ')}`, input.exclude === undefined ? '' : `not matching ${input.exclude.join(', ')}`].filter((x) => x !== '').join(' and ')}`,
        ]
      : [];
    if (input.several) {
      const graph = await graphOf(env);
      const rows: UseCountRow[] = [];
      for (const raw of input.paths) {
        const path = canonicalPathOrThrow(env, raw);
        const file = parseElementPath(path).file;
        try {
          const { sites, gaps } = await graph.references(path);
          const kept = sites.filter((site) => keep(site.file));
          rows.push({
            file,
            element: path,
            uses: kept.length,
            files: new Set(kept.map((site) => site.file)).size,
            ...(gaps.length === 0 ? {} : { note: `partial: ${gaps.join('; ')}` }),
          });
        } catch (error) {
          if (!(error instanceof ToolInputError)) throw error;
          rows.push({ file, element: path, uses: 0, files: 0, note: `not searched: ${error.message}` });
        }
      }
      rows.sort((a, b) => a.uses - b.uses || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
      const unused = rows.filter((row) => row.uses === 0 && row.note === undefined).length;
      const heading = `uses of ${count(rows.length)} elements: ${count(unused)} with none found in code (strings, property keys and dynamic uses are search's)`;
      return pagedAnswer(env, budget, { ...input }, heading, useCountTable, rows, 'elements', filterNote);
    }
    const path = canonicalPathOrThrow(env, input.paths[0] ?? '');
    if (input.relation === 'declaration') return declarationAnswer(env, budget, input, path, keep, filterNote);
    if (parseElementPath(path).segments.length === 0)
      throw new ToolInputError(`${path} is a file; give an element path such as ${path}/function[name]`);
    if (input.relation === 'callees') semanticsOrThrow(path, input.relation);
    const graph = await graphOf(env);
    if (input.relation === 'implementations') {
      if (graph.implementations === undefined) throw new ToolInputError('this workspace has no implementation search');
      const found = await graph.implementations(path);
      const sites = found.sites.filter((site) => keep(site.file));
      const where = `${count(sites.length)} in ${count(new Set(sites.map((s) => s.file)).size)} files`;
      const { byName } = found;
      const heading =
        byName === undefined
          ? `implementations of ${path}: ${where} (TypeScript's go to implementation over the ${count(found.searched)} files that mention ${lastSegmentOf(path)})`
          : `implementations of ${path}, by name: ${where} (${byName.found}${byName.member === undefined ? '' : `, their members named ${byName.member}`}, in the ${count(found.searched)} ${byName.language} files that mention it)`;
      const notes = [
        ...(byName === undefined
          ? []
          : [
              `by name: ${byName.language} has no compiler lookup here, so a type naming another ${byName.typeName} is listed too, and only the types that name it themselves (ask again for each to go further down)`,
              ...(found.searched === 0 ? [] : [`searched: ${byName.files}`]),
            ]),
        ...found.gaps.map((gap) => `not searched in full: ${gap}`),
        ...filterNote,
      ];
      return pagedAnswer(env, budget, { ...input }, heading, declaredTable(false), sites, 'implementations', notes);
    }
    if (input.relation === 'callees') {
      const edges = (await graph.uses(path)).filter((e) => e.kind === 'call');
      const rows = edges
        .map((edge) => ({ file: parseElementPath(edge.target).file, edge }))
        .sort((a, b) => (a.file === b.file ? a.edge.line - b.edge.line : a.file < b.file ? -1 : 1));
      const heading = `callees of ${path}: ${count(rows.length)} workspace elements (line = where the call is)`;
      return pagedAnswer(env, budget, { ...input }, heading, calleeTable, rows, 'callees');
    }
    const found = await graph.references(path);
    const { resolution, gaps } = found;
    const sites = found.sites.filter((site) => keep(site.file));
    const files = new Set(sites.map((s) => s.file)).size;
    const byName = sites.filter((s) => s.byName === true).length;
    const notes = [
      ...(byName === 0
        ? []
        : [
            `~: ${count(byName)} of these only the name ties to ${lastSegmentOf(path)} (found by name in code, not resolved)`,
          ]),
      ...(resolution === 'syntax' && sites.length === 0
        ? [`searched by name in code, outside comments and strings`]
        : []),
      ...gaps.map((gap) => `not searched in full: ${gap}`),
      ...filterNote,
    ];
    if (input.relation === 'callers') {
      const rows = callersOf(sites);
      const heading = `callers of ${path}: ${count(rows.length)} elements, ${count(sites.filter((s) => s.call).length)} calls in ${count(files)} files`;
      return pagedAnswer(env, budget, { ...input }, heading, callerTable, rows, 'callers', notes);
    }
    const heading = `references of ${path}: ${count(sites.length)} in ${count(files)} files`;
    return pagedAnswer(env, budget, { ...input }, heading, useSiteTable, sites, 'references', notes);
  },
};

async function declarationAnswer(
  env: ToolEnv,
  budget: AnswerBudget,
  input: ReferencesInput,
  path: string,
  keep: (file: string) => boolean,
  filterNote: readonly string[],
): Promise<ToolAnswer> {
  const graph = await graphOf(env);
  if (graph.declarations === undefined) throw new ToolInputError('this workspace has no declaration search');
  if (input.name === undefined) return lineDeclarationsAnswer(env, budget, input, path, graph, keep, filterNote);
  const name = input.name;
  const lookup = await graph.declarations(path, name, input.line);
  const found = { ...lookup, sites: lookup.sites.filter((site) => keep(site.file)) };
  const where = `${path}${input.line === undefined ? '' : ` line ${input.line}`}`;
  if (found.resolution === 'name') {
    const language = languageFor(parseElementPath(path).file)?.displayName ?? 'this language';
    const heading = `declaration of ${name} as used in ${where}, by name: ${count(found.sites.length)} ${language} elements named ${name}`;
    const notes = [
      `by name: ${language} has no compiler lookup here, so every element named ${name} is listed, whichever the use means; the compiler's answer is TypeScript/JavaScript only`,
      ...filterNote,
    ];
    return pagedAnswer(env, budget, { ...input }, heading, declaredTable(false), found.sites, 'declarations', notes);
  }
  const heading = `declaration of ${name} as used in ${where}: ${count(found.sites.length)} for ${count(found.uses)} uses (compiler-resolved; used = lines of the uses)`;
  const notes = [
    ...(found.unresolved === 0
      ? []
      : [`${count(found.unresolved)} of the uses lead to no declaration (a global without one, an untyped value)`]),
    ...filterNote,
  ];
  return pagedAnswer(env, budget, { ...input }, heading, declaredTable(true), found.sites, 'declarations', notes);
}

/** Names one line-wide declaration lookup resolves at most (a long line of calls). */
const MAX_LINE_NAMES = 30;

/** A declaration found from a line, with the name used there that leads to it. */
interface LineDeclaration extends DeclaredSite {
  readonly name: string;
}

const lineDeclarationTable: TableSpec<LineDeclaration> = {
  columns: ['name', 'lines', 'element', 'signature'],
  group: (row) => row.file,
  cells: (row) => [
    row.name,
    lineRange(row.startLine, row.endLine),
    row.element === undefined ? (row.note ?? '') : withinFile(row.element, row.file),
    row.signature,
  ],
  json: (row) => ({ ...row }),
};

/**
 * `declaration` with `line` and no `name`: the declaration of every name used on the line (in `path`'s range), each
 * found as a `name` lookup would find it; words that are no identifier used in code there (keywords, text in strings
 * and comments, where the compiler tells) lead nowhere and are left out.
 */
async function lineDeclarationsAnswer(
  env: ToolEnv,
  budget: AnswerBudget,
  input: ReferencesInput,
  path: string,
  graph: CodeGraph,
  keep: (file: string) => boolean,
  filterNote: readonly string[],
): Promise<ToolAnswer> {
  const line = input.line ?? 0;
  const text = env.outlines.getOrThrow(parseElementPath(path).file).text;
  const lineText = text.split('\n')[line - 1];
  if (lineText === undefined) throw new ToolInputError(`line ${line} is not in ${path}`);
  const names = [...new Set(lineText.match(/[A-Za-z_$][\w$]*/g) ?? [])];
  const rows: LineDeclaration[] = [];
  let resolution: 'compiler' | 'name' | undefined;
  for (const name of names.slice(0, MAX_LINE_NAMES)) {
    let lookup;
    try {
      lookup = await graph.declarations?.(path, name, line);
    } catch (error) {
      // A keyword, a word in a string or comment, a part of the line outside `path`: no use of that name to follow.
      if (error instanceof ToolInputError) continue;
      throw error;
    }
    if (lookup === undefined) continue;
    resolution ??= lookup.resolution;
    for (const site of lookup.sites) if (keep(site.file)) rows.push({ ...site, name });
  }
  // Grouped by file, the workspace's first: a dependency's or the standard library's declarations after them.
  const outside = (row: LineDeclaration): number => Number(row.note === 'outside the workspace');
  rows.sort(
    (a, b) =>
      outside(a) - outside(b) ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.startLine - b.startLine ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const where = `line ${line} of ${path}`;
  const shown = new Set(rows.map((row) => row.name)).size;
  const byName = resolution === 'name';
  const heading = `declarations of the names used on ${where}${byName ? ', by name' : ''}: ${count(rows.length)} for ${count(shown)} of its ${count(names.length)} words`;
  const language = languageFor(parseElementPath(path).file)?.displayName ?? 'this language';
  const notes = [
    byName
      ? `by name: ${language} has no compiler lookup here, so every element named like a word of the line is listed, whichever the use means`
      : 'compiler-resolved; words that lead to no declaration (keywords, strings, comments, globals without one) are left out',
    ...(names.length > MAX_LINE_NAMES
      ? [
          `the line has ${count(names.length)} words: the first ${MAX_LINE_NAMES} were looked up; pass "name" for another`,
        ]
      : []),
    ...filterNote,
  ];
  return pagedAnswer(env, budget, { ...input }, heading, lineDeclarationTable, rows, 'declarations', notes);
}
