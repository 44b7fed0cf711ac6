import type { TokenCounter } from '../context/tokens';
import type { AnswerBudget } from './budget';

/**
 * Tabular answers (outlines, hits, paths) in a compact layout: the column names once, one row per line with cells
 * separated by a space (only the last column may hold spaces; another cell that does is quoted), and a column that
 * is the same for a run of rows (the file) printed once as a `## group` line instead of in every row. The same rows
 * as JSON objects are kept for measuring the layout against JSON (bench/toolAnswers.ts).
 */
export interface TableSpec<R> {
  readonly columns: readonly string[];
  /** The group heading of a row; rows arrive sorted so that a group's rows are consecutive. */
  readonly group?: (row: R) => string;
  /** Spaces before the row: nesting under the row above, so a child need not repeat its container. */
  readonly indent?: (row: R) => number;
  /** `first`: the row opens a page or a group, so it cannot lean on the row above it. */
  readonly cells: (row: R, first: boolean) => readonly string[];
  /** The row with every field spelled out, as a JSON answer would carry it. */
  readonly json: (row: R) => object;
}

function cell(text: string, last: boolean): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  if (last) return flat;
  if (flat === '') return '-';
  return /[\s"]/.test(flat) ? JSON.stringify(flat) : flat;
}

export function compactRow<R>(spec: TableSpec<R>, row: R, first: boolean): string {
  const cells = spec.cells(row, first);
  const indent = ' '.repeat(spec.indent?.(row) ?? 0);
  return (
    indent +
    cells
      .map((c, i) => cell(c, i === cells.length - 1))
      .join(' ')
      .trimEnd()
  );
}

export function compactTable<R>(spec: TableSpec<R>, rows: readonly R[]): string {
  const lines = [`columns: ${spec.columns.join(' ')}`];
  let group: string | undefined;
  rows.forEach((row, i) => {
    const g = spec.group?.(row);
    const opens = g !== undefined && g !== group;
    if (opens) lines.push(`## ${g}`);
    group = g;
    lines.push(compactRow(spec, row, i === 0 || opens));
  });
  return lines.join('\n');
}

/** The same rows as compact JSON (no indentation): the baseline the layout is measured against. */
export function jsonTable<R>(spec: TableSpec<R>, rows: readonly R[]): string {
  return JSON.stringify(rows.map((r) => spec.json(r)));
}

export interface TablePage {
  readonly text: string;
  /** Rows shown on this page. */
  readonly shown: number;
  /** The offset of the next page, when there are rows after this one. */
  readonly nextOffset?: number;
}

export interface PageRequest<R> {
  readonly spec: TableSpec<R>;
  /** Every row of the answer, in order; the page shows a slice. */
  readonly rows: readonly R[];
  readonly offset: number;
  /** Tokens already spent by the rest of the answer (heading, notes). */
  readonly reservedTokens: number;
  readonly budget: AnswerBudget;
  readonly counter: TokenCounter;
}

/**
 * The rows from `offset` that fit both the page size and the token budget. Rows are counted one by one (a sum of
 * parts over-counts a joined text only by the odd merged token, which the final check in runTool absorbs).
 */
export function tablePage<R>(request: PageRequest<R>): TablePage {
  const { spec, rows, offset, budget, counter } = request;
  const header = `columns: ${spec.columns.join(' ')}`;
  let tokens = request.reservedTokens + counter.count(header) + 1;
  const lines = [header];
  let group: string | undefined;
  let index = offset;
  const end = Math.min(rows.length, offset + budget.pageSize);
  for (; index < end; index++) {
    const row = rows[index] as R;
    const g = spec.group?.(row);
    const added: string[] = [];
    const opens = g !== undefined && g !== group;
    if (opens) added.push(`## ${g}`);
    added.push(compactRow(spec, row, index === offset || opens));
    const cost = added.reduce((sum, line) => sum + counter.count(line) + 1, 0);
    // The first row always shows, so a page never comes back empty while rows remain.
    if (index > offset && tokens + cost > budget.maxTokens) break;
    tokens += cost;
    lines.push(...added);
    group = g;
  }
  return {
    text: lines.join('\n'),
    shown: index - offset,
    ...(index < rows.length ? { nextOffset: index } : {}),
  };
}

/** `12,345` */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** The note under a page: what was shown, what was left out and how to get it. */
export function pageNote(total: number, offset: number, shown: number, what: string, nextCursor?: string): string {
  if (total === 0) return `no ${what}`;
  const range = `${what} ${count(offset + 1)}-${count(offset + shown)} of ${count(total)}`;
  if (nextCursor === undefined) return offset === 0 ? `${count(total)} ${what}, all shown` : `${range}, the last page`;
  return `${range}; ${count(total - offset - shown)} more: call again with the same arguments and cursor "${nextCursor}"`;
}

/**
 * The first lines of a diff that fit the answer budget beside the rest of the answer (`around`), then a line saying
 * where it was cut when it was.
 */
export function diffWithinBudget(
  counter: TokenCounter,
  budget: AnswerBudget,
  diff: readonly string[],
  around: readonly string[],
): string[] {
  let used = counter.count(around.join('\n')) + 80;
  const shown: string[] = [];
  for (const line of diff) {
    const cost = counter.count(line) + 1;
    if (used + cost > budget.maxTokens) break;
    used += cost;
    shown.push(line);
  }
  if (shown.length < diff.length)
    shown.push(`diff cut after ${count(shown.length)} of ${count(diff.length)} lines to fit the answer budget`);
  return shown;
}
