import { DEFAULT_MODELS, OLLAMA_BASE_URL, OPENAI_BASE_URL } from '../../core/llm/providerDefaults';
import type { ScalpelConfig } from '../config';
import { endpointProviderOf, type EndpointProvider } from '../modelAccess';

/**
 * Which endpoint models Scalpel offers as VS Code language models, decided from the settings and the stored keys
 * without loading the engine: the model picker asks for them during activation.
 */

export interface EndpointModel {
  readonly kind: EndpointProvider;
  /** The model name the endpoint knows. */
  readonly model: string;
}

/** The engine's defaults, from the one module that states them and imports no SDK. */
export const ENDPOINT_DEFAULT_MODELS: Readonly<Record<EndpointProvider, string>> = DEFAULT_MODELS;
export const OLLAMA_DEFAULT_BASE_URL = OLLAMA_BASE_URL;
export const OPENAI_DEFAULT_BASE_URL = OPENAI_BASE_URL;

const KIND_LABELS: Readonly<Record<EndpointProvider, string>> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
};

/**
 * Context windows to announce. Servers do not say: OpenAI's and Anthropic's current models take at least these;
 * Ollama runs models with a small window unless told otherwise (OLLAMA_CONTEXT_LENGTH), so it gets a modest one.
 */
const MAX_INPUT_TOKENS: Readonly<Record<EndpointProvider, number>> = {
  openai: 128_000,
  anthropic: 200_000,
  ollama: 8_192,
};

export function maxInputTokensOf(kind: EndpointProvider): number {
  return MAX_INPUT_TOKENS[kind];
}

export function kindLabelOf(kind: EndpointProvider, baseUrl: string): string {
  return kind === 'openai' && baseUrl !== '' ? 'OpenAI-compatible' : KIND_LABELS[kind];
}

/** The id a model carries in VS Code: `<kind>:<model>`. Model names may hold `:` and `/` (`llama3.1:8b`). */
export function modelIdOf(model: EndpointModel): string {
  return `${model.kind}:${model.model}`;
}

export function parseModelId(id: string): EndpointModel | undefined {
  const colon = id.indexOf(':');
  if (colon <= 0) return undefined;
  const kind = id.slice(0, colon);
  const model = id.slice(colon + 1);
  if ((kind !== 'openai' && kind !== 'anthropic' && kind !== 'ollama') || model === '') return undefined;
  return { kind, model };
}

/** Whether the settings point Scalpel at one endpoint in particular (a provider named, or a base URL). */
export function settingsNameEndpoint(config: ScalpelConfig): boolean {
  return (
    config.provider === 'openai' ||
    config.provider === 'anthropic' ||
    config.provider === 'ollama' ||
    (config.provider === 'auto' && config.baseUrl !== '')
  );
}

/**
 * The settings that apply to an endpoint kind: `scalpel.baseUrl` and `scalpel.model` belong to the endpoint the
 * settings name, every other kind runs at its default address. Under `vscode-lm`, `scalpel.model` names a VS Code
 * model, not an endpoint's.
 */
export function endpointSettingsFor(
  config: ScalpelConfig,
  kind: EndpointProvider,
): { readonly baseUrl: string; readonly model: string } {
  if (endpointProviderOf(config) !== kind) return { baseUrl: '', model: '' };
  return { baseUrl: config.baseUrl, model: config.provider === 'vscode-lm' ? '' : config.model };
}

export function modelNameFor(config: ScalpelConfig, kind: EndpointProvider): string {
  const { model } = endpointSettingsFor(config, kind);
  return model === '' ? ENDPOINT_DEFAULT_MODELS[kind] : model;
}

export interface EndpointDiscovery {
  readonly hasKey: (kind: EndpointProvider) => Promise<boolean>;
  /** The models an Ollama server offers, or undefined when it does not answer. */
  readonly listOllamaModels: (baseUrl: string) => Promise<readonly string[] | undefined>;
}

/**
 * The endpoints the user configured, one model each except Ollama, whose pulled models are all offered:
 * the endpoint the settings name (even without a key, so that using it says what is missing), every provider
 * with a stored key, and under `auto` a local Ollama when one answers.
 */
export async function configuredEndpointModels(
  config: ScalpelConfig,
  discovery: EndpointDiscovery,
): Promise<EndpointModel[]> {
  const models: EndpointModel[] = [];
  const add = (kind: EndpointProvider, model: string): void => {
    if (!models.some((m) => m.kind === kind && sameModel(kind, m.model, model))) models.push({ kind, model });
  };
  const named = settingsNameEndpoint(config) ? endpointProviderOf(config) : undefined;
  if (named !== undefined) add(named, modelNameFor(config, named));
  for (const kind of ['openai', 'anthropic'] as const) {
    if (kind !== named && (await discovery.hasKey(kind))) add(kind, modelNameFor(config, kind));
  }
  const probeOllama = named === 'ollama' || (config.provider === 'auto' && config.baseUrl === '');
  if (probeOllama) {
    const baseUrl = endpointSettingsFor(config, 'ollama').baseUrl;
    const listed = await discovery.listOllamaModels(baseUrl === '' ? OLLAMA_DEFAULT_BASE_URL : baseUrl);
    for (const model of listed ?? []) add('ollama', model);
  }
  return models;
}

/** Ollama reads `llama3.1` as `llama3.1:latest`, the name its model list uses. */
function sameModel(kind: EndpointProvider, a: string, b: string): boolean {
  if (kind !== 'ollama') return a === b;
  const withTag = (name: string): string => (name.includes(':') ? name : `${name}:latest`);
  return withTag(a) === withTag(b);
}
