import { createHash } from 'node:crypto';
import { ToolInputError } from './types';

/**
 * What one answer may cost. Agents read tool answers into their context: Claude Code warns above 10,000 tokens and
 * cuts at 25,000, so an answer degrades to a page with a cursor instead of overflowing.
 */
export interface AnswerBudget {
  /** Tokens of the whole answer, counted with the project's tokenizer. */
  readonly maxTokens: number;
  /** Lines of one code snippet. */
  readonly maxSnippetLines: number;
  /** Rows of one page of a tabular answer. */
  readonly pageSize: number;
}

export const DEFAULT_ANSWER_BUDGET: AnswerBudget = { maxTokens: 10_000, maxSnippetLines: 80, pageSize: 100 };

/** Below this an answer cannot say anything useful (a heading, one row and the note on how to get the rest). */
export const MIN_ANSWER_TOKENS = 200;

/** The budget with a caller's limit applied (an MCP option, a setting, VS Code's per-invocation token budget). */
export function answerBudget(maxTokens?: number, base: AnswerBudget = DEFAULT_ANSWER_BUDGET): AnswerBudget {
  if (maxTokens === undefined || !Number.isFinite(maxTokens)) return base;
  return { ...base, maxTokens: Math.max(MIN_ANSWER_TOKENS, Math.floor(maxTokens)) };
}

/**
 * A cursor is the offset of the next row plus a short hash of the query it belongs to, so a cursor passed with a
 * different query is refused instead of silently paging through the wrong list.
 */
export function queryKey(input: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(input)
    .filter(([key, value]) => key !== 'cursor' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 6);
}

export function encodeCursor(offset: number, key: string): string {
  return `${offset}.${key}`;
}

/** The row offset a cursor points at; 0 without a cursor. */
export function decodeCursorOrThrow(cursor: string | undefined, key: string): number {
  return decodeTextCursorOrThrow(cursor, key, false).row;
}

/** A cursor into rows that are long texts (find_symbols' bodies): the row, and the line of it to go on from. */
export function encodeTextCursor(row: number, line: number, key: string): string {
  return line === 0 ? encodeCursor(row, key) : `${row}-${line}.${key}`;
}

/** The row and line a cursor of {@link encodeTextCursor} points at; row 0, line 0 without a cursor. */
export function decodeTextCursorOrThrow(
  cursor: string | undefined,
  key: string,
  withLine = true,
): { row: number; line: number } {
  if (cursor === undefined || cursor === '') return { row: 0, line: 0 };
  const match = (withLine ? /^(\d+)(?:-(\d+))?\.([\w-]+)$/ : /^(\d+)()\.([\w-]+)$/).exec(cursor);
  if (match === null)
    throw new ToolInputError(`cursor "${cursor}" is not one this tool gave; omit it for the first page`);
  if (match[3] !== key) {
    throw new ToolInputError(
      `cursor "${cursor}" belongs to another query; pass it with the same arguments as the call that returned it`,
    );
  }
  return { row: Number(match[1]), line: Number(match[2] === undefined || match[2] === '' ? 0 : match[2]) };
}
