import * as vscode from 'vscode';
import type { TokenCounter } from '../../core/context/tokens';
import type { ChatMessage, ChatProvider } from '../../core/llm/provider';
import type { Ctx } from '../ctx';
import { endpointChatProvider, readApiKey } from '../modelAccess';
import {
  configuredEndpointModels,
  endpointSettingsFor,
  kindLabelOf,
  maxInputTokensOf,
  modelIdOf,
  OLLAMA_DEFAULT_BASE_URL,
  parseModelId,
  type EndpointModel,
} from './endpointModels';
import { listServerModels } from './listServerModels';

/**
 * The endpoints the user configured (OpenAI-compatible, Anthropic, Ollama) as VS Code language models of vendor
 * `scalpel`: they appear in the chat's model picker, answer `@scalpel` with no Copilot, and serve any extension that
 * asks `vscode.lm` for a model. Announcing them reads settings and SecretStorage only (plus a quick look for a local
 * Ollama); the engine loads when a model is first asked to answer or count.
 */

/** A local Ollama answers its model list in milliseconds; one that takes longer is treated as absent. */
const OLLAMA_PROBE_TIMEOUT_MS = 1_500;

/** What a chat message costs beyond its text (role and separators), as OpenAI counts it. */
const MESSAGE_OVERHEAD_TOKENS = 3;

export interface ScalpelModelInformation extends vscode.LanguageModelChatInformation {
  readonly endpoint: EndpointModel;
}

export class ScalpelLanguageModels
  implements vscode.LanguageModelChatProvider<ScalpelModelInformation>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private counter: TokenCounter | undefined;

  constructor(private readonly ctx: Ctx) {}

  /** Makes VS Code ask for the models again, after the settings or the keys changed. */
  refresh(): void {
    this.counter = undefined;
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    _options: vscode.PrepareLanguageModelChatModelOptions,
    _token: vscode.CancellationToken,
  ): Promise<ScalpelModelInformation[]> {
    const config = this.ctx.config();
    const models = await configuredEndpointModels(config, {
      hasKey: async (kind) => (await readApiKey(this.ctx, kind)) !== undefined,
      listOllamaModels: (baseUrl) => listServerModels(baseUrl, OLLAMA_PROBE_TIMEOUT_MS),
    });
    this.ctx.log.debug(
      `language models: ${models.length === 0 ? 'none configured' : models.map(modelIdOf).join(', ')}`,
    );
    return models.map((endpoint): ScalpelModelInformation => {
      const { baseUrl } = endpointSettingsFor(config, endpoint.kind);
      const address = baseUrl !== '' ? baseUrl : endpoint.kind === 'ollama' ? OLLAMA_DEFAULT_BASE_URL : '';
      const label = kindLabelOf(endpoint.kind, baseUrl);
      return {
        id: modelIdOf(endpoint),
        name: endpoint.model,
        family: endpoint.model,
        version: endpoint.model,
        detail: label,
        tooltip: `${endpoint.model} through Scalpel's ${label} endpoint${address === '' ? '' : ` at ${address}`}`,
        maxInputTokens: maxInputTokensOf(endpoint.kind),
        maxOutputTokens: config.maxOutputTokens,
        // Scalpel's wire clients send text only: no tools, no images.
        capabilities: {},
        endpoint,
      };
    });
  }

  async provideLanguageModelChatResponse(
    model: ScalpelModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const provider = await endpointProviderForModelId(this.ctx, model.id);
    const engine = this.ctx.engine();
    const controller = new AbortController();
    const cancellation = token.onCancellationRequested(() => controller.abort());
    try {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const maxOutputTokens = numberOption(options.modelOptions, 'maxTokens', 'max_tokens', 'maxOutputTokens');
      const temperature = numberOption(options.modelOptions, 'temperature');
      await provider.chat({
        messages: messages.map(toChatMessage),
        signal: controller.signal,
        onText: (delta) => progress.report(new vscode.LanguageModelTextPart(delta)),
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
        ...(temperature === undefined ? {} : { temperature }),
      });
    } catch (error) {
      if (token.isCancellationRequested || engine.isLlmError(error, 'cancelled')) throw new vscode.CancellationError();
      if (engine.isLlmError(error, 'auth')) throw vscode.LanguageModelError.NoPermissions(error.message);
      if (engine.isLlmError(error, 'model-not-found')) throw vscode.LanguageModelError.NotFound(error.message);
      throw error;
    } finally {
      cancellation.dispose();
    }
  }

  async provideTokenCount(
    _model: ScalpelModelInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
    _token: vscode.CancellationToken,
  ): Promise<number> {
    this.counter ??= this.ctx.engine().createTokenCounter(this.ctx.config().tokenEncoding);
    return typeof text === 'string'
      ? this.counter.count(text)
      : this.counter.count(textOf(text.content)) + MESSAGE_OVERHEAD_TOKENS;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * The core provider behind one of Scalpel's model ids, called directly: going through `vscode.lm` would only come
 * back here. `scalpel.baseUrl` and `scalpel.model` apply to the endpoint the settings name.
 */
export async function endpointProviderForModelId(ctx: Ctx, id: string): Promise<ChatProvider> {
  const endpoint = parseModelId(id);
  if (endpoint === undefined) throw new Error(`"${id}" is not one of Scalpel's language models`);
  const config = ctx.config();
  const { baseUrl } = endpointSettingsFor(config, endpoint.kind);
  return endpointChatProvider(ctx, { ...config, baseUrl, model: endpoint.model }, endpoint.kind);
}

function toChatMessage(message: vscode.LanguageModelChatRequestMessage): ChatMessage {
  // Role 3 is the System role VS Code's proposed API adds; the stable API has User (1) and Assistant (2).
  const role =
    message.role === vscode.LanguageModelChatMessageRole.Assistant
      ? 'assistant'
      : (message.role as number) === 3
        ? 'system'
        : 'user';
  return { role, content: textOf(message.content) };
}

/** The text of a message's parts. Tool results carry text too; other parts (images, tool calls) have none to send. */
function textOf(parts: readonly unknown[]): string {
  return parts
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelToolResultPart) return textOf(part.content);
      return '';
    })
    .join('');
}

function numberOption(
  options: { readonly [name: string]: unknown } | undefined,
  ...names: string[]
): number | undefined {
  for (const name of names) {
    const value = options?.[name];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  }
  return undefined;
}
