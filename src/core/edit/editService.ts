import type { ContextFileRequest, ContextResult } from '../context/buildContext';
import { createTokenCounter, type TokenCounter } from '../context/tokens';
import { isLlmError, type LlmError } from '../llm/errors';
import type { RequestMetrics } from '../llm/metrics';
import {
  buildContextWithReferences,
  contextRequestOf,
  fileViewsOf,
  runEdit,
  type EditFileRequest,
  type EditOutcome,
  type EditProgress,
  type EditRequest,
} from '../llm/pipeline';
import type { ChatProvider } from '../llm/provider';
import { nullLogger, type Logger } from '../logger';
import type { FileChange, SnapshotReader } from '../ops/apply';
import type { Operation, OperationResult } from '../ops/operation';
import { adviceFor, type Advice, type FailureKind } from './advice';
import { contextFailureOf } from './contextFailure';
import type { EditConversation } from './conversation';
import { editTitleOf, undoLabelOf } from './editTitle';
import { DEFAULT_EDIT_SETTINGS, editOptionsOf, editSettingsOf, type EditSettings } from './editSettings';
import { exclusionMessage, type ExclusionCheck } from './exclusion';
import { modelCaller } from './modelCall';
import { askForPlan, type Plan } from './planning';
import { TypeCheckService } from '../check/typeCheck';
import { CodeGraph } from '../graph/codeGraph';
import { contextReferences } from '../graph/contextReferences';
import { ReferenceFinder } from '../graph/references';
import { nodeSourceFileSystem } from '../graph/sourceFiles';
import type { ExcludeGlob } from '../workspace/workspaceFiles';
import { createSymbolFinder, type SymbolFinder } from './findSymbol';
import { seenCodeStep } from './seenCodeStep';
import { referencesStep } from './referencesStep';
import { renameResolver, type RenameResolver } from './renameResolver';
import { listWorkspaceFiles } from '../workspace/workspaceFiles';
import { typeCheckStep } from './typeCheckStep';
import {
  type ConfirmWrite,
  type GateFinding,
  type GatePassage,
  passPreWriteGates,
  runPreWriteGates,
  type PreWriteGate,
  type PreWriteRequest,
} from './preWriteGate';
import { fileOfOperation, operationPath, renamesOf, resolveAgainstCurrent, type Resolution } from './rebase';
import { CHANGES_SECTION_MAX_TOKENS, CHANGES_SECTION_SHARE, changesSection, type ChangesSection } from '../sync/sync';
import { usageTotals, type UsageTotals } from './usage';
import {
  blockingProblems,
  verifyBatch,
  type Allowances,
  type Verification,
  type VerificationStep,
} from './verification';

/**
 * The edit service: one request from start to end for every surface (palette, chat, CLI, and next the agent tools).
 * It checks the exclusions, plans when needed, builds the context under the budget, runs the model with the repair
 * loop, verifies, asks the pre-write gates, resolves the batch again against the current text when the files changed
 * meanwhile, and returns one result: the change set per element, metrics, advice and the undo label. Surfaces gather
 * the input and present the result; none of them re-implements a step.
 */

export interface EditServiceDeps {
  readonly logger?: Logger;
  /** Asked before a verified batch becomes a change set (issue 17: containment, protected paths). */
  readonly preWriteGates?: readonly PreWriteGate[];
  /** Verification after the apply engine's own (issue 18: the type check). */
  readonly verificationSteps?: readonly VerificationStep[];
  /** Where every model request goes for the token statistics. */
  readonly recordMetrics?: (requests: readonly RequestMetrics[]) => void;
  /**
   * The workspace root the surface works in: with it, and the setting `verify: types`, the TypeScript check runs
   * (one checker kept warm across requests). Without it only the parse is checked.
   */
  readonly workspaceRoot?: string;
  /**
   * What the workspace listing of the code graph, FIND and the references leaves out besides the `.gitignore` files
   * (VS Code: `files.exclude`, `search.exclude`, `scalpel.exclude`), read at each listing; default: VS Code's default
   * exclusions (src/core/workspace/workspaceFiles.ts).
   */
  readonly workspaceExclude?: () => readonly ExcludeGlob[];
}

