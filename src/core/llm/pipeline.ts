import {
  buildContext,
  ContextBudgetError,
  type ContainerFocus,
  type ContextFileRequest,
  type ContextOptions,
  type ContextResult,
} from '../context/buildContext';
import type { TokenCounter } from '../context/tokens';
import type { FailureKind } from '../edit/advice';
import { answerDecline, answerNotes, mergeNotes } from '../edit/answerNotes';
import { identityReader } from '../edit/operationIdentity';
import { RepairBatch, type OperationRecord } from '../edit/repairMerge';
import { contextFailureOf } from '../edit/contextFailure';
import { answerFinds, createSymbolFinder, type SymbolFinder } from '../edit/findSymbol';
import { answerNeeds } from '../edit/needAnswer';
import { modelCaller } from '../edit/modelCall';
import { wholeOrPlanned } from '../edit/costRule';
import { askForPlan, type Plan, type PlanFile } from '../edit/planning';
import { referencesPay } from '../graph/contextReferences';
import { nearMembers } from '../context/operationFocus';
import { linesShownIn } from '../edit/shownLines';
import {
  shownByContext,
  shownByOutline,
  withShownByNeeds,
  withShownInRepair,
  withShownLines,
  type ShownFile,
  type ShownRequest,
} from '../edit/shownRecord';
import { typeCheckSummary } from '../edit/typeCheckStep';
import type { EditOptions } from '../edit/editSettings';
import type { RenameResolver } from '../edit/renameResolver';
import { verifyBatch, type StepReport, type VerificationProblem, type VerificationStep } from '../edit/verification';
import type { FileOutline } from '../elements/element';
import { countLines, isOutlinable, outlineSource } from '../elements/outline';
import { nullLogger } from '../logger';
import type { Logger } from '../logger';
import type { ApplyResult, SnapshotReader } from '../ops/apply';
import { parseOperations } from '../ops/format';
import type { Operation, ParseError } from '../ops/operation';
import { cancelledError, isLlmError, type LlmError } from './errors';
import type { RequestMetrics } from './metrics';
import { focusNote } from './focusNote';
import { CODING_SYSTEM_PROMPT, codingUserMessage, parseFinds, parsePlan } from './prompts';
import type { ChatMessage, ChatProvider } from './provider';
import {
  askedAgainMessage,
  failureProgressLine,
  failuresOf,
  noOperationsMessage,
  onlyMayRemain,
  repairMessageOf,
  unverifiedFailure,
  type RepairMessage,
} from './repairRound';

export type { EditOptions, PlanningMode } from '../edit/editSettings';

/**
 * The model conversation of an edit: plan (when the focus is not known), build the focused context, ask the model,
 * parse, verify by applying to the snapshot in memory (then any further verification steps), and send failures back
 * for repair. Nothing here writes a file; the edit service (src/core/edit/editService.ts) wraps it with exclusions,
 * the pre-write gates, the rebase onto the current text and the advice, and is what surfaces call. This file holds
 * the request's file views and the plan applied to them, the focused context with its references, and the rounds'
 * loop (runEdit); what a round's verification means and the follow-up messages it sends are in ./repairRound.ts.
 */

export interface EditFileRequest {
  /** Workspace-relative path. */
  readonly path: string;
  /** Element paths known to matter (the element at the cursor); empty when unknown. */
  readonly focus: readonly string[];
  /** Send this file whole (a file the user attached as a whole). */
  readonly whole?: boolean;
  /** 1-based lines the user points at (cursor, selection): a very large element is shown as windows around them. */
  readonly lines?: readonly number[];
}

export type EditPhase = 'plan' | 'context' | 'code' | 'repair' | 'verify';

export interface EditProgress {
  readonly phase: EditPhase;
  readonly message: string;
}

