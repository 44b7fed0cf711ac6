import * as vscode from 'vscode';
import type { Advice } from '../../core/edit/advice';
import type { EditConversation } from '../../core/edit/conversation';
import type {
  EditService as CoreEditService,
  ServiceContextRequest,
  ServiceContextResult,
  ServiceEditResult,
  ServicePlanResult,
} from '../../core/edit/editService';
import type { NewTypeError } from '../../core/check/typeCheck';
import type { Conflict } from '../../core/edit/rebase';
import type { StepReport, Verification } from '../../core/edit/verification';
import type { UsageTotals } from '../../core/edit/usage';
import type { EditFileRequest, EditProgress } from '../../core/llm/pipeline';
import type { ChatProvider } from '../../core/llm/provider';
import type { FileChange, SnapshotReader } from '../../core/ops/apply';
import type { VerifyLevel } from '../../core/edit/editSettings';
import type { Operation, OperationResult } from '../../core/ops/operation';
import type { ContextDocumentProvider } from '../contextDocuments';
import type { Ctx } from '../ctx';
import { exclusionCheckOf } from '../exclusions';
import { workspaceExcludes } from '../tools/toolWorkspace';
import { showNotice } from '../notices';
import type { PendingEdit, RetrySpec } from '../pendingEdits';
import type { AcceptResult, EditSession, EditSessions, RejectResult } from '../preview/editSessions';
import type { AppliedTypeErrors } from '../preview/appliedTypeErrors';
import type { PreviewEditors } from '../preview/previewEditors';
import { chooseProvider } from '../providerChoice';
import { ensureModelOrSetUp } from '../setup/modelSetup';
import { recordMetrics } from '../stats';
import type { LastUsage, ScalpelStatusBar } from '../statusBar';
import { UserFacingError } from '../userError';
import { writeGateOptionsOf } from './applyChanges';
import { adviceButtons } from './advicePresentation';
import { runUserAction } from '../userActions';
import { ProgressLine } from './progressLine';
import { TypeErrorDecisions } from './typeErrorDecisions';
import { liveSnapshot, locate, WorkspaceSnapshot } from './workspaceSnapshot';

/**
 * The extension's side of the core edit service, built once at activation and handed to the commands and the chat.
 * It supplies what only VS Code knows (settings read for the file's folder, the model choice, exclusions, the text of
 * open documents) and turns a verified result into a pending edit. The palette's flow (progress, status bar, preview
 * or direct apply) is here too; the chat presents the same result in its own way (src/vscode/chat/editRequest.ts).
 * What the user is told and asked about an edit's new type errors is in typeErrorDecisions.ts.
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
  /** The verified operations, in the operation format (what the model answered, after repair). */
  readonly operations?: string;
  readonly advice?: Advice;
  readonly undoLabel?: string;
  /** How many new TypeScript errors the edit was shown (or applied) with. */
  readonly typeErrors?: number;
  /** What the model wrote beside its operations (issue 18). */
  readonly notes?: readonly string[];
  /** The model declined the task (`DECLINE: <reason>`): its reason; nothing was changed. */
  readonly declined?: string;
}

/** What a surface gathered for one edit request. */
export interface SurfaceEdit {
  /** The workspace folder the paths are relative to. */
  readonly root: vscode.Uri;
  readonly instruction: string;
  readonly files: readonly EditFileRequest[];
  /** The text the model is shown, captured when the request starts. */
  readonly snapshot: WorkspaceSnapshot;
  /** Every file goes whole. */
  readonly full?: boolean;
  /** Names the surface in the metrics: `vscode.editElement`, `chat.edit`, ... */
  readonly command: string;
  /** The model picked in the chat, if any. */
  readonly model?: vscode.LanguageModelChat;
  /** A provider the surface chose already (to name it while it works); else the one provider choice picks it. */
  readonly provider?: ChatProvider;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: EditProgress) => void;
  /** The model's answers as they stream in (the progress counts their tokens). */
  readonly onText?: (delta: string) => void;
  readonly conversation?: EditConversation;
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
  /** Default: the core's rule applied to the title. */
  readonly undoLabel?: string;
  readonly operations: readonly Operation[];
  readonly results: readonly OperationResult[];
  readonly changes: readonly FileChange[];
  readonly usage?: LastUsage;
  /** New TypeScript errors the batch was let through with; the preview marks them. */
  readonly typeErrors?: readonly NewTypeError[];
  /** The request that produced the batch, for Retry. */
  readonly retry?: RetrySpec;
  /** What the model wrote beside its operations: the review panel shows it. */
  readonly notes?: readonly string[];
  /** Files the user named for the request: protected ones among them are written without asking. */
  readonly userNamed?: readonly string[];
}

