import type { BlankLinesAround, CreatePosition, Operation, ParseError, SearchReplacePair } from '../operation';
import { checkedNewName } from './headerArguments';
import { normalizePath } from './headerLine';
import { readJson, type JsonValue } from './jsonWithOffsets';
import {
  clip,
  importModuleOfPath,
  ok,
  operationTypeOf,
  problem,
  readBlankLines,
  readElementKind,
  readPosition,
  readPositionText,
  VALID_TYPES_TEXT,
  type Checked,
} from './operationParts';
import { parsePatchBody } from './patchBody';

/**
 * The JSON form: an array of `{type, path, content, elementKind, position}` or `{ "operations": [...] }`. Every
 * entry is checked on its own, so one bad entry costs only itself.
 */

export interface JsonOperationsResult {
  readonly operations: readonly Operation[];
  readonly errors: readonly ParseError[];
}

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: JsonValue | undefined): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Whether a parsed JSON value is meant as operations (and not, say, a package.json shown in prose). */
export function looksLikeOperations(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((entry) => isObject(entry) && 'type' in entry);
  return isObject(value) && ('operations' in value || ('type' in value && 'path' in value));
}

/** Text that fails to parse as JSON but was evidently meant as operations: worth an error, not silence. */
export function mentionsOperations(text: string): boolean {
  return /"(?:type|operations)"\s*:/.test(text);
}

/**
 * Reads `text` (which starts at 1-based `firstLine` of the answer). When `onlyIfOperations` is set, valid JSON that
 * is not an operation list yields nothing and no error.
 */
export function parseJsonOperations(text: string, firstLine: number, onlyIfOperations = false): JsonOperationsResult {
  const lineStarts = [0];
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) === 10) lineStarts.push(index + 1);
  const lineAt = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return firstLine + low;
  };
  const parsed = readJson(text);
  if (!parsed.ok) {
    if (onlyIfOperations && !mentionsOperations(text)) return { operations: [], errors: [] };
    return {
      operations: [],
      errors: [{ line: lineAt(parsed.offset), message: `invalid JSON: ${parsed.message}`, expected: 'valid JSON' }],
    };
  }
  const root = parsed.value;
  if (onlyIfOperations && !looksLikeOperations(root)) return { operations: [], errors: [] };
  const rootLine = lineAt(parsed.offsetOf.get(root as object) ?? 0);
  let entries: readonly JsonValue[];
  if (Array.isArray(root)) {
    entries = root;
  } else if (isObject(root) && 'operations' in root) {
    const list = root['operations'];
    if (!Array.isArray(list)) {
      return {
        operations: [],
        errors: [
          {
            line: rootLine,
            message: `"operations" must be an array, not ${describe(list)}`,
            expected: '"operations": [ ... ]',
          },
        ],
      };
    }
    entries = list;
  } else if (isObject(root) && 'type' in root) {
    entries = [root];
  } else {
    return {
      operations: [],
      errors: [
        {
          line: rootLine,
          message: 'the JSON is not a list of operations',
          expected: 'an array of {"type", "path", "content", "elementKind", "position"} or {"operations": [...]}',
        },
      ],
    };
  }
  const operations: Operation[] = [];
  const errors: ParseError[] = [];
  const entryOffsets = parsed.elementOffsetsOf.get(entries) ?? [];
  entries.forEach((entry, index) => {
    const offset = entryOffsets[index];
    const line = offset === undefined ? rootLine : lineAt(offset);
    const read = readJsonOperation(entry, line);
    if (read.ok) operations.push(read.value);
    else errors.push({ line, message: `operations[${index}]: ${read.message}`, expected: read.expected });
  });
  return { operations, errors };
}

function readString(entry: JsonObject, field: string, required: boolean): Checked<string | undefined> {
  const value = entry[field];
  if (value === undefined || value === null) {
    return required ? problem(`"${field}" is missing`, `"${field}": a string`) : ok(undefined);
  }
  if (typeof value !== 'string')
    return problem(`"${field}" must be a string, not ${describe(value)}`, `"${field}": a string`);
  return ok(value);
}

