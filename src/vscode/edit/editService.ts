import * as vscode from 'vscode';
import type { LlmError } from '../../core/llm/errors';
import type { EditFileRequest, EditOutcome } from '../../core/llm/pipeline';
import type { ChatProvider } from '../../core/llm/provider';
import type { FileChange } from '../../core/ops/apply';
import type { Operation, OperationResult } from '../../core/ops/operation';
import type { ContextDocumentProvider } from '../contextDocuments';
import type { Ctx } from '../ctx';
import { exclusionMessage, firstExclusion } from '../exclusions';
import { resolveChatProvider } from '../modelAccess';
import type { AcceptResult, EditSessions } from '../preview/editSessions';
import type { PreviewEditors } from '../preview/previewEditors';
import { recordMetrics } from '../stats';
import { type LastUsage, type ScalpelStatusBar, usageOf } from '../statusBar';
import { UserFacingError } from '../userError';
import { describeConflicts, type Conflict, operationPath } from './resolveAgainstCurrent';
import { locate, WorkspaceSnapshot } from './workspaceSnapshot';

/**
 * One way from an instruction to a change in the editor, for every command: refuse excluded files, ask the model
 * through the core pipeline with progress and cancellation, record the tokens, then hand the verified batch to the
 * preview (or write it at once, as `scalpel.preview` says), after checking it against what the user typed meanwhile.
 */

/** True while a model request runs, for the Cancel command in the palette. */
const EDIT_RUNNING_KEY = 'scalpel.editRunning';

export type EditStatus = 'preview' | 'applied' | 'conflict' | 'cancelled' | 'failed';

export interface ConflictReport {
  readonly index: number;
  readonly path: string;
  readonly operation: string;
  readonly reason: string;
}

/** What the edit commands return: for the tests and for other surfaces that drive them. */
export interface EditCommandResult {
  readonly status: EditStatus;
  readonly editId?: string;
  readonly files?: readonly string[];
  readonly conflicts?: readonly ConflictReport[];
  readonly message?: string;
  readonly usage?: LastUsage;
}

export interface EditRequestSpec {
  readonly document: vscode.TextDocument;
  readonly instruction: string;
  /** Element paths to show in full; empty lets the pipeline plan. */
  readonly focus: readonly string[];
  /** Names the surface in the metrics: `vscode.editElement`, ... */
  readonly command: string;
}

export interface VerifiedBatch {
  readonly root: vscode.Uri;
  readonly title: string;
  readonly operations: readonly Operation[];
  readonly results: readonly OperationResult[];
  readonly changes: readonly FileChange[];
  readonly usage?: LastUsage;
}

/** A text the user may want to read after a failure: the model's answer, the result of every operation. */
interface Report {
  readonly name: string;
  readonly text: string;
}

