import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { confirmKeyStored, selectModel, setApiKey } from '../edit/modelCommands';
import { ENDPOINT_DEFAULT_MODELS, OLLAMA_DEFAULT_BASE_URL, OPENAI_DEFAULT_BASE_URL } from '../lm/endpointModels';
import { listServerModels } from '../lm/listServerModels';
import { type EndpointProvider, readApiKey, selectVsCodeModels, storeApiKey } from '../modelAccess';
import { UserFacingError } from '../userError';
import { markModelReadiness } from './modelReadyContext';
import { type Readiness, readinessOf } from './readiness';

/**
 * The guided first run: before the first request of a user who set nothing up, Scalpel offers the ways to get a
 * model (a VS Code model such as Copilot's, an OpenAI-compatible endpoint, Anthropic, a local Ollama) instead of
 * failing against a server the user never chose. The request waits for the setup and then goes on with the
 * instruction as typed; when the setup is put off, the request is kept and runs once a model is set up.
 */

/** The walkthrough as `workbench.action.openWalkthrough` names it: `<extension id>#<walkthrough id>`. */
export const WALKTHROUGH_ID = 'scalpel-dev.scalpel#gettingStarted';

/** A local Ollama answers its model list in milliseconds. */
const OLLAMA_PROBE_TIMEOUT_MS = 1_500;

/** A setup given as an argument (the walkthrough's links, tests), applied without asking. */
export interface SetupChoice {
  readonly provider: 'vscode-lm' | EndpointProvider;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly key?: string;
}

export interface SetupResult {
  readonly provider: SetupChoice['provider'];
  readonly model: string;
  readonly baseUrl: string;
  /** What the request that was waiting for a model did when it ran again, if one was. */
  readonly retried?: unknown;
}

/** A request that found no model and waits for the setup. */
interface PendingRequest {
  readonly instruction: string;
  readonly run: () => Promise<unknown>;
}

let pending: PendingRequest | undefined;

function isSetupChoice(value: unknown): value is SetupChoice {
  const provider = (value as { provider?: unknown } | null)?.provider;
  return (
    typeof value === 'object' &&
    value !== null &&
    (provider === 'vscode-lm' || provider === 'openai' || provider === 'anthropic' || provider === 'ollama')
  );
}

/** Whether the palette's next request has a model, from the settings, the stored keys and what answers. */
export async function modelReadiness(ctx: Ctx): Promise<Readiness> {
  const config = ctx.config();
  return readinessOf({
    provider: config.provider,
    baseUrl: config.baseUrl,
    hasVsCodeModel: async () =>
      (await selectVsCodeModels(config.provider === 'auto' || config.provider === 'vscode-lm' ? config.model : ''))
        .length > 0,
    hasKey: async (kind) => (await readApiKey(ctx, kind)) !== undefined,
    ollamaAnswers: async () => (await listServerModels(OLLAMA_DEFAULT_BASE_URL, OLLAMA_PROBE_TIMEOUT_MS)) !== undefined,
  });
}

/**
 * Called before a request is sent: returns when there is a model (after a setup if needed), otherwise keeps the
 * request for later and throws what the user can do.
 */
export async function ensureModelOrSetUp(ctx: Ctx, request: PendingRequest): Promise<void> {
  const readiness = await modelReadiness(ctx);
  if (readiness.ready) return;
  ctx.log.info(`no model for "${request.instruction}": ${readiness.reason} Offering setup.`);
  const done =
    readiness.missing === 'key' && readiness.kind !== undefined
      ? (await setApiKey(ctx, readiness.kind, undefined)) !== undefined
      : (await interactiveSetup(ctx, readiness.reason)) !== undefined;
  if (done && (await modelReadiness(ctx)).ready) return;
  pending = request;
  throw new UserFacingError(
    `${readiness.reason} Your request "${request.instruction}" is kept: it runs as soon as a model is set up.`,
    ['Set Up Model'],
  );
}

/** The command "Scalpel: Set Up a Model": the choice given, or the interactive setup; then the kept request runs. */
export async function setUpModel(ctx: Ctx, given: unknown): Promise<SetupResult | undefined> {
  const result = isSetupChoice(given)
    ? await applyChoice(ctx, given)
    : await interactiveSetup(ctx, 'Choose the language model Scalpel sends your edits to.');
  if (result === undefined) return undefined;
  await markModelReadiness(ctx);
  const waiting = pending;
  pending = undefined;
  if (waiting === undefined) {
    void vscode.window.showInformationMessage(`Scalpel is set up: it uses ${describe(result)}.`);
    return result;
  }
  ctx.log.info(`model set up; running the kept request "${waiting.instruction}"`);
  return { ...result, retried: await waiting.run() };
}