/**
 * The pre-write gates' questions in VS Code wait for Accept: the write there asks for each protected file the user
 * did not name (applyChanges' confirmation), after the preview showed the change. Refusals stop the batch at once.
 */
const askOnAccept = (): Promise<boolean> => Promise.resolve(true);

/** A text the user may want to read after a failure: the model's answer, the result of every operation. */
interface Report {
  readonly name: string;
  readonly text: string;
}

const MAX_CONVERSATIONS = 20;

export class EditService {
  private running: AbortController | undefined;
  private lastReport: Report | undefined;
  /** One core service per workspace folder: its type checker reads that folder's tsconfig and files. */
  private readonly cores = new Map<string, CoreEditService>();
  private readonly conversations = new Map<string, EditConversation>();
  /** The palette's last request, for Retry after a failure. */
  private lastRequest: RetrySpec | undefined;
  /** Per edit id the request that produced it, for Retry after a conflict (also once the edit ended). */
  private readonly retrySpecs = new Map<string, RetrySpec>();
  /** The new type errors at each decision: the preview's warning, Accept's question, the commands showing them. */
  readonly typeErrors: TypeErrorDecisions;

  constructor(
    private readonly ctx: Ctx,
    private readonly sessions: EditSessions,
    private readonly preview: PreviewEditors,
    private readonly statusBar: ScalpelStatusBar,
    private readonly documents: ContextDocumentProvider,
    private readonly applied: AppliedTypeErrors,
  ) {
    this.typeErrors = new TypeErrorDecisions(ctx, sessions, preview);
    ctx.subscriptions.push(
      sessions.onDidConflict(({ session, conflicts }) => this.announceConflicts(session, conflicts)),
    );
  }

  /** The core service of a workspace folder, built on first use: activation never loads the engine. */
  private service(root: vscode.Uri): CoreEditService {
    const key = root.toString();
    let core = this.cores.get(key);
    if (core === undefined) {
      const engine = this.ctx.engine();
      core = engine.createEditService({
        logger: this.ctx.log,
        recordMetrics: (requests) => recordMetrics(this.ctx, requests),
        // The one write gate every surface passes (the CLI registers the same); settings are read per batch.
        preWriteGates: [engine.writePolicyGate((paths) => writeGateOptionsOf(engine, root, paths))],
        // The type check reads the folder's files from disk; only local folders have a path it can read.
        ...(root.scheme === 'file' ? { workspaceRoot: root.fsPath } : {}),
        // FIND, the references and the type check list the folder as the agent tools do.
        workspaceExclude: () => workspaceExcludes(root, this.ctx.config(root).exclude),
      });
      this.cores.set(key, core);
    }
    return core;
  }

  /** The conversation of a surface (`palette`, a chat session), where per-conversation baselines live. */
  conversation(id: string): EditConversation {
    let conversation = this.conversations.get(id);
    if (conversation === undefined) {
      conversation = new (this.ctx.engine().EditConversation)(id);
      this.conversations.set(id, conversation);
      // Bounded like the core's ConversationStore: the conversation created longest ago goes first.
      if (this.conversations.size > MAX_CONVERSATIONS) {
        const oldest = this.conversations.keys().next().value;
        if (oldest !== undefined) this.conversations.delete(oldest);
      }
    }
    return conversation;
  }

