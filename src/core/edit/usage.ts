import type { RequestMetrics } from '../llm/metrics';

/** What the model requests of one edit cost, summed: the status bar, the chat, the CLI and the pending edit show it. */
export interface UsageTotals {
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** What the same requests would have cost with every file sent whole. */
  readonly wholeFileInputTokens: number;
}

export function usageTotals(requests: readonly RequestMetrics[]): UsageTotals {
  return requests.reduce<UsageTotals>(
    (sum, r) => ({
      requests: sum.requests + 1,
      inputTokens: sum.inputTokens + r.inputTokens,
      outputTokens: sum.outputTokens + r.outputTokens,
      wholeFileInputTokens: sum.wholeFileInputTokens + r.wholeFileInputTokens,
    }),
    { requests: 0, inputTokens: 0, outputTokens: 0, wholeFileInputTokens: 0 },
  );
}
