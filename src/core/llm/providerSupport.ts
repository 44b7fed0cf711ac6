/** Pieces both providers share: streaming delivery, usage, request logging, and what a base URL points at. */
import type { Logger } from '../logger';
import { DEFAULT_MAX_ANSWER_BYTES } from '../ops/format/parseOperations';
import { LlmError, type CallContext, type ProviderFailure } from './errors';
import type { ChatMessage, ChatRequest, ChatResponse, TokenUsage } from './provider';
import { CallbackFailure, runWithRetries, type AttemptControls, type RetryPolicy } from './retry';
import { countTokens, estimateChatTokens } from './tokenEstimate';

/**
 * The time limit of one call, retries and waits included. Ten minutes, as the SDKs: a local model may take that long
 * to load and answer a large prompt unstreamed.
 */
export const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * Longest silence between streamed events once the answer's headers are in. Generous: a reasoning model may think a
 * while between events, but a server that holds the connection open and sends nothing fails in bounded time.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 180_000;

/** Hands a streamed delta to the caller; the first non-empty one marks the answer as started (no more retries). */
export function deliverText(delta: string, request: ChatRequest, controls: AttemptControls): void {
  if (delta === '') return;
  controls.answerStarted();
  if (request.onText === undefined) return;
  try {
    request.onText(delta);
  } catch (error) {
    throw new CallbackFailure(error);
  }
}

/** The provider's numbers when it reported them, else a local count. */
export async function usageOrEstimate(
  reported: { inputTokens: number | undefined; outputTokens: number | undefined },
  messages: readonly ChatMessage[],
  text: string,
): Promise<TokenUsage> {
  const { inputTokens, outputTokens } = reported;
  if (isCount(inputTokens) && isCount(outputTokens)) return { inputTokens, outputTokens, source: 'provider' };
  return {
    inputTokens: isCount(inputTokens) ? inputTokens : await estimateChatTokens(messages),
    outputTokens: isCount(outputTokens) ? outputTokens : await countTokens(text),
    source: 'estimated',
  };
}

function isCount(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** One debug line per call: sizes only, never the prompt or the key. */
export function logRequest(logger: Logger, context: CallContext, request: ChatRequest, operation: string): void {
  const characters = request.messages.reduce((sum, message) => sum + message.content.length, 0);
  logger.debug(
    `${context.label} ${operation}: ${context.endpoint} model=${context.model} messages=${request.messages.length} characters=${characters} stream=${request.onText !== undefined}`,
  );
}

export function logAnswer(
  logger: Logger,
  context: CallContext,
  startedAt: number,
  usage: TokenUsage,
  finishReason: string | undefined,
): void {
  logger.debug(
    `${context.label} answered in ${Date.now() - startedAt} ms: ${usage.inputTokens} input + ${usage.outputTokens} output tokens (${usage.source}), stop: ${finishReason ?? 'unknown'}`,
  );
}

/** Adapts our logger to the SDKs' (they only log warnings and errors through it). */
export function sdkLogger(logger: Logger): {
  error: (message: string, ...rest: unknown[]) => void;
  warn: (message: string, ...rest: unknown[]) => void;
  info: (message: string, ...rest: unknown[]) => void;
  debug: (message: string, ...rest: unknown[]) => void;
} {
  return {
    error: (message, ...rest) => logger.error(message, ...rest),
    warn: (message, ...rest) => logger.warn(message, ...rest),
    info: (message, ...rest) => logger.info(message, ...rest),
    debug: (message, ...rest) => logger.debug(message, ...rest),
  };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** Checks the URL and drops trailing slashes so messages and URL joins read cleanly. */
export function normalizeBaseUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new Error(`invalid base URL "${url}": give a full URL such as http://127.0.0.1:11434/v1`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`invalid base URL "${url}": only http and https are supported`);
  }
  return trimmed;
}

/**
 * A 2xx answer to a streaming request whose body is JSON or HTML, not server-sent events: a proxy's login page, a
 * server that ignores `stream`, an error page sent with 200. The SDKs would find no events in it and report a stream
 * that ended early; this says what arrived instead.
 */
