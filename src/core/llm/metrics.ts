import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Token accounting: one JSON line per model request, and summaries over them. The point of Scalpel is to spend
 * fewer tokens than whole-file editing, so every request records what a whole-file request would have cost.
 */

export interface RequestMetrics {
  /** ISO time of the request. */
  readonly time: string;
  /** The surface and action: `cli.edit`, `vscode.editElement`, `chat.edit`, ... */
  readonly command: string;
  readonly phase: 'plan' | 'code' | 'repair';
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly usageSource: 'provider' | 'estimated';
  /** Input tokens the same request would have cost with every file sent whole. */
  readonly wholeFileInputTokens: number;
  /**
   * Tokens of the fixed instructions (the system prompt) among the input, counted with Scalpel's tokenizer; absent
   * in records written before they were counted.
   */
  readonly instructionTokens?: number;
  /** Operations the answer held, by type. */
  readonly operations: Readonly<Record<string, number>>;
  /** Whether the edit this request belongs to ended applied (set on the last request of an edit). */
  readonly ok?: boolean;
  readonly durationMs: number;
}

/**
 * One agent-tool call (MCP or a VS Code language-model tool): what its answer cost the agent's context. Kept in the
 * same log as the model requests, told apart by `kind`.
 */
export interface ToolCallMetrics {
  readonly kind: 'tool';
  readonly time: string;
  /** The surface and tool: `mcp.outline`, `lm.find_path`, ... */
  readonly command: string;
  readonly answerTokens: number;
  readonly durationMs: number;
  readonly ok: boolean;
}

export type MetricsRecord = RequestMetrics | ToolCallMetrics;

export function isToolCallMetrics(record: MetricsRecord): record is ToolCallMetrics {
  return (record as Partial<ToolCallMetrics>).kind === 'tool';
}

export function appendMetrics(file: string, records: readonly MetricsRecord[]): void {
  if (records.length === 0) return;
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8');
}

/**
 * Appends one agent-tool call to the metrics log, for every tool surface (MCP server, VS Code tools). Losing a
 * statistics line must never fail the call itself, so a write error only reaches `warn`.
 */