interface RequestBase {
  readonly instruction: string;
  readonly files: readonly EditFileRequest[];
  /** The text the model is shown; read once per path (the baseline of the change set). */
  readonly snapshot: SnapshotReader;
  readonly provider: ChatProvider;
  readonly settings?: Partial<EditSettings>;
  /** Which paths may reach a model; absent, every path may. */
  readonly exclusions?: ExclusionCheck;
  /** Names the surface in the metrics: `cli.edit`, `vscode.editElement`, `chat.edit`, `chat.plan`, ... */
  readonly command: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: EditProgress) => void;
}

export interface ServiceEditRequest extends RequestBase {
  /** Every file goes whole. */
  readonly full?: boolean;
  /** The text as it is now, read at the end; when a file changed meanwhile the batch is resolved again against it. */
  readonly current?: SnapshotReader;
  /** Asks the user about files a pre-write gate wants confirmed; without it those files are refused. */
  readonly confirm?: ConfirmWrite;
  readonly conversation?: EditConversation;
  readonly onText?: (delta: string) => void;
  /** New type errors that remain after the repair rounds do not stop the batch (the CLI's --allow-new-errors). */
  readonly allowNewErrors?: boolean;
  /**
   * Uses left to an element the batch renames or deletes do not stop it once the repair rounds are spent (the CLI's
   * --allow-new-errors too; VS Code does not set it: it has no place to show them beside the preview yet).
   */
  readonly allowBrokenReferences?: boolean;
}

/** `declined`: the model answered `DECLINE: <reason>` instead of operations (issue 24); `declined` holds the reason. */
export type ServiceEditStatus = 'ready' | 'nothing' | 'conflict' | 'failed' | 'cancelled' | 'refused' | 'declined';

/** One operation of the change set, with the element it changes: what the preview accepts or rejects one by one. */
export interface PendingChange {
  /** Position in the batch: the id the preview and the accept commands use. */
  readonly index: number;
  readonly file: string;
  /** The element path (or file path) the operation targets. */
  readonly target: string;
  readonly operation: Operation;
  readonly result: OperationResult;
}

export interface ServiceEditResult {
  readonly status: ServiceEditStatus;
  /** The pending edit's title (the instruction's first line, cut). */
  readonly title: string;
  /** What VS Code's Undo names the edit. */
  readonly undoLabel: string;
  /** The verified batch (`operations`, `apply.changes` against the snapshot), the plan, the context, what was shown. */
  readonly outcome: EditOutcome;
  /** Per operation, when the batch verified. */
  readonly changeSet: readonly PendingChange[];
  /** The batch resolved against the current text, when a file changed while the model worked. */
  readonly resolution?: Resolution;
  /** What the user changed since the model last saw the files (sent to the model as its own section). */
  readonly userChanges?: ChangesSection;
  readonly usage: UsageTotals;
  readonly provider: { readonly id: string; readonly model: string; readonly endpoint: string };
  readonly gateFindings: readonly GateFinding[];
  /** Why there is no change set, in words. */
  readonly failure?: string;
  /** The model's reason, when it declined the task. */
  readonly declined?: string;
  readonly advice?: Advice;
  readonly error?: LlmError;
}

export type ServicePlanRequest = RequestBase;

export interface ServicePlanResult {
  readonly ok: boolean;
  readonly plan?: Plan;
  readonly requests: readonly RequestMetrics[];
  readonly usage: UsageTotals;
  /** The model that answered. */
  readonly model: string;
  /** Tokens of the request's files sent whole, to set against the outline the model saw. */
  readonly wholeFileTokens: number;
  readonly cancelled: boolean;
  readonly failure?: string;
  readonly advice?: Advice;
  readonly error?: LlmError;
}

export type ServiceContextRequest = (
  | {
      /** Outlines the caller has already (the palette's open document). */
      readonly requests: readonly ContextFileRequest[];
    }
  | {
      /** Files as an edit names them: the context is then exactly what `edit` would send for them. */
      readonly files: readonly EditFileRequest[];
      readonly snapshot: SnapshotReader;
    }
) & {
  readonly settings?: Partial<EditSettings>;
  readonly full?: boolean;
};

