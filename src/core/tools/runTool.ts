import { loadAllLanguages } from '../language/languages';
import { ElementNotFoundError } from '../elements/resolve';
import { WorkspacePathError } from '../workspace/workspacePaths';
import type { AnswerBudget } from './budget';
import { count } from './table';
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
    const answer = await tool.call(
      rawInput,
      options.progress === undefined ? env : { ...env, progress: options.progress },
      options.budget,
    );
    text = answer.text;
    isError = answer.isError === true;
  } catch (error) {
    isError = true;
    if (
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

function cutToBudget(text: string, maxTokens: number, env: ToolEnv): { text: string; tokens: number } {
  const lines = text.split('\n');
  const note = (kept: number): string =>
    `answer cut at ${count(kept)} of ${count(lines.length)} lines to fit ${count(maxTokens)} tokens; ask for less (a narrower path, fewer elements)`;
  let kept = lines.length;
  let used = env.counter.count(text);
  while (kept > 1 && used + env.counter.count(note(kept)) > maxTokens) {
    kept--;
    used -= env.counter.count(lines[kept] ?? '') + 1;
  }
  let result = `${lines.slice(0, kept).join('\n')}\n${note(kept)}`;
  // The line-by-line estimate can be off by a merged token or two; trim characters until the exact count fits.
  let tokens = env.counter.count(result);
  while (tokens > maxTokens && result.length > 0) {
    result = result.slice(0, Math.floor(result.length * 0.95));
    tokens = env.counter.count(result);
  }
  return { text: result, tokens };
}