export interface EditRequest {
  readonly instruction: string;
  readonly files: readonly EditFileRequest[];
  readonly snapshot: SnapshotReader;
  readonly provider: ChatProvider;
  readonly counter: TokenCounter;
  readonly options?: EditOptions;
  /**
   * Where the focused elements are used across the workspace, as an appendix per file of the context (issue 18), so
   * a signature change comes with its callers. Budgeted by the caller; dropped when the context would not fit.
   */
  readonly references?: (
    requests: readonly ContextFileRequest[],
    budget: number | undefined,
  ) => ReadonlyMap<string, string>;
  /** Checks after the apply engine's own (issue 18's type check); their problems go back for repair. */
  readonly verificationSteps?: readonly VerificationStep[];
  /** Finds the places of the answer's RENAME_ELEMENTs (the language's rename); without it they fail, saying why. */
  readonly renames?: RenameResolver;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: EditProgress) => void;
  /** Streams the model's answers as they arrive. */
  readonly onText?: (delta: string) => void;
  readonly logger?: Logger;
  /** Names the surface in the metrics (`cli.edit`, `vscode.editElement`, ...). */
  readonly command?: string;
  /** The section "changed by the user since you last saw it" (src/core/sync), sent after the context. */
  readonly userChanges?: string;
  /** Answers the model's `FIND` lines; default: a plain text search of the request's files. */
  readonly finder?: SymbolFinder;
}

/** One coding answer (the first or a repair): what it asked for beyond operations. */
export interface EditRound {
  readonly phase: 'code' | 'repair';
  /** `NEED <path>` lines of the answer. */
  readonly needs: readonly string[];
  /** `FIND <symbol>` lines of the answer. */
  readonly finds: readonly string[];
  /**
   * The NEED/FIND lines were answered and the model asked again; the answer's own operations (counted here) were set
   * aside unverified, for the next answer to write again from what it was shown.
   */
  readonly answered?: { readonly setAside: number; readonly sent: readonly string[] };
  /** The answer declined the task (`DECLINE: <reason>`), with this reason; the request ended there. */
  readonly declined?: string;
}

export interface EditOutcome {
  readonly ok: boolean;
  /** The last verification; its `changes` are what to write when `ok`. */
  readonly apply: ApplyResult;
  /** The batch that was verified last. */
  readonly operations: readonly Operation[];
  readonly parseErrors: readonly ParseError[];
  /** One record per model request, for the metrics log. */
  readonly requests: readonly RequestMetrics[];
  /** What the model was shown, one entry per request in `requests`. */
  readonly shown: readonly ShownRequest[];
  readonly rounds: readonly EditRound[];
  /** The last verification, step by step (the apply step first). */
  readonly verification: readonly StepReport[];
  /** The focus chosen by the planning phase, when there was one. */
  readonly plan?: readonly string[];
  readonly lastAnswer: string;
  /** What the model wrote beside its operations, every round's once, in order: shown to the user. */
  readonly notes: readonly string[];
  /**
   * Every operation the model sent, in every round, with what became of it: in the last verified batch, replaced by a
   * later one with the same identity, failed (and sent back), or set aside beside NEED/FIND lines.
   */
  readonly history: readonly OperationRecord[];
  readonly context?: Pick<ContextResult, 'tokens' | 'wholeFileTokens' | 'files' | 'dropped' | 'elements'>;
  /** The model declined the task (`DECLINE: <reason>`): its reason. Nothing was applied. */
  readonly declined?: string;
  /** Why it did not apply, in words for the user. */
  readonly failure?: string;
  /** Why it did not apply, sorted, for the advice. */
  readonly failureKind?: FailureKind;
  /** The model call that failed (network, auth, cancelled, ...), when that is why. */
  readonly error?: LlmError;
}

const EMPTY_APPLY: ApplyResult = { ok: false, results: [], changes: [] };

export const DEFAULT_REPAIR_ROUNDS = 2;

export interface FileView extends PlanFile {
  focus: string[];
  whole: boolean;
  /** Containers the plan asked for at the cost of a change (a member to add at a position, a large container). */
  containers: ContainerFocus[];
  /** Lines pointed at: the user's cursor or selection, lines the plan asked for. */
  lines: number[];
  /** Focused elements whose uses the plan asked for (`NEED <path> USES`). */
  uses: string[];
}

