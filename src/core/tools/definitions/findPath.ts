import { parseElementPath } from '../../elements/elementPath';
import { shortestPaths, type PathStep } from '../graph/shortestPaths';
import type { UseEdge } from '../graph/codeGraph';
import { count, type TableSpec } from '../table';
import type { ToolSpec } from '../types';
import { numberArg, stringArg } from '../validateInput';
import { canonicalPathOrThrow, semanticsOrThrow, CURSOR_PROPERTY, cursorOf, graphOf, pagedAnswer } from './common';

interface FindPathInput {
  readonly from: string;
  readonly to: string;
  readonly maxDepth: number;
  readonly maxPaths: number;
  readonly callsOnly: boolean;
  readonly cursor?: string;
}

const MAX_NODES = 2_000;

function fileOf(element: string): string {
  return parseElementPath(element).file;
}

/**
 * One path per row: the first step in full, then `>` (calls) or `~` (refers to) with the line of the use, then the
 * next element, written without its file when it is in the previous step's file.
 */
export function stepsText(steps: readonly PathStep[]): string {
  let previousFile = '';
  return steps
    .map((step) => {
      const file = fileOf(step.element);
      const path = file === previousFile ? step.element.slice(file.length + 1) : step.element;
      previousFile = file;
      return step.via === undefined ? path : `${step.via.kind === 'call' ? '>' : '~'}${step.via.line} ${path}`;
    })
    .join(' ');
}

export const pathTable: TableSpec<readonly PathStep[]> = {
  columns: ['hops', 'steps'],
  cells: (steps) => [String(steps.length - 1), stepsText(steps)],
  json: (steps) => ({
    hops: steps.length - 1,
    steps: steps.map((s) => ({
      element: s.element,
      ...(s.via === undefined ? {} : { via: s.via.kind, file: s.via.file, line: s.via.line }),
    })),
  }),
};

export const findPathTool: ToolSpec<FindPathInput> = {
  name: 'find_path',
  title: 'Find path',
  description: 'Shortest chains of uses (calls, references) from one element to another.',
  inputSchema: {
    type: 'object',
    properties: {
      from: { type: 'string' },
      to: { type: 'string', description: 'A container: any member.' },
      maxDepth: { type: 'integer', minimum: 1, maximum: 8 },
      maxPaths: { type: 'integer', minimum: 1, maximum: 100 },
      callsOnly: { type: 'boolean' },
      cursor: CURSOR_PROPERTY,
    },
    required: ['from', 'to'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => ({
    from: stringArg(input, 'from') ?? '',
    to: stringArg(input, 'to') ?? '',
    maxDepth: numberArg(input, 'maxDepth') ?? 4,
    maxPaths: numberArg(input, 'maxPaths') ?? 10,
    callsOnly: input['callsOnly'] === true,
    ...cursorOf(input),
  }),
  describe: (input) => `paths from ${input.from} to ${input.to}`,
  async handle(input, env, budget) {
    // Both ends must exist: a typo should say so, not answer "no path".
    const from = canonicalPathOrThrow(env, input.from);
    const to = canonicalPathOrThrow(env, input.to);
    semanticsOrThrow(from, 'call chains');
    semanticsOrThrow(to, 'call chains');
    const graph = await graphOf(env);
    const cache = new Map<string, UseEdge[]>();
    const search = await shortestPaths(
      from,
      to,
      async (element) => {
        let edges = cache.get(element);
        if (edges === undefined) {
          edges = await graph.uses(element);
          cache.set(element, edges);
        }
        return edges;
      },
      { maxDepth: input.maxDepth, maxPaths: input.maxPaths, maxNodes: MAX_NODES, callsOnly: input.callsOnly },
    );
    const heading =
      `paths from ${from} to ${to}: ${count(search.paths.length)} ` +
      `(shortest first, at most ${input.maxDepth} hops, ${count(search.explored)} elements explored)`;
    // The legend is here, not in the tool list every session pays for (issue 27).
    const notes: string[] =
      search.paths.length === 0 ? [] : ['">12 x": calls x at line 12; "~12 x": refers to x there'];
    if (search.truncated)
      notes.push(`the search stopped after ${count(MAX_NODES)} elements; longer chains may exist (try callsOnly)`);
    if (search.paths.length === 0)
      notes.push(
        `no chain within ${input.maxDepth} hops; raise maxDepth (up to 8) or check the direction (from uses to)`,
      );
    return pagedAnswer(env, budget, { ...input }, heading, pathTable, search.paths, 'paths', notes);
  },
};