export type ServiceContextResult =
  | { readonly ok: true; readonly context: ContextResult; readonly counter: TokenCounter }
  | { readonly ok: false; readonly failure: string; readonly advice: Advice };

export interface EditService {
  edit(request: ServiceEditRequest): Promise<ServiceEditResult>;
  /** The planning phase alone: which elements the model would work on. Nothing is edited. */
  plan(request: ServicePlanRequest): Promise<ServicePlanResult>;
  /** The focused context under the budget, with the one wording of a budget or focus failure. */
  context(request: ServiceContextRequest): ServiceContextResult;
  /** Operations from elsewhere (pasted from another chat): the same verification steps as a model's answer. */
  verify(request: ServiceVerifyRequest): Promise<Verification>;
  /**
   * A batch from elsewhere (pasted, an agent tool, `scalpel apply`) through the same pre-write gates as the service's
   * own edits, with the same wording when they stop it.
   */
  checkWrite(request: ServiceWriteCheck): Promise<GatePassage>;
}

export interface ServiceWriteCheck extends PreWriteRequest {
  /** Asks the user about files a gate wants confirmed; without it those files stop the batch. */
  readonly confirm?: ConfirmWrite;
}

export interface ServiceVerifyRequest {
  readonly snapshot: SnapshotReader;
  readonly operations: readonly Operation[];
  readonly settings?: Partial<EditSettings>;
  /** New type errors are reported in the verification but do not fail it (the VS Code preview shows them). */
  readonly allowNewErrors?: boolean;
  /** Uses left to a renamed or deleted element are reported but do not fail it (`scalpel apply --allow-new-errors`). */
  readonly allowBrokenReferences?: boolean;
  /** What verified is kept even when other operations failed; `ok` then says whether any of it may be written. */
  readonly partial?: boolean;
}

export { blockingProblems } from './verification';

