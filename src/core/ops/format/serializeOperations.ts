import type { BlankLinesAround, CreatePosition, Operation } from '../operation';
import { fenceFor } from './fences';
import { readHeaderArguments } from './headerArguments';
import { filePartLength, readHeaderLine } from './headerLine';
import { serializePatchBody } from './patchBody';

/**
 * Writes operations in the canonical text format (docs/operations.md), such that `parseOperations` reads back the
 * same operations (without their `line`). Paths are expected as the parser returns them: forward slashes in the
 * file part, no `file:` prefix.
 */
export function serializeOperations(operations: readonly Operation[]): string {
  return operations.map(serializeOperation).join('\n\n') + (operations.length > 0 ? '\n' : '');
}

function serializeOperation(operation: Operation): string {
  switch (operation.type) {
    case 'DELETE_ELEMENT':
    case 'RENAME_ELEMENT':
      return writeHeader(operation);
    case 'PATCH_ELEMENT':
      return `${writeHeader(operation)}\n${fenced(operation.path, serializePatchBody(operation.patches))}`;
    case 'CREATE_ELEMENT':
    case 'REPLACE_ELEMENT':
    case 'ADD_IMPORT':
    case 'REMOVE_IMPORT':
    case 'CREATE_FILE':
    case 'REPLACE_FILE':
      return `${writeHeader(operation)}\n${fenced(operation.path, operation.content)}`;
  }
}

const QUOTINGS: readonly ((text: string) => string)[] = [
  (text) => text,
  (text) => `\`${text}\``,
  (text) => `"${text}"`,
  (text) => `'${text}'`,
];

/**
 * The header line, with the path (and sibling) bare when the parser reads them back unchanged, else in the first
 * quoting that does: a path with a space, or one that ends like markdown decoration.
 */
function writeHeader(operation: Operation): string {
  const sibling =
    operation.type === 'CREATE_ELEMENT' && (operation.position.kind === 'BEFORE' || operation.position.kind === 'AFTER')
      ? operation.position.sibling
      : undefined;
  const candidates: string[] = [];
  for (const quotePath of QUOTINGS) {
    for (const quoteSibling of sibling === undefined ? [undefined] : QUOTINGS) {
      const line = headerLine(operation, quotePath(operation.path), quoteSibling?.(sibling ?? ''));
      if (readsBackAs(line, operation)) return line;
      candidates.push(line);
    }
  }
  return candidates[0] ?? operation.type;
}

function headerLine(operation: Operation, path: string, sibling: string | undefined): string {
  if (operation.type === 'RENAME_ELEMENT') return `${operation.type} ${path} ${operation.newName}`;
  if (operation.type !== 'CREATE_ELEMENT') return `${operation.type} ${path}`;
  const position = sibling === undefined ? operation.position.kind : `${operation.position.kind} ${sibling}`;
  const kind = operation.elementKind === undefined ? '' : ` KIND=${operation.elementKind}`;
  const blanks = operation.blankLines === undefined ? '' : ` BLANK_LINES=${blankLinesText(operation.blankLines)}`;
  return `${operation.type} ${path} ${position}${kind}${blanks}`;
}

function blankLinesText(blankLines: BlankLinesAround): string {
  return blankLines.above === blankLines.below ? `${blankLines.above}` : `${blankLines.above},${blankLines.below}`;
}

function readsBackAs(line: string, operation: Operation): boolean {
  const header = readHeaderLine(line);
  if (header?.kind !== 'operation' || header.type !== operation.type) return false;
  const args = readHeaderArguments(header.type, header.args);
  if (!args.ok || args.value.path !== operation.path) return false;
  if (operation.type === 'RENAME_ELEMENT') return args.value.newName === operation.newName;
  if (operation.type !== 'CREATE_ELEMENT') return true;
  const position = args.value.position;
  const sameSibling =
    position !== undefined &&
    position.kind === operation.position.kind &&
    ('sibling' in position ? position.sibling : undefined) ===
      ('sibling' in operation.position ? operation.position.sibling : undefined);
  return (
    sameSibling &&
    args.value.elementKind === operation.elementKind &&
    args.value.blankLines?.above === operation.blankLines?.above &&
    args.value.blankLines?.below === operation.blankLines?.below
  );
}

function fenced(path: string, body: string): string {
  const fence = fenceFor(body);
  const lines = body === '' ? '' : `${body}\n`;
  return `${fence}${infoStringFor(path)}\n${lines}${fence}`;
}

const INFO_BY_EXTENSION: Readonly<Record<string, string>> = {
  mts: 'ts',
  cts: 'ts',
  mjs: 'js',
  cjs: 'js',
  yml: 'yaml',
  htm: 'html',
  markdown: 'md',
};

/** The fence's info string, from the extension of the file the path is in (`ts` for `src/a.ts/class[A]`). */
export function infoStringFor(path: string): string {
  const segments = path.slice(0, filePartLength(path)).split('/');
  for (let index = segments.length - 1; index >= 0; index--) {
    const extension = /\.([A-Za-z0-9]+)$/.exec(segments[index] ?? '')?.[1]?.toLowerCase();
    if (extension !== undefined) return INFO_BY_EXTENSION[extension] ?? extension;
  }
  return '';
}

/**
 * The same operations as a pretty JSON array in the `{type, path, content, elementKind, position}` shape that
 * `parseOperations` also accepts; PATCH_ELEMENT's pairs go into `content` with their markers, RENAME_ELEMENT's new
 * name into `newName`.
 */
export function serializeOperationsAsJson(operations: readonly Operation[]): string {
  return JSON.stringify(operations.map(toJsonShape), null, 2);
}

interface JsonOperation {
  readonly type: Operation['type'];
  readonly path: string;
  readonly content?: string;
  readonly elementKind?: string;
  readonly position?: string;
  readonly blankLines?: string;
  readonly newName?: string;
}

function toJsonShape(operation: Operation): JsonOperation {
  const { type, path } = operation;
  switch (operation.type) {
    case 'DELETE_ELEMENT':
      return { type, path };
    case 'RENAME_ELEMENT':
      return { type, path, newName: operation.newName };
    case 'PATCH_ELEMENT':
      return { type, path, content: serializePatchBody(operation.patches) };
    case 'CREATE_ELEMENT': {
      const position = writeJsonPosition(operation.position);
      return {
        type,
        path,
        content: operation.content,
        ...(operation.elementKind === undefined ? {} : { elementKind: operation.elementKind }),
        position,
        ...(operation.blankLines === undefined ? {} : { blankLines: blankLinesText(operation.blankLines) }),
      };
    }
    case 'REPLACE_ELEMENT':
    case 'ADD_IMPORT':
    case 'REMOVE_IMPORT':
    case 'CREATE_FILE':
    case 'REPLACE_FILE':
      return { type, path, content: operation.content };
  }
}

function writeJsonPosition(position: CreatePosition): string {
  return position.kind === 'BEFORE' || position.kind === 'AFTER'
    ? `${position.kind} ${position.sibling}`
    : position.kind;
}
