import { buildContext, type ContextFileRequest, type ContextResult } from '../context/buildContext';
import type { TokenCounter } from '../context/tokens';
import type { FileOutline } from '../elements/element';
import { parseElementPath } from '../elements/elementPath';
import { countLines, isOutlinable, outlineSource } from '../elements/outline';
import { resolveElementPath } from '../elements/resolve';
import { nullLogger, type Logger } from '../logger';
import { applyOperations, type ApplyResult, type EditStrategy, type SnapshotReader } from '../ops/apply';
import { parseOperations } from '../ops/format';
import type { Operation, ParseError } from '../ops/operation';
import { isLlmError, type LlmError } from './errors';
import type { RequestMetrics } from './metrics';
import {
  CODING_SYSTEM_PROMPT,
  codingUserMessage,
  parsePlan,
  PLANNING_SYSTEM_PROMPT,
  planningOutline,
  planningUserMessage,
  repairUserMessage,
} from './prompts';
import type { ChatMessage, ChatProvider, ChatResponse } from './provider';

/**
 * From an instruction to a verified batch of operations: plan (when the focus is not known), build the focused
 * context, ask the model, parse, verify by applying to the snapshot in memory, and send failures back for repair.
 * Nothing here writes a file: the caller shows or writes `apply.changes` only when `ok`.
 */

export interface EditFileRequest {
  /** Workspace-relative path. */
  readonly path: string;
  /** Element paths known to matter (the element at the cursor); empty when unknown. */
  readonly focus: readonly string[];
  /** Send this file whole (a file the user attached as a whole). */
  readonly whole?: boolean;
}

export type PlanningMode = 'auto' | 'always' | 'never';

export interface EditOptions {
  readonly budget?: number;
  readonly smallFileLines?: number;
  /** Send every file whole (no element view). */
  readonly full?: boolean;
  readonly strategy?: EditStrategy;
  /** Follow-ups that send failed operations back; default 2. */
  readonly repairRounds?: number;
  readonly planning?: PlanningMode;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
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
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: EditProgress) => void;
  /** Streams the model's answers as they arrive. */
  readonly onText?: (delta: string) => void;
  readonly logger?: Logger;
  /** Names the surface in the metrics (`cli.edit`, `vscode.editElement`, ...). */
  readonly command?: string;
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
  /** The focus chosen by the planning phase, when there was one. */
  readonly plan?: readonly string[];
  readonly lastAnswer: string;
  readonly context?: Pick<ContextResult, 'tokens' | 'wholeFileTokens' | 'files' | 'dropped'>;
  /** Why it did not apply, in words for the user. */
  readonly failure?: string;
  /** The model call that failed (network, auth, cancelled, ...), when that is why. */
  readonly error?: LlmError;
}

const EMPTY_APPLY: ApplyResult = { ok: false, results: [], changes: [] };

export const DEFAULT_REPAIR_ROUNDS = 2;

interface FileView {
  readonly path: string;
  readonly outline: FileOutline;
  readonly outlinable: boolean;
  focus: string[];
  whole: boolean;
}

function plainOutline(path: string, text: string): FileOutline {
  return { file: path, text, language: 'ts', elements: [], syntaxErrors: [], lineCount: countLines(text) };
}

function operationCounts(operations: readonly Operation[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const operation of operations) counts[operation.type] = (counts[operation.type] ?? 0) + 1;
  return counts;
}

/** The key under which a repair's new operation replaces an earlier one of the batch. */
function operationKey(operation: Operation): string {
  return `${operation.type} ${operation.path.replace(/^file:/i, '')}`;
}