export function createEditService(deps: EditServiceDeps = {}): EditService {
  const log = deps.logger ?? nullLogger;
  const record = (requests: readonly RequestMetrics[]): void => {
    if (requests.length > 0) deps.recordMetrics?.(requests);
  };
  // One code graph per workspace: the type check, the references in the context and the model's FIND share it. A
  // change of the TypeScript to check with (the setting) starts a new one.
  let graph:
    | {
        readonly graph: CodeGraph;
        readonly key: string;
        readonly settings: Pick<EditSettings, 'typescript' | 'checkers' | 'checkTimeLimitSeconds'>;
      }
    | undefined;
  const graphOf = (settings?: EditSettings): CodeGraph | undefined => {
    if (deps.workspaceRoot === undefined) return undefined;
    // Without settings (FIND, planning) the graph there is serves; settings that name other checkers start a new one.
    const { typescript, checkers, checkTimeLimitSeconds } =
      settings ?? (graph === undefined ? DEFAULT_EDIT_SETTINGS : graph.settings);
    const toolchains = { ...checkers, ...(typescript === '' ? {} : { typescript }) };
    const checkTimeLimitMs = checkTimeLimitSeconds * 1000;
    const key = JSON.stringify([toolchains, checkTimeLimitMs]);
    if (graph === undefined || graph.key !== key) {
      graph?.graph.dispose();
      typeChecker = undefined;
      referenceFinder = undefined;
      const fileSystem = nodeSourceFileSystem(
        deps.workspaceRoot,
        deps.workspaceExclude === undefined ? {} : { exclude: deps.workspaceExclude },
      );
      graph = {
        graph: new CodeGraph(fileSystem, { toolchains, checkTimeLimitMs }),
        key,
        settings: { typescript, checkers, checkTimeLimitSeconds },
      };
    }
    return graph.graph;
  };
  let typeChecker: TypeCheckService | undefined;
  let referenceFinder: ReferenceFinder | undefined;
  /**
   * The verification of every way in (issue 24): the seen-code rule, the deps' steps, and with `verify: types` the
   * references left to a renamed or deleted element and the type check.
   */
  const steps = (settings: EditSettings, allowed: Allowances, mayBringIn?: BringInCheck): VerificationStep[] => {
    const all = stepsOf(deps);
    const workspace = settings.verify === 'types' ? graphOf(settings) : undefined;
    if (workspace === undefined) return all;
    typeChecker ??= new TypeCheckService(workspace);
    referenceFinder ??= new ReferenceFinder(workspace);
    return [
      ...all,
      referencesStep(workspace, referenceFinder, { mayRemain: allowed.allowBrokenReferences === true }),
      typeCheckStep(typeChecker, {
        mayRemain: allowed.allowNewErrors === true,
        ...(mayBringIn === undefined ? {} : { mayBringIn }),
      }),
    ];
  };
  /**
   * RENAME_ELEMENT's places: the language's rename over the workspace's code graph, whatever `verify` says (it is how
   * the operation is done, not a check). Without a workspace root there is no graph, and a rename fails saying so.
   */
  const renames = (
    settings: EditSettings,
    mayWrite?: (file: string) => Promise<string | undefined>,
  ): RenameResolver | undefined => {
    const workspace = graphOf(settings);
    const root = deps.workspaceRoot;
    if (workspace === undefined || root === undefined) return undefined;
    const exclude = deps.workspaceExclude;
    return renameResolver({
      graph: workspace,
      listFiles: () => listWorkspaceFiles(root, '', exclude === undefined ? {} : { exclude: exclude() }).files,
      ...(mayWrite === undefined ? {} : { mayWrite }),
    });
  };
  /** The references appendices, with the checker the type check uses: `verify: syntax` turns both off. */
  const references = (settings: EditSettings): ReferencesOfContext | undefined => {
    const workspace = settings.verify === 'types' ? graphOf(settings) : undefined;
    if (workspace === undefined) return undefined;
    const counter = createTokenCounter(settings.tokenEncoding);
    return (requests, budget) => {
      referenceFinder ??= new ReferenceFinder(workspace);
      return contextReferences(referenceFinder, requests, counter, {
        ...(budget === undefined ? {} : { contextBudget: budget }),
        logger: log,
      }).appendices;
    };
  };
  const finderFor = (request: RequestBase): SymbolFinder => {
    const workspace = graphOf();
    return createSymbolFinder({
      counter: createTokenCounter(editSettingsOf(request.settings).tokenEncoding),
      requestFiles: request.files.map((f) => f.path),
      snapshot: request.snapshot,
      ...(request.exclusions === undefined ? {} : { exclusions: request.exclusions }),
      ...(workspace === undefined ? {} : { graph: workspace }),
    });
  };
  return {
    edit: (request) => edit(request, deps, log, record, steps, references, finderFor(request), renames),
    plan: (request) => plan(request, log, record, finderFor(request)),
    context: (request) => contextOf(request, references, log),
    checkWrite: ({ confirm, ...request }) => passPreWriteGates(deps.preWriteGates ?? [], request, confirm),
    verify: async ({ snapshot, operations, settings, partial, ...allowed }) => {
      const resolver = renames(editSettingsOf(settings), writableCheck(deps.preWriteGates ?? [], snapshot));
      const verified = await verifyBatch(
        snapshot,
        operations,
        { strategy: editSettingsOf(settings).strategy, ...(partial === true ? { partial: true } : {}) },
        steps(editSettingsOf(settings), allowed),
        undefined,
        resolver === undefined ? {} : { renames: resolver },
      );
      return acceptRemaining(verified, allowed, partial === true);
    },
  };
}

/**
 * A verification whose only problems are ones the caller lets through counts as passed; with `partial`, what applied
 * passes when nothing blocks it.
 */
function acceptRemaining(verification: Verification, allowed: Allowances, partial: boolean): Verification {
  const blocking = blockingProblems(verification, allowed);
  const applied = verification.apply.ok || (partial && verification.apply.changes.length > 0);
  return { ...verification, ok: applied && blocking.length === 0 };
}

/** The seen-code rule runs first on every surface; the deps' steps (the type check) after it. */
function stepsOf(deps: EditServiceDeps): VerificationStep[] {
  return [seenCodeStep(), ...(deps.verificationSteps ?? [])];
}

function providerOf(provider: ChatProvider): ServiceEditResult['provider'] {
  return { id: provider.id, model: provider.model, endpoint: provider.endpoint };
}

