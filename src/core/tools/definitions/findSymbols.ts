import type { ElementKind, ElementNode } from '../../elements/element';
import { ELEMENT_KINDS } from '../../elements/element';
import { walkElements } from '../../elements/resolve';
import { globMatcher } from '../glob';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { stringArg, stringsArg } from '../validateInput';
import { CURSOR_PROPERTY, cursorOf, lineRange, pagedAnswer, withinFile } from './common';
import { normalizeWorkspacePath } from '../../workspace/workspaceFiles';

interface FindSymbolsInput {
  readonly name?: string;
  readonly path?: string;
  readonly kinds?: readonly string[];
  readonly folder: string;
  readonly cursor?: string;
}

export interface SymbolRow {
  readonly file: string;
  readonly element: ElementNode;
}

export const symbolTable: TableSpec<SymbolRow> = {
  columns: ['lines', 'element'],
  group: (row) => row.file,
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
    'Find elements (classes, functions, methods, properties, ...) by name or by element-path pattern across the ' +
    'workspace. Patterns: * (within a segment or file name), ** (any depth), ?; a name without wildcards matches as ' +
    'a case-insensitive substring. Answers element paths with line ranges, grouped by file.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The element name, a substring of it or a glob (e.g. "valid*").' },
      path: {
        type: 'string',
        description: 'A glob over whole element paths, e.g. "src/**/class[*]/method[save]" or "**/*.tsx/function[*]".',
      },
      kinds: {
        type: 'array',
        items: { type: 'string', enum: [...ELEMENT_KINDS] },
        description: 'Only these kinds (class, function, method, property, ...; default: all but import and export).',
      },
      folder: { type: 'string', description: 'Search only this workspace folder (default: the whole workspace).' },
      cursor: CURSOR_PROPERTY,
    },
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => {
    const name = stringArg(input, 'name');
    const path = stringArg(input, 'path');
    const kinds = stringsArg(input, 'kinds');
    if ((name === undefined || name === '') && (path === undefined || path === ''))
      throw new ToolInputError('give a name or a path pattern to search for');
    return {
      ...(name === undefined || name === '' ? {} : { name }),
      ...(path === undefined || path === '' ? {} : { path }),
      ...(kinds === undefined || kinds.length === 0 ? {} : { kinds }),
      folder: normalizeWorkspacePath(stringArg(input, 'folder') ?? ''),
      ...cursorOf(input),
    };
  },
  describe: (input) => `find symbols ${[input.name, input.path].filter((x) => x !== undefined).join(' ')}`,
  handle(input, env, budget) {
    if (input.folder !== '' && !env.workspace.isFolder(input.folder))
      throw new ToolInputError(`${input.folder}: no such folder in the workspace`);
    const byName = input.name === undefined ? undefined : globMatcher(input.name);
    const byPath = input.path === undefined ? undefined : globMatcher(input.path);
    const kinds = input.kinds === undefined ? undefined : new Set<ElementKind>(input.kinds as ElementKind[]);
    const files = env.workspace.listSourceFiles(input.folder);
    const rows: SymbolRow[] = [];
    const matchedFiles = new Set<string>();
    for (const file of files) {
      const outline = env.outlines.get(file);
      if (outline === undefined) continue;
      for (const element of walkElements(outline.elements)) {
        if (kinds !== undefined ? !kinds.has(element.kind) : element.kind === 'import' || element.kind === 'export')
          continue;
        if (byName !== undefined && !byName(element.name)) continue;
        if (byPath !== undefined && !byPath(element.path)) continue;
        rows.push({ file, element });
        matchedFiles.add(file);
      }
    }
    const query = [
      input.name === undefined ? '' : `name ${input.name}`,
      input.path === undefined ? '' : `path ${input.path}`,
    ]
      .filter((q) => q !== '')
      .join(', ');
    const heading = `symbols matching ${query}: ${count(rows.length)} in ${count(matchedFiles.size)} of ${count(files.length)} files`;
    return pagedAnswer(env, budget, { ...input }, heading, symbolTable, rows, 'symbols');
  },
};
