import { compareErrors, type PlainDiagnostic } from '../../check/newErrors';
import { isOutlinable, outlineSource } from '../../elements/outline';
import type { ElementNode, FileOutline } from '../../elements/element';
import { languageFor, languageNames } from '../../language/languages';
import type { GraphDiagnostic } from '../graph/codeGraph';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolEnv, type ToolSpec } from '../types';
import { stringArg, stringsArg } from '../validateInput';
import { CURSOR_PROPERTY, cursorOf, graphOf, pagedAnswer, withinFile } from './common';
import { normalizeWorkspacePath } from '../../workspace/workspaceFiles';
import { eachWithTurns } from '../turns';

interface DiagnosticsInput {
  readonly paths: readonly string[];
  readonly severity: 'error' | 'all';
  /** Only what is new against an earlier state: before the last batch written, or the text you last saw. */
  readonly since?: 'batch' | 'seen';
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
  title: 'Diagnostics',
  description: 'Type errors (TypeScript/JavaScript) or syntax errors of files or folders, by line, code and element.',
  inputSchema: {
    type: 'object',
    properties: {
      paths: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
      },
      severity: {
        type: 'string',
        enum: ['error', 'all'],
      },
      since: {
        type: 'string',
        enum: ['batch', 'seen'],
        description: 'New only: since your last apply (batch) or look (seen).',
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
    ...(input['since'] === 'batch' || input['since'] === 'seen' ? { since: input['since'] } : {}),
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
    const now: GraphDiagnostic[] = checked.length === 0 ? [] : await (await graphOf(env)).diagnostics(checked);
    await eachWithTurns(env, syntaxOnly, 'files checked for syntax', (file) =>
      now.push(...syntaxDiagnostics(env.outlines.getOrThrow(file))),
    );
    const earlier = input.since === undefined ? undefined : await sinceState(input.since, unique, env);
    const all = earlier === undefined ? now : await newDiagnostics(now, earlier, checked, syntaxOnly, env);
    const rows = input.severity === 'error' ? all.filter((d) => d.severity === 'error') : all;
    const errors = all.filter((d) => d.severity === 'error').length;
    const syntaxNote =
      syntaxOnly.length === 0
        ? ''
        : ` (${count(syntaxOnly.length)} ${syntaxOnly.length === 1 ? 'file' : 'files'} of ${[...new Set(syntaxOnly.map((f) => languageFor(f)?.displayName ?? f))].join(', ')} checked for syntax only: the type check is TypeScript's)`;
    const fileCount = `${count(unique.length)} file${unique.length === 1 ? '' : 's'}`;
    const heading =
      earlier === undefined
        ? `diagnostics of ${fileCount}: ${count(errors)} errors, ${count(all.length - errors)} others${syntaxNote}`
        : `new diagnostics of ${fileCount} since ${input.since === 'batch' ? 'before your last written apply' : 'you last saw them'}: ${count(errors)} errors, ${count(all.length - errors)} others (of ${count(now.length)} in all; the ones already there left out)${syntaxNote}`;
    const notes =
      earlier === undefined || earlier.unknown.length === 0
        ? []
        : [
            `${earlier.unknown.join(', ')}: ${input.since === 'batch' ? 'not changed by your last batch' : 'not seen in this session'}, so every diagnostic of ${earlier.unknown.length === 1 ? 'it' : 'them'} is shown`,
          ];
    return pagedAnswer(env, budget, { ...input }, heading, diagnosticTable, rows, 'diagnostics', notes);
  },
};

/** The earlier text of each file `since` names, and the files it has none for (their diagnostics all count). */
interface EarlierState {
  readonly texts: ReadonlyMap<string, string | undefined>;
  readonly unknown: readonly string[];
}

async function sinceState(since: 'batch' | 'seen', files: readonly string[], env: ToolEnv): Promise<EarlierState> {
  const earlier = since === 'batch' ? env.history.lastBatch : env.conversation.baselines;
  if (earlier === undefined)
    throw new ToolInputError('no apply has been written in this session; call diagnostics without "since"');
  const texts = new Map<string, string | undefined>();
  const unknown: string[] = [];
  for (const file of files) {
    if (earlier.has(file)) texts.set(file, earlier.get(file));
    else unknown.push(file);
  }
  return { texts, unknown };
}

/**
 * The diagnostics that are new against the earlier state, by the rule a batch's new errors are found with
 * (src/core/check/newErrors.ts: the same code and message in the same file is old, however many copies).
 */
async function newDiagnostics(
  now: readonly GraphDiagnostic[],
  earlier: EarlierState,
  checked: readonly string[],
  syntaxOnly: readonly string[],
  env: ToolEnv,
): Promise<GraphDiagnostic[]> {
  const compared = new Set(earlier.texts.keys());
  const checkedBefore = checked.filter((file) => compared.has(file));
  const before = [
    ...(checkedBefore.length === 0 ? [] : await (await graphOf(env)).diagnostics(checkedBefore, earlier.texts)),
    ...syntaxOnly.flatMap((file) => {
      const text = earlier.texts.get(file);
      return compared.has(file) && text !== undefined ? syntaxDiagnostics(outlineSource(file, text)) : [];
    }),
  ];
  const plain = (d: GraphDiagnostic): GraphDiagnostic & PlainDiagnostic => ({
    ...d,
    lineText: d.lineText ?? '',
    elementPath: d.element,
  });
  const current = now.map((d) => ({ diagnostic: d, plain: plain(d) }));
  const { added } = compareErrors(
    before.map(plain),
    current.filter(({ diagnostic }) => compared.has(diagnostic.file)).map(({ plain }) => plain),
  );
  const isNew = new Set<PlainDiagnostic>(added);
  return current
    .filter(({ diagnostic, plain }) => !compared.has(diagnostic.file) || isNew.has(plain))
    .map(({ diagnostic }) => diagnostic);
}
