/** Claude through the official `@anthropic-ai/sdk`, using the messages API. */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { nullLogger, type Logger } from '../logger';
import { outputLimitError, truncatedStreamError, type CallContext, type ProviderFailure } from './errors';
import type { ChatProvider, ChatRequest, ChatResponse } from './provider';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  deliverText,
  hostOf,
  isTransportError,
  normalizeBaseUrl,
  runChat,
  runProviderCall,
  sdkLogger,
  answerSizeGuard,
  guardedFetch,
  unexpectedBodyIn,
  type ProviderCallSettings,
  type RawAnswer,
} from './providerSupport';
import { DEFAULT_RETRY_POLICY, type AttemptControls, type RetryPolicy } from './retry';

import { ANTHROPIC_BASE_URL } from './providerDefaults';

export { ANTHROPIC_BASE_URL };
/** The messages API requires `max_tokens`; this fits a large element edit with room to spare. */
export const ANTHROPIC_DEFAULT_MAX_OUTPUT_TOKENS = 8192;

// Keeps the SDK from looking for credentials in the environment or profile files when a proxy needs no key.
const PLACEHOLDER_API_KEY = 'no-key';

export interface AnthropicProviderOptions {
  /** Default: the Anthropic API. Without `/v1`: the SDK adds it. */
  readonly baseUrl?: string;
  readonly model: string;
  readonly apiKey?: string;
  /** How the user sets the key, for error messages. Default: the ANTHROPIC_API_KEY environment variable. */
  readonly apiKeyHint?: string;
  /** Where the key came from, named when the server rejects it. */
  readonly apiKeySource?: string;
  /** Time limit of one call, retries and waits included. Default 600 s. */
  readonly timeoutMs?: number;
  /** Longest silence between streamed events once the headers are in. Default 180 s. */
  readonly idleTimeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Used when a request gives no `maxOutputTokens`. Default 8192. */
  readonly defaultMaxOutputTokens?: number;
  readonly logger?: Logger;
}

export class AnthropicProvider implements ChatProvider {
  readonly id = 'anthropic';
  readonly model: string;
  readonly endpoint: string;
  private readonly client: Anthropic;
  private readonly context: CallContext;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly logger: Logger;
  private readonly isOfficial: boolean;
  private readonly defaultMaxOutputTokens: number;

  constructor(options: AnthropicProviderOptions) {
    this.model = options.model;
    this.endpoint = normalizeBaseUrl(options.baseUrl ?? ANTHROPIC_BASE_URL);
    this.logger = options.logger ?? nullLogger;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.defaultMaxOutputTokens = options.defaultMaxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_OUTPUT_TOKENS;
    this.isOfficial = hostOf(this.endpoint) === 'api.anthropic.com';
    this.context = {
      label: 'Anthropic',
      endpoint: this.endpoint,
      model: this.model,
      apiKey: options.apiKey === '' ? undefined : options.apiKey,
      apiKeyHint: options.apiKeyHint ?? 'the ANTHROPIC_API_KEY environment variable',
      ...(options.apiKeySource === undefined || options.apiKey === undefined || options.apiKey === ''
        ? {}
        : { apiKeySource: options.apiKeySource }),
      apiPath: '/v1/messages',
      isOllama: false,
    };
    this.client = new Anthropic({
      apiKey: this.context.apiKey ?? PLACEHOLDER_API_KEY,
      baseURL: this.endpoint,
      maxRetries: 0,
      // Our own timer fires first and gives the better message; this one is a backstop. Setting it also keeps the
      // SDK from refusing large unstreamed requests on its own estimate.
      timeout: this.timeoutMs + 5_000,
      logger: sdkLogger(this.logger),
      logLevel: 'warn',
      fetch: guardedFetch(),
    });
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    return runChat(this.callSettings, request, (controls) => this.attempt(request, controls));
  }

  private get callSettings(): ProviderCallSettings {
    return {
      context: this.context,
      policy: this.policy,
      timeoutMs: this.timeoutMs,
      idleTimeoutMs: this.idleTimeoutMs,
      logger: this.logger,
      isOfficial: this.isOfficial,
      classify: classifyAnthropicError,
    };
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    return runProviderCall(
      { ...this.callSettings, context: { ...this.context, apiPath: '/v1/models' } },
      signal,
      'list models',
      async (controls) => {
        const ids: string[] = [];
        for await (const model of this.client.models.list({}, { signal: controls.signal })) ids.push(model.id);
        return ids;
      },
    );
  }