export class UnexpectedBodyError extends Error {
  constructor(
    readonly contentType: string,
    readonly start: string,
  ) {
    super(`expected a stream of server-sent events, but the server sent ${contentType}: ${JSON.stringify(start)}`);
  }
}

const SHOWN_BODY_CHARACTERS = 300;

/**
 * The longest answer a model may send: the answer limit of `parseOperations` (2 MB of text). A longer one (a model
 * stuck repeating itself, a stream that never ends) is cut there with a clear error instead of growing until the
 * process runs out of memory.
 */
export const MAX_ANSWER_BYTES = DEFAULT_MAX_ANSWER_BYTES;

/**
 * The most bytes one response may carry on the wire. Streamed events wrap each few characters of text in a JSON
 * envelope of a hundred bytes or more, so this is far above MAX_ANSWER_BYTES; it stops what the text limit cannot
 * see: events without text, or one line that never ends.
 */
export const MAX_RESPONSE_BYTES = 64 * MAX_ANSWER_BYTES;

/** The answer passed MAX_ANSWER_BYTES: never retried (the model would likely do it again). */
export function answerTooLongError(context: CallContext): LlmError {
  return new LlmError(
    'bad-response',
    `the answer from ${context.endpoint} passed ${formatMegabytes(MAX_ANSWER_BYTES)}, the limit of one answer (a model stuck repeating itself?); it was cut off there and discarded — ask for a smaller change, or try again`,
  );
}

function formatMegabytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

/** Counts a streamed answer's bytes as it grows and throws once it passes MAX_ANSWER_BYTES. */
export function answerSizeGuard(context: CallContext): (delta: string) => void {
  let bytes = 0;
  return (delta) => {
    bytes += Buffer.byteLength(delta, 'utf8');
    if (bytes > MAX_ANSWER_BYTES) throw answerTooLongError(context);
  };
}