export function appendToolCall(
  file: string,
  call: {
    readonly surface: string;
    readonly tool: string;
    readonly answerTokens: number;
    readonly durationMs: number;
    readonly ok: boolean;
  },
  warn: (message: string) => void,
): void {
  try {
    appendMetrics(file, [
      {
        kind: 'tool',
        time: new Date().toISOString(),
        command: `${call.surface}.${call.tool}`,
        answerTokens: call.answerTokens,
        durationMs: call.durationMs,
        ok: call.ok,
      },
    ]);
  } catch (error) {
    warn(`could not append to ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Reads a metrics log; lines that are not valid records (a torn write) are skipped. */
export function readMetrics(file: string): MetricsRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: MetricsRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as Partial<RequestMetrics> & Partial<ToolCallMetrics>;
      if (value.kind === 'tool') {
        if (typeof value.answerTokens === 'number' && typeof value.command === 'string')
          records.push(value as ToolCallMetrics);
      } else if (
        typeof value.inputTokens === 'number' &&
        typeof value.outputTokens === 'number' &&
        typeof value.command === 'string'
      ) {
        records.push(value as RequestMetrics);
      }
    } catch {
      // A partial line from an interrupted write: the rest of the log is still good.
    }
  }
  return records;
}

export interface Distribution {
  readonly count: number;
  readonly mean: number;
  readonly max: number;
  readonly p95: number;
  readonly total: number;
}

export interface MetricsGroup {
  readonly key: string;
  readonly requests: number;
  readonly inputTokens: Distribution;
  readonly outputTokens: Distribution;
  readonly wholeFileInputTokens: Distribution;
  /** The fixed instructions per request, over the requests that recorded them. */
  readonly instructionTokens: Distribution;
  /** Input tokens saved against whole-file requests, as a fraction of the whole-file total. */
  readonly inputSavings: number;
}

/** Answer tokens and time of one tool on one surface. */
export interface ToolMetricsGroup {
  readonly key: string;
  readonly calls: number;
  readonly failed: number;
  readonly answerTokens: Distribution;
  readonly durationMs: Distribution;
}

export interface MetricsSummary {
  readonly requests: number;
  /** Agent-tool calls, per surface and tool. */
  readonly tools: readonly ToolMetricsGroup[];
  readonly all: MetricsGroup;
  readonly byCommand: readonly MetricsGroup[];
  /** Grouped by the operation types each request's answer held (a request counts in every type it used). */
  readonly byOperation: readonly MetricsGroup[];
}

export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { count: 0, mean: 0, max: 0, p95: 0, total: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const total = sorted.reduce((sum, v) => sum + v, 0);
  // Nearest-rank percentile: the smallest value with at least 95% of the values at or below it.
  const rank = Math.max(1, Math.ceil(0.95 * sorted.length));
  return {
    count: sorted.length,
    mean: total / sorted.length,
    max: sorted[sorted.length - 1] ?? 0,
    p95: sorted[rank - 1] ?? 0,
    total,
  };
}

function group(key: string, records: readonly RequestMetrics[]): MetricsGroup {
  const input = distribution(records.map((r) => r.inputTokens));
  const whole = distribution(records.map((r) => r.wholeFileInputTokens));
  return {
    key,
    requests: records.length,
    inputTokens: input,
    outputTokens: distribution(records.map((r) => r.outputTokens)),
    wholeFileInputTokens: whole,
    instructionTokens: distribution(
      records.flatMap((r) => (r.instructionTokens === undefined ? [] : [r.instructionTokens])),
    ),
    inputSavings: whole.total === 0 ? 0 : 1 - input.total / whole.total,
  };
}

function groupBy(records: readonly RequestMetrics[], keys: (r: RequestMetrics) => readonly string[]): MetricsGroup[] {
  const groups = new Map<string, RequestMetrics[]>();
  for (const record of records) {
    for (const key of keys(record)) groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, rs]) => group(key, rs));
}

function toolGroups(calls: readonly ToolCallMetrics[]): ToolMetricsGroup[] {
  const groups = new Map<string, ToolCallMetrics[]>();
  for (const call of calls) groups.set(call.command, [...(groups.get(call.command) ?? []), call]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, cs]) => ({
      key,
      calls: cs.length,
      failed: cs.filter((c) => !c.ok).length,
      answerTokens: distribution(cs.map((c) => c.answerTokens)),
      durationMs: distribution(cs.map((c) => c.durationMs)),
    }));
}

export function summarizeMetrics(all: readonly MetricsRecord[]): MetricsSummary {
  const records = all.filter((r): r is RequestMetrics => !isToolCallMetrics(r));
  return {
    requests: records.length,
    tools: toolGroups(all.filter(isToolCallMetrics)),
    all: group('all', records),
    byCommand: groupBy(records, (r) => [r.command]),
    byOperation: groupBy(records, (r) => Object.keys(r.operations).filter((k) => (r.operations[k] ?? 0) > 0)),
  };
}

function row(g: MetricsGroup): string {
  const f = (d: Distribution): string => `${Math.round(d.mean)}/${Math.round(d.p95)}/${d.max}`;
  // What was saved comes first, the detail after: a narrow editor column shows the columns people read first.
  return `${g.key.padEnd(22)} ${String(g.requests).padStart(6)}  ${`${(g.inputSavings * 100).toFixed(0)}%`.padStart(6)}  ${f(g.inputTokens).padStart(18)}  ${f(g.wholeFileInputTokens).padStart(18)}  ${f(g.outputTokens).padStart(18)}  ${instructionsCell(g).padStart(18)}`;
}

/**
 * The fixed instructions' mean per request and the mean of the rest of the input (code, task, repair messages), so
 * their cost reads apart from the code's; `-` when no request of the group recorded them.
 */
function instructionsCell(g: MetricsGroup): string {
  const instructions = g.instructionTokens;
  if (instructions.count === 0) return '-';
  return `${Math.round(instructions.mean)} + ${Math.max(0, Math.round(g.inputTokens.mean - instructions.mean))}`;
}

/** A plain-text table of a summary, for the CLI and the extension's statistics view. */
export function formatMetricsSummary(summary: MetricsSummary): string {
  if (summary.requests === 0 && summary.tools.length === 0) return 'No requests recorded yet.\n';
  const tools = formatToolGroups(summary.tools);
  if (summary.requests === 0) return `No model requests recorded yet.\n\n${tools}`;
  const header = `${'group'.padEnd(22)} ${'reqs'.padStart(6)}  ${'saved'.padStart(6)}  ${'input mean/p95/max'.padStart(18)}  ${'whole-file input'.padStart(18)}  ${'output mean/p95/max'.padStart(18)}  ${'instructions + code'.padStart(18)}`;
  return [
    header,
    row(summary.all),
    '',
    'by command',
    ...summary.byCommand.map(row),
    '',
    'by operation kind',
    ...summary.byOperation.map(row),
    '',
    ...(tools === '' ? [] : [tools]),
  ].join('\n');
}

function formatToolGroups(groups: readonly ToolMetricsGroup[]): string {
  if (groups.length === 0) return '';
  const f = (d: Distribution): string => `${Math.round(d.mean)}/${Math.round(d.p95)}/${d.max}`;
  return [
    'agent tools (answer tokens and milliseconds per call)',
    `${'tool'.padEnd(22)} ${'calls'.padStart(6)} ${'failed'.padStart(6)}  ${'tokens mean/p95/max'.padStart(20)}  ${'ms mean/p95/max'.padStart(18)}`,
    ...groups.map(
      (g) =>
        `${g.key.padEnd(22)} ${String(g.calls).padStart(6)} ${String(g.failed).padStart(6)}  ${f(g.answerTokens).padStart(20)}  ${f(g.durationMs).padStart(18)}`,
    ),
    '',
  ].join('\n');
}