export async function runEdit(request: EditRequest): Promise<EditOutcome> {
  const log = request.logger ?? nullLogger;
  const options = request.options ?? {};
  const progress = (phase: EditPhase, message: string): void => request.onProgress?.({ phase, message });
  const requests: RequestMetrics[] = [];
  const { provider, counter } = request;

  const views: FileView[] = [];
  for (const file of request.files) {
    const text = request.snapshot.read(file.path);
    if (text === undefined) continue; // a file the model is to create: nothing to show
    const outlinable = isOutlinable(file.path);
    const outline = outlinable ? outlineSource(file.path, text) : plainOutline(file.path, text);
    const unreadable = !outlinable || outline.syntaxErrors.length > 0;
    views.push({
      path: file.path,
      outline,
      outlinable: !unreadable,
      focus: [...file.focus],
      whole: unreadable || options.strategy === 'file' || file.whole === true,
    });
  }

  const call = async (
    phase: RequestMetrics['phase'],
    messages: readonly ChatMessage[],
    wholeFileInputTokens: number,
  ): Promise<ChatResponse> => {
    const started = Date.now();
    const response = await provider.chat({
      messages,
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onText === undefined ? {} : { onText: request.onText }),
    });
    requests.push({
      time: new Date(started).toISOString(),
      command: request.command ?? 'edit',
      phase,
      provider: provider.id,
      model: response.model,
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      usageSource: response.usage.source,
      wholeFileInputTokens,
      operations: phase === 'plan' ? {} : operationCounts(parseOperations(response.text).operations),
      durationMs: Date.now() - started,
    });
    log.debug(
      `${phase}: ${response.usage.inputTokens} in, ${response.usage.outputTokens} out (${response.usage.source}) from ${response.model}`,
    );
    return response;
  };

  let plan: string[] | undefined;
  let lastAnswer = '';
  let operations: Operation[] = [];
  let parseErrors: ParseError[] = [];
  let apply: ApplyResult = EMPTY_APPLY;
  let context: ContextResult | undefined;
  const fail = (failure: string, error?: LlmError): EditOutcome => ({
    ok: false,
    apply,
    operations,
    parseErrors,
    requests,
    lastAnswer,
    failure,
    ...(plan === undefined ? {} : { plan }),
    ...(context === undefined
      ? {}
      : {
          context: {
            tokens: context.tokens,
            wholeFileTokens: context.wholeFileTokens,
            files: context.files,
            dropped: context.dropped,
          },
        }),
    ...(error === undefined ? {} : { error }),
  });

  try {
    // 1. Planning, when some file has no known focus and would not be sent whole.
    const smallFileLines = options.smallFileLines ?? 50;
    const needsPlan = views.some(
      (v) => !v.whole && v.focus.length === 0 && v.outline.lineCount > smallFileLines && options.full !== true,
    );
    const planning = options.planning ?? 'auto';
    if (views.length > 0 && (planning === 'always' || (planning === 'auto' && needsPlan))) {
      progress('plan', 'asking the model which elements it needs');
      const outlines = views.map((v) =>
        v.outlinable ? planningOutline(v.outline) : `File ${v.path} (${v.outline.lineCount} lines, read whole)`,
      );
      const answer = await call(
        'plan',
        [
          { role: 'system', content: PLANNING_SYSTEM_PROMPT },
          { role: 'user', content: planningUserMessage(outlines, request.instruction) },
        ],
        0,
      );
      plan = applyPlan(views, parsePlan(answer.text), log);
      progress(
        'plan',
        plan.length === 0
          ? 'the model named no elements'
          : `the model needs ${plan.length} element${plan.length === 1 ? '' : 's'}`,
      );
    }

    // 2. The focused context.
    progress('context', 'building the focused context');
    const contextRequests: ContextFileRequest[] = views.map((v) => ({
      outline: v.outline,
      focus: v.focus,
      whole: v.whole,
    }));
    context = buildContext(contextRequests, counter, {
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      ...(options.smallFileLines === undefined ? {} : { smallFileLines: options.smallFileLines }),
      ...(options.full === true ? { full: true } : {}),
    });
    const fixedTokens = counter.count(CODING_SYSTEM_PROMPT) + counter.count(request.instruction);
    const wholeFileRequestTokens = fixedTokens + context.wholeFileTokens;

    // 3. Code, verify, repair.
    const messages: ChatMessage[] = [
      { role: 'system', content: CODING_SYSTEM_PROMPT },
      { role: 'user', content: codingUserMessage(context.text, request.instruction) },
    ];
    progress(
      'code',
      `asking ${provider.model} (${context.tokens} context tokens instead of ${context.wholeFileTokens} for whole files)`,
    );
    let answer = await call('code', messages, wholeFileRequestTokens);
    const rounds = options.repairRounds ?? DEFAULT_REPAIR_ROUNDS;
    for (let round = 0; ; round++) {
      lastAnswer = answer.text;
      const parsed = parseOperations(answer.text);
      parseErrors = [...parsed.errors];
      if (round === 0) {
        operations = [...parsed.operations];
      } else {
        // Operations that passed are kept; a new operation on the same target replaces the earlier one.
        const replaced = new Set(parsed.operations.map(operationKey));
        const failed = new Set(apply.results.filter((r) => r.status === 'failed').map((r) => r.index));
        const kept = operations.filter((op, index) => !failed.has(index) && !replaced.has(operationKey(op)));
        operations = [...kept, ...parsed.operations];
      }
      progress('verify', `verifying ${operations.length} operation${operations.length === 1 ? '' : 's'}`);
      apply =
        operations.length === 0
          ? EMPTY_APPLY
          : applyOperations(request.snapshot, operations, {
              ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
              visibleFiles: new Set(request.files.map((f) => f.path)),
            });
      if (apply.ok && parseErrors.length === 0) break;
      if (round >= rounds) {
        const reason = describeFailure(apply, parseErrors, operations.length);
        const last = requests[requests.length - 1];
        if (last !== undefined) requests[requests.length - 1] = { ...last, ok: false };
        return fail(
          `the model's operations did not verify after ${round + 1} attempt${round === 0 ? '' : 's'}: ${reason}; nothing was applied`,
        );
      }
      progress(
        'repair',
        `sending ${countFailures(apply, parseErrors)} failure(s) back to the model (repair ${round + 1} of ${rounds})`,
      );
      messages.push({ role: 'assistant', content: answer.text });
      messages.push({
        role: 'user',
        content:
          operations.length === 0 && parseErrors.length === 0
            ? 'Your answer held no operations. Answer with edit operations in the format described, and nothing else.'
            : repairUserMessage(apply.results, parseErrors),
      });
      const repairInput = messages.reduce((sum, m) => sum + counter.count(m.content), 0);
      answer = await call('repair', messages, repairInput - context.tokens + context.wholeFileTokens);
    }
    const last = requests[requests.length - 1];
    if (last !== undefined) requests[requests.length - 1] = { ...last, ok: true };
    return {
      ok: true,
      apply,
      operations,
      parseErrors,
      requests,
      lastAnswer,
      ...(plan === undefined ? {} : { plan }),
      context: {
        tokens: context.tokens,
        wholeFileTokens: context.wholeFileTokens,
        files: context.files,
        dropped: context.dropped,
      },
    };
  } catch (error) {
    if (isLlmError(error)) return fail(error.message, error);
    throw error;
  }
}