/** A response body that passed MAX_RESPONSE_BYTES; the providers report it as an unreadable answer. */
export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response passed ${formatMegabytes(limit)} and was cut off there`);
  }
}

/**
 * A redirect to another origin than the endpoint the user set: following it would send the whole prompt (the code in
 * focus) to a host the user never chose. Same-origin redirects are followed.
 */
export class RedirectRefusedError extends Error {
  constructor(
    readonly from: URL,
    readonly to: URL,
    readonly status: number,
  ) {
    super(
      `${from.origin} redirected the request to ${to.origin} (HTTP ${status}); Scalpel sends the prompt only to the endpoint you set, so it did not follow: if ${to.host} is where your model is served, set it as the base URL`,
    );
  }
}

const MAX_REDIRECTS = 5;

/**
 * fetch for the SDKs, the one way a request leaves for a model server:
 * - redirects are followed by hand and only within the endpoint's origin (the same scheme, host and port; from http to
 *   https on the same host too): anything else is refused with both hosts named;
 * - a streaming request answered with JSON or HTML (a proxy's login page) is refused with the start of the body;
 * - a response body stops at MAX_RESPONSE_BYTES.
 */
export function guardedFetch(inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    const first = url;
    let response: Response | undefined;
    for (let hops = 0; ; hops++) {
      response = await inner(url, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) break;
      await response.body?.cancel().catch(() => undefined);
      const target = new URL(location, url);
      if (!sameOrigin(first, target)) throw new RedirectRefusedError(first, target, response.status);
      if (hops >= MAX_REDIRECTS) throw new RedirectRefusedError(url, target, response.status);
      url = target;
    }
    const expectsStream = typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
    const contentType = response.headers.get('content-type') ?? '';
    if (expectsStream && response.ok && /json|html/i.test(contentType)) {
      throw new UnexpectedBodyError(contentType, await bodyStart(response));
    }
    return limitBody(response, MAX_RESPONSE_BYTES);
  };
}

/** The same origin, or the same host reached over https instead of http (an upgrade, never a downgrade). */
function sameOrigin(endpoint: URL, target: URL): boolean {
  if (endpoint.origin === target.origin) return true;
  return (
    endpoint.protocol === 'http:' &&
    target.protocol === 'https:' &&
    endpoint.hostname === target.hostname &&
    (target.port === '' || target.port === '443')
  );
}

/** The response with its body cut (as an error) after `limit` bytes. */
function limitBody(response: Response, limit: number): Response {
  if (response.body === null) return response;
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new ResponseTooLargeError(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function bodyStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < SHOWN_BODY_CHARACTERS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > SHOWN_BODY_CHARACTERS ? `${oneLine.slice(0, SHOWN_BODY_CHARACTERS)}…` : oneLine;
}

/**
 * What guardedFetch refused, behind what an SDK threw (they wrap what fetch throws as a connection error): an
 * unexpected body, a refused redirect, a body over the limit. The providers report it as an unreadable answer, never
 * retried.
 */
export function unexpectedBodyIn(
  error: unknown,
): UnexpectedBodyError | RedirectRefusedError | ResponseTooLargeError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (
      current instanceof UnexpectedBodyError ||
      current instanceof RedirectRefusedError ||
      current instanceof ResponseTooLargeError
    )
      return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** fetch reports a broken body as `TypeError: terminated` with a socket error as its cause. */
export function isTransportError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TypeError' && /terminated|fetch failed|network/i.test(error.message)) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code);
}

/** An answer as one attempt read it off the wire, before usage is settled. */
export interface RawAnswer {
  readonly text: string;
  readonly model: string;
  readonly finishReason: string | undefined;
  readonly usage: { inputTokens: number | undefined; outputTokens: number | undefined };
}

/** What both providers hold for their calls. */
export interface ProviderCallSettings {
  readonly context: CallContext;
  readonly policy: RetryPolicy;
  /** The whole call's time limit. */
  readonly timeoutMs: number;
  /** Longest silence between streamed events. */
  readonly idleTimeoutMs: number;
  readonly logger: Logger;
  /** The vendor's own endpoint, which refuses requests without a key. */
  readonly isOfficial: boolean;
  readonly classify: (error: unknown) => ProviderFailure;
}

/** One call with the providers' shared rules: the key check, retries and timeouts, logging, usage. */
export async function runProviderCall<T>(
  settings: ProviderCallSettings,
  signal: AbortSignal | undefined,
  operation: string,
  attempt: (controls: AttemptControls) => Promise<T>,
): Promise<T> {
  const { policy, timeoutMs, idleTimeoutMs, logger, classify, context } = settings;
  return runWithRetries(
    { policy, deadlineMs: timeoutMs, idleTimeoutMs, signal, logger, context, classify, operation },
    attempt,
  );
}

/** A chat call: refuses a missing key up front, retries, and settles the usage (reported or estimated). */
export async function runChat(
  settings: ProviderCallSettings,
  request: ChatRequest,
  attempt: (controls: AttemptControls) => Promise<RawAnswer>,
): Promise<ChatResponse> {
  const { context, logger } = settings;
  if (settings.isOfficial && context.apiKey === undefined) {
    throw new LlmError('auth', `${context.endpoint} requires an API key: set it with ${context.apiKeyHint}`);
  }
  const startedAt = Date.now();
  logRequest(logger, context, request, 'chat');
  const answer = await runProviderCall(settings, request.signal, 'chat', attempt);
  // A non-streamed answer is bounded only by MAX_RESPONSE_BYTES on the wire: the text limit holds for it too.
  if (Buffer.byteLength(answer.text, 'utf8') > MAX_ANSWER_BYTES) {
    throw answerTooLongError(context);
  }
  const usage = await usageOrEstimate(answer.usage, request.messages, answer.text);
  logAnswer(logger, context, startedAt, usage, answer.finishReason);
  return {
    text: answer.text,
    usage,
    model: answer.model,
    ...(answer.finishReason === undefined ? {} : { finishReason: answer.finishReason }),
  };
}