  private async attempt(request: ChatRequest, controls: AttemptControls): Promise<RawAnswer> {
    const maxOutputTokens = request.maxOutputTokens ?? this.defaultMaxOutputTokens;
    // The messages API takes the system prompt apart from the conversation.
    const system = request.messages
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n\n');
    const messages: MessageParam[] = request.messages
      .filter((message) => message.role !== 'system')
      .map((message) => ({ role: message.role === 'assistant' ? 'assistant' : 'user', content: message.content }));
    const params: MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: maxOutputTokens,
      messages,
      ...(system === '' ? {} : { system }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    };
    const requestOptions = { signal: controls.signal, maxRetries: 0 };

    if (request.onText === undefined) {
      const message = await this.client.messages.create(params, requestOptions);
      if (message.stop_reason === 'max_tokens') throw outputLimitError(this.context, maxOutputTokens);
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return {
        text,
        model: message.model || this.model,
        finishReason: message.stop_reason ?? undefined,
        usage: { inputTokens: totalInputTokens(message.usage), outputTokens: message.usage?.output_tokens },
      };
    }

    const stream = await this.client.messages.create({ ...params, stream: true }, requestOptions);
    controls.progress();
    let text = '';
    let model = this.model;
    let finishReason: string | undefined;
    let inputTokens: number | undefined;
    let outputTokens: number | undefined;
    let finished = false;
    const grow = answerSizeGuard(this.context);
    for await (const event of stream) {
      controls.progress();
      switch (event.type) {
        case 'message_start':
          if (event.message.model) model = event.message.model;
          inputTokens = totalInputTokens(event.message.usage);
          outputTokens = event.message.usage?.output_tokens ?? outputTokens;
          break;
        case 'content_block_delta':
          if (event.delta.type === 'text_delta') {
            grow(event.delta.text);
            text += event.delta.text;
            deliverText(event.delta.text, request, controls);
          }
          break;
        case 'message_delta':
          finishReason = event.delta.stop_reason ?? finishReason;
          // Counts in message_delta are cumulative and replace the ones from message_start.
          if (typeof event.usage?.output_tokens === 'number') outputTokens = event.usage.output_tokens;
          if (typeof event.usage?.input_tokens === 'number') inputTokens = totalInputTokens(event.usage);
          break;
        case 'message_stop':
          finished = true;
          break;
        default:
          break;
      }
    }
    // The SDK ends the iteration quietly when the request is aborted; the retry loop turns this into the reason.
    if (controls.signal.aborted) throw new Error('aborted');
    if (!finished) throw truncatedStreamError(this.context);
    if (finishReason === 'max_tokens') throw outputLimitError(this.context, maxOutputTokens);
    return { text, model, finishReason, usage: { inputTokens, outputTokens } };
  }
}

interface AnthropicUsageCounts {
  readonly input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}

/** Cached prompt tokens are reported apart from `input_tokens`; the prompt's size is their sum. */
function totalInputTokens(usage: AnthropicUsageCounts | null | undefined): number | undefined {
  if (usage === null || usage === undefined || typeof usage.input_tokens !== 'number') return undefined;
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** Maps what the Anthropic SDK (and fetch beneath it) throws onto the provider-neutral failure. */
export function classifyAnthropicError(error: unknown): ProviderFailure {
  const unexpected = unexpectedBodyIn(error);
  if (unexpected !== undefined) return { kind: 'bad-response', detail: unexpected.message, cause: unexpected };
  if (error instanceof Anthropic.APIUserAbortError) return { kind: 'cancelled' };
  if (error instanceof Anthropic.APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof Anthropic.APIConnectionError) return { kind: 'connection', cause: error.cause ?? error };
  if (error instanceof Anthropic.APIError) {
    const body: unknown = error.error;
    const inner = errorObject(body);
    const innerMessage = inner?.['message'];
    const innerType = inner?.['type'];
    return {
      kind: 'http',
      status: error.status,
      headers: error.headers,
      message: typeof innerMessage === 'string' ? innerMessage : error.message.replace(/^\d{3}\s+/, ''),
      type: typeof innerType === 'string' ? innerType : undefined,
      code: undefined,
      body,
    };
  }
  if (error instanceof SyntaxError) return { kind: 'bad-response', detail: error.message, cause: error };
  if (isTransportError(error)) return { kind: 'connection', cause: error };
  throw error;
}

/** Anthropic nests `{type, message}` under `error`; proxies in front of it sometimes send the OpenAI shape. */
function errorObject(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const nested = (body as Record<string, unknown>)['error'];
  return typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>) : undefined;
}
