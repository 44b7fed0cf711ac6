import type { ElementKind, ElementNode } from '../../elements/element';
import { ELEMENT_KINDS } from '../../elements/element';
import { globMatcher } from '../glob';
import { namePathMatcher } from '../namePath';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { clipped, numberArg, stringArg, stringsArg } from '../validateInput';
import { CURSOR_PROPERTY, cursorOf, lineRange, pagedAnswer, withinFile } from './common';
import { bodyAnswer, type BodyMatch } from './symbolBodies';
import { normalizeWorkspacePath } from '../../workspace/workspaceFiles';
import { eachWithTurns } from '../turns';

interface FindSymbolsInput {
  readonly name?: string;
  readonly path?: string;
  readonly kinds?: readonly string[];
  readonly folder: string;
  /** Members listed under each match, this many levels down. */
  readonly depth: number;
  readonly includeBody: boolean;
  readonly cursor?: string;
}

export interface SymbolRow {
  readonly file: string;
  readonly element: ElementNode;
  /** A member listed under a match (`depth`), this many levels below it; absent for a match. */
  readonly level?: number;
}

export const symbolTable: TableSpec<SymbolRow> = {
  columns: ['lines', 'element'],
  group: (row) => row.file,
  indent: (row) => row.level ?? 0,
  cells: (row) => [lineRange(row.element.startLine, row.element.endLine), withinFile(row.element.path, row.file)],
  json: (row) => ({
    path: row.element.path,
    kind: row.element.kind,
    startLine: row.element.startLine,
    endLine: row.element.endLine,
  }),
};

export const findSymbolsTool: ToolSpec<FindSymbolsInput> = {
  name: 'find_symbols',
  title: 'Find symbols',
  description:
    'Elements by name (substring, glob, name path User/validate or class[User]/method[*]) or element-path glob; depth: members; includeBody: source.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      path: { type: 'string' },
      // The kinds are neither an enum nor described here: the 25 would cost every session's tool list 60 tokens, and
      // an unknown kind is answered with the list.
      kinds: { type: 'array', items: { type: 'string' } },
      folder: { type: 'string' },
      includeBody: { type: 'boolean' },
      depth: { type: 'integer', minimum: 0 },
      cursor: CURSOR_PROPERTY,
    },
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => {
    const name = stringArg(input, 'name');
    const path = stringArg(input, 'path');
    const kinds = stringsArg(input, 'kinds');
    const unknown = kinds?.find((kind) => !(ELEMENT_KINDS as readonly string[]).includes(kind));
    if (unknown !== undefined)
      throw new ToolInputError(`"kinds": no kind "${clipped(unknown)}"; the kinds are ${ELEMENT_KINDS.join(', ')}`);
    if ((name === undefined || name === '') && (path === undefined || path === ''))
      throw new ToolInputError('give a name or a path pattern to search for');
    return {
      ...(name === undefined || name === '' ? {} : { name }),
      ...(path === undefined || path === '' ? {} : { path }),
      ...(kinds === undefined || kinds.length === 0 ? {} : { kinds }),
      folder: normalizeWorkspacePath(stringArg(input, 'folder') ?? ''),
      depth: numberArg(input, 'depth') ?? 0,
      includeBody: input['includeBody'] === true,
      ...cursorOf(input),
    };
  },
  describe: (input) => `find symbols ${[input.name, input.path].filter((x) => x !== undefined).join(' ')}`,
  async handle(input, env, budget) {
    if (input.folder !== '' && !env.workspace.isFolder(input.folder))
      throw new ToolInputError(`${input.folder}: no such folder in the workspace`);
    const byName = input.name === undefined ? undefined : namePathMatcher(input.name);
    const byPath = input.path === undefined ? undefined : globMatcher(input.path);
    const kinds = input.kinds === undefined ? undefined : new Set<ElementKind>(input.kinds as ElementKind[]);
    const listed = (element: ElementNode): boolean =>
      kinds !== undefined ? kinds.has(element.kind) : element.kind !== 'import' && element.kind !== 'export';
    const files = env.workspace.listSourceFiles(input.folder);
    const matches: BodyMatch[] = [];
    const matchedFiles = new Set<string>();
    // Outlining a thousand files takes seconds: the walk gives the other calls turns (src/core/tools/turns.ts).
    await eachWithTurns(env, files, 'files searched', (file) => {
      const outline = env.outlines.get(file);
      if (outline === undefined) return;
      const visit = (elements: readonly ElementNode[], chain: readonly ElementNode[]): void => {
        for (const element of elements) {
          const within = [...chain, element];
          if (
            listed(element) &&
            (byName === undefined || byName(within)) &&
            (byPath === undefined || byPath(element.path))
          ) {
            matches.push({ file, element, members: membersOf(element, input.depth) });
            matchedFiles.add(file);
          }
          visit(element.children, within);
        }
      };
      visit(outline.elements, []);
    });
    const query = [
      input.name === undefined ? '' : `name ${input.name}`,
      input.path === undefined ? '' : `path ${input.path}`,
    ]
      .filter((q) => q !== '')
      .join(', ');
    const heading = `symbols matching ${query}: ${count(matches.length)} in ${count(matchedFiles.size)} of ${count(files.length)} files${input.depth > 0 ? `, members ${input.depth} level${input.depth === 1 ? '' : 's'} down indented under each` : ''}`;
    if (input.includeBody) return bodyAnswer(env, budget, { ...input }, heading, matches, []);
    const rows: SymbolRow[] = matches.flatMap((match) => [
      { file: match.file, element: match.element },
      ...match.members.map(({ element, level }) => ({ file: match.file, element, level })),
    ]);
    const what = input.depth > 0 ? 'rows' : 'symbols';
    return pagedAnswer(env, budget, { ...input }, heading, symbolTable, rows, what);
  },
};

/** The members of an element down to `depth` levels, in file order, imports and re-exports left out. */
function membersOf(element: ElementNode, depth: number, level = 1): Array<{ element: ElementNode; level: number }> {
  if (level > depth) return [];
  return element.children
    .filter((child) => child.kind !== 'import' && child.kind !== 'export')
    .flatMap((child) => [{ element: child, level }, ...membersOf(child, depth, level + 1)]);
}
