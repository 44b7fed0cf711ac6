import * as vscode from 'vscode';
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse } from '../core/llm/provider';
import type { ScalpelConfig } from './config';
import type { Ctx } from './ctx';
import { UserFacingError } from './userError';

/**
 * Which model Scalpel talks to, from the extension: a VS Code language model (Copilot's or any registered one) or
 * an endpoint the user configured, with its key from SecretStorage. Keys never go to settings or the log.
 */

export type EndpointProvider = 'openai' | 'anthropic' | 'ollama';

/** The vendor under which Scalpel registers the user's endpoints as VS Code language models. */
export const SCALPEL_LM_VENDOR = 'scalpel';

const SECRET_PREFIX = 'scalpel.apiKey.';

export function secretKeyFor(provider: EndpointProvider): string {
  return `${SECRET_PREFIX}${provider}`;
}

export async function readApiKey(ctx: Ctx, provider: EndpointProvider): Promise<string | undefined> {
  const key = await ctx.extensionContext.secrets.get(secretKeyFor(provider));
  return key === undefined || key === '' ? undefined : key;
}

export async function storeApiKey(ctx: Ctx, provider: EndpointProvider, key: string): Promise<void> {
  await ctx.extensionContext.secrets.store(secretKeyFor(provider), key.trim());
}

export async function deleteApiKey(ctx: Ctx, provider: EndpointProvider): Promise<void> {
  await ctx.extensionContext.secrets.delete(secretKeyFor(provider));
}

/** The endpoint provider the settings name, `auto` and `vscode-lm` falling back to what a base URL implies. */
export function endpointProviderOf(config: ScalpelConfig): EndpointProvider {
  if (config.provider === 'openai' || config.provider === 'anthropic' || config.provider === 'ollama')
    return config.provider;
  return config.baseUrl === '' ? 'ollama' : 'openai';
}

/** A ChatProvider for the configured endpoint (OpenAI-compatible, Anthropic or Ollama), key from SecretStorage. */
export async function endpointChatProvider(
  ctx: Ctx,
  config: ScalpelConfig,
  provider = endpointProviderOf(config),
): Promise<ChatProvider> {
  const apiKey = await readApiKey(ctx, provider);
  return ctx.engine().createProvider(
    {
      provider,
      ...(config.baseUrl === '' ? {} : { baseUrl: config.baseUrl }),
      ...(config.model === '' ? {} : { model: config.model }),
      ...(apiKey === undefined ? {} : { apiKey }),
      apiKeyHint: 'the command "Scalpel: Set API Key"',
      apiKeySource: `VS Code's secret storage (set with the command "Scalpel: Set API Key" for ${provider})`,
      timeoutMs: config.requestTimeoutSeconds * 1000,
      maxOutputTokens: config.maxOutputTokens,
    },
    ctx.log,
  );
}

/** VS Code language models other than Scalpel's own registrations (which would only loop back to an endpoint). */
export async function selectVsCodeModels(model: string): Promise<vscode.LanguageModelChat[]> {
  const all = await vscode.lm.selectChatModels(model === '' ? {} : { id: model });
  const byFamily = all.length > 0 || model === '' ? all : await vscode.lm.selectChatModels({ family: model });
  return byFamily.filter((m) => m.vendor !== SCALPEL_LM_VENDOR);
}

/**
 * The provider for a request. `preferred` is the model the user picked in the chat (`request.model`), used unless
 * the settings name an endpoint explicitly.
 */
export async function resolveChatProvider(ctx: Ctx, preferred?: vscode.LanguageModelChat): Promise<ChatProvider> {
  const config = ctx.config();
  switch (config.provider) {
    case 'openai':
    case 'anthropic':
    case 'ollama':
      return endpointChatProvider(ctx, config);
    case 'vscode-lm': {
      if (preferred !== undefined) return vscodeLmChatProvider(ctx, preferred);
      const [model] = await selectVsCodeModels(config.model);
      if (model === undefined) {
        throw new UserFacingError(
          config.model === ''
            ? 'No VS Code language model is available. Install and sign in to GitHub Copilot, or set "scalpel.provider" to an endpoint (OpenAI, Anthropic or Ollama).'
            : `No VS Code language model matches "${config.model}". Run "Scalpel: Select Model / Provider" to pick one.`,
          ['Select Model'],
        );
      }
      return vscodeLmChatProvider(ctx, model);
    }
    case 'auto': {
      if (preferred !== undefined) return vscodeLmChatProvider(ctx, preferred);
      if (config.baseUrl === '') {
        const [model] = await selectVsCodeModels(config.model);
        if (model !== undefined) return vscodeLmChatProvider(ctx, model);
      }
      return endpointChatProvider(ctx, config);
    }
  }
}

function toLanguageModelMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  // The Language Model API has no system role: the system prompt goes first as a user message, the common practice.
  return messages.map((m) =>
    m.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(m.content)
      : vscode.LanguageModelChatMessage.User(m.content),
  );
}

/** Adapts a VS Code language model to the core's ChatProvider: streaming, cancellation, token usage, errors. */
export function vscodeLmChatProvider(ctx: Ctx, model: vscode.LanguageModelChat): ChatProvider {
  return {
    id: `vscode-lm:${model.vendor}`,
    model: model.id,
    endpoint: `VS Code language model ${model.name} (${model.vendor})`,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const engine = ctx.engine();
      const source = new vscode.CancellationTokenSource();
      const abort = (): void => source.cancel();
      request.signal?.addEventListener('abort', abort, { once: true });
      try {
        if (request.signal?.aborted === true) throw new engine.LlmError('cancelled', 'cancelled');
        const messages = toLanguageModelMessages(request.messages);
        const response = await model.sendRequest(
          messages,
          { justification: 'Scalpel sends the focused context of the elements you edit to the model you chose.' },
          source.token,
        );
        let text = '';
        for await (const delta of response.text) {
          text += delta;
          request.onText?.(delta);
        }
        if (source.token.isCancellationRequested) throw new engine.LlmError('cancelled', 'cancelled');
        const counter = engine.createTokenCounter();
        const inputTokens = request.messages.reduce((sum, m) => sum + counter.count(m.content), 0);
        return {
          text,
          model: model.id,
          usage: { inputTokens, outputTokens: counter.count(text), source: 'estimated' },
        };
      } catch (error) {
        if (error instanceof engine.LlmError) throw error;
        if (source.token.isCancellationRequested || error instanceof vscode.CancellationError)
          throw new engine.LlmError('cancelled', 'cancelled');
        if (error instanceof vscode.LanguageModelError) {
          const code =
            error.code === vscode.LanguageModelError.NoPermissions.name
              ? 'auth'
              : error.code === vscode.LanguageModelError.NotFound.name
                ? 'model-not-found'
                : 'server';
          throw new engine.LlmError(code, `${model.name}: ${error.message}`, { cause: error });
        }
        throw new engine.LlmError(
          'server',
          `${model.name} failed: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      } finally {
        request.signal?.removeEventListener('abort', abort);
        source.dispose();
      }
    },
  };
}
