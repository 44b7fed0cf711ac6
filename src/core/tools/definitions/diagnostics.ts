import { isOutlinable } from '../../elements/outline';
import { languageNames } from '../../language/languages';
import type { GraphDiagnostic } from '../graph/codeGraph';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { stringArg, stringsArg } from '../validateInput';
import { CURSOR_PROPERTY, cursorOf, graphOf, pagedAnswer, withinFile } from './common';

interface DiagnosticsInput {
  readonly paths: readonly string[];
  readonly severity: 'error' | 'all';
  readonly cursor?: string;
}

export const diagnosticTable: TableSpec<GraphDiagnostic> = {
  columns: ['line', 'code', 'element', 'message'],
  group: (d) => d.file,
  cells: (d) => [
    `${d.line}:${d.column}`,
    d.severity === 'error' ? d.code : `${d.code}(${d.severity})`,
    withinFile(d.element, d.file),
    d.message,
  ],
  json: (d) => ({
    file: d.file,
    line: d.line,
    column: d.column,
    severity: d.severity,
    code: d.code,
    element: d.element,
    message: d.message,
  }),
};

export const diagnosticsTool: ToolSpec<DiagnosticsInput> = {
  name: 'diagnostics',
  title: 'Diagnostics of files',
  description:
    'TypeScript syntax and type errors of files or folders (e.g. the files an edit touched), each with its line, ' +
    'code, enclosing element path and message. Missing dependencies show as TS2307.',
  inputSchema: {
    type: 'object',
    properties: {
      paths: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: 'Workspace-relative files or folders.',
      },
      severity: {
        type: 'string',
        enum: ['error', 'all'],
        description: 'Errors only, or warnings and suggestions too (default all).',
      },
      cursor: CURSOR_PROPERTY,
    },
    required: ['paths'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => ({
    paths: stringsArg(input, 'paths') ?? [],
    severity: stringArg(input, 'severity') === 'error' ? 'error' : 'all',
    ...cursorOf(input),
  }),
  describe: (input) => `diagnostics of ${input.paths.join(', ')}`,
  async handle(input, env, budget) {
    const files: string[] = [];
    for (const raw of input.paths) {
      const path = raw.replace(/^\.\/?/, '').replace(/\/+$/, '');
      if (env.workspace.isFolder(path)) files.push(...env.workspace.listSourceFiles(path));
      else if (!isOutlinable(path)) throw new ToolInputError(`${raw}: neither a folder nor a file Scalpel reads (${languageNames()})`);
      else {
        // Throws for a missing or excluded file, saying which.
        env.outlines.getOrThrow(path);
        files.push(path);
      }
    }
    const unique = [...new Set(files)];
    const all = (await graphOf(env)).diagnostics(unique);
    const rows = input.severity === 'error' ? all.filter((d) => d.severity === 'error') : all;
    const errors = all.filter((d) => d.severity === 'error').length;
    const heading = `diagnostics of ${count(unique.length)} file${unique.length === 1 ? '' : 's'}: ${count(errors)} errors, ${count(all.length - errors)} others`;
    return pagedAnswer(env, budget, { ...input }, heading, diagnosticTable, rows, 'diagnostics');
  },
};