export class EditService {
  private running: AbortController | undefined;
  private lastReport: Report | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly sessions: EditSessions,
    private readonly preview: PreviewEditors,
    private readonly statusBar: ScalpelStatusBar,
    private readonly documents: ContextDocumentProvider,
  ) {}

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  cancel(): boolean {
    if (this.running === undefined) return false;
    this.running.abort();
    return true;
  }

  async showLastReport(): Promise<boolean> {
    if (this.lastReport === undefined) {
      void vscode.window.showInformationMessage('Scalpel has no failed answer to show in this session.');
      return false;
    }
    await this.documents.show(this.lastReport.name, this.lastReport.text);
    return true;
  }

  setReport(name: string, text: string): void {
    this.lastReport = { name, text };
  }

  async refuseExcluded(root: vscode.Uri, paths: readonly string[], action: string): Promise<void> {
    const exclusion = await firstExclusion(root, paths, this.ctx.config(root).exclude);
    if (exclusion !== undefined) throw new UserFacingError(exclusionMessage(exclusion, action), ['Open Settings']);
  }

  async requestEdit(spec: EditRequestSpec): Promise<EditCommandResult> {
    if (this.running !== undefined) {
      throw new UserFacingError(
        'Scalpel is already working on an edit. Wait for it, or cancel it from the status bar.',
      );
    }
    const { root, path } = locate(spec.document);
    const config = this.ctx.config(spec.document.uri);
    await this.refuseExcluded(root, [path], 'send');
    const engine = this.ctx.engine();
    const provider = await resolveChatProvider(this.ctx);
    const snapshot = new WorkspaceSnapshot(root).capture([path]);
    const files: EditFileRequest[] = [{ path, focus: spec.focus }];
    const controller = new AbortController();
    this.running = controller;
    void vscode.commands.executeCommand('setContext', EDIT_RUNNING_KEY, true);
    this.statusBar.working(provider.model);
    let outcome: EditOutcome;
    try {
      outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Scalpel (${provider.model})`, cancellable: true },
        async (progress, token) => {
          const cancelled = token.onCancellationRequested(() => controller.abort());
          try {
            return await engine.runEdit({
              instruction: spec.instruction,
              files,
              snapshot,
              provider,
              counter: engine.createTokenCounter(config.tokenEncoding),
              options: {
                budget: config.tokenBudget,
                smallFileLines: config.smallFileLines,
                strategy: config.strategy,
                repairRounds: config.repairRounds,
                planning: config.planning,
                maxOutputTokens: config.maxOutputTokens,
              },
              signal: controller.signal,
              onProgress: (event) => progress.report({ message: event.message }),
              logger: this.ctx.log,
              command: spec.command,
            });
          } finally {
            cancelled.dispose();
          }
        },
      );
    } catch (error) {
      this.statusBar.done();
      if (error instanceof engine.ContextBudgetError) {
        throw new UserFacingError(`${error.message}. Raise "scalpel.tokenBudget" or edit a smaller element.`, [
          'Open Settings',
        ]);
      }
      throw error;
    } finally {
      this.running = undefined;
      void vscode.commands.executeCommand('setContext', EDIT_RUNNING_KEY, false);
    }
    const usage = usageOf(provider.model, outcome.requests);
    this.statusBar.done(usage);
    recordMetrics(this.ctx, outcome.requests);
    this.ctx.log.info(
      `${spec.command} "${spec.instruction}" on ${spec.focus.join(', ') || path}: ${outcome.ok ? 'verified' : `failed (${outcome.failure ?? 'unknown'})`}; ` +
        `${usage.inputTokens} in / ${usage.outputTokens} out in ${usage.requests} request(s), whole files ${usage.wholeFileInputTokens}`,
    );
    if (!outcome.ok) {
      if (outcome.error?.code === 'cancelled' || controller.signal.aborted) {
        void vscode.window.showInformationMessage('Scalpel: cancelled; nothing was applied.');
        return { status: 'cancelled', message: 'cancelled', usage };
      }
      if (outcome.lastAnswer !== '') this.setReport('last-answer.md', answerReport(spec.instruction, outcome));
      throw failureError(outcome, provider);
    }
    return this.deliver(
      {
        root,
        title: shortTitle(spec.instruction),
        operations: outcome.operations,
        results: outcome.apply.results,
        changes: outcome.apply.changes,
        usage,
      },
      { checkExclusions: true },
    );
  }

  /**
   * A verified batch becomes a pending edit, checked against the text as it is now; then the preview opens, or the
   * batch is written at once when `scalpel.preview` says so.
   */
  async deliver(batch: VerifiedBatch, { checkExclusions }: { checkExclusions: boolean }): Promise<EditCommandResult> {
    if (checkExclusions)
      await this.refuseExcluded(
        batch.root,
        batch.changes.map((c) => c.path),
        'edit',
      );
    const pending = this.ctx.pendingEdits.add({
      title: batch.title,
      operations: batch.operations,
      results: batch.results,
      changes: batch.changes,
      root: batch.root,
      ...(batch.usage === undefined
        ? {}
        : {
            usage: {
              inputTokens: batch.usage.inputTokens,
              outputTokens: batch.usage.outputTokens,
              wholeFileInputTokens: batch.usage.wholeFileInputTokens,
            },
          }),
    });
    const session = this.sessions.sessionOrThrow(pending.id);
    const { conflicts, applied } = session.resolution;
    const usage = batch.usage === undefined ? {} : { usage: batch.usage };
    if (applied.length === 0) {
      this.sessions.reject(pending.id);
      const message =
        conflicts.length > 0
          ? `Scalpel applied nothing: every change conflicts with edits you made while the model worked (${describeConflicts(conflicts)}).`
          : 'Scalpel: the model proposed no change.';
      void vscode.window.showWarningMessage(message);
      return {
        status: conflicts.length > 0 ? 'conflict' : 'failed',
        editId: pending.id,
        conflicts: conflictReports(conflicts),
        message,
        ...usage,
      };
    }
    if (conflicts.length > 0) warnConflicts(conflicts, 'were left out of the edit');
    const config = this.ctx.config(batch.root);
    const direct =
      config.preview === 'never' ||
      (config.preview === 'skipSmall' && batch.operations.length <= config.previewSmallBatchOperations);
    if (direct) {
      const result = await this.accept(pending.id);
      void vscode.window.showInformationMessage(
        `Scalpel applied ${result.applied.length} change${result.applied.length === 1 ? '' : 's'} to ${result.files.join(', ')} (unsaved; Undo reverts it).`,
      );
      return {
        status: 'applied',
        editId: pending.id,
        files: result.files,
        conflicts: conflictReports([...conflicts, ...result.conflicts]),
        ...usage,
      };
    }
    await this.preview.open(pending.id);
    return {
      status: 'preview',
      editId: pending.id,
      files: session.resolution.changes.map((c) => c.path),
      conflicts: conflictReports(conflicts),
      ...usage,
    };
  }

  async accept(editId: string, indices?: readonly number[]): Promise<AcceptResult> {
    const result = await this.sessions.accept(editId, indices);
    if (result.conflicts.length > 0)
      warnConflicts(
        result.conflicts,
        result.applied.length > 0 ? 'were left out; the rest was applied' : 'were not applied',
      );
    return result;
  }
}

export function conflictReports(conflicts: readonly Conflict[]): ConflictReport[] {
  return conflicts.map((c) => ({
    index: c.index,
    path: c.path,
    operation: `${c.operation.type} ${operationPath(c.operation)}`,
    reason: c.reason,
  }));
}

function warnConflicts(conflicts: readonly Conflict[], consequence: string): void {
  const count = conflicts.length;
  void vscode.window.showWarningMessage(
    `Scalpel: ${count} change${count === 1 ? '' : 's'} conflict${count === 1 ? 's' : ''} with edits you made meanwhile and ${consequence}: ${describeConflicts(conflicts)}. Your text was kept.`,
  );
}

function shortTitle(instruction: string): string {
  const line = instruction.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

function answerReport(instruction: string, outcome: EditOutcome): string {
  const lines = [
    `# Scalpel: the model's last answer`,
    '',
    `Instruction: ${instruction}`,
    '',
    `Why it did not apply: ${outcome.failure ?? 'unknown'}`,
    '',
  ];
  for (const result of outcome.apply.results) {
    if (result.status === 'ok') continue;
    lines.push(
      `- ${result.status.toUpperCase()} ${result.operation.type} ${result.operation.path}: ${result.message ?? ''}${result.hint === undefined ? '' : ` (${result.hint})`}`,
    );
  }
  for (const error of outcome.parseErrors) lines.push(`- unreadable line ${error.line}: ${error.message}`);
  lines.push('', '## Answer', '', outcome.lastAnswer, '');
  return lines.join('\n');
}

/** A failed request in words, with the buttons for the next step. */
export function failureError(outcome: EditOutcome, provider: ChatProvider): UserFacingError {
  const error: LlmError | undefined = outcome.error;
  if (error === undefined) {
    return new UserFacingError(`Scalpel: ${outcome.failure ?? 'the edit did not apply'}.`, ['Show Answer', 'Show Log']);
  }
  const where = `${provider.model} at ${provider.endpoint}`;
  switch (error.code) {
    case 'auth':
      return new UserFacingError(
        `Scalpel: ${where} refused the request: ${error.message}. Set the API key, or select another model.`,
        ['Set API Key', 'Select Model'],
      );
    case 'network':
    case 'endpoint-not-found':
    case 'model-not-found':
      return new UserFacingError(
        `Scalpel: no model answered (${error.message}). Select a model (a VS Code language model or an endpoint), and set its API key if it needs one.`,
        ['Select Model', 'Set API Key'],
      );
    case 'context-length':
      return new UserFacingError(`Scalpel: ${error.message}. Lower "scalpel.tokenBudget" or edit a smaller element.`, [
        'Open Settings',
      ]);
    default:
      return new UserFacingError(`Scalpel: ${error.message}. Nothing was applied.`, ['Show Log']);
  }
}