/** The first excluded file of the request, as a failure, or undefined when every file may be sent. */
async function excludedFailure(
  exclusions: ExclusionCheck | undefined,
  paths: readonly string[],
  action: 'send' | 'edit',
): Promise<string | undefined> {
  const exclusion = await exclusions?.firstExclusion(paths);
  return exclusion === undefined ? undefined : exclusionMessage(exclusion, action);
}

const NO_OUTCOME: EditOutcome = {
  ok: false,
  apply: { ok: false, results: [], changes: [] },
  operations: [],
  parseErrors: [],
  requests: [],
  shown: [],
  rounds: [],
  verification: [],
  lastAnswer: '',
  notes: [],
  history: [],
};

async function edit(
  request: ServiceEditRequest,
  deps: EditServiceDeps,
  log: Logger,
  record: (requests: readonly RequestMetrics[]) => void,
  stepsFor: (settings: EditSettings, allowed: Allowances, mayBringIn?: BringInCheck) => VerificationStep[],
  referencesFor: (settings: EditSettings) => ReferencesOfContext | undefined,
  finder: SymbolFinder,
  renamesFor: (settings: EditSettings, mayWrite?: BringInCheck) => RenameResolver | undefined,
): Promise<ServiceEditResult> {
  const title = editTitleOf(request.instruction);
  const settings = editSettingsOf(request.settings);
  const base: Pick<ServiceEditResult, 'title' | 'undoLabel' | 'provider'> & { userChanges?: ChangesSection } = {
    title,
    undoLabel: undoLabelOf(title),
    provider: providerOf(request.provider),
  };
  const stop = (
    status: ServiceEditStatus,
    outcome: EditOutcome,
    failure: string,
    kind: FailureKind,
    extra: Partial<ServiceEditResult> = {},
  ): ServiceEditResult => ({
    ...base,
    status,
    outcome,
    changeSet: [],
    usage: usageTotals(outcome.requests),
    gateFindings: [],
    failure,
    advice: adviceFor(kind, request.provider),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...extra,
  });

  const unsendable = await excludedFailure(
    request.exclusions,
    request.files.map((f) => f.path),
    'send',
  );
  if (unsendable !== undefined) return stop('refused', NO_OUTCOME, unsendable, { kind: 'excluded' });

  const counter = createTokenCounter(settings.tokenEncoding);
  const userChanges = changesSection(
    request.conversation,
    request.files.map((f) => f.path),
    (path) => request.snapshot.read(path),
    counter,
    Math.min(CHANGES_SECTION_MAX_TOKENS, Math.floor(settings.tokenBudget * CHANGES_SECTION_SHARE)),
  );
  if (userChanges !== undefined) base.userChanges = userChanges;
  const outcome = await runEdit({
    instruction: request.instruction,
    ...(userChanges === undefined ? {} : { userChanges: userChanges.text }),
    files: request.files,
    snapshot: request.snapshot,
    provider: request.provider,
    counter,
    options: editOptionsOf(settings, request.full === true ? { full: true } : {}),
    verificationSteps: stepsFor(settings, request, bringInCheck(request, deps)),
    ...withRenames(renamesFor(settings, bringInCheck(request, deps))),
    ...withReferences(referencesFor(settings)),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.onProgress === undefined ? {} : { onProgress: request.onProgress }),
    ...(request.onText === undefined ? {} : { onText: request.onText }),
    logger: log,
    command: request.command,
    finder,
  });
  record(outcome.requests);
  remember(request, outcome);

  if (!outcome.ok) {
    if (outcome.error?.code === 'cancelled' || request.signal?.aborted === true)
      return stop('cancelled', outcome, 'cancelled; nothing was applied', { kind: 'model', code: 'cancelled' });
    if (outcome.declined !== undefined)
      return stop(
        'declined',
        outcome,
        outcome.failure ?? `the model declined the task: ${outcome.declined}`,
        {
          kind: 'declined',
        },
        { declined: outcome.declined },
      );
    return stop(
      'failed',
      outcome,
      outcome.failure ?? 'the edit did not apply',
      outcome.failureKind ?? {
        kind: 'unverified',
        hasAnswer: outcome.lastAnswer !== '',
      },
    );
  }
  const changes = outcome.apply.changes;
  if (changes.length === 0)
    return stop('nothing', outcome, 'the model answered with operations that change nothing', { kind: 'nothing' });

  const unwritable = await excludedFailure(
    request.exclusions,
    changes.map((c) => c.path),
    'edit',
  );
  if (unwritable !== undefined) return stop('refused', outcome, unwritable, { kind: 'excluded' });

  const passage = await passPreWriteGates(
    deps.preWriteGates ?? [],
    { changes, namedFiles: request.files.map((f) => f.path) },
    request.confirm,
  );
  const gateFindings = passage.findings;
  if (!passage.ok) return stop('refused', outcome, passage.failure, { kind: 'refused' }, { gateFindings });

  const changeSet = changeSetOf(outcome, changes);
  for (const change of changes) request.conversation?.recordProposed(change.path, change.after);
  const resolution = request.current === undefined ? undefined : rebase(outcome, changes, request.current, settings);
  const ready: ServiceEditResult = {
    ...base,
    status: 'ready',
    outcome,
    changeSet,
    usage: usageTotals(outcome.requests),
    gateFindings,
    ...(resolution === undefined ? {} : { resolution }),
  };
  // Under `ask` a conflict waits for the user's pick: the batch stays ready so the surface can show both versions.
  const pending = resolution?.conflicts.some((c) => c.decision === 'pending') === true;
  if (resolution !== undefined && resolution.applied.length === 0 && resolution.conflicts.length > 0 && !pending) {
    return {
      ...ready,
      status: 'conflict',
      failure: 'every change conflicts with edits made while the model worked',
      advice: adviceFor({ kind: 'conflict' }),
    };
  }
  return ready;
}