  /** A conversation ended (a new chat session): its baselines are dropped. */
  endConversation(id: string): void {
    this.conversations.delete(id);
  }

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

  /** Refuses early (before asking for an instruction) a file no model may see. */
  async refuseExcluded(root: vscode.Uri, paths: readonly string[], action: 'send' | 'copy'): Promise<void> {
    const exclusion = await exclusionCheckOf(root, this.ctx.config(root).exclude).firstExclusion(paths);
    if (exclusion !== undefined)
      throw new UserFacingError(this.ctx.engine().exclusionMessage(exclusion, action), ['Open Settings']);
  }

  /** One edit through the core service, with the settings of the file's folder and the one provider choice. */
  async run(input: SurfaceEdit): Promise<ServiceEditResult> {
    const scope = this.scopeOf(input.root, input.files);
    const config = this.ctx.config(scope);
    const provider = input.provider ?? (await chooseProvider(this.ctx, input.model));
    const result = await this.service(input.root).edit({
      instruction: input.instruction,
      files: input.files,
      snapshot: input.snapshot,
      current: liveSnapshot(input.root),
      provider,
      settings: config,
      exclusions: exclusionCheckOf(input.root, config.exclude),
      command: input.command,
      // Type errors the repair rounds leave are shown in the preview and chat for the user to judge, not refused.
      allowNewErrors: true,
      confirm: askOnAccept,
      ...(input.full === true ? { full: true } : {}),
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      ...(input.onProgress === undefined ? {} : { onProgress: input.onProgress }),
      ...(input.onText === undefined ? {} : { onText: input.onText }),
      ...(input.conversation === undefined ? {} : { conversation: input.conversation }),
    });
    const { usage } = result;
    this.ctx.log.info(
      `${input.command} "${input.instruction}" on ${input.files.map((f) => f.focus.join(', ') || f.path).join('; ')}: ` +
        `${result.status}${result.failure === undefined ? '' : ` (${result.failure})`}; ` +
        `${usage.inputTokens} in / ${usage.outputTokens} out in ${usage.requests} request(s), whole files ${usage.wholeFileInputTokens}`,
    );
    if (result.outcome.lastAnswer !== '' && result.status === 'failed')
      this.setReport('last-answer.md', answerReport(input.instruction, result));
    return result;
  }

  /** The planning phase alone (chat `/plan`), through the same core planning as an edit. */
  async plan(input: Omit<SurfaceEdit, 'full' | 'conversation'>): Promise<ServicePlanResult> {
    const scope = this.scopeOf(input.root, input.files);
    const config = this.ctx.config(scope);
    const provider = input.provider ?? (await chooseProvider(this.ctx, input.model));
    return this.service(input.root).plan({
      instruction: input.instruction,
      files: input.files,
      snapshot: input.snapshot,
      provider,
      settings: config,
      exclusions: exclusionCheckOf(input.root, config.exclude),
      command: input.command,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      ...(input.onProgress === undefined ? {} : { onProgress: input.onProgress }),
    });
  }

  /**
   * Operations pasted from another chat or sent by an agent tool, through the same verification steps as a model's
   * answer. New type errors are shown in the preview, not refused; `overrides` are the agent tool's own choices.
   */
  verify(
    root: vscode.Uri,
    operations: readonly Operation[],
    overrides: {
      readonly snapshot?: SnapshotReader;
      readonly partial?: boolean;
      readonly verify?: VerifyLevel;
      readonly allowBrokenReferences?: boolean;
    } = {},
  ): Promise<Verification> {
    const { snapshot, verify, ...rest } = overrides;
    return this.service(root).verify({
      snapshot: snapshot ?? new WorkspaceSnapshot(root),
      operations,
      settings: { ...this.ctx.config(root), ...(verify === undefined ? {} : { verify }) },
      allowNewErrors: true,
      ...rest,
    });
  }

