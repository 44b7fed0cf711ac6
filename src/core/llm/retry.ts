/**
 * Retries, timeouts and cancellation around one model call, shared by both providers.
 *
 * The SDKs can retry by themselves, but their backoff cannot be configured and their retries are invisible to our
 * logger, so they run with `maxRetries: 0` and this loop does the same job: it honours `Retry-After` and
 * `retry-after-ms`, obeys `x-should-retry`, retries 408/409/429/5xx and connections that fail before an answer,
 * and never retries once the answer has started streaming.
 */
import type { Logger } from '../logger';
import {
  brokenStreamError,
  cancelledError,
  deadlineError,
  waitTooLongError,
  errorCodeIn,
  formatSeconds,
  HEADERS_TIMEOUT_CODE,
  LlmError,
  llmErrorFromFailure,
  scrub,
  timeoutError,
  type CallContext,
  type ProviderFailure,
} from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** First backoff delay; it doubles per retry, with up to 25% jitter taken off. */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A server asking to wait longer than this gets no retry: the user is told to come back later instead. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** The wait a server asks for, from `retry-after-ms` or `Retry-After` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '' && Number.isFinite(Number(millis))) return Math.max(0, Number(millis));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function backoffDelayMs(retryNumber: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const base = Math.min(policy.initialDelayMs * 2 ** (retryNumber - 1), policy.maxDelayMs);
  return base * (1 - random() * 0.25);
}

/**
 * How long to wait before retrying this failure, or undefined when it must not be retried. A server's explicit
 * `x-should-retry` wins, as it does in the SDKs.
 */
export function retryDelayFor(failure: ProviderFailure, retryNumber: number, policy: RetryPolicy): number | undefined {
  // Node's HTTP client gives up on a server silent for 300 s before any header: trying again would only wait as long.
  if (failure.kind === 'connection' && errorCodeIn(failure.cause) === HEADERS_TIMEOUT_CODE) return undefined;
  if (failure.kind === 'connection') return backoffDelayMs(retryNumber, policy);
  if (failure.kind !== 'http' || failure.status === undefined) return undefined;
  const verdict = failure.headers?.get('x-should-retry');
  if (verdict === 'false') return undefined;
  const retryable =
    verdict === 'true' ||
    (failure.code !== 'insufficient_quota' &&
      (failure.status === 408 || failure.status === 409 || failure.status === 429 || failure.status >= 500));
  if (!retryable) return undefined;
  const asked = retryAfterMs(failure.headers);
  if (asked === undefined) return backoffDelayMs(retryNumber, policy);
  return asked <= policy.maxRetryAfterMs ? asked : undefined;
}

/** Wraps an exception thrown by the caller's own `onText`, so it reaches the caller unchanged and is not retried. */
export class CallbackFailure extends Error {
  constructor(readonly original: unknown) {
    super('onText threw');
  }
}

export interface AttemptControls {
  /** Aborts on cancellation, at the deadline and when the stream goes idle; pass it to the SDK call. */
  readonly signal: AbortSignal;
  /** Restarts the idle timer: call when response headers or a streamed event arrive. */
  progress(): void;
  /** From here on failures are final: part of the answer may already be with the caller. */
  answerStarted(): void;
}

export interface RunOptions {
  readonly policy: RetryPolicy;
  /** The whole call's time limit: every attempt, the waits between them and the streaming of the answer. */
  readonly deadlineMs: number;
  /**
   * Longest silence once the response headers have arrived: between streamed events. Before the headers only the
   * deadline applies, since a local model may take minutes to load and read a long prompt.
   */
  readonly idleTimeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
  readonly context: CallContext;
  /** Translates what the SDK threw. */
  readonly classify: (error: unknown) => ProviderFailure;
  /** Names the call in log lines, e.g. "chat" or "list models". */
  readonly operation: string;
  /** The clock, for tests of the messages that name a time. */
  readonly now?: () => number;
}