/** Turns the plan's paths into focus per file; unknown paths are logged and ignored. Returns the accepted paths. */
function applyPlan(views: FileView[], paths: readonly string[], log: Logger): string[] {
  const accepted: string[] = [];
  for (const path of paths) {
    let file: string;
    let hasSegments: boolean;
    try {
      const parsed = parseElementPath(path);
      file = parsed.file;
      hasSegments = parsed.segments.length > 0;
    } catch {
      log.warn(`plan: ignoring unreadable path "${path}"`);
      continue;
    }
    const view = views.find((v) => v.path === file);
    if (view === undefined) {
      log.warn(`plan: ignoring "${path}": ${file} is not part of the request`);
      continue;
    }
    if (!hasSegments || !view.outlinable) {
      view.whole = true;
      accepted.push(file);
      continue;
    }
    const resolved = resolveElementPath(view.outline, path);
    if (!resolved.ok) {
      log.warn(`plan: ignoring "${path}": ${resolved.message}`);
      continue;
    }
    if (!view.focus.includes(resolved.element.path)) view.focus.push(resolved.element.path);
    accepted.push(resolved.element.path);
  }
  return accepted;
}

function countFailures(apply: ApplyResult, parseErrors: readonly ParseError[]): number {
  return apply.results.filter((r) => r.status === 'failed').length + parseErrors.length;
}

function describeFailure(apply: ApplyResult, parseErrors: readonly ParseError[], operationCount: number): string {
  if (operationCount === 0 && parseErrors.length === 0) return 'the answer held no operations';
  const failures = apply.results.filter((r) => r.status === 'failed');
  const parts = failures.slice(0, 3).map((r) => `${r.operation.type} ${r.operation.path}: ${r.message ?? 'failed'}`);
  if (parseErrors.length > 0)
    parts.push(
      `${parseErrors.length} unreadable part${parseErrors.length === 1 ? '' : 's'} (line ${parseErrors[0]?.line}: ${parseErrors[0]?.message})`,
    );
  if (failures.length > 3) parts.push(`and ${failures.length - 3} more`);
  return parts.join('; ');
}