  /**
   * The focused context under the budget of the file's folder, or the one wording of why it cannot be built (budget,
   * unknown element) as an error.
   */
  contextOrThrow(scope: vscode.Uri, request: ServiceContextRequest): Extract<ServiceContextResult, { ok: true }> {
    const folder = vscode.workspace.getWorkspaceFolder(scope)?.uri ?? scope;
    const result = this.service(folder).context({ ...request, settings: this.ctx.config(scope) });
    if (!result.ok) throw new UserFacingError(failureMessage(result), adviceButtons(result.advice));
    return result;
  }

  /** Settings are read for the first file's folder (`scalpel.*` settings may differ per folder). */
  private scopeOf(root: vscode.Uri, files: readonly EditFileRequest[]): vscode.Uri {
    const first = files[0];
    return first === undefined ? root : vscode.Uri.joinPath(root, ...first.path.split('/'));
  }

  /**
   * A ready result becomes a pending edit the preview, the chat's links and the accept commands refer to. `userNamed`:
   * the files the user named for the request (the chat's `#` references), written without asking again.
   */
  addPending(
    root: vscode.Uri,
    result: ServiceEditResult,
    retry?: RetrySpec,
    userNamed: readonly string[] = [],
  ): PendingEdit {
    const pending = this.ctx.pendingEdits.add({
      ...(userNamed.length === 0 ? {} : { userNamed }),
      title: result.title,
      undoLabel: result.undoLabel,
      operations: result.outcome.operations,
      results: result.outcome.apply.results,
      changes: result.outcome.apply.changes,
      root,
      usage: result.usage,
      ...this.typeErrorsOf(result.outcome.verification),
      ...(retry === undefined ? {} : { retry }),
      ...(result.outcome.notes.length === 0 ? {} : { notes: result.outcome.notes }),
    });
    if (retry !== undefined) this.retrySpecs.set(pending.id, retry);
    return pending;
  }

  /**
   * The instruction again, on the text as it is now: after a failure (the last request), or after a conflict (the
   * request of that edit, whose pending rest is discarded first).
   */
  async retry(editId?: unknown): Promise<EditCommandResult> {
    const spec = typeof editId === 'string' ? this.retrySpecs.get(editId) : this.lastRequest;
    if (spec === undefined) {
      throw new UserFacingError(
        typeof editId === 'string'
          ? 'That Scalpel edit cannot be asked again: it came from pasted operations or an agent, not from an instruction.'
          : 'There is no Scalpel request to retry yet: run Edit Element at Cursor, Edit Selection or Edit File first.',
      );
    }
    if (typeof editId === 'string') this.sessions.discard(editId);
    const document = await vscode.workspace.openTextDocument(spec.uri);
    await vscode.window.showTextDocument(document);
    return this.requestEdit({ document, instruction: spec.instruction, focus: spec.focus, command: 'vscode.retry' });
  }

  /**
   * The new type errors a verified result was let through with, and which checker checked each language, as the
   * pending edit's optional fields.
   */
  typeErrorsOf(verification: readonly StepReport[]): {
    typeErrors?: readonly NewTypeError[];
    typeChecks?: readonly string[];
  } {
    const engine = this.ctx.engine();
    const errors = engine.remainingTypeErrors(verification);
    const checks = engine.typeCheckLines(verification);
    return {
      ...(errors.length === 0 ? {} : { typeErrors: errors }),
      ...(checks.length === 0 ? {} : { typeChecks: checks }),
    };
  }

