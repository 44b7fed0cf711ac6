/** Builds the chat provider from plain settings, and reads those settings from the CLI's flags and environment. */
import type { Logger } from '../logger';
import { AnthropicProvider } from './anthropicProvider';
import { OpenAiProvider } from './openaiProvider';
import { DEFAULT_BASE_URLS, DEFAULT_MODELS, PROVIDER_KINDS, type ProviderKind } from './providerDefaults';
import type { ChatProvider } from './provider';
import type { RetryPolicy } from './retry';

export { DEFAULT_BASE_URLS, DEFAULT_MODELS, PROVIDER_KINDS, type ProviderKind } from './providerDefaults';

export interface ProviderConfig {
  /** `ollama` is the OpenAI-compatible API of a local Ollama; any other compatible server is `openai` + `baseUrl`. */
  readonly provider: ProviderKind;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKey?: string;
  /** How the user sets the key, quoted in auth errors (the extension names its command, the CLI the variable). */
  readonly apiKeyHint?: string;
  /** Where `apiKey` came from ("the SCALPEL_API_KEY environment variable", SecretStorage), named when it is rejected. */
  readonly apiKeySource?: string;
  /** Time limit of one model request: every attempt, the waits between them and the whole answer. Default 600 s. */
  readonly timeoutMs?: number;
  /** Longest silence between streamed events once the answer's headers are in. Default 180 s. */
  readonly idleTimeoutMs?: number;
  /** Retries after the first attempt on 408/409/429/5xx and failed connections. Default 2. */
  readonly maxRetries?: number;
  /** First retry backoff in ms (doubles per retry, capped at 8 s) when the server names no wait. Default 500. */
  readonly retryDelayMs?: number;
  /** Default output limit for requests that set none (Anthropic: 8192 when unset). */
  readonly maxOutputTokens?: number;
}

export function createProvider(config: ProviderConfig, logger?: Logger): ChatProvider {
  const model = nonEmpty(config.model) ?? DEFAULT_MODELS[config.provider];
  const baseUrl = nonEmpty(config.baseUrl) ?? DEFAULT_BASE_URLS[config.provider];
  const retry: Partial<RetryPolicy> = {
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
    ...(config.retryDelayMs === undefined ? {} : { initialDelayMs: config.retryDelayMs }),
  };
  const shared = {
    model,
    baseUrl,
    retry,
    ...(nonEmpty(config.apiKey) === undefined ? {} : { apiKey: config.apiKey }),
    ...(config.apiKeyHint === undefined ? {} : { apiKeyHint: config.apiKeyHint }),
    ...(config.apiKeySource === undefined ? {} : { apiKeySource: config.apiKeySource }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...(config.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: config.idleTimeoutMs }),
    ...(config.maxOutputTokens === undefined ? {} : { defaultMaxOutputTokens: config.maxOutputTokens }),
    ...(logger === undefined ? {} : { logger }),
  };
  switch (config.provider) {
    case 'anthropic':
      return new AnthropicProvider(shared);
    case 'openai':
    case 'ollama':
      return new OpenAiProvider({ ...shared, id: config.provider });
  }
}

export interface ProviderFlags {
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly model?: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The CLI's provider settings. Flags win over `SCALPEL_PROVIDER`, `SCALPEL_BASE_URL` and `SCALPEL_MODEL`. Without a
 * provider: a base URL alone means an OpenAI-compatible server; otherwise the provider whose key is set
 * (`OPENAI_API_KEY` first, then `ANTHROPIC_API_KEY`); otherwise the local Ollama (at `OLLAMA_HOST` when set).
 * `SCALPEL_API_KEY` overrides the provider's own key variable, e.g. for OpenRouter.
 */
export function providerConfigFromEnv(env: Environment, flags: ProviderFlags = {}): ProviderConfig {
  const named = nonEmpty(flags.provider) ?? nonEmpty(env['SCALPEL_PROVIDER']);
  const baseUrl = nonEmpty(flags.baseUrl) ?? nonEmpty(env['SCALPEL_BASE_URL']);
  const provider = named === undefined ? inferProvider(env, baseUrl) : parseProviderKind(named);
  const model = nonEmpty(flags.model) ?? nonEmpty(env['SCALPEL_MODEL']);
  const keyVariable =
    provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : provider === 'openai' ? 'OPENAI_API_KEY' : undefined;
  const scalpelKey = nonEmpty(env['SCALPEL_API_KEY']);
  const apiKey = scalpelKey ?? (keyVariable === undefined ? undefined : nonEmpty(env[keyVariable]));
  const keySource = scalpelKey !== undefined ? 'SCALPEL_API_KEY' : keyVariable;
  const resolvedBaseUrl = baseUrl ?? (provider === 'ollama' ? ollamaBaseUrlFromHost(env['OLLAMA_HOST']) : undefined);
  return {
    provider,
    ...(resolvedBaseUrl === undefined ? {} : { baseUrl: resolvedBaseUrl }),
    ...(model === undefined ? {} : { model }),
    ...(apiKey === undefined ? {} : { apiKey, apiKeySource: `the ${keySource} environment variable` }),
    apiKeyHint: `the ${keyVariable ?? 'SCALPEL_API_KEY'} environment variable`,
  };
}

export function parseProviderKind(name: string): ProviderKind {
  const kind = name.trim().toLowerCase();
  if ((PROVIDER_KINDS as readonly string[]).includes(kind)) return kind as ProviderKind;
  throw new Error(
    `unknown provider "${name}": use ${PROVIDER_KINDS.join(', ')} (any OpenAI-compatible server is openai with a base URL)`,
  );
}

function inferProvider(env: Environment, baseUrl: string | undefined): ProviderKind {
  if (baseUrl !== undefined) return 'openai';
  if (nonEmpty(env['OPENAI_API_KEY']) !== undefined) return 'openai';
  if (nonEmpty(env['ANTHROPIC_API_KEY']) !== undefined) return 'anthropic';
  return 'ollama';
}

/** Ollama's own clients read `OLLAMA_HOST` as `host`, `host:port` or a URL; a server bound to 0.0.0.0 is local. */
export function ollamaBaseUrlFromHost(host: string | undefined): string | undefined {
  const value = nonEmpty(host);
  if (value === undefined) return undefined;
  try {
    const url = new URL(/^[a-z]+:\/\//i.test(value) ? value : `http://${value}`);
    if (url.hostname === '0.0.0.0' || url.hostname === '') url.hostname = '127.0.0.1';
    if (url.port === '' && !/^[a-z]+:\/\//i.test(value)) url.port = '11434';
    return `${url.origin}/v1`;
  } catch {
    return undefined;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
