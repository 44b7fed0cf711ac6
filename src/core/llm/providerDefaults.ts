/**
 * The providers Scalpel knows and their defaults, in a module that imports no SDK: the extension reads these while
 * announcing its language models, without loading the engine.
 */

export const PROVIDER_KINDS = ['openai', 'anthropic', 'ollama'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

export const DEFAULT_MODELS: Readonly<Record<ProviderKind, string>> = {
  openai: 'gpt-5.4-mini',
  anthropic: 'claude-sonnet-4-6',
  ollama: 'llama3.1',
};

export const DEFAULT_BASE_URLS: Readonly<Record<ProviderKind, string>> = {
  openai: OPENAI_BASE_URL,
  anthropic: ANTHROPIC_BASE_URL,
  ollama: OLLAMA_BASE_URL,
};