/** The view's request for the context builder. */
export function contextRequestOf(view: FileView): ContextFileRequest {
  return {
    outline: view.outline,
    focus: view.focus,
    whole: view.whole,
    ...(view.containers.length === 0 ? {} : { containers: view.containers }),
    ...(view.lines.length === 0 ? {} : { lines: view.lines }),
  };
}

function plainOutline(path: string, text: string): FileOutline {
  return { file: path, text, language: 'ts', elements: [], syntaxErrors: [], lineCount: countLines(text) };
}

/**
 * The request's files as the model will see them: outlined when the element model reads them, else whole. Files the
 * model is to create have nothing to show. Planning alone (the edit service's `plan`) starts from the same views.
 */
export function fileViewsOf(
  request: Pick<EditRequest, 'files' | 'snapshot'> & { readonly options?: Pick<EditOptions, 'strategy'> },
): FileView[] {
  const views: FileView[] = [];
  for (const file of request.files) {
    const text = request.snapshot.read(file.path);
    if (text === undefined) continue;
    const outlinable = isOutlinable(file.path);
    const outline = outlinable ? outlineSource(file.path, text) : plainOutline(file.path, text);
    const unreadable = !outlinable || outline.syntaxErrors.length > 0;
    views.push({
      path: file.path,
      outline,
      outlinable: !unreadable,
      focus: [...file.focus],
      whole: unreadable || request.options?.strategy === 'file' || file.whole === true,
      containers: [],
      lines: [...(file.lines ?? [])],
      uses: [],
    });
  }
  return views;
}

/** The default token budget of a NEED answer when the request sets none (the edit settings' default). */
const DEFAULT_NEED_BUDGET = 12_000;
/** A NEED answer may always use this much, even when the context took most of the budget. */
const MIN_NEED_BUDGET = 4_000;

/** A container the plan names without a position is shown in full up to this many lines, at the cost of a change above. */
export const PLANNED_CONTAINER_FULL_LINES = 60;
/** Lines a NEED ... LINES may point at in one element. */
const MAX_NEED_LINES = 400;

/**
 * The plan's elements become the focus of their files, the files it names become whole. A container named with a
 * position (`NEED <container> LAST_CHILD`), or a large one, is shown at the cost of a change to it (issue 28): its
 * header and own text, the members at the position in full, the others by signature or name.
 */
export function applyPlan(views: readonly FileView[], plan: Plan): void {
  for (const view of views) {
    if (plan.wholeFiles.includes(view.path)) view.whole = true;
    for (const { file, element, need } of plan.elements) {
      if (file !== view.path) continue;
      if (need?.uses === true && !view.uses.includes(element.path)) view.uses.push(element.path);
      const lines = need?.lines;
      if (lines !== undefined) {
        for (let line = lines[0]; line <= Math.min(lines[1], lines[0] + MAX_NEED_LINES); line++) view.lines.push(line);
      }
      const size = element.endLine - element.startLine + 1;
      const atCost =
        element.children.length > 0 &&
        need?.uses !== true &&
        (need?.position !== undefined || size > PLANNED_CONTAINER_FULL_LINES);
      if (atCost) {
        const near = nearMembers(element.children, need?.position).map((m) => m.path);
        const known = view.containers.find((c) => c.path === element.path);
        if (known === undefined) view.containers.push({ path: element.path, near });
        else
          view.containers[view.containers.indexOf(known)] = {
            path: known.path,
            near: [...(known.near ?? []), ...near],
          };
      } else if (!view.focus.includes(element.path)) view.focus.push(element.path);
    }
  }
}