function changeSetOf(outcome: EditOutcome, changes: readonly FileChange[]): PendingChange[] {
  const files = changes.map((c) => c.path);
  return outcome.apply.results.flatMap((result) => {
    const operation = outcome.operations[result.index];
    if (operation === undefined) return [];
    const file = fileOfOperation(operation, files) ?? operationPath(operation);
    return [{ index: result.index, file, target: operationPath(operation), operation, result }];
  });
}

/** Resolves the batch against the current text, only when a file it changes is not what the model saw. */
function rebase(
  outcome: EditOutcome,
  changes: readonly FileChange[],
  current: SnapshotReader,
  settings: EditSettings,
): Resolution | undefined {
  const baseline = new Map(changes.map((c) => [c.path, c.before] as const));
  const moved = [...baseline].some(([path, before]) => current.read(path) !== before);
  if (!moved) return undefined;
  const proposed = new Map(changes.map((c) => [c.path, c.after] as const));
  return resolveAgainstCurrent(
    outcome.operations.map((operation, index) => ({ index, operation })),
    baseline,
    current,
    settings.strategy,
    {
      policy: settings.conflictPolicy,
      proposed: { read: (path) => proposed.get(path) },
      renames: renamesOf(outcome.operations, outcome.apply.results),
    },
  );
}

/** The conversation keeps what the model saw of each file (issue 11's baselines) and the turn. */
function remember(request: ServiceEditRequest, outcome: EditOutcome): void {
  const conversation = request.conversation;
  if (conversation === undefined) return;
  const seen = new Set(outcome.shown.filter((s) => s.phase !== 'plan').flatMap((s) => s.files.map((f) => f.path)));
  for (const path of seen) {
    const text = request.snapshot.read(path);
    if (text !== undefined) conversation.recordShown(path, text);
  }
  conversation.recordTurn({
    instruction: request.instruction,
    status: outcome.ok ? 'verified' : 'failed',
    shownInFull: outcome.shown
      .filter((s) => s.phase !== 'plan')
      .flatMap((s) => s.files.flatMap((f) => (f.whole ? [f.path] : f.full))),
  });
}