/** The request kept after a setup that was put off, if any (for the tests and the status bar). */
export function pendingInstruction(): string | undefined {
  return pending?.instruction;
}

function describe(result: Pick<SetupResult, 'provider' | 'model' | 'baseUrl'>): string {
  const model = result.model === '' ? 'the default model' : result.model;
  switch (result.provider) {
    case 'vscode-lm':
      return `the VS Code language model ${model}`;
    case 'ollama':
      return `${model} on Ollama`;
    case 'anthropic':
      return `${model} from Anthropic`;
    case 'openai':
      return result.baseUrl === '' ? `${model} from OpenAI` : `${model} at ${result.baseUrl}`;
  }
}

async function applyChoice(ctx: Ctx, choice: SetupChoice): Promise<SetupResult> {
  const written = await selectModel(ctx, {
    provider: choice.provider,
    model: choice.model ?? '',
    baseUrl: choice.baseUrl ?? '',
  });
  if (written === undefined) throw new Error('the model choice was not written');
  if (choice.key !== undefined && choice.provider !== 'vscode-lm') {
    await storeApiKey(ctx, choice.provider, choice.key);
    ctx.log.info(`API key for ${choice.provider} stored`);
  }
  return { provider: choice.provider, model: written.model, baseUrl: written.baseUrl };
}

type SetupItem = vscode.QuickPickItem & { readonly run?: () => Promise<SetupResult | undefined> };

async function interactiveSetup(ctx: Ctx, reason: string): Promise<SetupResult | undefined> {
  const models = await selectVsCodeModels('');
  const items: SetupItem[] = [
    { label: 'A model in VS Code', kind: vscode.QuickPickItemKind.Separator },
    ...models.map((m): SetupItem => ({
      label: `$(sparkle) ${m.name}`,
      description: `${m.vendor} · ${m.id}`,
      detail: 'A language model VS Code already has (GitHub Copilot or another extension); no key needed',
      run: () => applyChoice(ctx, { provider: 'vscode-lm', model: m.id }),
    })),
    ...(models.length === 0
      ? [
          {
            label: '$(extensions) GitHub Copilot…',
            detail: 'Install GitHub Copilot and sign in; its models then appear here (Scalpel uses the one you pick)',
            run: async () => {
              await vscode.commands.executeCommand('workbench.extensions.search', 'GitHub.copilot-chat');
              return undefined;
            },
          },
        ]
      : []),
    { label: 'An endpoint', kind: vscode.QuickPickItemKind.Separator },
    {
      label: '$(globe) OpenAI or an OpenAI-compatible server…',
      detail:
        'OpenAI, OpenRouter, LM Studio, vLLM, llama.cpp: a base URL, a model name and (for hosted services) a key',
      run: () => endpointSetup(ctx, 'openai'),
    },
    {
      label: '$(globe) Anthropic…',
      detail: 'A Claude model with your Anthropic API key',
      run: () => endpointSetup(ctx, 'anthropic'),
    },
    {
      label: '$(server-environment) Ollama on this machine…',
      detail: `A local model, no key: Scalpel checks that Ollama answers at ${OLLAMA_DEFAULT_BASE_URL}`,
      run: () => ollamaSetup(ctx),
    },
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    {
      label: '$(book) Open the Scalpel walkthrough',
      detail: 'The same choices step by step, then a sample to try an edit on',
      run: async () => {
        await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
        return undefined;
      },
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Scalpel: set up a language model',
    placeHolder: reason,
    ignoreFocusOut: true,
    matchOnDetail: true,
  });
  return picked?.run?.();
}

/** How long setup waits for an endpoint's model list before asking for the name instead. */
const MODEL_LIST_TIMEOUT_MS = 5_000;

