/**
 * Chat completions through the official `openai` SDK, for OpenAI itself and every server that speaks its API:
 * Ollama (`http://127.0.0.1:11434/v1`), LM Studio, vLLM, llama.cpp's server, OpenRouter.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
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
import { estimateChatTokens } from './tokenEstimate';
import { DEFAULT_RETRY_POLICY, type AttemptControls, type RetryPolicy } from './retry';

export { OLLAMA_BASE_URL, OPENAI_BASE_URL } from './providerDefaults';

// The SDK insists on a key; local servers ignore whatever arrives in the Authorization header.
const PLACEHOLDER_API_KEY = 'no-key';

export interface OpenAiProviderOptions {
  /** `openai`, or `ollama` for the local Ollama server (changes hints in error messages). */
  readonly id?: string;
  readonly baseUrl: string;
  readonly model: string;
  /** Not needed by local servers. */
  readonly apiKey?: string;
  /** How the user sets the key, for error messages. Default: the OPENAI_API_KEY environment variable. */
  readonly apiKeyHint?: string;
  /** Where the key came from, named when the server rejects it. */
  readonly apiKeySource?: string;
  /** Time limit of one call, retries and waits included. Default 600 s. */
  readonly timeoutMs?: number;
  /** Longest silence between streamed events once the headers are in. Default 180 s. */
  readonly idleTimeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Sent when a request gives no `maxOutputTokens`; without either the server's default applies. */
  readonly defaultMaxOutputTokens?: number;
  readonly logger?: Logger;
}

export class OpenAiProvider implements ChatProvider {
  readonly id: string;
  readonly model: string;
  readonly endpoint: string;
  private readonly client: OpenAI;
  private readonly context: CallContext;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly logger: Logger;
  private readonly isOfficial: boolean;
  private readonly defaultMaxOutputTokens: number | undefined;
  // Learnt from the server's 400s, so later calls do not repeat a request it cannot take.
  private sendTemperature = true;
  private outputLimitField: 'max_tokens' | 'max_completion_tokens';

  constructor(options: OpenAiProviderOptions) {
    this.id = options.id ?? 'openai';
    this.model = options.model;
    this.endpoint = normalizeBaseUrl(options.baseUrl);
    this.logger = options.logger ?? nullLogger;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.defaultMaxOutputTokens = options.defaultMaxOutputTokens;
    const host = hostOf(this.endpoint);
    this.isOfficial = host === 'api.openai.com';
    // OpenAI's reasoning models refuse max_tokens; most compatible servers know only max_tokens.
    this.outputLimitField = this.isOfficial ? 'max_completion_tokens' : 'max_tokens';
    const isOllama = this.id === 'ollama' || new URL(this.endpoint).port === '11434';
    this.context = {
      label: this.isOfficial ? 'OpenAI' : isOllama ? 'Ollama' : 'OpenAI-compatible server',
      endpoint: this.endpoint,
      model: this.model,
      apiKey: options.apiKey === '' ? undefined : options.apiKey,
      apiKeyHint: options.apiKeyHint ?? 'the OPENAI_API_KEY environment variable',
      ...(options.apiKeySource === undefined || options.apiKey === undefined || options.apiKey === ''
        ? {}
        : { apiKeySource: options.apiKeySource }),
      apiPath: '/chat/completions',
      isOllama,
    };
    this.client = new OpenAI({
      apiKey: this.context.apiKey ?? PLACEHOLDER_API_KEY,
      baseURL: this.endpoint,
      maxRetries: 0,
      // Our own timer fires first and gives the better message; this one is a backstop.
      timeout: this.timeoutMs + 5_000,
      logger: sdkLogger(this.logger),
      logLevel: 'warn',
      fetch: guardedFetch(),
    });
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const response = await runChat(this.callSettings, request, (controls) =>
      this.withParameterFallbacks(request, controls),
    );
    if (this.context.isOllama && response.usage.source === 'provider') {
      await this.warnIfPromptCut(request, response.usage.inputTokens);
    }
    return response;
  }

  private get callSettings(): ProviderCallSettings {
    return {
      context: this.context,
      policy: this.policy,
      timeoutMs: this.timeoutMs,
      idleTimeoutMs: this.idleTimeoutMs,
      logger: this.logger,
      isOfficial: this.isOfficial,
      classify: classifyOpenAiError,
    };
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    return runProviderCall(
      { ...this.callSettings, context: { ...this.context, apiPath: '/models' } },
      signal,
      'list models',
      async (controls) => {
        const ids: string[] = [];
        for await (const model of this.client.models.list({ signal: controls.signal })) ids.push(model.id);
        return ids;
      },
    );
  }

  /**
   * Ollama's OpenAI API silently drops the start of a prompt longer than the model's context window (often 4096
   * tokens by default), system prompt first. Its token count then falls far below the prompt's real size. Tokenizers
   * differ by family, hence the wide margin.
   */
  private async warnIfPromptCut(request: ChatRequest, reportedInputTokens: number): Promise<void> {
    const estimated = await estimateChatTokens(request.messages);
    if (estimated < 1_000 || reportedInputTokens >= estimated * 0.6) return;
    this.logger.warn(
      `${this.context.label} at ${this.endpoint} read ${reportedInputTokens} prompt tokens of about ${estimated}: it probably cut the prompt to the model's context window. Raise the window (e.g. OLLAMA_CONTEXT_LENGTH=32768 for \`ollama serve\`) or send less context.`,
    );
  }