export async function runEdit(request: EditRequest): Promise<EditOutcome> {
  const log = request.logger ?? nullLogger;
  const options = request.options ?? {};
  const progress = (phase: EditPhase, message: string): void => request.onProgress?.({ phase, message });
  const requests: RequestMetrics[] = [];
  const shown: ShownRequest[] = [];
  const rounds: EditRound[] = [];
  const { provider, counter } = request;
  const call = modelCaller(
    {
      provider,
      command: request.command ?? 'edit',
      logger: log,
      counter,
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onText === undefined ? {} : { onText: request.onText }),
    },
    requests,
  );
  /** The last model request's metrics say whether the edit ended well on its answer. */
  const settleLastRequest = (ok: boolean): void => {
    const last = requests.at(-1);
    if (last !== undefined) requests[requests.length - 1] = { ...last, ok };
  };
  const views = fileViewsOf(request);
  const batch = new RepairBatch(identityReader(request.snapshot));
  const finder =
    request.finder ??
    createSymbolFinder({ counter, requestFiles: views.map((v) => v.path), snapshot: request.snapshot });
  // Taken before planning: the elements the plan adds are the model's choice, not where the user pointed.
  const focusLine = focusNote(views.map((v) => ({ outline: v.outline, focus: [...v.focus] })));

  let plan: string[] | undefined;
  let plannedFinds: readonly string[] = [];
  let lastAnswer = '';
  let notes: string[] = [];
  let operations: Operation[] = [];
  let parseErrors: ParseError[] = [];
  let apply: ApplyResult = EMPTY_APPLY;
  let problems: readonly VerificationProblem[] = [];
  let verification: readonly StepReport[] = [];
  let context: ContextResult | undefined;
  const outcome = (ok: boolean, failure?: string, failureKind?: FailureKind, error?: LlmError): EditOutcome => ({
    ...declinedOf(rounds),
    ok,
    apply,
    operations,
    parseErrors,
    requests,
    shown,
    rounds,
    verification,
    lastAnswer,
    notes,
    history: batch.records(),
    ...(plan === undefined ? {} : { plan }),
    ...(context === undefined
      ? {}
      : {
          context: {
            tokens: context.tokens,
            wholeFileTokens: context.wholeFileTokens,
            files: context.files,
            dropped: context.dropped,
            elements: context.elements,
          },
        }),
    ...(failure === undefined ? {} : { failure }),
    ...(failureKind === undefined ? {} : { failureKind }),
    ...(error === undefined ? {} : { error }),
  });

  try {
    // 1. Planning, when some file has no known focus and would not be sent whole.
    const smallFileLines = options.smallFileLines ?? 50;
    const planning = options.planning ?? 'auto';
    if (planning === 'auto' && options.full !== true) {
      for (const view of views) {
        if (view.whole || view.focus.length > 0 || view.outline.lineCount <= smallFileLines) continue;
        const cost = wholeOrPlanned(view, request.instruction, counter, options.budget);
        if (!cost.whole) continue;
        // Cheaper whole than planned: no planning round for this file (issue 18's cost rule).
        view.whole = true;
        log.debug(
          `${view.path}: sent whole (${cost.wholeTokens} tokens) instead of planned (at least ${cost.plannedTokens})`,
        );
      }
    }
    const needsPlan = views.some(
      (v) => !v.whole && v.focus.length === 0 && v.outline.lineCount > smallFileLines && options.full !== true,
    );
    if (views.length > 0 && (planning === 'always' || (planning === 'auto' && needsPlan))) {
      progress('plan', 'asking the model which elements it needs');
      // The plan must fit the context built from it: one over the budget gets member lists back, not a failure.
      const budget =
        options.budget === undefined
          ? undefined
          : { tokens: options.budget, smallFileLines, ...(options.full === true ? { full: true } : {}) };
      const planned = await askForPlan(call, views, request.instruction, {
        counter,
        finder,
        ...(budget === undefined ? {} : { budget }),
      });
      shown.push({ phase: 'plan', files: shownByOutline(views) });
      for (const { path, reason } of planned.unresolved) log.warn(`plan: ignoring "${path}": ${reason}`);
      applyPlan(views, planned);
      plan = [...planned.accepted];
      plannedFinds = planned.finds ?? [];
      progress(
        'plan',
        plan.length === 0
          ? 'the model named no elements'
          : `the model needs ${plan.length} element${plan.length === 1 ? '' : 's'}`,
      );
    }

    // 2. The focused context.
    progress('context', 'building the focused context');
    const contextRequests: ContextFileRequest[] = views.map(contextRequestOf);
    context = buildContextWithReferences(
      request,
      contextRequests,
      {
        ...(options.budget === undefined ? {} : { budget: options.budget }),
        ...(options.smallFileLines === undefined ? {} : { smallFileLines: options.smallFileLines }),
        ...(options.full === true ? { full: true } : {}),
        instruction: request.instruction,
        ...(plannedFinds.length === 0 ? {} : { symbols: plannedFinds }),
      },
      referencesWanted(request.instruction, views),
    );
    // Lines the references listed count as seen for the PATCH of them (issue 24).
    const shownContext = withShownLines(shownByContext(context), linesShownIn(context.text));
    const fixedTokens =
      counter.count(CODING_SYSTEM_PROMPT) +
      counter.count(request.instruction) +
      counter.count(request.userChanges ?? '');
    const wholeFileRequestTokens = fixedTokens + context.wholeFileTokens;

    // 3. Code, verify, repair.
    const messages: ChatMessage[] = [
      { role: 'system', content: CODING_SYSTEM_PROMPT },
      {
        role: 'user',
        content: codingUserMessage(`${context.text}${focusLine}`, request.instruction, request.userChanges),
      },
    ];
    progress('code', `asking ${provider.model} (${contextTokensText(context.tokens, context.wholeFileTokens)})`);
    let answer = await call('code', messages, wholeFileRequestTokens);
    /** The files the batch may change: the request's, and those the model brought in with NEED after a type error. */
    const requestFiles = new Set(request.files.map((f) => f.path));
    /** Files outside the request the last repair message offered to bring in (they hold errors the batch caused). */
    let offered: readonly string[] = [];
    /** Repair messages sent so far, by their index in `messages`, to leave their failures out of later requests. */
    const repairMessages = new Map<number, RepairMessage>();
    shown.push({ phase: 'code', files: shownContext });
    const repairRounds = options.repairRounds ?? DEFAULT_REPAIR_ROUNDS;
    const needBudget = Math.max(
      (options.budget ?? DEFAULT_NEED_BUDGET) - context.tokens,
      Math.min(options.budget ?? DEFAULT_NEED_BUDGET, MIN_NEED_BUDGET),
    );
    /** What NEED answers showed so far: every later request counts it as seen. */
    let shownByNeeds: ShownFile[] = [];
    let verifiedOnce = false;
    const { tokens: contextTokens, wholeFileTokens } = context;
    const followUp = async (content: string, shownNow: readonly ShownFile[], repair?: RepairMessage): Promise<void> => {
      messages.push({ role: 'assistant', content: answer.text });
      // The conversation does not carry an earlier round's failures again once a new repair message lists every
      // operation's status: only the code an earlier one showed in full stays. (An answer to NEED or FIND lists no
      // failures, so the last repair message stays whole beside it: the model asked in order to fix what it lists.)
      if (repair !== undefined) {
        for (const [index, earlier] of repairMessages) {
          const message = messages[index];
          if (message !== undefined) messages[index] = { ...message, content: earlier.superseded };
        }
        repairMessages.set(messages.length, repair);
      }
      messages.push({ role: 'user', content });
      const repairInput = messages.reduce((sum, m) => sum + counter.count(m.content), 0);
      answer = await call('repair', messages, repairInput - contextTokens + wholeFileTokens);
      shown.push({
        phase: 'repair',
        files: withShownLines(withShownByNeeds(shownContext, shownNow), linesShownIn(content)),
      });
    };
    for (let round = 0; ; round++) {
      lastAnswer = answer.text;
      notes = mergeNotes(notes, answerNotes(answer.text));
      const phase = round === 0 ? 'code' : 'repair';
      const needs = parsePlan(answer.text, { strict: true });
      const finds = parseFinds(answer.text);
      const parsed = parseOperations(answer.text);
      // A decline ends the request at once, in any round: nothing is applied, not even operations kept so far.
      const declined = parsed.operations.length === 0 ? answerDecline(answer.text) : undefined;
      if (declined !== undefined) {
        rounds.push({ phase, needs, finds, declined });
        parseErrors = [...parsed.errors];
        settleLastRequest(false);
        return outcome(false, `the model declined the task: ${declined}; nothing was applied`, { kind: 'declined' });
      }
      // A question is answered first, in a round of its own; operations beside it were written without what it
      // asks for, so they are set aside and the model answers again whole (docs/operations.md).
      if ((needs.length > 0 || finds.length > 0) && round < repairRounds) {
        bringIn(views, requestFiles, needs, offered, request);
        const asked = answerNeeds(views, needs, counter, needBudget);
        const found = await answerFinds(finder, finds);
        rounds.push({
          phase,
          needs,
          finds,
          answered: { setAside: parsed.operations.length, sent: asked.sent },
        });
        batch.setAside(round, parsed.operations);
        shownByNeeds = withShownByNeeds(shownByNeeds, asked.shown);
        progress(
          'repair',
          `answering the model's ${[needs.length > 0 ? `${needs.length} NEED` : '', finds.length > 0 ? `${finds.length} FIND` : ''].filter((w) => w !== '').join(' and ')} (round ${round + 1} of ${repairRounds})`,
        );
        await followUp(askedAgainMessage(asked.text, found, parsed.operations.length, verifiedOnce), shownByNeeds);
        continue;
      }
      rounds.push({ phase, needs, finds });
      parseErrors = [...parsed.errors];
      // Operations that passed are kept; a new operation replaces a kept one only with the same identity.
      batch.add(round, parsed.operations, verifiedOnce ? failuresOf(apply, problems) : undefined);
      operations = batch.operations;
      // Reading a long answer is synchronous work: the timers (--timeout, Ctrl-C) get their turn before verifying it.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (request.signal?.aborted === true) throw cancelledError();
      progress('verify', `verifying ${operations.length} operation${operations.length === 1 ? '' : 's'}`);
      const verified = await verifyBatch(
        request.snapshot,
        operations,
        {
          ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
          // Files the request did not send are refused without quoting them back (issue 17).
          visibleFiles: requestFiles,
        },
        request.verificationSteps ?? [],
        shown,
        {
          progress: (message) => progress('verify', message),
          ...(request.renames === undefined ? {} : { renames: request.renames }),
        },
      );
      verifiedOnce = true;
      apply = verified.apply;
      problems = verified.problems;
      verification = verified.steps;
      if (verified.ok && parseErrors.length === 0) break;
      // Errors in files this request cannot change are no reason for another round: no operation can fix them.
      const unreachableOnly =
        verified.apply.ok &&
        parseErrors.length === 0 &&
        problems.length > 0 &&
        problems.every((p) => p.reach === 'none');
      const spent = round >= repairRounds || unreachableOnly;
      if (spent && parseErrors.length === 0 && onlyMayRemain(verified, request.verificationSteps)) break;
      if (spent) {
        settleLastRequest(false);
        const given = unverifiedFailure(verified, parseErrors, operations.length, round + 1, lastAnswer !== '');
        return outcome(false, given.failure, given.kind);
      }
      progress(
        'repair',
        `repair round ${round + 1} of ${repairRounds}: ${failureProgressLine(apply, parseErrors, problems, operations.length)}`,
      );
      if (operations.length === 0 && parseErrors.length === 0) {
        await followUp(noOperationsMessage(answer.text), withShownInRepair(shownByNeeds, problems));
        continue;
      }
      const repair = repairMessageOf(apply, parseErrors, problems, {
        shown,
        snapshot: request.snapshot,
        counter,
        budget: needBudget,
        checker: typeCheckSummary(verification)?.checker,
      });
      offered = repair.offered;
      bringIn(views, requestFiles, repair.joined, repair.joined, request);
      shownByNeeds = withShownByNeeds(shownByNeeds, repair.shown);
      await followUp(repair.content, withShownInRepair(shownByNeeds, problems), repair);
    }
    settleLastRequest(true);
    return outcome(true);
  } catch (error) {
    if (isLlmError(error)) return outcome(false, error.message, { kind: 'model', code: error.code }, error);
    const contextFailure = contextFailureOf(error);
    if (contextFailure !== undefined) return outcome(false, contextFailure.failure, contextFailure.kind);
    throw error;
  }
}