  /** The palette's edit: progress with Cancel, the status bar, then the preview (or a direct write). */
  async requestEdit(spec: EditRequestSpec): Promise<EditCommandResult> {
    if (this.running !== undefined) {
      throw new UserFacingError(
        'Scalpel is already working on an edit. Wait for it, or cancel it from the status bar.',
      );
    }
    // A user who set nothing up is offered setup here, and the request goes on (or waits) with their instruction.
    await ensureModelOrSetUp(this.ctx, { instruction: spec.instruction, run: () => this.requestEdit(spec) });
    const { root, path } = locate(spec.document);
    const retry: RetrySpec = { uri: spec.document.uri, instruction: spec.instruction, focus: spec.focus };
    this.lastRequest = retry;
    const snapshot = new WorkspaceSnapshot(root).capture([path]);
    const controller = new AbortController();
    this.running = controller;
    void vscode.commands.executeCommand('setContext', EDIT_RUNNING_KEY, true);
    const startedAt = Date.now();
    let result: ServiceEditResult;
    try {
      result = await vscode.window.withProgress(
        // The notification is up before anything slow (the model choice, the engine), with a message from the start.
        {
          location: vscode.ProgressLocation.Notification,
          title: `Scalpel: ${shortened(spec.instruction)}`,
          cancellable: true,
        },
        async (progress, token) => {
          const cancelled = token.onCancellationRequested(() => controller.abort());
          const engineLoaded = this.ctx.isEngineLoaded();
          progress.report({ message: engineLoaded ? `reading ${path}` : 'loading its TypeScript engine (first use)' });
          // The engine's load holds the extension host: the message goes out to the window first.
          if (!engineLoaded) await new Promise((resolve) => setTimeout(resolve, 50));
          let ticker: ReturnType<typeof setInterval> | undefined;
          try {
            const provider = await chooseProvider(this.ctx);
            this.statusBar.working(provider.model);
            const config = this.ctx.config(spec.document.uri);
            const counter = this.ctx.engine().createTokenCounter(config.tokenEncoding);
            const line = new ProgressLine(
              {
                model: provider.model,
                startedAt,
                countTokens: (text) => counter.count(text),
                checksTypes: config.verify === 'types',
              },
              `reading ${path}`,
            );
            const show = (): void => progress.report({ message: line.render(Date.now()) });
            show();
            // The seconds move even while nothing else does (a model that takes its time).
            ticker = setInterval(show, 1000);
            let shownTokensAt = 0;
            return await this.run({
              root,
              instruction: spec.instruction,
              files: [{ path, focus: spec.focus }],
              snapshot,
              command: spec.command,
              provider,
              signal: controller.signal,
              onProgress: (event) => {
                line.event(event);
                show();
              },
              onText: (delta) => {
                line.text(delta);
                // Counting the answer so far is linear in its length: a few times a second is enough.
                if (Date.now() - shownTokensAt < 250) return;
                shownTokensAt = Date.now();
                show();
              },
              conversation: this.conversation('palette'),
            });
          } finally {
            if (ticker !== undefined) clearInterval(ticker);
            cancelled.dispose();
          }
        },
      );
    } catch (error) {
      this.statusBar.done();
      throw error;
    } finally {
      this.running = undefined;
      void vscode.commands.executeCommand('setContext', EDIT_RUNNING_KEY, false);
    }
    this.ctx.log.info(`${spec.command}: ${Date.now() - startedAt} ms from the instruction to the result`);
    const usage = lastUsageOf(result.provider.model, result.usage);
    this.statusBar.done(usage);
    const common = {
      usage,
      operations: this.ctx.engine().serializeOperations(result.outcome.operations),
      undoLabel: result.undoLabel,
      ...(result.advice === undefined ? {} : { advice: result.advice }),
      ...(result.outcome.notes.length === 0 ? {} : { notes: result.outcome.notes }),
    };
    switch (result.status) {
      case 'cancelled':
        void vscode.window.showInformationMessage('Scalpel: cancelled; nothing was applied.');
        return { status: 'cancelled', message: 'cancelled', ...common };
      case 'declined': {
        // The model's answer to the request, not an error: its reason, and nothing changed.
        const message = `Scalpel: the model declined: ${result.declined ?? ''} Nothing was changed.`;
        this.ctx.log.info(message);
        void vscode.window.showInformationMessage(message);
        return { status: 'failed', message, declined: result.declined ?? '', ...common };
      }
      case 'failed':
      case 'refused':
      case 'nothing': {
        const message = failureMessage(result);
        this.notify(message, result.advice);
        return { status: 'failed', message, ...common };
      }
      case 'conflict': {
        const conflicts = result.resolution?.conflicts ?? [];
        const message = `Scalpel applied nothing: every change conflicts with edits you made while the model worked (${this.ctx.engine().describeConflicts(conflicts)}).`;
        this.offerRetry(message, []);
        return { status: 'conflict', conflicts: conflictReports(this.ctx, conflicts), message, ...common };
      }
      case 'ready': {
        const delivered = await this.deliver(
          {
            root,
            title: result.title,
            undoLabel: result.undoLabel,
            operations: result.outcome.operations,
            results: result.outcome.apply.results,
            changes: result.outcome.apply.changes,
            usage,
            ...this.typeErrorsOf(result.outcome.verification),
            retry,
            ...(result.outcome.notes.length === 0 ? {} : { notes: result.outcome.notes }),
            userNamed: [path],
          },
          { gated: true },
        );
        this.showNotes(result.outcome.notes);
        return { ...common, ...delivered };
      }
    }
  }