/** `"blankLines": "1,0"` (above, below), or one number for both sides. */
function readJsonBlankLines(entry: JsonObject): Checked<BlankLinesAround | undefined> {
  const value = entry['blankLines'];
  if (value === undefined || value === null) return ok(undefined);
  if (typeof value !== 'string' && typeof value !== 'number')
    return problem(
      `"blankLines" must be a string such as "1,0", not ${describe(value)}`,
      '"blankLines": "<above>,<below>"',
    );
  return readBlankLines(String(value));
}

/** Bodies come out with \n line ends, whatever the model sent. */
function lf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/**
 * One entry: the operation, or every problem it has at once (a missing path and a missing content are one repair
 * round, not two).
 */
function readJsonOperation(entry: JsonValue, line: number): Checked<Operation> {
  const read = readJsonOperationOrFirstProblem(entry, line);
  if (read.ok || !isObject(entry)) return read;
  const found = [read, ...fieldProblems(entry)].filter(
    (p, index, all) => all.findIndex((q) => q.message === p.message) === index,
  );
  if (found.length === 1) return read;
  return problem(found.map((p) => p.message).join('; '), found.map((p) => p.expected).join('; '));
}

/** The problems of each field on its own, where the first-problem reading stops at the first. */
function fieldProblems(entry: JsonObject): Array<{ readonly message: string; readonly expected: string }> {
  const found: Array<{ readonly message: string; readonly expected: string }> = [];
  const note = (checked: Checked<unknown>): void => {
    if (!checked.ok) found.push({ message: checked.message, expected: checked.expected });
  };
  const typeField = readString(entry, 'type', true);
  note(typeField);
  const type = typeField.ok ? operationTypeOf(typeField.value ?? '') : undefined;
  const pathField = readString(entry, 'path', true);
  note(pathField);
  if (pathField.ok && normalizePath(pathField.value ?? '') === '')
    found.push({ message: '"path" is empty', expected: '"path": the element path or file path' });
  if (type === undefined || type === 'DELETE_ELEMENT') return found;
  if (type === 'RENAME_ELEMENT') {
    note(readJsonNewName(entry, pathField.ok ? normalizePath(pathField.value ?? '') : ''));
    return found;
  }
  if (type === 'PATCH_ELEMENT') {
    note(readPatches(entry));
    return found;
  }
  const module = pathField.ok ? importModuleOfPath(normalizePath(pathField.value ?? '')) : undefined;
  note(readString(entry, 'content', !(type === 'REMOVE_IMPORT' && module !== undefined)));
  if (type === 'CREATE_ELEMENT') {
    note(readJsonPosition(entry['position']));
    const kindField = readString(entry, 'elementKind', false);
    note(kindField);
    if (kindField.ok && kindField.value !== undefined) note(readElementKind(kindField.value));
    note(readJsonBlankLines(entry));
  }
  return found;
}

function readJsonOperationOrFirstProblem(entry: JsonValue, line: number): Checked<Operation> {
  if (!isObject(entry)) {
    return problem(
      `an operation must be an object, not ${describe(entry)}`,
      '{"type": ..., "path": ..., "content": ...}',
    );
  }
  const typeField = readString(entry, 'type', true);
  if (!typeField.ok) return typeField;
  const type = operationTypeOf(typeField.value ?? '');
  if (type === undefined)
    return problem(`unknown operation type "${clip(typeField.value ?? '')}"`, `one of ${VALID_TYPES_TEXT}`);
  const pathField = readString(entry, 'path', true);
  if (!pathField.ok) return pathField;
  const path = normalizePath(pathField.value ?? '');
  if (path === '') return problem('"path" is empty', '"path": the element path or file path');

  switch (type) {
    case 'DELETE_ELEMENT':
      return ok({ type, path, line });
    case 'RENAME_ELEMENT': {
      const newName = readJsonNewName(entry, path);
      return newName.ok ? ok({ type, path, newName: newName.value, line }) : newName;
    }
    case 'PATCH_ELEMENT': {
      const patches = readPatches(entry);
      return patches.ok ? ok({ type, path, patches: patches.value, line }) : patches;
    }
    case 'CREATE_ELEMENT': {
      const content = readString(entry, 'content', true);
      if (!content.ok) return content;
      const position = readJsonPosition(entry['position']);
      if (!position.ok) return position;
      const kindField = readString(entry, 'elementKind', false);
      if (!kindField.ok) return kindField;
      const elementKind = kindField.value === undefined ? undefined : readElementKind(kindField.value);
      if (elementKind !== undefined && !elementKind.ok) return elementKind;
      const blankLines = readJsonBlankLines(entry);
      if (!blankLines.ok) return blankLines;
      return ok({
        type,
        path,
        position: position.value,
        content: lf(content.value ?? ''),
        ...(elementKind === undefined ? {} : { elementKind: elementKind.value }),
        ...(blankLines.value === undefined ? {} : { blankLines: blankLines.value }),
        line,
      });
    }
    case 'REMOVE_IMPORT': {
      const module = importModuleOfPath(path);
      const content = readString(entry, 'content', module === undefined);
      if (!content.ok) return content;
      return ok({ type, path, content: content.value === undefined ? (module ?? '') : lf(content.value), line });
    }
    case 'REPLACE_ELEMENT':
    case 'ADD_IMPORT':
    case 'CREATE_FILE':
    case 'REPLACE_FILE': {
      const content = readString(entry, 'content', true);
      if (!content.ok) return content;
      return ok({ type, path, content: lf(content.value ?? ''), line });
    }
  }
}

