import { isOutlinable } from '../../elements/outline';
import type { ElementNode, FileOutline } from '../../elements/element';
import { languageFor, languageNames } from '../../language/languages';
import type { GraphDiagnostic } from '../graph/codeGraph';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { stringArg, stringsArg } from '../validateInput';
import { CURSOR_PROPERTY, cursorOf, graphOf, pagedAnswer, withinFile } from './common';
import { normalizeWorkspacePath } from '../../workspace/workspaceFiles';

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

/** The syntax errors of a file read by a language without a type check, as diagnostics with their element. */
function syntaxDiagnostics(outline: FileOutline): GraphDiagnostic[] {
  const lineStarts = [0];
  for (let i = outline.text.indexOf('\n'); i >= 0; i = outline.text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return outline.syntaxErrors.map((problem) => {
    const offset = (lineStarts[problem.line - 1] ?? 0) + problem.column - 1;
    const chain = elementsAt(outline.elements, offset);
    return {
      file: outline.file,
      line: problem.line,
      column: problem.column,
      severity: 'error' as const,
      code: 'syntax',
      message: problem.message,
      element: chain.at(-1)?.path ?? outline.file,
    };
  });
}

function elementsAt(elements: readonly ElementNode[], offset: number): ElementNode[] {
  const inside = elements.find((e) => e.range.start <= offset && offset < e.range.end);
  return inside === undefined ? [] : [inside, ...elementsAt(inside.children, offset)];
}

export const diagnosticsTool: ToolSpec<DiagnosticsInput> = {
  name: 'diagnostics',
  title: 'Diagnostics of files',
  description:
    'Syntax and type errors of files or folders (e.g. the files an edit touched), each with its line, code, ' +
    'enclosing element path and message. TypeScript and JavaScript get the type check (missing dependencies show ' +
    'as TS2307); files of the other languages are checked for syntax.',
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
      const path = normalizeWorkspacePath(raw);
      if (env.workspace.isFolder(path)) files.push(...env.workspace.listSourceFiles(path));
      else if (!isOutlinable(path))
        throw new ToolInputError(`${raw}: neither a folder nor a file Scalpel reads (${languageNames()})`);
      else {
        // Throws for a missing or excluded file, saying which.
        env.outlines.getOrThrow(path);
        files.push(path);
      }
    }
    const unique = [...new Set(files)];
    // The type check is a language's semantics (TypeScript's); the other languages' files are checked for syntax.
    const syntaxOnly = unique.filter((file) => languageFor(file)?.semantics === undefined);
    const checked = unique.filter((file) => !syntaxOnly.includes(file));
    const all = [
      ...(checked.length === 0 ? [] : await (await graphOf(env)).diagnostics(checked)),
      ...syntaxOnly.flatMap((file) => syntaxDiagnostics(env.outlines.getOrThrow(file))),
    ];
    const rows = input.severity === 'error' ? all.filter((d) => d.severity === 'error') : all;
    const errors = all.filter((d) => d.severity === 'error').length;
    const syntaxNote =
      syntaxOnly.length === 0
        ? ''
        : ` (${count(syntaxOnly.length)} ${syntaxOnly.length === 1 ? 'file' : 'files'} of ${[...new Set(syntaxOnly.map((f) => languageFor(f)?.displayName ?? f))].join(', ')} checked for syntax only: the type check is TypeScript's)`;
    const heading = `diagnostics of ${count(unique.length)} file${unique.length === 1 ? '' : 's'}: ${count(errors)} errors, ${count(all.length - errors)} others${syntaxNote}`;
    return pagedAnswer(env, budget, { ...input }, heading, diagnosticTable, rows, 'diagnostics');
  },
};
