/**
 * Failures of a model call, each with a code the callers branch on and a message a user can act on. Messages name
 * the endpoint and the model, never the API key.
 */

export type LlmErrorCode =
  | 'auth'
  | 'model-not-found'
  /** The base URL answers 404 for the API path itself: usually a base URL without its `/v1`. */
  | 'endpoint-not-found'
  | 'context-length'
  /** The model stopped at the output token limit; the answer is incomplete. */
  | 'output-limit'
  | 'rate-limit'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'server'
  /** The server refused the request for another reason (an unsupported parameter, billing, ...). */
  | 'bad-request'
  | 'bad-response'
  /** The answer stream ended cleanly but before its end marker. */
  | 'truncated';

export interface LlmErrorDetails {
  readonly status?: number;
  /** How many tokens the prompt was over the model's window, when the server said. */
  readonly excessTokens?: number;
  readonly contextLimit?: number;
  /** HTTP requests made before giving up. */
  readonly attempts?: number;
  readonly cause?: unknown;
}

export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly status?: number;
  readonly excessTokens?: number;
  readonly contextLimit?: number;
  readonly attempts?: number;

  constructor(
    readonly code: LlmErrorCode,
    message: string,
    details: LlmErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    if (details.status !== undefined) this.status = details.status;
    if (details.excessTokens !== undefined) this.excessTokens = details.excessTokens;
    if (details.contextLimit !== undefined) this.contextLimit = details.contextLimit;
    if (details.attempts !== undefined) this.attempts = details.attempts;
  }
}

export function isLlmError(error: unknown, code?: LlmErrorCode): error is LlmError {
  return error instanceof LlmError && (code === undefined || error.code === code);
}

/** Who was called, for messages; the key is here only so it can be scrubbed from whatever the server echoes. */
export interface CallContext {
  /** `OpenAI`, `Ollama`, `Anthropic`, or `OpenAI-compatible server`. */
  readonly label: string;
  readonly endpoint: string;
  readonly model: string;
  readonly apiKey: string | undefined;
  /** How the user sets the key, e.g. "the OPENAI_API_KEY environment variable". */
  readonly apiKeyHint: string;
  /** Where the key in use came from, e.g. "the SCALPEL_API_KEY environment variable"; named when it is rejected. */
  readonly apiKeySource?: string;
  /** The API path appended to the endpoint, for 404 messages. */
  readonly apiPath: string;
  readonly isOllama: boolean;
}

/** What went wrong, stripped of SDK types. */
export type ProviderFailure =
  | {
      readonly kind: 'http';
      readonly status: number | undefined;
      readonly headers: Headers | undefined;
      /** The server's own explanation, as found in its error body. */
      readonly message: string;
      readonly type: string | undefined;
      readonly code: string | undefined;
      readonly body: unknown;
    }
  | { readonly kind: 'connection'; readonly cause: unknown }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'bad-response'; readonly detail: string; readonly cause: unknown };

export function cancelledError(): LlmError {
  return new LlmError('cancelled', 'cancelled');
}

/** The stream went silent after its headers: `answerStarted` says whether part of the answer had arrived. */
export function timeoutError(context: CallContext, idleMs: number, answerStarted: boolean): LlmError {
  const seconds = formatSeconds(idleMs);
  return answerStarted
    ? new LlmError(
        'timeout',
        `the answer from ${context.endpoint} stalled: nothing arrived for ${seconds} (timeout); the partial answer was discarded — try again or raise the timeout`,
      )
    : new LlmError(
        'timeout',
        `the answer from ${context.endpoint} stalled: the server sent its headers and then nothing for ${seconds} (timeout) — try again, or check the server and any proxy in between`,
      );
}

/** The call's own time limit ran out: every attempt and wait included. */
export function deadlineError(context: CallContext, deadlineMs: number, answerStarted: boolean): LlmError {
  const limit = formatSeconds(deadlineMs);
  return answerStarted
    ? new LlmError(
        'timeout',
        `the answer from ${context.endpoint} was still not complete after ${limit}, the time limit of one request (timeout); the partial answer was discarded — ask for a smaller change or raise the time limit`,
      )
    : new LlmError(
        'timeout',
        `no answer from ${context.endpoint} within ${limit}, the time limit of one request (timeout): the model may be loading or overloaded — try again or raise the time limit`,
      );
}