export async function runWithRetries<T>(
  options: RunOptions,
  attempt: (controls: AttemptControls) => Promise<T>,
): Promise<T> {
  const { policy, deadlineMs, signal, logger, context } = options;
  const idleMs = Math.min(options.idleTimeoutMs, deadlineMs);
  const now = options.now ?? Date.now;
  const deadlineAt = now() + deadlineMs;
  for (let attemptNumber = 1; ; attemptNumber++) {
    if (signal?.aborted) throw cancelledError();
    const controller = new AbortController();
    let timedOut: 'deadline' | 'idle' | undefined;
    let started = false;
    const stop = (reason: 'deadline' | 'idle') => (): void => {
      timedOut ??= reason;
      controller.abort(new Error(reason === 'deadline' ? 'deadline' : 'idle'));
    };
    const deadlineTimer = setTimeout(stop('deadline'), Math.max(0, deadlineAt - now()));
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const onCancel = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCancel, { once: true });
    const controls: AttemptControls = {
      signal: controller.signal,
      progress: () => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(stop('idle'), idleMs);
      },
      answerStarted: () => {
        started = true;
      },
    };

    let failure: ProviderFailure;
    try {
      return await attempt(controls);
    } catch (error) {
      if (signal?.aborted) throw cancelledError();
      if (timedOut === 'deadline') throw deadlineError(context, deadlineMs, started);
      if (timedOut === 'idle') throw timeoutError(context, idleMs, started);
      if (error instanceof CallbackFailure) throw error.original;
      if (error instanceof LlmError) throw error;
      failure = options.classify(error);
      if (started && failure.kind === 'connection') throw brokenStreamError(failure.cause, context);
      if (started || (failure.kind !== 'http' && failure.kind !== 'connection')) {
        throw llmErrorFromFailure(failure, context, attemptNumber);
      }
    } finally {
      clearTimeout(deadlineTimer);
      clearTimeout(idleTimer);
      signal?.removeEventListener('abort', onCancel);
    }

    const http = failure.kind === 'http' ? failure : undefined;
    const retryable =
      attemptNumber <= policy.maxRetries &&
      retryDelayFor(failure, attemptNumber, { ...policy, maxRetryAfterMs: Number.POSITIVE_INFINITY }) !== undefined;
    const asked = http !== undefined && retryable ? retryAfterMs(http.headers) : undefined;
    if (http !== undefined && asked !== undefined && asked > policy.maxRetryAfterMs) {
      const why = `longer than Scalpel waits (${formatSeconds(policy.maxRetryAfterMs)})`;
      throw waitTooLongError(http, context, asked, why, now());
    }
    const delay = retryable ? retryDelayFor(failure, attemptNumber, policy) : undefined;
    if (delay === undefined) throw llmErrorFromFailure(failure, context, attemptNumber);
    if (now() + delay >= deadlineAt) {
      if (http !== undefined && asked !== undefined) {
        const why = `past this request's time limit of ${formatSeconds(deadlineMs)}`;
        throw waitTooLongError(http, context, asked, why, now());
      }
      throw llmErrorFromFailure(failure, context, attemptNumber);
    }
    const what = `${context.label} ${options.operation}: ${summarize(failure)} from ${context.endpoint}`;
    const which = `retry ${attemptNumber} of ${policy.maxRetries}`;
    logger.warn(
      scrub(
        asked === undefined
          ? `${what}; retrying in ${formatSeconds(delay)} (${which})`
          : `${what}; waiting ${formatSeconds(delay)} as the server asked, then retrying (${which})`,
        context,
      ),
    );
    await sleep(delay, signal);
  }
}

function summarize(failure: ProviderFailure): string {
  if (failure.kind === 'connection') return `connection failed (${errorCodeIn(failure.cause) ?? 'no code'})`;
  if (failure.kind !== 'http') return failure.kind;
  if (failure.status === 429) return 'rate limited (429)';
  return `HTTP ${failure.status ?? 'error'}: ${failure.message.replace(/\s+/g, ' ').slice(0, 200)}`;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
