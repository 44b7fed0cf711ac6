import * as vscode from 'vscode';
import type { RequestMetrics } from '../core/llm/metrics';
import type { Ctx } from './ctx';

/**
 * Token accounting of the extension: every model request is appended as one JSON line to metrics.jsonl in the
 * extension's global storage (the same format as the CLI's log), and Show Token Statistics summarises it.
 */

export function metricsFileOf(ctx: Ctx): string {
  return vscode.Uri.joinPath(ctx.extensionContext.globalStorageUri, 'metrics.jsonl').fsPath;
}

export function recordMetrics(ctx: Ctx, requests: readonly RequestMetrics[]): void {
  if (requests.length === 0) return;
  const file = metricsFileOf(ctx);
  try {
    ctx.engine().appendMetrics(file, requests);
  } catch (error) {
    // Losing a statistics line must never fail the edit itself.
    ctx.log.warn(`could not append to ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export interface TokenStatistics {
  readonly file: string;
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly wholeFileInputTokens: number;
  readonly text: string;
}

export function tokenStatistics(ctx: Ctx): TokenStatistics {
  const engine = ctx.engine();
  const file = metricsFileOf(ctx);
  const summary = engine.summarizeMetrics(engine.readMetrics(file));
  const header =
    `Scalpel token statistics\n` +
    `${summary.requests} model request${summary.requests === 1 ? '' : 's'} recorded in ${file}\n` +
    'Columns: mean/p95/max tokens per request; "instructions + code" splits the mean input into the fixed instructions (the system prompt) and the rest (code, task, repair messages); "whole-file input" is what the same request would have cost with every file sent whole.\n\n';
  return {
    file,
    requests: summary.requests,
    inputTokens: summary.all.inputTokens.total,
    outputTokens: summary.all.outputTokens.total,
    wholeFileInputTokens: summary.all.wholeFileInputTokens.total,
    text: header + engine.formatMetricsSummary(summary),
  };
}