/** The server asked to wait before retrying, longer than we will: say how long, and when to come back. */
export function waitTooLongError(
  failure: Extract<ProviderFailure, { kind: 'http' }>,
  context: CallContext,
  askedMs: number,
  why: string,
  now: number,
): LlmError {
  const detail = cleanDetail(failure.message, context);
  const status = failure.status === undefined ? ` (${detail})` : ` (${failure.status}: ${detail})`;
  const code: LlmErrorCode = failure.status === 429 || failure.type === 'rate_limit_error' ? 'rate-limit' : 'server';
  const at = new Date(now + askedMs)
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace('T', ' ');
  return new LlmError(
    code,
    scrub(
      `${context.endpoint} refused the request${status} and asked to wait ${formatDuration(askedMs)} before retrying, ${why}: try again after ${at} UTC`,
      context,
    ),
    failure.status === undefined ? {} : { status: failure.status },
  );
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds)} s`;
}

/** `45 s`, `12 min`, `2 h 5 min`: a wait as a person reads it. */
export function formatDuration(ms: number): string {
  if (ms < 120_000) return formatSeconds(ms);
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** Turns a failure into the error the user sees. `attempts` counts the HTTP requests made. */
export function llmErrorFromFailure(failure: ProviderFailure, context: CallContext, attempts: number): LlmError {
  switch (failure.kind) {
    case 'cancelled':
      return cancelledError();
    case 'timeout':
      return new LlmError(
        'timeout',
        `no answer from ${context.endpoint} (timeout): the model may be loading or overloaded — try again or raise the timeout`,
        { attempts },
      );
    case 'bad-response':
      return new LlmError(
        'bad-response',
        scrub(`unreadable answer from ${context.endpoint}: ${failure.detail}`, context),
        { attempts, cause: failure.cause },
      );
    case 'connection':
      return connectionError(failure.cause, context, attempts);
    case 'http':
      return httpError(failure, context, attempts);
  }
}

/** A connection that broke after the answer began: never retried, since part of it may have been shown. */
export function brokenStreamError(cause: unknown, context: CallContext): LlmError {
  return new LlmError(
    'network',
    `the connection to ${context.endpoint} broke while ${context.model} was answering (${describeCause(cause)}); the partial answer was discarded — try again`,
    { cause },
  );
}

export function truncatedStreamError(context: CallContext): LlmError {
  return new LlmError(
    'truncated',
    `the answer stream from ${context.endpoint} ended before ${context.model} finished (no end-of-answer marker); the partial answer was discarded — try again`,
  );
}

export function outputLimitError(context: CallContext, maxOutputTokens: number | undefined): LlmError {
  const limit =
    maxOutputTokens === undefined ? 'its output token limit' : `the output limit of ${maxOutputTokens} tokens`;
  return new LlmError(
    'output-limit',
    `the answer from ${context.model} was cut off at ${limit}: raise the output token limit or ask for a smaller change`,
  );
}

/** undici's code when a server sent no response headers within its `headersTimeout` (300 s in Node's fetch). */
export const HEADERS_TIMEOUT_CODE = 'UND_ERR_HEADERS_TIMEOUT';

function connectionError(cause: unknown, context: CallContext, attempts: number): LlmError {
  const tries = attempts > 1 ? ` (tried ${attempts} times)` : '';
  const code = errorCodeIn(cause);
  let reason: string;
  switch (code) {
    case 'ECONNREFUSED':
      reason = context.isOllama
        ? 'connection refused — is Ollama running? Start it with `ollama serve`'
        : 'connection refused — is the server running?';
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      reason = 'host not found — check the base URL';
      break;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      reason = 'the connection timed out — check the base URL and your network';
      break;
    case HEADERS_TIMEOUT_CODE:
      reason =
        'the server accepted the request but sent no response for 300 s, the longest Node waits for one (the model may be loading or overloaded) — try again';
      break;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      reason = 'the server closed the connection before answering';
      break;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      reason = `its TLS certificate was rejected (${code})`;
      break;
    default:
      reason = describeCause(cause);
  }
  return new LlmError('network', scrub(`cannot reach ${context.endpoint}: ${reason}${tries}`, context), {
    attempts,
    cause,
  });
}

function httpError(
  failure: Extract<ProviderFailure, { kind: 'http' }>,
  context: CallContext,
  attempts: number,
): LlmError {
  const status = failure.status;
  const detail = cleanDetail(failure.message, context);
  const details: LlmErrorDetails = status === undefined ? { attempts } : { status, attempts };
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const statusText = status === undefined ? 'an error' : String(status);

  if (status === 401 || failure.type === 'authentication_error' || failure.code === 'invalid_api_key') {
    // The server's own message is left out: OpenAI's echoes part of the rejected key.
    return context.apiKey === undefined
      ? new LlmError(
          'auth',
          `${context.endpoint} requires an API key (401): set it with ${context.apiKeyHint}`,
          details,
        )
      : new LlmError(
          'auth',
          context.apiKeySource === undefined
            ? `API key rejected by ${context.endpoint} (401): set a valid key with ${context.apiKeyHint}`
            : `API key rejected by ${context.endpoint} (401): the key came from ${context.apiKeySource}; set a valid key there`,
          details,
        );
  }
  if (isContextOverflow(failure)) {
    const overflow = parseContextOverflow(failure.message, failure.body);
    const excess =
      overflow.excessTokens === undefined
        ? 'context length exceeded'
        : `context length exceeded by ${overflow.excessTokens} tokens`;
    const limit = overflow.contextLimit === undefined ? '' : ` (the window is ${overflow.contextLimit} tokens)`;
    return new LlmError(
      'context-length',
      `${excess}${limit} for model "${context.model}" at ${context.endpoint}: send less context or pick a model with a larger window`,
      {
        ...details,
        ...(overflow.excessTokens === undefined ? {} : { excessTokens: overflow.excessTokens }),
        ...(overflow.contextLimit === undefined ? {} : { contextLimit: overflow.contextLimit }),
      },
    );
  }
  if (isModelNotFound(failure)) {
    const hint = context.isOllama
      ? `: pull it with \`ollama pull ${context.model}\` or choose an installed model`
      : ': check the model name';
    return new LlmError('model-not-found', `model "${context.model}" not found at ${context.endpoint}${hint}`, details);
  }
  if (status === 404) {
    return new LlmError(
      'endpoint-not-found',
      `${context.endpoint} has no ${context.label} API (404 for ${context.apiPath}): check the base URL${
        context.label === 'Anthropic' ? '' : ' (for OpenAI-compatible servers it usually ends in /v1)'
      }`,
      details,
    );
  }
  if (status === 403) {
    return new LlmError(
      'auth',
      `${context.endpoint} refused access to model "${context.model}" (403): ${detail} — check the permissions of the key from ${context.apiKeySource ?? context.apiKeyHint}`,
      details,
    );
  }
  if (isQuotaExhausted(failure)) {
    return new LlmError(
      'rate-limit',
      `quota exhausted at ${context.endpoint} (${statusText}): ${detail} — add credits or wait for the quota to reset`,
      details,
    );
  }
  if (status === 429 || failure.type === 'rate_limit_error') {
    return new LlmError(
      'rate-limit',
      `rate limited by ${context.endpoint} (429)${tries}: ${detail} — wait and try again`,
      details,
    );
  }
  if (status === undefined || status >= 500 || failure.type === 'overloaded_error' || failure.type === 'api_error') {
    return new LlmError('server', `${context.endpoint} failed with ${statusText}${tries}: ${detail}`, details);
  }
  return new LlmError(
    'bad-request',
    `${context.endpoint} rejected the request for model "${context.model}" (${statusText}): ${detail}`,
    details,
  );
}

