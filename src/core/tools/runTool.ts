import { loadAllLanguages } from '../language/languages';
import { ElementNotFoundError } from '../elements/resolve';
import { WorkspacePathError } from '../workspace/workspacePaths';
import type { AnswerBudget } from './budget';
import { count } from './table';
import { CallCancelledError, takeTurn } from './turns';
import { ToolInputError, type Tool, type ToolCallRecord, type ToolEnv } from './types';

export interface ToolRun {
  readonly text: string;
  readonly isError: boolean;
  /** Tokens of `text`, counted with the env's counter. */
  readonly tokens: number;
}

export interface RunToolOptions {
  readonly budget: AnswerBudget;
  /** `mcp`, `lm`: names the surface in the metrics (`mcp.outline`). */
  readonly surface: string;
  /** Called once per call with what the metrics log records. */
  readonly record?: (record: ToolCallRecord) => void;
  /** Progress of a long call (MCP progress notifications). */
  readonly progress?: (message: string) => Promise<void>;
  /** Aborted when the caller cancels the call: a tool that writes checks it before the write. */
  readonly signal?: AbortSignal;
}

/**
 * One tool call, the same for every surface: validate the input, run the handler, and hold the answer to the token
 * budget. A handler that outgrows it (it never should: renderers page) is cut at a line with a note, so no answer is
 * ever over budget.
 */
export async function runTool(tool: Tool, rawInput: unknown, env: ToolEnv, options: RunToolOptions): Promise<ToolRun> {
  const started = performance.now();
  let text: string;
  let isError = false;
  try {
    // A tool may read a file of any language in the workspace; the parsers load once per process.
    await loadAllLanguages();
    const callEnv: ToolEnv = {
      ...env,
      ...(options.progress === undefined ? {} : { progress: options.progress }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    const answer = await tool.call(rawInput, callEnv, options.budget);
    text = answer.text;
    isError = answer.isError === true;
    // Counting a long answer is work too: the calls that waited meanwhile go first.
    await takeTurn({});
  } catch (error) {
    isError = true;
    if (error instanceof CallCancelledError) {
      // The client no longer waits for the answer (the SDK drops it); the log says where the work stopped.
      env.logger.info(`${tool.name} cancelled: stopped ${error.where}`);
      text = `cancelled: ${tool.name} stopped ${error.where}`;
    } else if (
      error instanceof ToolInputError ||
      error instanceof ElementNotFoundError ||
      error instanceof WorkspacePathError
    ) {
      text = `error: ${error.message}`;
    } else {
      env.logger.error(`tool ${tool.name} failed`, error);
      text = `error: ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  let tokens = env.counter.count(text);
  if (tokens > options.budget.maxTokens) {
    const cut = cutToBudget(text, options.budget.maxTokens, env);
    text = cut.text;
    tokens = cut.tokens;
  }
  options.record?.({
    tool: tool.name,
    surface: options.surface,
    answerTokens: tokens,
    durationMs: Math.round(performance.now() - started),
    ok: !isError,
  });
  return { text, isError, tokens };
}

/**
 * The answer cut at a line so that it fits, with a note saying so. Each line is counted once and the cut found on the
 * running sum (a sum of lines over-counts the joined text only by the odd merged token); the result is counted once
 * to be sure, and a shortfall cuts again from the same sums, so a long answer costs one pass of counting, never one
 * per line dropped (issue 27).
 */
export function cutToBudget(
  text: string,
  maxTokens: number,
  env: Pick<ToolEnv, 'counter'>,
): { text: string; tokens: number } {
  const lines = text.split('\n');
  const note = (kept: number): string =>
    `answer cut at ${count(kept)} of ${count(lines.length)} lines to fit ${count(maxTokens)} tokens; ask for less (a narrower path, fewer elements)`;
  // The note's longest form: counts shrink as lines go, so this bounds every note.
  const noteTokens = env.counter.count(note(lines.length)) + 1;
  const sums: number[] = [];
  let sum = 0;
  for (const line of lines) {
    sum += env.counter.count(line) + 1;
    sums.push(sum);
    if (sum > maxTokens) break;
  }
  let margin = 0;
  for (;;) {
    const room = maxTokens - noteTokens - margin;
    let kept = 0;
    while (kept < sums.length && (sums[kept] ?? Infinity) <= room) kept++;
    let head = lines.slice(0, kept).join('\n');
    if (kept === 0) {
      // Not even the first line fits: its characters, in proportion to its tokens.
      const first = lines[0] ?? '';
      const share = Math.max(0, room) / Math.max(1, sums[0] ?? 1);
      head = first.slice(0, Math.floor(first.length * share * 0.9));
    }
    const result = `${head}\n${note(Math.max(kept, 1))}`;
    const tokens = env.counter.count(result);
    if (tokens <= maxTokens || room <= 0) return { text: result, tokens };
    margin += tokens - maxTokens + 8;
  }
}
