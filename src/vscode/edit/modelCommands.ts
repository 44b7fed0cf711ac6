import * as vscode from 'vscode';
import { CONFIG_SECTION, type ProviderSetting } from '../config';
import type { Ctx } from '../ctx';
import { deleteApiKey, type EndpointProvider, readApiKey, SCALPEL_LM_VENDOR, storeApiKey } from '../modelAccess';
import { UserFacingError } from '../userError';

/** Choosing the model (a VS Code language model or an endpoint) and managing endpoint keys in SecretStorage. */

const PROVIDERS: readonly ProviderSetting[] = ['auto', 'vscode-lm', 'openai', 'anthropic', 'ollama'];
const ENDPOINTS: readonly EndpointProvider[] = ['openai', 'anthropic', 'ollama'];

const ENDPOINT_LABELS: Readonly<Record<EndpointProvider, string>> = {
  openai: 'OpenAI or an OpenAI-compatible endpoint (LM Studio, vLLM, llama.cpp, OpenRouter)',
  anthropic: 'Anthropic',
  ollama: 'Ollama on this machine',
};

export interface ModelChoice {
  readonly provider: ProviderSetting;
  readonly model: string;
  readonly baseUrl: string;
}

function isModelChoice(value: unknown): value is Partial<ModelChoice> & { provider: ProviderSetting } {
  return (
    typeof value === 'object' &&
    value !== null &&
    PROVIDERS.includes((value as { provider?: unknown }).provider as ProviderSetting)
  );
}

function isEndpoint(value: unknown): value is EndpointProvider {
  return ENDPOINTS.includes(value as EndpointProvider);
}

/** Settings go where the user keeps them: the workspace when it sets the provider already, else the user settings. */
function settingsTarget(): vscode.ConfigurationTarget {
  const inspected = vscode.workspace.getConfiguration(CONFIG_SECTION).inspect('provider');
  return inspected?.workspaceValue !== undefined
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
}

async function writeChoice(choice: ModelChoice): Promise<void> {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const target = settingsTarget();
  await config.update('provider', choice.provider, target);
  await config.update('model', choice.model, target);
  await config.update('baseUrl', choice.baseUrl, target);
}

type ModelItem = vscode.QuickPickItem & { readonly choice?: Omit<ModelChoice, 'baseUrl'> & { baseUrl?: string } };

