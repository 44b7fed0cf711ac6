import { signatureLine, type ElementNode, type FileOutline } from '../../elements/element';
import { type SectionMark, sectionMarksOf } from '../../elements/sectionMarks';
import { isOutlinable } from '../../elements/outline';
import { languageNames } from '../../language/languages';
import { count, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { numberArg, stringsArg } from '../validateInput';
import { CURSOR_PROPERTY, cursorOf, lastSegmentOf, lineRange, oneLine, pagedAnswer, withinFile } from './common';
import { normalizeWorkspacePath } from '../../workspace/workspaceFiles';
import { listingNotesOf } from './common';
import { eachWithTurns } from '../turns';

interface OutlineInput {
  readonly paths: readonly string[];
  readonly depth?: number;
  readonly signatures: boolean;
  readonly cursor?: string;
}

export interface OutlineRow {
  readonly file: string;
  readonly element: ElementNode;
  readonly depth: number;
  /**
   * A section comment or docstring of the element's container, shown on a row of its own before `element` (or, for
   * `after`, after it: the comments that close a body).
   */
  readonly mark?: SectionMark;
}

/** The rows of one file's outline, nested elements down to `maxDepth` levels. */
export function rowsOf(
  file: string,
  elements: readonly ElementNode[],
  depth: number,
  maxDepth: number,
  skipImports: boolean,
  out: OutlineRow[],
): void {
  for (const element of elements) {
    if (skipImports && (element.kind === 'import' || element.kind === 'export')) continue;
    out.push({ file, element, depth });
    if (depth + 1 < maxDepth) rowsOf(file, element.children, depth + 1, maxDepth, skipImports, out);
  }
}

/**
 * The rows of one file's outline with its section comments and docstrings (`§ DEPRECATED`) on rows of their own, where
 * the file has them: what steers where new code goes.
 */
export function rowsWithMarks(
  file: string,
  outline: FileOutline,
  container: ElementNode | undefined,
  depth: number,
  maxDepth: number,
  out: OutlineRow[],
): void {
  const elements = container === undefined ? outline.elements : container.children;
  const marks = sectionMarksOf(outline, container);
  const first = elements[0];
  if (marks.docstring !== undefined && first !== undefined)
    out.push({ file, element: first, depth, mark: marks.docstring });
  for (const element of elements) {
    for (const mark of marks.before.get(element) ?? []) out.push({ file, element, depth, mark });
    out.push({ file, element, depth });
    if (depth + 1 < maxDepth) rowsWithMarks(file, outline, element, depth + 1, maxDepth, out);
  }
  const last = elements[elements.length - 1];
  for (const mark of marks.after) if (last !== undefined) out.push({ file, element: last, depth, mark });
}

export function outlineTable(signatures: boolean): TableSpec<OutlineRow> {
  return {
    columns: signatures ? ['lines', 'element', 'signature'] : ['lines', 'element'],
    group: (row) => row.file,
    indent: (row) => row.depth,
    // Nested rows show their last segment under their container; the first row of a page or file shows its path.
    cells: (row, first) =>
      row.mark !== undefined
        ? [
            lineRange(row.mark.startLine, row.mark.endLine),
            ...(signatures ? ['§', markWords(row.mark)] : [`§ ${markWords(row.mark)}`]),
          ]
        : [
            lineRange(row.element.startLine, row.element.endLine),
            first ? withinFile(row.element.path, row.file) : lastSegmentOf(row.element.path),
            ...(signatures ? [oneLine(signatureLine(row.element))] : []),
          ],
    json: (row) =>
      row.mark !== undefined
        ? { kind: row.mark.kind, startLine: row.mark.startLine, endLine: row.mark.endLine, text: row.mark.text }
        : {
            path: row.element.path,
            kind: row.element.kind,
            startLine: row.element.startLine,
            endLine: row.element.endLine,
            ...(signatures ? { signature: oneLine(signatureLine(row.element)) } : {}),
          },
  };
}

/** A mark's words as an outline row shows them: `docstring: ...` for a docstring. */
function markWords(mark: SectionMark): string {
  return mark.kind === 'docstring' ? `docstring: ${mark.text}` : mark.text;
}

export const outlineTool: ToolSpec<OutlineInput> = {
  name: 'outline',
  title: 'Outline',
  description: 'Element tree of files or folders: line ranges and element paths for the other tools.',
  inputSchema: {
    type: 'object',
    properties: {
      paths: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
      },
      depth: { type: 'integer', minimum: 1 },
      signatures: { type: 'boolean' },
      cursor: CURSOR_PROPERTY,
    },
    required: ['paths'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => {
    const depth = numberArg(input, 'depth');
    return {
      paths: stringsArg(input, 'paths') ?? [],
      ...(depth === undefined ? {} : { depth }),
      signatures: input['signatures'] !== false,
      ...cursorOf(input),
    };
  },
  describe: (input) => `outline of ${input.paths.join(', ')}`,
  async handle(input, env, budget) {
    const rows: OutlineRow[] = [];
    const files: string[] = [];
    const listingNotes: string[] = [];
    let sawFolder = false;
    for (const raw of input.paths) {
      const path = normalizeWorkspacePath(raw);
      if (env.workspace.isFolder(path)) {
        sawFolder = true;
        files.push(...env.workspace.listSourceFiles(path));
        listingNotes.push(...listingNotesOf(env.workspace.listing?.(path)));
      } else if (isOutlinable(path)) files.push(path);
      else if (env.workspace.read(path) === undefined)
        throw new ToolInputError(`${raw}: no such file or folder in the workspace`);
      else throw new ToolInputError(`${raw}: not a file Scalpel reads (${languageNames()})`);
    }
    const unique = [...new Set(files)];
    const maxDepth = input.depth ?? (sawFolder ? 1 : Number.MAX_SAFE_INTEGER);
    let lines = 0;
    await eachWithTurns(env, unique, 'files outlined', (file) => {
      const outline = env.outlines.getOrThrow(file);
      lines += outline.lineCount;
      // A folder's outline lists declarations only; a file's shows its section comments and docstrings too.
      if (sawFolder) rowsOf(file, outline.elements, 0, maxDepth, true, rows);
      else rowsWithMarks(file, outline, undefined, 0, maxDepth, rows);
    });
    const marked = rows.some((row) => row.mark !== undefined);
    const heading = `outline of ${input.paths.join(', ')}: ${count(unique.length)} file${unique.length === 1 ? '' : 's'}, ${count(lines)} lines`;
    const notes = sawFolder
      ? [
          `imports, re-exports and section comments left out of folder outlines; outline a file to see them${input.depth === undefined ? '; top-level elements only: pass depth (or a file) for members' : ''}`,
          ...new Set(listingNotes),
        ]
      : marked
        ? ['§ rows: a comment standing between elements (a section heading) or a docstring, by its first words']
        : [];
    const what = marked ? 'rows (elements and § marks)' : 'elements';
    return pagedAnswer(env, budget, { ...input }, heading, outlineTable(input.signatures), rows, what, notes);
  },
};