  /**
   * The model's notes in a notification too: the review panel shows them with the preview, but a direct apply has no
   * panel. The whole text goes to the log.
   */
  private showNotes(notes: readonly string[]): void {
    if (notes.length === 0) return;
    for (const note of notes) this.ctx.log.info(`the model notes: ${note}`);
    const first = (notes[0] ?? '').replace(/\s+/g, ' ');
    const more =
      notes.length > 1 ? ` (and ${notes.length - 1} more note${notes.length === 2 ? '' : 's'} in the log)` : '';
    void vscode.window.showInformationMessage(`Scalpel: the model notes: ${first}${more}`);
  }

  private notify(message: string, advice: Advice | undefined): void {
    this.ctx.log.warn(message);
    this.offerRetry(message, adviceButtons(advice));
  }

  /** A warning whose last button asks again (the palette's last request, on the current text). */
  private offerRetry(message: string, buttons: readonly string[], editId?: string): void {
    void showNotice('warning', message, ...buttons, RETRY).then((action) => {
      if (action === RETRY) void vscode.commands.executeCommand('scalpel.retryEdit', editId);
      else if (action !== undefined) runUserAction(this.ctx, action);
    });
  }

  /** The user typed into an element whose change waits in the preview: said at once, not only on Accept. */
  private announceConflicts(session: EditSession, conflicts: readonly Conflict[]): void {
    const engine = this.ctx.engine();
    const elements = conflicts.map((c) => engine.operationPath(c.operation));
    const one = conflicts.length === 1;
    const message =
      `Scalpel: you changed ${elements.join(', ')} while ${one ? 'its' : 'their'} proposed change${one ? '' : 's'} ` +
      `waited in the preview; ${one ? 'that change is' : 'those changes are'} left out and your text is kept.`;
    this.ctx.log.info(`${session.edit.id}: ${message}`);
    if (this.retrySpecs.has(session.edit.id)) this.offerRetry(message, [], session.edit.id);
    else void showNotice('warning', message);
  }