async function plan(
  request: ServicePlanRequest,
  log: Logger,
  record: (requests: readonly RequestMetrics[]) => void,
  finder: SymbolFinder,
): Promise<ServicePlanResult> {
  const settings = editSettingsOf(request.settings);
  const requests: RequestMetrics[] = [];
  const files = fileViewsOf(request);
  const counter = createTokenCounter(settings.tokenEncoding);
  const wholeFileTokens = files.reduce((sum, f) => sum + counter.count(f.outline.text), 0);
  const failed = (failure: string, kind: FailureKind, error?: LlmError): ServicePlanResult => ({
    ok: false,
    requests,
    usage: usageTotals(requests),
    model: request.provider.model,
    wholeFileTokens,
    cancelled: error?.code === 'cancelled' || request.signal?.aborted === true,
    failure,
    advice: adviceFor(kind, request.provider),
    ...(error === undefined ? {} : { error }),
  });
  const unsendable = await excludedFailure(
    request.exclusions,
    request.files.map((f) => f.path),
    'send',
  );
  if (unsendable !== undefined) return failed(unsendable, { kind: 'excluded' });
  request.onProgress?.({ phase: 'plan', message: 'asking the model which elements it needs' });
  const call = modelCaller(
    {
      provider: request.provider,
      command: request.command,
      logger: log,
      counter,
      ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
    requests,
  );
  try {
    const budget = { tokens: settings.tokenBudget, smallFileLines: settings.smallFileLines };
    const planned = await askForPlan(call, files, request.instruction, { counter, finder, budget });
    const last = requests[requests.length - 1];
    if (last !== undefined) requests[requests.length - 1] = { ...last, ok: true };
    record(requests);
    return {
      ok: true,
      plan: planned,
      requests,
      usage: usageTotals(requests),
      model: last?.model ?? request.provider.model,
      wholeFileTokens,
      cancelled: false,
    };
  } catch (error) {
    if (!isLlmError(error)) throw error;
    record(requests);
    return failed(error.message, { kind: 'model', code: error.code }, error);
  }
}

type ReferencesOfContext = NonNullable<EditRequest['references']>;

/** Whether the model may bring a workspace file outside the request in: undefined when it may, else why not. */
type BringInCheck = (file: string) => Promise<string | undefined>;

/**
 * A file outside the request may be brought in (issue 24: a caller the batch breaks) when it may be sent to a model
 * (no exclusion) and written without asking (no pre-write gate objects to it: not protected, inside the workspace).
 */
function bringInCheck(request: ServiceEditRequest, deps: EditServiceDeps): BringInCheck {
  const gates = writableCheck(deps.preWriteGates ?? [], request.snapshot);
  return async (file) => {
    const exclusion = await request.exclusions?.firstExclusion([file]);
    if (exclusion !== undefined) return `it is excluded by ${exclusion.rule}`;
    return gates(file);
  };
}

/** Whether the pre-write gates let a file be written without asking: undefined when they do, else why not. */
function writableCheck(gates: readonly PreWriteGate[], snapshot: SnapshotReader): BringInCheck {
  return async (file) => {
    const text = snapshot.read(file);
    if (text === undefined) return 'it cannot be read';
    const findings = await runPreWriteGates(gates, {
      changes: [{ path: file, before: text, after: text, edits: [], created: false }],
      namedFiles: [],
    });
    const [finding] = findings;
    return finding === undefined
      ? undefined
      : `${finding.decision === 'ask' ? 'it is protected: ' : ''}${finding.reason}`;
  };
}

function withRenames(renames: RenameResolver | undefined): Pick<EditRequest, 'renames'> {
  return renames === undefined ? {} : { renames };
}

function withReferences(references: ReferencesOfContext | undefined): Pick<EditRequest, 'references'> {
  return references === undefined ? {} : { references };
}

function contextOf(
  request: ServiceContextRequest,
  referencesFor: (settings: EditSettings) => ReferencesOfContext | undefined,
  log: Logger,
): ServiceContextResult {
  const settings = editSettingsOf(request.settings);
  const counter = createTokenCounter(settings.tokenEncoding);
  const requests =
    'requests' in request
      ? request.requests
      : fileViewsOf({ ...request, options: { strategy: settings.strategy } }).map(contextRequestOf);
  try {
    const context = buildContextWithReferences(
      { counter, logger: log, ...withReferences(referencesFor(settings)) },
      requests,
      {
        budget: settings.tokenBudget,
        smallFileLines: settings.smallFileLines,
        ...(request.full === true ? { full: true } : {}),
      },
    );
    return { ok: true, context, counter };
  } catch (error) {
    const failure = contextFailureOf(error);
    if (failure === undefined) throw error;
    return { ok: false, ...failure };
  }
}
