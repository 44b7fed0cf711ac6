import type { Operation, OperationType, ParseError, ParseResult } from '../operation';
import { closes, readFencedBody, readFenceLine, type FenceLine } from './fences';
import { readHeaderArguments, type HeaderArguments } from './headerArguments';
import { readHeaderLine, type HeaderLine } from './headerLine';
import { clip, importModuleOfPath, takesBody, VALID_TYPES_TEXT } from './operationParts';
import { parseJsonOperations } from './parseJsonOperations';
import { isReplaceMarker, isSearchMarker, parsePatchBody } from './patchBody';

/**
 * Reads the model's answer: operations in the text format of docs/operations.md, or the same operations as JSON.
 * Never throws. Prose around operations is ignored; anything that starts like an operation but cannot be read is an
 * error with its line, and the operation is left out rather than guessed.
 */
export interface ParseLimits {
  /** Longest answer read, in UTF-8 bytes; a longer one is refused whole. Default 2 MB. */
  readonly maxAnswerBytes?: number;
  /** Most operations in one answer; an answer with more is refused whole. Default 1,000. */
  readonly maxOperations?: number;
}

export const DEFAULT_MAX_ANSWER_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_OPERATIONS = 1_000;

export function parseOperations(answer: string, limits: ParseLimits = {}): ParseResult {
  const operations: Operation[] = [];
  const errors: ParseError[] = [];
  try {
    const text = typeof answer === 'string' ? answer : String(answer);
    const maxBytes = limits.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    // Bytes are only counted when the length alone cannot decide: a UTF-8 byte is at most 3 per UTF-16 unit here.
    const bytes = text.length * 3 <= maxBytes ? text.length : Buffer.byteLength(text, 'utf8');
    if (bytes > maxBytes) {
      return {
        operations: [],
        errors: [
          {
            line: 1,
            message: `the answer is ${formatBytes(bytes)}, over the limit of ${formatBytes(maxBytes)} for one answer; nothing in it was applied`,
            expected:
              'a smaller change per answer: fewer or smaller operations, element operations instead of whole files',
          },
        ],
      };
    }
    const result = parseAnswer(text);
    const maxOperations = limits.maxOperations ?? DEFAULT_MAX_OPERATIONS;
    if (result.operations.length > maxOperations) {
      return {
        operations: [],
        errors: [
          {
            line: result.operations[maxOperations]?.line ?? 1,
            message: `the answer holds ${result.operations.length} operations, over the limit of ${maxOperations} for one answer; nothing in it was applied`,
            expected: `at most ${maxOperations} operations: split the change into smaller requests`,
          },
        ],
      };
    }
    operations.push(...result.operations);
    errors.push(...result.errors);
  } catch (error) {
    // A bug here must cost one answer, not the session: report it like any other unreadable answer.
    const reason = error instanceof Error ? error.message : String(error);
    errors.push({ line: 1, message: `the answer could not be read (internal parser error: ${reason})` });
  }
  return { operations, errors: [...errors].sort((a, b) => a.line - b.line) };
}

