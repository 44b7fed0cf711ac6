import { parseElementPath } from '../../elements/elementPath';
import type { UseEdge, UseSite } from '../graph/codeGraph';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { stringArg } from '../validateInput';
import {
  canonicalPathOrThrow,
  semanticsOrThrow,
  CURSOR_PROPERTY,
  cursorOf,
  graphOf,
  lastSegmentOf,
  pagedAnswer,
  withinFile,
} from './common';

type Relation = 'references' | 'callers' | 'callees';

interface ReferencesInput {
  readonly path: string;
  readonly relation: Relation;
  readonly cursor?: string;
}

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
  title: 'References, callers or callees',
  description:
    'Where an element is used ("references": each use with its line, enclosing element and code), which elements ' +
    'call it ("callers"), or which workspace elements its own code calls ("callees", TypeScript and JavaScript ' +
    'only). It finds identifiers in code: resolved by the compiler in TypeScript and JavaScript (renamed imports, ' +
    'calls through instances); in Python, Go, Rust, Java and C# by name, resolved through imports, packages and ' +
    'modules, a use that only the name ties to the element marked "~". It does not see names in strings or ' +
    'comments, property keys (obj["name"], "name" in obj), duck-typed or dynamic uses: use search for those.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Element path, e.g. src/user.ts/class[User]/method[validate].' },
      relation: {
        type: 'string',
        enum: ['references', 'callers', 'callees'],
        description: 'What to list (default "references").',
      },
      cursor: CURSOR_PROPERTY,
    },
    required: ['path'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => ({
    path: stringArg(input, 'path') ?? '',
    relation: (stringArg(input, 'relation') ?? 'references') as Relation,
    ...cursorOf(input),
  }),
  describe: (input) => `${input.relation} of ${input.path}`,
  async handle(input, env, budget) {
    const path = canonicalPathOrThrow(env, input.path);
    if (parseElementPath(path).segments.length === 0)
      throw new ToolInputError(`${path} is a file; give an element path such as ${path}/function[name]`);
    if (input.relation === 'callees') semanticsOrThrow(path, input.relation);
    const graph = await graphOf(env);
    if (input.relation === 'callees') {
      const edges = graph.uses(path).filter((e) => e.kind === 'call');
      const rows = edges
        .map((edge) => ({ file: parseElementPath(edge.target).file, edge }))
        .sort((a, b) => (a.file === b.file ? a.edge.line - b.edge.line : a.file < b.file ? -1 : 1));
      const heading = `callees of ${path}: ${count(rows.length)} workspace elements (line = where the call is)`;
      return pagedAnswer(env, budget, { ...input }, heading, calleeTable, rows, 'callees');
    }
    const { sites, resolution, gaps } = graph.references(path);
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