async function endpointSetup(ctx: Ctx, provider: 'openai' | 'anthropic'): Promise<SetupResult | undefined> {
  const title = provider === 'openai' ? 'Scalpel: OpenAI or an OpenAI-compatible server' : 'Scalpel: Anthropic';
  let baseUrl = '';
  if (provider === 'openai') {
    const typed = await vscode.window.showInputBox({
      title,
      prompt: 'Base URL of the server (leave empty for OpenAI itself)',
      placeHolder: 'e.g. http://127.0.0.1:1234/v1 for LM Studio',
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === '' || /^https?:\/\/\S+$/.test(value.trim()) ? undefined : 'A URL starting with http(s)://',
    });
    if (typed === undefined) return undefined;
    baseUrl = typed.trim();
  }
  // The key before the model: the server's model list may need it.
  const keyRequired = baseUrl === '';
  const key = await vscode.window.showInputBox({
    title,
    prompt: keyRequired
      ? "API key (kept in VS Code's secret storage, never in settings or logs)"
      : "API key, if the server needs one (kept in VS Code's secret storage); leave empty otherwise",
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (keyRequired && value.trim() === '' ? 'Paste the key' : undefined),
  });
  if (key === undefined) return undefined;
  const model = await pickEndpointModel(title, provider, baseUrl, key.trim());
  if (model === undefined) return undefined;
  const result = await applyChoice(ctx, {
    provider,
    model,
    baseUrl,
    ...(key.trim() === '' ? {} : { key }),
  });
  if (key.trim() !== '') confirmKeyStored(provider, result.model);
  return result;
}

/**
 * The model, picked from what the server lists (`GET /models`) when it answers, else typed. Scalpel's default name is
 * offered only for the provider's own service: a server of the user's has its own names (issue 29).
 */
async function pickEndpointModel(
  title: string,
  provider: 'openai' | 'anthropic',
  baseUrl: string,
  key: string,
): Promise<string | undefined> {
  const listed =
    provider === 'openai'
      ? await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: `Scalpel: asking ${baseUrl || 'OpenAI'} for its models`,
          },
          () => listServerModels(baseUrl === '' ? OPENAI_DEFAULT_BASE_URL : baseUrl, MODEL_LIST_TIMEOUT_MS, key),
        )
      : undefined;
  const defaultModel = baseUrl === '' ? ENDPOINT_DEFAULT_MODELS[provider] : '';
  if (listed !== undefined && listed.length > 0) {
    const typeAnother = { label: '$(edit) Type another model name…', model: undefined };
    const items = [
      ...[...listed]
        .sort((a, b) => Number(b === defaultModel) - Number(a === defaultModel) || a.localeCompare(b))
        .map((model) => ({ label: model, model: model as string | undefined })),
      typeAnother,
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title,
      placeHolder: `The models ${baseUrl || 'OpenAI'} offers (${listed.length})`,
      ignoreFocusOut: true,
    });
    if (picked === undefined) return undefined;
    if (picked.model !== undefined) return picked.model;
  }
  const typed = await vscode.window.showInputBox({
    title,
    prompt:
      listed === undefined && provider === 'openai'
        ? `Model name (${baseUrl || 'OpenAI'} did not list its models at /models)`
        : listed?.length === 0
          ? `Model name (${baseUrl || 'OpenAI'} lists no models at /models)`
          : 'Model name',
    value: defaultModel,
    ...(baseUrl === '' ? {} : { placeHolder: 'the name the server knows the model by, e.g. llama-3.1-8b-instruct' }),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? 'Name the model' : undefined),
  });
  return typed?.trim();
}

async function ollamaSetup(ctx: Ctx): Promise<SetupResult | undefined> {
  for (;;) {
    const models = await listServerModels(OLLAMA_DEFAULT_BASE_URL, OLLAMA_PROBE_TIMEOUT_MS);
    if (models === undefined || models.length === 0) {
      const action = await vscode.window.showWarningMessage(
        models === undefined
          ? `Ollama does not answer at ${OLLAMA_DEFAULT_BASE_URL}. Install Ollama, start it with \`ollama serve\`, then try again.`
          : `Ollama runs but has no model yet. Pull one (for example \`ollama pull ${ENDPOINT_DEFAULT_MODELS.ollama}\`), then try again.`,
        'Try Again',
      );
      if (action === undefined) return undefined;
      continue;
    }
    const picked =
      models.length === 1
        ? models[0]
        : (
            await vscode.window.showQuickPick(
              models.map((label) => ({ label })),
              { title: 'Scalpel: which Ollama model?', ignoreFocusOut: true },
            )
          )?.label;
    if (picked === undefined) return undefined;
    return applyChoice(ctx, { provider: 'ollama', model: picked });
  }
}