function answerLines(answer: string): string[] {
  return answer.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * The answer's lines that are not part of any operation (its header, code block or JSON), in order: the prose a model
 * writes around its operations ("the calls are in _getQueryParam, which is not shown"), kept for the user. An answer
 * that is one JSON document has none.
 */
export function answerProse(answer: string): string[] {
  const text = typeof answer === 'string' ? answer : String(answer);
  if (text.length > DEFAULT_MAX_ANSWER_BYTES) return [];
  const lines = answerLines(text);
  if (findWholeAnswerJson(lines) !== undefined) return [];
  const scanner = new TextScanner(lines);
  scanner.scan();
  return lines.filter((_, index) => !scanner.consumed.has(index));
}

function parseAnswer(answer: string): ParseResult {
  const lines = answerLines(answer);
  const whole = findWholeAnswerJson(lines);
  if (whole === undefined) return new TextScanner(lines).scan();
  const json = parseJsonOperations(whole.text, whole.firstLine);
  if (json.operations.length > 0 || json.errors.length === 0) return json;
  // An answer that merely starts with `[` or `{` may still be the text format ("[plan] ..." then operations).
  const text = new TextScanner(lines).scan();
  return text.operations.length > 0 || text.errors.length > 0 ? text : json;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

const TAGS_ONLY = /^(?:<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?>\s*)+$/;
const LEADING_TAGS = /^(?:<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?>\s*)+/;
const JSON_INFO = /^json[c5]?$/i;
const MARKDOWN_INFO = /^(?:md|markdown|mdx)$/i;
const MARKDOWN_PATH = /\.(?:md|mdx|markdown)$/i;
const CLOSING_TAG_INFO = /^<\/[A-Za-z][\w-]*>$/;

function takesWholeFile(type: OperationType): boolean {
  return type === 'CREATE_FILE' || type === 'REPLACE_FILE';
}

/** Lines that may wrap a whole-answer JSON: blanks, `<operations>` tags, a bare or ```json fence. */
function wrapsJson(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed === '' || TAGS_ONLY.test(trimmed)) return true;
  const fence = readFenceLine(trimmed);
  return fence !== undefined && (fence.info === '' || JSON_INFO.test(fence.info));
}

/**
 * `...]</operations>` loses its closing tags. By hand, from the end: an end-anchored pattern tries every `</` of a
 * long line and is quadratic in it.
 */
function withoutTrailingClosingTags(line: string): string {
  const blankBefore = (at: number): number => {
    let index = at;
    while (index > 0 && /\s/.test(line.charAt(index - 1))) index -= 1;
    return index;
  };
  let end = blankBefore(line.length);
  for (;;) {
    if (line.charAt(end - 1) !== '>') return line.slice(0, end);
    const open = line.lastIndexOf('</', end - 1);
    if (open < 0 || !/^<\/[A-Za-z][\w-]*>$/.test(line.slice(open, end))) return line.slice(0, end);
    end = blankBefore(open);
  }
}

function findWholeAnswerJson(lines: readonly string[]): { text: string; firstLine: number } | undefined {
  let first = 0;
  while (first < lines.length && wrapsJson(lines[first] ?? '')) first += 1;
  if (first >= lines.length) return undefined;
  const head = (lines[first] ?? '').trim().replace(LEADING_TAGS, '');
  if (!head.startsWith('[') && !head.startsWith('{')) return undefined;
  let last = lines.length - 1;
  while (last > first && wrapsJson(lines[last] ?? '')) last -= 1;
  const body = lines.slice(first, last + 1);
  body[0] = head;
  const tail = (body[body.length - 1] ?? '').trimEnd();
  body[body.length - 1] = withoutTrailingClosingTags(tail);
  return { text: body.join('\n'), firstLine: first + 1 };
}

type Body =
  | { readonly kind: 'none'; readonly next: number }
  | { readonly kind: 'lines'; readonly lines: readonly string[]; readonly firstIndex: number; readonly next: number }
  | { readonly kind: 'error'; readonly error: ParseError; readonly next: number };

class TextScanner {
  private readonly operations: Operation[] = [];
  private readonly errors: ParseError[] = [];
  private readonly jsonClosers = new Map<string, { readonly from: number; readonly closer: number }>();
  private lastOperationKeyLine: number | undefined;
  /** Indexes of the lines read as operations (headers, bodies, JSON blocks); the rest is prose. */
  readonly consumed = new Set<number>();

  constructor(private readonly lines: readonly string[]) {}

  private consume(from: number, to: number): void {
    for (let index = from; index < to; index++) this.consumed.add(index);
  }

  scan(): ParseResult {
    // Bodies are read only after a header: once the answer has one, a ```json block in its prose is an example the
    // model shows (a config, a payload), never operations, and cannot fail the batch.
    const hasHeader = this.lines.some((line) => readHeaderLine(line) !== undefined);
    let index = 0;
    while (index < this.lines.length) {
      const line = this.lines[index] ?? '';
      const header = readHeaderLine(line);
      if (header !== undefined) {
        const next = this.readOperation(index, header);
        this.consume(index, next);
        index = next;
        continue;
      }
      const fence = hasHeader ? undefined : readFenceLine(line);
      const next = fence !== undefined && JSON_INFO.test(fence.info) ? this.readJsonBlock(index, fence) : index + 1;
      if (next > index + 1) this.consume(index, next);
      index = next;
    }
    return { operations: this.operations, errors: this.errors };
  }

  private error(index: number, message: string, expected?: string): void {
    this.errors.push(expected === undefined ? { line: index + 1, message } : { line: index + 1, message, expected });
  }

  /** A ```json block in prose holds operations only if it reads as them; any other JSON is just prose. */
  private readJsonBlock(openingIndex: number, opening: FenceLine): number {
    const index = this.jsonCloserAfter(openingIndex, opening);
    if (index >= 0) {
      const text = this.lines.slice(openingIndex + 1, index).join('\n');
      const result = parseJsonOperations(text, openingIndex + 2, true);
      if (result.operations.length === 0 && result.errors.length === 0) return openingIndex + 1;
      this.operations.push(...result.operations);
      this.errors.push(...result.errors);
      return index + 1;
    }
    if (this.lastLineNamingOperations() > openingIndex) {
      this.error(
        openingIndex,
        'the ```json block is never closed: the answer looks truncated',
        'a closing fence after the JSON',
      );
      return this.lines.length;
    }
    return openingIndex + 1;
  }

  /**
   * The nearest line after `openingIndex` that closes a ```json block, or -1. Remembered per fence kind: prose with
   * many ```json lines and no closer would otherwise be searched to its end once per line.
   */
  private jsonCloserAfter(openingIndex: number, opening: FenceLine): number {
    const key = `${opening.char}${opening.length}`;
    const known = this.jsonClosers.get(key);
    if (known !== undefined && openingIndex > known.from && (known.closer < 0 || openingIndex < known.closer)) {
      return known.closer;
    }
    let closer = -1;
    for (let index = openingIndex + 1; index < this.lines.length; index++) {
      const fence = readFenceLine(this.lines[index] ?? '');
      if (fence === undefined || fence.info !== '' || fence.char !== opening.char || fence.length < opening.length)
        continue;
      closer = index;
      break;
    }
    this.jsonClosers.set(key, { from: openingIndex, closer });
    return closer;
  }

  /** The last line holding `"type":` or `"operations":`, found once. */
  private lastLineNamingOperations(): number {
    if (this.lastOperationKeyLine === undefined) {
      this.lastOperationKeyLine = -1;
      for (let index = this.lines.length - 1; index >= 0; index--) {
        if (/"(?:type|operations)"\s*:/.test(this.lines[index] ?? '')) {
          this.lastOperationKeyLine = index;
          break;
        }
      }
    }
    return this.lastOperationKeyLine;
  }

  private readOperation(index: number, header: HeaderLine): number {
    if (header.kind === 'unknown') {
      this.error(index, `unknown operation type "${clip(header.word)}"`, `one of ${VALID_TYPES_TEXT}`);
      return this.readBody(index, 'REPLACE_ELEMENT', '').next; // skip its code so it is not read as more answer
    }
    const { type } = header;
    const args = readHeaderArguments(type, header.args);
    if (type === 'DELETE_ELEMENT' || type === 'RENAME_ELEMENT') {
      if (!args.ok) this.error(index, args.message, args.expected);
      else if (type === 'DELETE_ELEMENT') this.operations.push({ type, path: args.value.path, line: index + 1 });
      else this.operations.push({ type, path: args.value.path, newName: args.value.newName ?? '', line: index + 1 });
      return index + 1;
    }
    const body = this.readBody(index, type, args.ok ? args.value.path : '');
    if (!args.ok) {
      this.error(index, args.message, args.expected);
      return body.next;
    }
    if (body.kind === 'error') {
      this.errors.push(body.error);
      return body.next;
    }
    const operation = this.buildOperation(index, type, args.value, body);
    if (operation !== undefined) this.operations.push(operation);
    return body.next;
  }

  private buildOperation(
    index: number,
    type: Exclude<OperationType, 'DELETE_ELEMENT' | 'RENAME_ELEMENT'>,
    args: HeaderArguments,
    body: Exclude<Body, { kind: 'error' }>,
  ): Operation | undefined {
    const line = index + 1;
    const { path } = args;
    if (body.kind === 'none') {
      // readBody allows a missing body only for REMOVE_IMPORT of a whole `import[...]` path.
      return { type: 'REMOVE_IMPORT', path, content: importModuleOfPath(path) ?? '', line };
    }
    const content = body.lines.join('\n');
    switch (type) {
      case 'PATCH_ELEMENT': {
        const patch = parsePatchBody(body.lines);
        if (patch.ok) return { type, path, patches: patch.patches, line };
        const at = body.lines.length === 0 ? index : body.firstIndex + patch.problem.index;
        this.error(at, patch.problem.message, patch.problem.expected);
        return undefined;
      }
      case 'CREATE_ELEMENT': {
        const { position } = args;
        if (position === undefined) {
          this.error(
            index,
            'CREATE_ELEMENT has no position',
            'FIRST_CHILD, LAST_CHILD, BEFORE <sibling> or AFTER <sibling>',
          );
          return undefined;
        }
        return {
          type,
          path,
          position,
          content,
          ...(args.elementKind === undefined ? {} : { elementKind: args.elementKind }),
          ...(args.blankLines === undefined ? {} : { blankLines: args.blankLines }),
          line,
        };
      }
      case 'REPLACE_ELEMENT':
      case 'ADD_IMPORT':
      case 'REMOVE_IMPORT':
      case 'CREATE_FILE':
      case 'REPLACE_FILE':
        return { type, path, content, line };
    }
  }

  private nextNonBlank(from: number): number {
    let index = from;
    while (index < this.lines.length && (this.lines[index] ?? '').trim() === '') index += 1;
    return index;
  }

  private startsOperation(index: number): boolean {
    return readHeaderLine(this.lines[index] ?? '') !== undefined;
  }

  /**
   * Inside a body, only a complete header of an operation that takes code counts as the next operation (when a
   * fence follows it); a code line that merely begins with a keyword stays code.
   */
  private startsOperationWithBody(index: number): boolean {
    const header = readHeaderLine(this.lines[index] ?? '');
    return header?.kind === 'operation' && takesBody(header.type) && readHeaderArguments(header.type, header.args).ok;
  }

  private readBody(headerIndex: number, type: OperationType, path: string): Body {
    const start = this.nextNonBlank(headerIndex + 1);
    const first = this.lines[start] ?? '';
    const bodyOptional = type === 'REMOVE_IMPORT' && importModuleOfPath(path) !== undefined;
    if (type === 'PATCH_ELEMENT' && isSearchMarker(first)) return this.readUnfencedPatch(start);
    const opening = start < this.lines.length ? readFenceLine(first) : undefined;
    if (opening === undefined) {
      if (bodyOptional) return { kind: 'none', next: headerIndex + 1 };
      return {
        kind: 'error',
        error: {
          line: headerIndex + 1,
          message: `${type} has no fenced code block after its header`,
          expected: 'a fenced code block (```ts ... ```) starting on the next line',
        },
        next: headerIndex + 1,
      };
    }
    const read = readFencedBody(this.lines, start, opening, (index) => this.startsOperationWithBody(index));
    const fenceText = opening.char.repeat(opening.length);
    switch (read.kind) {
      case 'closed': {
        const duplicated = read.lines.length === 0 && this.textFollowsDirectly(read.closingIndex);
        if (duplicated) {
          return {
            kind: 'error',
            error: {
              line: start + 1,
              message: `the code block is empty and text follows its closing fence at line ${read.closingIndex + 1} directly: is the opening fence written twice?`,
              expected: `one opening fence, the code, then one closing ${fenceText}`,
            },
            next: read.closingIndex + 1,
          };
        }
        const cut = this.closedEarly(opening, read.closingIndex, type, path);
        if (cut !== undefined) {
          return {
            kind: 'error',
            error: {
              line: start + 1,
              message: `the code block opened here closes at line ${read.closingIndex + 1}, but the content goes on to another closing fence at line ${cut.laterFence + 1}: the content holds ${fenceText} fences of its own, and it would be cut at the first one`,
              expected: `an outer fence longer than every fence inside the content, e.g. ${opening.char.repeat(Math.max(4, opening.length + 1))}${opening.info === '' ? '' : opening.info} ... ${opening.char.repeat(Math.max(4, opening.length + 1))}`,
            },
            next: cut.resumeAt,
          };
        }
        return { kind: 'lines', lines: read.lines, firstIndex: start + 1, next: read.closingIndex + 1 };
      }
      case 'interrupted':
        return {
          kind: 'error',
          error: {
            line: start + 1,
            message: `the code fence opened here is not closed before the operation at line ${read.headerIndex + 1}`,
            expected: `a closing ${fenceText} after the code (use a longer fence if the code itself holds ${fenceText})`,
          },
          next: read.headerIndex,
        };
      case 'unterminated': {
        // A bare fence as the last line of the answer closes a wrapping fence; it is no body.
        if (bodyOptional && opening.info === '' && this.nextNonBlank(start + 1) >= this.lines.length) {
          return { kind: 'none', next: headerIndex + 1 };
        }
        const repeated = readFenceLine(this.lines[start + 1] ?? '');
        const message =
          repeated !== undefined && repeated.char === opening.char && repeated.info !== ''
            ? `the code fence opened here is never closed; line ${start + 2} repeats the opening fence`
            : 'the code fence opened here is never closed: the answer looks truncated';
        return {
          kind: 'error',
          error: { line: start + 1, message, expected: `a closing ${fenceText} after the code` },
          next: this.lines.length,
        };
      }
    }
  }

  /**
   * Whether the fence that closed a body at `closingIndex` was really a fence inside the content (a README's own
   * bare ``` block, a template literal holding one): then the rest of the content and its true closing fence follow
   * as "prose", and taking the body as it is would write a file cut short. The signs, up to the next header: a
   * bare fence that could have closed the body comes before any other fence and a second fence follows it (the
   * inner block's closing fence reads as an opening, the true closing fence closes it), and either the content goes
   * on directly under the closing fence or the content is Markdown, where bare inner fences are the rule.
   */
  private closedEarly(
    opening: FenceLine,
    closingIndex: number,
    type: OperationType,
    path: string,
  ): { readonly laterFence: number; readonly resumeAt: number } | undefined {
    let firstFence = -1;
    let fences = 0;
    let end = closingIndex + 1;
    for (; end < this.lines.length && !this.startsOperation(end); end++) {
      const fence = readFenceLine(this.lines[end] ?? '');
      if (fence === undefined) continue;
      if (fences === 0) {
        if (!closes(fence, opening) || CLOSING_TAG_INFO.test(fence.info)) return undefined;
        firstFence = end;
      }
      fences += 1;
    }
    if (fences < 2) return undefined;
    const direct = (this.lines[closingIndex + 1] ?? '').trim();
    const goesOnDirectly = direct !== '' && !TAGS_ONLY.test(direct) && closingIndex + 1 !== firstFence;
    const markdown = MARKDOWN_INFO.test(opening.info) || (takesWholeFile(type) && MARKDOWN_PATH.test(path));
    if (!goesOnDirectly && !markdown) return undefined;
    return { laterFence: firstFence, resumeAt: end };
  }

  /** A closing fence glued to the next text: only a duplicated opening fence produces that. */
  private textFollowsDirectly(closingIndex: number): boolean {
    const next = this.lines[closingIndex + 1];
    if (
      next === undefined ||
      next.trim() === '' ||
      TAGS_ONLY.test(next.trim()) ||
      this.startsOperation(closingIndex + 1)
    ) {
      return false;
    }
    const fence = readFenceLine(next);
    const isLastLine = this.nextNonBlank(closingIndex + 2) >= this.lines.length;
    return !(fence !== undefined && fence.info === '' && isLastLine);
  }

  /**
   * SEARCH/REPLACE pairs written without a fence: the markers delimit them unambiguously. The body runs to the last
   * REPLACE marker before the next operation or fence; prose after it is prose.
   */
  private readUnfencedPatch(start: number): Body {
    let end = start;
    let lastReplace = -1;
    while (
      end < this.lines.length &&
      !this.startsOperation(end) &&
      readFenceLine(this.lines[end] ?? '') === undefined
    ) {
      if (isReplaceMarker(this.lines[end] ?? '')) lastReplace = end;
      end += 1;
    }
    const stop = lastReplace >= 0 ? lastReplace + 1 : end;
    return { kind: 'lines', lines: this.lines.slice(start, stop), firstIndex: start, next: stop };
  }
}