  /**
   * A verified batch becomes a pending edit, checked against the text as it is now; then the preview opens, or the
   * batch is written at once when `scalpel.preview` says so.
   */
  async deliver(
    batch: VerifiedBatch,
    { checkExclusions = false, gated = false }: { readonly checkExclusions?: boolean; readonly gated?: boolean } = {},
  ): Promise<EditCommandResult> {
    // The edit service checks what it produces; a batch from elsewhere (an agent tool) is checked here.
    if (checkExclusions) {
      const exclusion = await exclusionCheckOf(batch.root, this.ctx.config(batch.root).exclude).firstExclusion(
        batch.changes.map((c) => c.path),
      );
      if (exclusion !== undefined)
        throw new UserFacingError(this.ctx.engine().exclusionMessage(exclusion, 'edit'), ['Open Settings']);
    }
    // A batch the service did not produce (pasted, an agent tool's) passes the same pre-write gates here.
    if (!gated) {
      const passage = await this.service(batch.root).checkWrite({
        changes: batch.changes,
        namedFiles: batch.userNamed ?? [],
        confirm: askOnAccept,
      });
      if (!passage.ok) throw new UserFacingError(passage.failure);
    }
    const pending = this.ctx.pendingEdits.add({
      ...(batch.userNamed === undefined ? {} : { userNamed: batch.userNamed }),
      title: batch.title,
      undoLabel: batch.undoLabel ?? this.ctx.engine().undoLabelOf(batch.title),
      operations: batch.operations,
      results: batch.results,
      changes: batch.changes,
      root: batch.root,
      ...(batch.usage === undefined ? {} : { usage: batch.usage }),
      ...(batch.typeErrors === undefined ? {} : { typeErrors: batch.typeErrors }),
      ...(batch.retry === undefined ? {} : { retry: batch.retry }),
      ...(batch.notes === undefined ? {} : { notes: batch.notes }),
    });
    if (batch.retry !== undefined) this.retrySpecs.set(pending.id, batch.retry);
    const session = this.sessions.sessionOrThrow(pending.id);
    const { conflicts, applied } = session.resolution;
    const usage = batch.usage === undefined ? {} : { usage: batch.usage };
    const waiting = conflicts.some((c) => c.decision === 'pending');
    if (applied.length === 0 && !waiting) {
      await this.sessions.reject(pending.id);
      const message =
        conflicts.length > 0
          ? `Scalpel applied nothing: every change conflicts with edits you made while the model worked (${this.ctx.engine().describeConflicts(conflicts)}).`
          : 'Scalpel: the model proposed no change.';
      if (batch.retry === undefined) void showNotice('warning', message);
      else this.offerRetry(message, [], pending.id);
      return {
        status: conflicts.length > 0 ? 'conflict' : 'failed',
        editId: pending.id,
        conflicts: conflictReports(this.ctx, conflicts),
        message,
        ...usage,
      };
    }
    const decided = conflicts.filter((c) => c.decision !== 'pending');
    const typeErrors = batch.typeErrors === undefined ? {} : { typeErrors: batch.typeErrors.length };
    if (decided.length > 0) this.warnConflicts(decided, 'were left out of the edit', pending.id);
    const config = this.ctx.config(batch.root);
    const direct =
      config.preview === 'never' ||
      (config.preview === 'skipSmall' && batch.operations.length <= config.previewSmallBatchOperations);
    if (direct) {
      // No preview to decide in: the summary after the write says what was written and what it brought.
      const result = await this.accept(pending.id, undefined, { confirmErrors: false });
      return {
        status: 'applied',
        editId: pending.id,
        files: result.files,
        conflicts: conflictReports(this.ctx, [...conflicts, ...result.conflicts]),
        ...usage,
        ...typeErrors,
      };
    }
    for (const line of pending.typeChecks ?? []) this.ctx.log.info(line);
    if (pending.typeErrors !== undefined) this.typeErrors.warnOnPreview(pending.typeErrors, pending.typeChecks);
    await this.preview.open(pending.id);
    return {
      status: 'preview',
      editId: pending.id,
      files: session.resolution.changes.map((c) => c.path),
      conflicts: conflictReports(this.ctx, conflicts),
      ...usage,
      ...typeErrors,
    };
  }

  /**
   * Accepts changes of a pending edit. When they bring new type errors the user was not asked about yet, Accept asks
   * once (issue 29): "Accept with N new type errors?", Show Errors being the default; a "no" accepts nothing.
   * `confirmErrors: false`: the caller decided already (a direct write under `scalpel.preview: never`).
   */
  async accept(
    editId: string,
    indices?: readonly number[],
    { confirmErrors = true }: { readonly confirmErrors?: boolean } = {},
  ): Promise<AcceptResult> {
    const session = this.sessions.sessionOrThrow(editId);
    const edit = session.edit;
    if (confirmErrors) await this.typeErrors.confirmAccept(session, indices);
    const result = await this.sessions.accept(editId, indices);
    this.reportWritten(edit, result);
    return result;
  }