/**
 * The focused context with the references appendices when the request finds them. The appendices are an aid: when
 * finding them fails, or the focused elements and the appendices together do not fit the budget, the context is
 * built without them.
 */
export function buildContextWithReferences(
  request: Pick<EditRequest, 'counter' | 'logger' | 'references' | 'onProgress'>,
  requests: readonly ContextFileRequest[],
  options: ContextOptions,
  /** The focused elements whose uses to list, per file; absent: every focused element (an explicit `context`). */
  wanted?: ReadonlyMap<string, readonly string[]>,
): ContextResult {
  const log = request.logger ?? nullLogger;
  let appendices: ReadonlyMap<string, string> = new Map();
  const lookedUp =
    wanted === undefined
      ? requests
      : requests.map((r) => ({
          ...r,
          focus: r.focus.filter((path) => wanted.get(r.outline.file)?.includes(path) === true),
        }));
  if (request.references !== undefined && lookedUp.some((r) => r.focus.length > 0)) {
    request.onProgress?.({ phase: 'context', message: 'finding where the focused elements are used' });
    try {
      appendices = request.references(lookedUp, options.budget);
    } catch (error) {
      log.warn(`references left out of the context: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (appendices.size === 0) return buildContext(requests, request.counter, options);
  const withAppendices = requests.map((r) => {
    const appendix = appendices.get(r.outline.file);
    return appendix === undefined ? r : { ...r, appendix };
  });
  try {
    return buildContext(withAppendices, request.counter, options);
  } catch (error) {
    if (!(error instanceof ContextBudgetError)) throw error;
    log.warn('references left out of the context: the focused elements need the whole budget');
    return buildContext(requests, request.counter, options);
  }
}

/**
 * The focused elements whose uses go in the context (issue 28's "references when they pay"): every one when the task's
 * words say a signature or export will change, else those the plan asked about (`NEED <path> USES`). The model can
 * always FIND a name for its uses.
 */
export function referencesWanted(instruction: string, views: readonly FileView[]): Map<string, readonly string[]> {
  const all = referencesPay(instruction);
  return new Map(views.map((view) => [view.path, all ? view.focus : view.uses]));
}

function declinedOf(rounds: readonly EditRound[]): { declined?: string } {
  const declined = rounds.at(-1)?.declined;
  return declined === undefined ? {} : { declined };
}

/** The context's size against the whole files, in words that hold when the context is the larger (labels added). */
function contextTokensText(tokens: number, wholeFileTokens: number): string {
  return tokens < wholeFileTokens
    ? `${tokens} context tokens instead of ${wholeFileTokens} for whole files`
    : `${tokens} context tokens: the whole files (${wholeFileTokens}) with Scalpel's element labels`;
}

/**
 * A NEED of a file outside the request that the last repair offered (it holds errors the batch caused, and the write
 * policy lets it be edited): the file joins the request, so the NEED is answered and the batch may change it.
 */
function bringIn(
  views: FileView[],
  requestFiles: Set<string>,
  needs: readonly string[],
  offered: readonly string[],
  request: Pick<EditRequest, 'snapshot' | 'options'>,
): void {
  for (const need of needs) {
    const path = need.replace(/^file:/i, '').replace(/^\.\//, '');
    const file = offered.find((f) => path === f || path.startsWith(`${f}/`));
    if (file === undefined || requestFiles.has(file)) continue;
    const [view] = fileViewsOf({
      files: [{ path: file, focus: [] }],
      snapshot: request.snapshot,
      ...(request.options === undefined ? {} : { options: request.options }),
    });
    if (view === undefined) continue;
    views.push(view);
    requestFiles.add(file);
  }
}