function isContextOverflow(failure: Extract<ProviderFailure, { kind: 'http' }>): boolean {
  if (failure.status === 413) return true;
  if (failure.code === 'context_length_exceeded' || failure.type === 'exceed_context_size_error') return true;
  if (failure.status !== 400 && failure.status !== undefined) return false;
  return /context (length|window|size)|prompt is too long|too many (input )?tokens|exceeds? the (available )?context/i.test(
    failure.message,
  );
}

function isModelNotFound(failure: Extract<ProviderFailure, { kind: 'http' }>): boolean {
  if (failure.code === 'model_not_found') return true;
  if (failure.status === 404 && failure.type === 'not_found_error') return true;
  if (failure.status !== 404 && failure.status !== 400) return false;
  return /\bmodel\b.*(not found|does not exist|not exist)|(no such|unknown|invalid) model|model .*not (available|loaded)/i.test(
    failure.message,
  );
}

function isQuotaExhausted(failure: Extract<ProviderFailure, { kind: 'http' }>): boolean {
  return failure.code === 'insufficient_quota' || failure.type === 'insufficient_quota';
}

export interface ContextOverflow {
  readonly excessTokens?: number;
  readonly contextLimit?: number;
}

/** Reads the numbers out of the servers' context-length messages (OpenAI, vLLM, Anthropic, llama.cpp). */
export function parseContextOverflow(message: string, body?: unknown): ContextOverflow {
  const number = (text: string | undefined): number => Number((text ?? '').replace(/[,_]/g, ''));
  const result = (requested: number, limit: number): ContextOverflow =>
    Number.isFinite(requested) && Number.isFinite(limit) && requested > limit
      ? { excessTokens: requested - limit, contextLimit: limit }
      : Number.isFinite(limit)
        ? { contextLimit: limit }
        : {};

  let match =
    /maximum context length is ([\d,]+) tokens.*?(?:resulted in|requested|has) ([\d,]+) (?:input )?tokens/is.exec(
      message,
    );
  if (match) return result(number(match[2]), number(match[1]));
  match = /prompt is too long: ([\d,]+) tokens > ([\d,]+)/i.exec(message);
  if (match) return result(number(match[1]), number(match[2]));
  match = /([\d,]+) \+ ([\d,]+) > ([\d,]+)/.exec(message);
  if (match) return result(number(match[1]) + number(match[2]), number(match[3]));
  const fields = llamaCppContextFields(body);
  if (fields) return result(fields.prompt, fields.window);
  match = /context (?:length|window|size) (?:is|of)(?: only)? ([\d,]+) tokens/i.exec(message);
  if (match) return { contextLimit: number(match[1]) };
  return {};
}

