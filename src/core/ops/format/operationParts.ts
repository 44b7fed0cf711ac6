import {
  MAX_BLANK_LINES,
  OPERATION_TYPES,
  type BlankLinesAround,
  type CreatePosition,
  type OperationType,
} from '../operation';
import { normalizePath, unquote } from './headerLine';

/** Pieces shared by the text and the JSON reader, so both accept and reject exactly the same things. */

export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string; readonly expected: string };

export function ok<T>(value: T): Checked<T> {
  return { ok: true, value };
}

export function problem<T>(message: string, expected: string): Checked<T> {
  return { ok: false, message, expected };
}

/** Model text quoted in an error, cut to a readable length (a runaway line must not flood the retry prompt). */
export function clip(text: string, length = 60): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

export const VALID_TYPES_TEXT = OPERATION_TYPES.join(', ');

export const POSITION_KEYWORDS = ['FIRST_CHILD', 'LAST_CHILD', 'BEFORE', 'AFTER'] as const;

const POSITIONS_TEXT = 'FIRST_CHILD, LAST_CHILD, BEFORE <sibling> or AFTER <sibling>';

export function operationTypeOf(word: string): OperationType | undefined {
  const upper = word.trim().toUpperCase();
  return OPERATION_TYPES.find((type) => type === upper);
}

/**
 * Every type but DELETE_ELEMENT and RENAME_ELEMENT carries code; REMOVE_IMPORT may leave it to its `import[...]`
 * path.
 */
export function takesBody(type: OperationType): boolean {
  return type !== 'DELETE_ELEMENT' && type !== 'RENAME_ELEMENT';
}

export function readPosition(keyword: string | undefined, siblingToken: string | undefined): Checked<CreatePosition> {
  if (keyword === undefined || keyword === '') {
    return problem('CREATE_ELEMENT has no position', POSITIONS_TEXT);
  }
  const upper = keyword.toUpperCase();
  if (upper === 'FIRST_CHILD' || upper === 'LAST_CHILD') {
    if (siblingToken !== undefined) {
      return problem(`unexpected "${clip(siblingToken)}" after ${upper}`, `${upper} alone, or BEFORE/AFTER <sibling>`);
    }
    return ok({ kind: upper });
  }
  if (upper === 'BEFORE' || upper === 'AFTER') {
    const sibling = siblingToken === undefined ? '' : normalizePath(siblingToken);
    if (sibling === '') {
      return problem(`${upper} needs a sibling`, `${upper} <sibling>, e.g. ${upper} method[validate]`);
    }
    return ok({ kind: upper, sibling });
  }
  return problem(`unknown position "${clip(keyword)}"`, POSITIONS_TEXT);
}

/** Reads `AFTER method[x]`, `LAST_CHILD`: the JSON string form of a position. */
export function readPositionText(text: string): Checked<CreatePosition> {
  const trimmed = text.trim();
  const space = trimmed.search(/\s/);
  if (space < 0) return readPosition(trimmed, undefined);
  return readPosition(trimmed.slice(0, space), trimmed.slice(space).trim());
}

const KIND_WORD = /^[A-Za-z][\w-]*=?$/;

/** `KIND=method` or `(method)` on a header; the bare word in JSON. */
export function readKindToken(token: string): Checked<string> | undefined {
  let word: string;
  if (/^kind[=:]/i.test(token)) word = token.slice(5);
  else if (token.startsWith('(') && token.endsWith(')')) word = token.slice(1, -1);
  else return undefined;
  return readElementKind(unquote(word.trim()));
}

const BLANK_LINES_EXPECTED = `BLANK_LINES=<above>,<below>, each 0 to ${MAX_BLANK_LINES}, e.g. BLANK_LINES=1,0`;

/** `BLANK_LINES=1,0` on a header; undefined when the token is something else. */
export function readBlankLinesToken(token: string): Checked<BlankLinesAround> | undefined {
  if (!/^blank_lines[=:]/i.test(token)) return undefined;
  return readBlankLines(unquote(token.slice('BLANK_LINES='.length).trim()));
}

/** `1,0` (above, below) or `1` (both sides): the text of BLANK_LINES, in the header or in JSON. */
export function readBlankLines(text: string): Checked<BlankLinesAround> {
  const match = /^(\d{1,3})(?:\s*,\s*(\d{1,3}))?$/.exec(text.trim());
  const above = Number(match?.[1]);
  const below = match?.[2] === undefined ? above : Number(match[2]);
  if (match === null || above > MAX_BLANK_LINES || below > MAX_BLANK_LINES)
    return problem(`"${clip(text)}" is not a count of blank lines above and below`, BLANK_LINES_EXPECTED);
  return ok({ above, below });
}

export function readElementKind(word: string): Checked<string> {
  if (!KIND_WORD.test(word)) {
    return problem(
      `"${clip(word)}" is not an element kind`,
      'one word such as KIND=method, KIND=function, KIND=property',
    );
  }
  return ok(word);
}

/** `src/a.ts/import[./old]` names the whole declaration, so REMOVE_IMPORT needs no body: its content is `./old`. */
export function importModuleOfPath(path: string): string | undefined {
  const match = /\/import\[(.*)\]$/.exec(path);
  if (match?.[1] === undefined) return undefined;
  const module = unquote(match[1].trim());
  return module === '' ? undefined : module;
}