function readJsonNewName(entry: JsonObject, path: string): Checked<string> {
  const field = readString(entry, 'newName', true);
  return field.ok ? checkedNewName(field.value ?? '', path) : field;
}

function readJsonPosition(value: JsonValue | undefined): Checked<CreatePosition> {
  if (typeof value === 'string') return readPositionText(value);
  if (isObject(value)) {
    const kind = value['kind'];
    const sibling = value['sibling'];
    if (typeof kind !== 'string')
      return problem(`"position.kind" must be a string, not ${describe(kind)}`, '"kind": "AFTER"');
    if (sibling !== undefined && sibling !== null && typeof sibling !== 'string') {
      return problem(`"position.sibling" must be a string, not ${describe(sibling)}`, '"sibling": "method[validate]"');
    }
    return readPosition(kind, typeof sibling === 'string' ? sibling : undefined);
  }
  return problem(
    `"position" must be a string or an object, not ${describe(value)}`,
    '"position": "LAST_CHILD", "AFTER method[validate]" or {"kind": "AFTER", "sibling": "method[validate]"}',
  );
}

function readPatches(entry: JsonObject): Checked<readonly SearchReplacePair[]> {
  const list = entry['patches'];
  const content = entry['content'];
  const hasContent = typeof content === 'string' && content.trim() !== '';
  if (list !== undefined && list !== null) {
    if (hasContent)
      return problem('give either "patches" or "content", not both', '"patches": [{"search": ..., "replace": ...}]');
    if (!Array.isArray(list) || list.length === 0) {
      return problem(
        `"patches" must be a non-empty array, not ${describe(list)}`,
        '"patches": [{"search": ..., "replace": ...}]',
      );
    }
    const pairs: SearchReplacePair[] = [];
    for (const [index, pair] of list.entries()) {
      if (!isObject(pair))
        return problem(`patches[${index}] must be an object, not ${describe(pair)}`, '{"search": ..., "replace": ...}');
      const search = readString(pair, 'search', true);
      if (!search.ok) return problem(`patches[${index}]: ${search.message}`, search.expected);
      const replace = readString(pair, 'replace', true);
      if (!replace.ok) return problem(`patches[${index}]: ${replace.message}`, replace.expected);
      if ((search.value ?? '') === '')
        return problem(`patches[${index}]: "search" is empty`, 'the exact lines to find');
      pairs.push({ search: lf(search.value ?? ''), replace: lf(replace.value ?? '') });
    }
    return ok(pairs);
  }
  const text = readString(entry, 'content', true);
  if (!text.ok) return problem('PATCH_ELEMENT needs "patches" or "content" with SEARCH/REPLACE markers', text.expected);
  const body = parsePatchBody(lf(text.value ?? '').split('\n'));
  return body.ok ? ok(body.patches) : problem(`"content": ${body.problem.message}`, body.problem.expected);
}