export async function selectModel(ctx: Ctx, given: unknown): Promise<ModelChoice | undefined> {
  if (isModelChoice(given)) {
    const choice: ModelChoice = { provider: given.provider, model: given.model ?? '', baseUrl: given.baseUrl ?? '' };
    await writeChoice(choice);
    ctx.log.info(
      `model set to ${choice.provider} ${choice.model || '(default)'}${choice.baseUrl === '' ? '' : ` at ${choice.baseUrl}`}`,
    );
    return choice;
  }
  const current = ctx.config();
  const models = (await vscode.lm.selectChatModels()).filter((m) => m.vendor !== SCALPEL_LM_VENDOR);
  const items: ModelItem[] = [
    { label: 'VS Code language models', kind: vscode.QuickPickItemKind.Separator },
    ...models.map((m) => ({
      label: `$(sparkle) ${m.name}`,
      description: `${m.vendor} · ${m.id}`,
      detail: `${m.maxInputTokens} input tokens`,
      picked: current.provider === 'vscode-lm' && current.model === m.id,
      choice: { provider: 'vscode-lm' as const, model: m.id, baseUrl: '' },
    })),
    ...(models.length === 0
      ? [{ label: '$(info) None available', description: 'install and sign in to GitHub Copilot, or use an endpoint' }]
      : []),
    { label: 'Endpoints', kind: vscode.QuickPickItemKind.Separator },
    ...ENDPOINTS.map((provider) => ({
      label: `$(globe) ${ENDPOINT_LABELS[provider]}…`,
      description: current.provider === provider ? `current: ${current.model || 'default model'}` : '',
      choice: { provider, model: '' },
    })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    {
      label: '$(wand) Automatic',
      description: 'a VS Code language model when one is available, else the endpoint',
      choice: { provider: 'auto' as const, model: '', baseUrl: '' },
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Scalpel: select the model',
    placeHolder: `Now: ${current.provider}${current.model === '' ? '' : ` · ${current.model}`}`,
    matchOnDescription: true,
  });
  if (picked?.choice === undefined) return undefined;
  let choice: ModelChoice;
  if (isEndpoint(picked.choice.provider)) {
    const provider = picked.choice.provider;
    const engine = ctx.engine();
    const model = await vscode.window.showInputBox({
      title: `Scalpel: ${ENDPOINT_LABELS[provider]}`,
      prompt: 'Model name',
      value: current.provider === provider && current.model !== '' ? current.model : engine.DEFAULT_MODELS[provider],
      ignoreFocusOut: true,
    });
    if (model === undefined) return undefined;
    const baseUrl = await vscode.window.showInputBox({
      title: `Scalpel: ${ENDPOINT_LABELS[provider]}`,
      prompt: `Base URL (empty: ${engine.DEFAULT_BASE_URLS[provider]})`,
      value: current.provider === provider ? current.baseUrl : '',
      placeHolder: engine.DEFAULT_BASE_URLS[provider],
      ignoreFocusOut: true,
    });
    if (baseUrl === undefined) return undefined;
    choice = { provider, model: model.trim(), baseUrl: baseUrl.trim() };
  } else {
    choice = { provider: picked.choice.provider, model: picked.choice.model, baseUrl: '' };
  }
  await writeChoice(choice);
  ctx.log.info(`model set to ${choice.provider} ${choice.model || '(default)'}`);
  if (
    (choice.provider === 'openai' || choice.provider === 'anthropic') &&
    (await readApiKey(ctx, choice.provider)) === undefined
  ) {
    const action = await vscode.window.showInformationMessage(
      `Scalpel uses ${choice.model || choice.provider} now. It needs an API key unless the endpoint takes none.`,
      'Set API Key',
    );
    if (action !== undefined) await vscode.commands.executeCommand('scalpel.setApiKey', choice.provider);
  }
  return choice;
}

async function pickEndpoint(ctx: Ctx, title: string, onlyWithKey: boolean): Promise<EndpointProvider | undefined> {
  const entries = await Promise.all(
    ENDPOINTS.map(async (provider) => ({ provider, stored: (await readApiKey(ctx, provider)) !== undefined })),
  );
  const shown = onlyWithKey ? entries.filter((e) => e.stored) : entries;
  if (shown.length === 0) {
    void vscode.window.showInformationMessage('Scalpel has no API key stored.');
    return undefined;
  }
  const current = ctx.config().provider;
  const picked = await vscode.window.showQuickPick(
    shown.map((e) => ({
      label: ENDPOINT_LABELS[e.provider],
      description: e.stored ? 'a key is stored' : 'no key',
      picked: e.provider === current,
      provider: e.provider,
    })),
    { title },
  );
  return picked?.provider;
}

export async function setApiKey(
  ctx: Ctx,
  providerArg: unknown,
  keyArg: unknown,
): Promise<{ provider: EndpointProvider; message: string } | undefined> {
  if (providerArg !== undefined && !isEndpoint(providerArg)) {
    throw new UserFacingError(
      `"${String(providerArg)}" is not a provider with an API key; use one of ${ENDPOINTS.join(', ')}.`,
    );
  }
  const provider = providerArg ?? (await pickEndpoint(ctx, 'Scalpel: set the API key of', false));
  if (provider === undefined) return undefined;
  const key =
    typeof keyArg === 'string'
      ? keyArg
      : await vscode.window.showInputBox({
          title: `Scalpel: API key for ${ENDPOINT_LABELS[provider]}`,
          prompt: "Stored in VS Code's secret storage, never in settings or logs",
          password: true,
          ignoreFocusOut: true,
          validateInput: (value) => (value.trim() === '' ? 'Paste the key' : undefined),
        });
  if (key === undefined || key.trim() === '') return undefined;
  await storeApiKey(ctx, provider, key);
  ctx.log.info(`API key for ${provider} stored`);
  const config = ctx.config();
  const message = confirmKeyStored(provider, config.provider === provider ? config.model : undefined);
  return { provider, message };
}

/** Says what was stored and where, never the key itself; returns what it said. */
export function confirmKeyStored(provider: EndpointProvider, model?: string): string {
  const service = provider === 'openai' ? 'OpenAI-compatible' : provider === 'anthropic' ? 'Anthropic' : 'Ollama';
  const message = `Scalpel stored your ${service} API key in VS Code's secret storage${model === undefined || model === '' ? '' : `; requests to ${model} use it`}. It never goes to settings or logs.`;
  void vscode.window.showInformationMessage(message);
  return message;
}

export async function clearApiKey(ctx: Ctx, providerArg: unknown): Promise<{ provider: EndpointProvider } | undefined> {
  if (providerArg !== undefined && !isEndpoint(providerArg)) {
    throw new UserFacingError(
      `"${String(providerArg)}" is not a provider with an API key; use one of ${ENDPOINTS.join(', ')}.`,
    );
  }
  const provider = providerArg ?? (await pickEndpoint(ctx, 'Scalpel: clear the API key of', true));
  if (provider === undefined) return undefined;
  await deleteApiKey(ctx, provider);
  ctx.log.info(`API key for ${provider} cleared`);
  if (providerArg === undefined)
    void vscode.window.showInformationMessage(`Scalpel: the ${provider} API key was removed.`);
  return { provider };
}