  /**
   * Some models refuse `temperature`, and servers disagree on the name of the output limit. The server says which
   * parameter it refused (400 with `param`); the request is sent again without it, once per parameter.
   */
  private async withParameterFallbacks(request: ChatRequest, controls: AttemptControls): Promise<RawAnswer> {
    for (let adjustments = 0; ; adjustments++) {
      try {
        return await this.attempt(request, controls);
      } catch (error) {
        const refused = adjustments < 2 ? refusedParameter(error) : undefined;
        if (refused === 'temperature' && this.sendTemperature && request.temperature !== undefined) {
          this.sendTemperature = false;
        } else if (refused === 'max_tokens' && this.outputLimitField === 'max_tokens') {
          this.outputLimitField = 'max_completion_tokens';
        } else if (refused === 'max_completion_tokens' && this.outputLimitField === 'max_completion_tokens') {
          this.outputLimitField = 'max_tokens';
        } else {
          throw error;
        }
        this.logger.info(
          `${this.context.label} refused the parameter ${refused} for ${this.model}; sending the request without it`,
        );
      }
    }
  }

  private async attempt(request: ChatRequest, controls: AttemptControls): Promise<RawAnswer> {
    const maxOutputTokens = request.maxOutputTokens ?? this.defaultMaxOutputTokens;
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
      ...(maxOutputTokens === undefined ? {} : { [this.outputLimitField]: maxOutputTokens }),
      ...(request.temperature !== undefined && this.sendTemperature ? { temperature: request.temperature } : {}),
    };
    const requestOptions = { signal: controls.signal, maxRetries: 0 };

    if (request.onText === undefined) {
      const completion = await this.client.chat.completions.create(params, requestOptions);
      const choice = completion.choices[0];
      if (choice === undefined) throw new NoChoicesError();
      if (choice.finish_reason === 'length') throw outputLimitError(this.context, maxOutputTokens);
      return {
        text: choice.message.content ?? '',
        model: completion.model || this.model,
        finishReason: choice.finish_reason,
        usage: { inputTokens: completion.usage?.prompt_tokens, outputTokens: completion.usage?.completion_tokens },
      };
    }

    const stream = await this.client.chat.completions.create(
      { ...params, stream: true, stream_options: { include_usage: true } },
      requestOptions,
    );
    controls.progress();
    let text = '';
    let model = this.model;
    let finishReason: string | undefined;
    let usage: RawAnswer['usage'] = { inputTokens: undefined, outputTokens: undefined };
    const grow = answerSizeGuard(this.context);
    for await (const chunk of stream) {
      controls.progress();
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      const choice = chunk.choices[0];
      if (choice === undefined) continue;
      const delta = choice.delta?.content ?? '';
      grow(delta);
      text += delta;
      deliverText(delta, request, controls);
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    // The SDK ends the iteration quietly when the request is aborted; the retry loop turns this into the reason.
    if (controls.signal.aborted) throw new Error('aborted');
    if (finishReason === undefined) throw truncatedStreamError(this.context);
    if (finishReason === 'length') throw outputLimitError(this.context, maxOutputTokens);
    return { text, model, finishReason, usage };
  }
}

class NoChoicesError extends Error {
  constructor() {
    super('the answer has no choices');
  }
}

function refusedParameter(error: unknown): string | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== 400) return undefined;
  const param = typeof error.param === 'string' ? error.param : undefined;
  const message = error.message;
  const named = param ?? /'(temperature|max_tokens|max_completion_tokens)'/.exec(message)?.[1];
  if (named === undefined || !/unsupported|not supported|unrecognized|unknown/i.test(message)) return undefined;
  return named;
}

/** Maps what the OpenAI SDK (and fetch beneath it) throws onto the provider-neutral failure. */
export function classifyOpenAiError(error: unknown): ProviderFailure {
  const unexpected = unexpectedBodyIn(error);
  if (unexpected !== undefined) return { kind: 'bad-response', detail: unexpected.message, cause: unexpected };
  if (error instanceof OpenAI.APIUserAbortError) return { kind: 'cancelled' };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof OpenAI.APIConnectionError) return { kind: 'connection', cause: error.cause ?? error };
  if (error instanceof OpenAI.APIError) {
    const body: unknown = error.error;
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
    const bodyMessage = record?.['message'];
    const message =
      typeof bodyMessage === 'string'
        ? bodyMessage
        : typeof body === 'string'
          ? body
          : error.message.replace(/^\d{3}\s+/, '');
    return {
      kind: 'http',
      status: error.status,
      headers: error.headers,
      message,
      type: typeof error.type === 'string' ? error.type : undefined,
      code: typeof error.code === 'string' ? error.code : undefined,
      body,
    };
  }
  if (error instanceof NoChoicesError || error instanceof SyntaxError) {
    return { kind: 'bad-response', detail: error.message, cause: error };
  }
  if (isTransportError(error)) return { kind: 'connection', cause: error };
  throw error;
}
