import * as vscode from 'vscode';
import type { UsageTotals } from '../core/edit/usage';
import type { Ctx } from './ctx';

/**
 * One status bar item: which model Scalpel uses, the tokens of the last request next to what whole files would have
 * cost, and a spinner (click to cancel) while a request runs. Rendering it never loads the engine.
 */

/** The core's usage totals of the last edit, with the model that answered. */
export interface LastUsage extends UsageTotals {
  readonly model: string;
}

function compact(tokens: number): string {
  return tokens >= 10_000
    ? `${(tokens / 1000).toFixed(0)}k`
    : tokens >= 1000
      ? `${(tokens / 1000).toFixed(1)}k`
      : String(tokens);
}

export function savedPercent(usage: LastUsage): number | undefined {
  return usage.wholeFileInputTokens > 0
    ? Math.round((1 - usage.inputTokens / usage.wholeFileInputTokens) * 100)
    : undefined;
}

export class ScalpelStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('scalpel.status', vscode.StatusBarAlignment.Right, 100);
  private readonly configListener: vscode.Disposable;
  private last: LastUsage | undefined;
  private busy: string | undefined;

  constructor(private readonly ctx: Ctx) {
    this.item.name = 'Scalpel';
    this.configListener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('scalpel.provider') || event.affectsConfiguration('scalpel.model')) this.render();
    });
    this.render();
    this.item.show();
  }

  /** The model named by the settings, without asking VS Code or the endpoint which one that resolves to. */
  private configuredModel(): string {
    const { provider, model } = this.ctx.config();
    if (provider === 'auto') return model === '' ? 'auto' : model;
    if (provider === 'vscode-lm') return model === '' ? 'VS Code model' : model;
    return model === '' ? provider : `${provider} ${model}`;
  }

  working(model: string): void {
    this.busy = model;
    this.render();
  }

  done(usage?: LastUsage): void {
    this.busy = undefined;
    if (usage !== undefined && usage.requests > 0) this.last = usage;
    this.render();
  }

  get lastUsage(): LastUsage | undefined {
    return this.last;
  }

  private render(): void {
    if (this.busy !== undefined) {
      this.item.text = `$(loading~spin) Scalpel: ${this.busy}`;
      this.item.tooltip = `Scalpel is waiting for ${this.busy}. Click to cancel; nothing is applied.`;
      this.item.command = 'scalpel.cancelEdit';
      return;
    }
    this.item.command = 'scalpel.selectModel';
    const configured = this.configuredModel();
    if (this.last === undefined) {
      this.item.text = `$(wand) Scalpel: ${configured}`;
      this.item.tooltip = `Scalpel uses ${configured}. Click to select the model or provider.`;
      return;
    }
    const saved = savedPercent(this.last);
    this.item.text = `$(wand) ${this.last.model} ${compact(this.last.inputTokens)}↑ ${compact(this.last.outputTokens)}↓${saved === undefined ? '' : ` (${saved >= 0 ? '−' : '+'}${Math.abs(saved)}%)`}`;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**Scalpel** uses ${configured}\n\n`);
    tooltip.appendMarkdown(
      `Last edit (${this.last.requests} request${this.last.requests === 1 ? '' : 's'} to ${this.last.model}): ` +
        `${this.last.inputTokens} input and ${this.last.outputTokens} output tokens; ` +
        `whole files would have sent ${this.last.wholeFileInputTokens} input tokens` +
        (saved === undefined
          ? '.'
          : saved === 0
            ? ', as many.'
            : `, so Scalpel sent ${Math.abs(saved)}% ${saved > 0 ? 'fewer' : 'more'}.`) +
        '\n\nClick to select the model; **Scalpel: Show Token Statistics** sums up every request.',
    );
    this.item.tooltip = tooltip;
  }

  dispose(): void {
    this.configListener.dispose();
    this.item.dispose();
  }
}