function llamaCppContextFields(body: unknown): { prompt: number; window: number } | undefined {
  const record = asRecord(body);
  const inner = asRecord(record?.['error']) ?? record;
  const prompt = inner?.['n_prompt_tokens'];
  const window = inner?.['n_ctx'];
  return typeof prompt === 'number' && typeof window === 'number' ? { prompt, window } : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** Finds the `code` of a Node network error anywhere in a cause chain (undici nests them, AggregateError lists them). */
export function errorCodeIn(error: unknown, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  const record = asRecord(error);
  if (record === undefined) return undefined;
  const code = record['code'];
  if (typeof code === 'string' && code !== '') return code;
  const nested = record['errors'];
  if (Array.isArray(nested)) {
    for (const inner of nested) {
      const found = errorCodeIn(inner, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return errorCodeIn(record['cause'], depth + 1);
}

function describeCause(cause: unknown): string {
  const code = errorCodeIn(cause);
  let deepest: unknown = cause;
  for (let depth = 0; depth < 6; depth++) {
    const next = asRecord(deepest)?.['cause'];
    if (next === undefined || next === null) break;
    deepest = next;
  }
  const message = deepest instanceof Error ? deepest.message : String(deepest);
  return code !== undefined && !message.includes(code) ? `${message}, ${code}` : message;
}

function cleanDetail(message: string, context: CallContext): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  const short = oneLine.length > 400 ? `${oneLine.slice(0, 400)}…` : oneLine;
  return scrub(short === '' ? 'no explanation given' : short, context);
}

/** Removes the API key, and anything shaped like a secret key, from text that may have come from the server. */
export function scrub(text: string, context: Pick<CallContext, 'apiKey'>): string {
  let result = text;
  if (context.apiKey !== undefined && context.apiKey.length >= 4) result = result.split(context.apiKey).join('***');
  return result.replace(/\b(sk-[A-Za-z0-9]{0,8})[A-Za-z0-9_*-]{8,}/g, '$1***');
}
