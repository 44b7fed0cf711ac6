/** Pieces both providers share: streaming delivery, usage, request logging, and what a base URL points at. */
import type { Logger } from '../logger';
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

/** fetch for the SDKs: refuses a streaming request's JSON or HTML answer with the start of the body. */
export function streamCheckingFetch(inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const expectsStream = typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
    const contentType = response.headers.get('content-type') ?? '';
    if (!expectsStream || !response.ok || !/json|html/i.test(contentType)) return response;
    throw new UnexpectedBodyError(contentType, await bodyStart(response));
  };
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

/** The UnexpectedBodyError behind what an SDK threw (they wrap what fetch throws as a connection error). */
export function unexpectedBodyIn(error: unknown): UnexpectedBodyError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof UnexpectedBodyError) return current;
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
  const usage = await usageOrEstimate(answer.usage, request.messages, answer.text);
  logAnswer(logger, context, startedAt, usage, answer.finishReason);
  return {
    text: answer.text,
    usage,
    model: answer.model,
    ...(answer.finishReason === undefined ? {} : { finishReason: answer.finishReason }),
  };
}
