import type { LlmErrorCode } from '../llm/errors';

/**
 * What the user can do after a failed edit: one sentence, and abstract next actions each surface maps to its own
 * controls (VS Code buttons and chat links run a command, the CLI names a flag). The words avoid naming a surface's
 * controls so that the palette, the chat and the CLI give the same advice.
 */

/** A setting by its short name; VS Code prefixes `scalpel.`, the CLI maps the ones it has a flag for. */
export type AdviceSetting = 'tokenBudget' | 'baseUrl' | 'model' | 'maxOutputTokens' | 'exclude' | 'verify';

export type AdviceAction =
  | { readonly kind: 'setApiKey' }
  | { readonly kind: 'selectModel' }
  | { readonly kind: 'openSettings'; readonly setting: AdviceSetting }
  | { readonly kind: 'showAnswer' }
  | { readonly kind: 'showLog' }
  | { readonly kind: 'plan' }
  /**
   * Write the verified edit with the new type errors it still has: the CLI's `--allow-new-errors`; for a surface that
   * offers a button ("Apply Anyway" with the count), the failed result's `outcome.apply.changes` are the verified
   * changes, to pass through `EditService.checkWrite` and the usual preview.
   */
  | { readonly kind: 'applyAnyway'; readonly newErrors: number };

export interface Advice {
  readonly nextStep: string;
  readonly actions: readonly AdviceAction[];
}

/** Why an edit did not end in a change set, as the service sorts it. */
export type FailureKind =
  | { readonly kind: 'model'; readonly code: LlmErrorCode }
  | { readonly kind: 'unverified'; readonly hasAnswer: boolean }
  /**
   * Every operation applied and passed every other check, but the batch adds type errors the repair rounds did not
   * fix (`count`), `unreachable` of them in files this request cannot edit; `environment` errors were set aside in the
   * same check (dependencies not installed, the project's configuration), so the check saw less than the project's
   * own compiler would.
   */
  | { readonly kind: 'typeErrors'; readonly count: number; readonly unreachable: number; readonly environment: number }
  | { readonly kind: 'budget' }
  | { readonly kind: 'focus' }
  | { readonly kind: 'excluded' }
  | { readonly kind: 'refused' }
  | { readonly kind: 'conflict' }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'declined' };

export interface ProviderDescription {
  readonly model: string;
  readonly endpoint: string;
}

const SHOW_LOG: AdviceAction = { kind: 'showLog' };
const settings = (setting: AdviceSetting): AdviceAction => ({ kind: 'openSettings', setting });

export function adviceFor(failure: FailureKind, provider?: ProviderDescription): Advice {
  switch (failure.kind) {
    case 'unverified':
      return {
        nextStep:
          "Focus on the exact element to change, or plan first to see which elements the model picks; the model's last answer shows what it tried.",
        actions: failure.hasAnswer
          ? [{ kind: 'showAnswer' }, { kind: 'plan' }, SHOW_LOG]
          : [{ kind: 'plan' }, SHOW_LOG],
      };
    case 'typeErrors':
      return typeErrorsAdvice(failure);
    case 'budget':
      return {
        nextStep: 'Raise the token budget, or focus on fewer or smaller elements.',
        actions: [settings('tokenBudget')],
      };
    case 'focus':
      return { nextStep: 'Name an element that exists in the file (its outline lists them).', actions: [] };
    case 'excluded':
      return { nextStep: 'Nothing was changed.', actions: [settings('exclude')] };
    case 'refused':
      return { nextStep: 'Nothing was changed.', actions: [SHOW_LOG] };
    case 'conflict':
      return {
        nextStep: 'Your text was kept; send the request again to edit the current text.',
        actions: [],
      };
    case 'nothing':
      return { nextStep: 'Rephrase the request if you expected a change.', actions: [{ kind: 'plan' }] };
    case 'declined':
      return {
        nextStep:
          "Nothing was changed. If the model's reason is wrong, say what it missed in the request and send it again.",
        actions: [],
      };
    case 'model':
      return modelAdvice(failure.code, provider);
  }
}

function typeErrorsAdvice(failure: Extract<FailureKind, { kind: 'typeErrors' }>): Advice {
  const errors = `${failure.count} type error${failure.count === 1 ? '' : 's'}`;
  const outside =
    failure.unreachable === 0
      ? ''
      : ` ${failure.unreachable === failure.count ? 'They are' : `${failure.unreachable} of them are`} in files this request cannot edit: add those files to the request to let the model fix them.`;
  const environment =
    failure.environment === 0
      ? ''
      : ` The check also set aside ${failure.environment} error${failure.environment === 1 ? '' : 's'} because dependencies or type definitions are not installed; installing them lets it see the real types.`;
  return {
    nextStep: `Every operation applied, but the edit adds ${errors} the model did not fix.${outside}${environment} Apply it anyway and fix them yourself, or check the syntax alone.`,
    actions: [{ kind: 'applyAnyway', newErrors: failure.count }, settings('verify'), { kind: 'showAnswer' }],
  };
}

function modelAdvice(code: LlmErrorCode, provider: ProviderDescription | undefined): Advice {
  switch (code) {
    case 'auth':
      // The failure already names the endpoint and how to set the key; repeating them made the message say it twice.
      return {
        nextStep: 'Or select another model.',
        actions: [{ kind: 'setApiKey' }, { kind: 'selectModel' }],
      };
    case 'network':
    case 'timeout':
      return {
        nextStep: `Check that the server at ${provider?.endpoint ?? 'the configured address'} is running and that the base URL points at it (for Ollama: \`ollama serve\`).`,
        actions: [settings('baseUrl'), SHOW_LOG],
      };
    case 'endpoint-not-found':
      return {
        nextStep: 'Check the base URL: OpenAI-compatible servers usually serve their API under `/v1`.',
        actions: [settings('baseUrl')],
      };
    case 'model-not-found':
      return {
        nextStep: 'Select another model, or set the model name to one the server offers.',
        actions: [{ kind: 'selectModel' }, settings('model')],
      };
    case 'context-length':
      return {
        nextStep: 'Send less: focus on the one element to change, name fewer files, or lower the token budget.',
        actions: [settings('tokenBudget')],
      };
    case 'output-limit':
    case 'truncated':
      return {
        nextStep: 'Ask for a smaller change, or raise the output token limit.',
        actions: [settings('maxOutputTokens')],
      };
    case 'rate-limit':
      return { nextStep: 'Wait a moment and send the request again.', actions: [] };
    case 'cancelled':
      return { nextStep: 'Send the request again when you are ready.', actions: [] };
    case 'server':
    case 'bad-request':
    case 'bad-response':
      return {
        nextStep: "Try again, or select another model; the log has the server's answer.",
        actions: [{ kind: 'selectModel' }, SHOW_LOG],
      };
  }
}
