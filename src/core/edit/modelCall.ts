import type { TokenCounter } from '../context/tokens';
import type { Logger } from '../logger';
import type { RequestMetrics } from '../llm/metrics';
import type { ChatMessage, ChatProvider, ChatResponse } from '../llm/provider';
import { parseOperations } from '../ops/format';
import type { Operation } from '../ops/operation';

/**
 * One model request with its metrics record: planning and coding both go through it, so every request of an edit
 * is logged the same way whichever phase or surface made it.
 */

export interface ModelCallOptions {
  readonly provider: ChatProvider;
  /** Names the surface in the metrics (`cli.edit`, `vscode.editElement`, `chat.plan`, ...). */
  readonly command: string;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  readonly onText?: (delta: string) => void;
  readonly logger: Logger;
  /** Counts the fixed instructions (system messages) of each request for the statistics. */
  readonly counter?: TokenCounter;
}

export type ModelCall = (
  phase: RequestMetrics['phase'],
  messages: readonly ChatMessage[],
  wholeFileInputTokens: number,
) => Promise<ChatResponse>;

export function operationCounts(operations: readonly Operation[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const operation of operations) counts[operation.type] = (counts[operation.type] ?? 0) + 1;
  return counts;
}

/** A caller that appends one record per request to `requests`. */
export function modelCaller(options: ModelCallOptions, requests: RequestMetrics[]): ModelCall {
  const { provider, logger } = options;
  return async (phase, messages, wholeFileInputTokens) => {
    const started = Date.now();
    const response = await provider.chat({
      messages,
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onText === undefined ? {} : { onText: options.onText }),
    });
    requests.push({
      time: new Date(started).toISOString(),
      command: options.command,
      phase,
      provider: provider.id,
      model: response.model,
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      usageSource: response.usage.source,
      wholeFileInputTokens,
      ...(options.counter === undefined ? {} : { instructionTokens: instructionTokensOf(messages, options.counter) }),
      operations: phase === 'plan' ? {} : operationCounts(parseOperations(response.text).operations),
      durationMs: Date.now() - started,
    });
    logger.debug(
      `${phase}: ${response.usage.inputTokens} in, ${response.usage.outputTokens} out (${response.usage.source}) from ${response.model}`,
    );
    return response;
  };
}

/**
 * Tokens of the fixed instructions a request carries (its system messages: the operation format, the rules), counted
 * apart from the code and the task so the statistics show what the instructions cost per request.
 */
export function instructionTokensOf(messages: readonly ChatMessage[], counter: TokenCounter): number {
  return messages.filter((m) => m.role === 'system').reduce((sum, m) => sum + counter.count(m.content), 0);
}