  /** Rejecting the last undecided change writes the accepted ones: their conflicts are reported the same way. */
  async reject(editId: string, indices?: readonly number[]): Promise<RejectResult> {
    const edit = this.sessions.sessionOrThrow(editId).edit;
    const result = await this.sessions.reject(editId, indices);
    this.reportWritten(edit, result);
    return result;
  }

  /**
   * What the user is told once an edit is decided (issue 29): what was written where, what was rejected or left out,
   * and the new type errors it brought, listed in the Problems view where the notification points.
   */
  private reportWritten(edit: PendingEdit, result: AcceptResult | RejectResult): void {
    const errors = result.applied.length > 0 ? (edit.typeErrors ?? []) : [];
    if (errors.length > 0) this.applied.mark(edit.root, edit.title, errors, edit.changes);
    if (result.conflicts.length > 0)
      this.warnConflicts(
        result.conflicts,
        result.applied.length > 0 ? 'were left out; the rest was applied' : 'were not applied',
        edit.id,
      );
    if (result.finished) this.typeErrors.announceOutcome(edit, result, errors.length);
  }

  private warnConflicts(conflicts: readonly Conflict[], consequence: string, editId: string): void {
    const count = conflicts.length;
    const message = `Scalpel: ${count} change${count === 1 ? '' : 's'} conflict${count === 1 ? 's' : ''} with edits you made meanwhile and ${consequence}: ${this.ctx.engine().describeConflicts(conflicts)}. Your text was kept.`;
    if (this.retrySpecs.has(editId)) this.offerRetry(message, [], editId);
    else void showNotice('warning', message);
  }
}

const RETRY = 'Retry';
/** An instruction as a notification's title: its first line, cut at a word near 60 characters. */
function shortened(instruction: string): string {
  const line = instruction.split('\n')[0]?.trim() ?? '';
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A failed edit in one notification line: what happened, then what to do. */
export function failureMessage(result: Pick<ServiceEditResult, 'failure' | 'advice'>): string {
  const failure = (result.failure ?? 'the edit did not apply').replace(/[.\s]+$/, '');
  // Refusals already speak as Scalpel ("Scalpel does not send ...").
  const said = /^Scalpel\b/.test(failure) ? failure : `Scalpel: ${failure}`;
  return `${said}.${result.advice === undefined ? '' : ` ${result.advice.nextStep}`}`;
}

export function lastUsageOf(model: string, usage: UsageTotals): LastUsage {
  return { model, ...usage };
}

export function conflictReports(ctx: Ctx, conflicts: readonly Conflict[]): ConflictReport[] {
  if (conflicts.length === 0) return [];
  const engine = ctx.engine();
  return conflicts.map((c) => ({
    index: c.index,
    path: c.path,
    operation: `${c.operation.type} ${engine.operationPath(c.operation)}`,
    reason: c.reason,
  }));
}

function answerReport(instruction: string, result: ServiceEditResult): string {
  const { outcome } = result;
  const lines = [
    `# Scalpel: the model's last answer`,
    '',
    `Instruction: ${instruction}`,
    '',
    `Why it did not apply: ${result.failure ?? 'unknown'}`,
    '',
  ];
  for (const r of outcome.apply.results) {
    if (r.status === 'ok') continue;
    lines.push(
      `- ${r.status.toUpperCase()} ${r.operation.type} ${r.operation.path}: ${r.message ?? ''}${r.hint === undefined ? '' : ` (${r.hint})`}`,
    );
  }
  for (const error of outcome.parseErrors) lines.push(`- unreadable line ${error.line}: ${error.message}`);
  lines.push('', '## Answer', '', outcome.lastAnswer, '');
  return lines.join('\n');
}
