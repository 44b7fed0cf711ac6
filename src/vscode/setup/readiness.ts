import type { ProviderSetting } from '../config';
import type { EndpointProvider } from '../modelAccess';

/**
 * Whether a request from the palette has a model to go to, decided before anything is sent, so that a user who set
 * nothing up is offered setup instead of an error about a server they never chose. No `vscode` import: the unit
 * tests drive it with plain facts.
 */

export interface ReadinessFacts {
  readonly provider: ProviderSetting;
  readonly baseUrl: string;
  /** A VS Code language model other than Scalpel's own (Copilot's, another extension's). */
  readonly hasVsCodeModel: () => Promise<boolean>;
  readonly hasKey: (kind: EndpointProvider) => Promise<boolean>;
  /** Whether a local Ollama answers at its usual address. */
  readonly ollamaAnswers: () => Promise<boolean>;
}

export type Readiness =
  | { readonly ready: true; readonly via: 'vscode-lm' | 'endpoint' | 'local-ollama' }
  | {
      readonly ready: false;
      readonly missing: 'model' | 'vscode-model' | 'key';
      readonly kind?: EndpointProvider;
      /** One line, short enough for the setup picker's placeholder (a quick pick cuts it at about 75 characters). */
      readonly reason: string;
    };

const KEY_NAMES: Readonly<Record<'openai' | 'anthropic', string>> = { openai: 'OpenAI', anthropic: 'Anthropic' };

export async function readinessOf(facts: ReadinessFacts): Promise<Readiness> {
  switch (facts.provider) {
    case 'openai':
    case 'anthropic':
      // The official services need a key; any other base URL may be a local server that takes none.
      if (facts.baseUrl === '' && !(await facts.hasKey(facts.provider))) {
        return {
          ready: false,
          missing: 'key',
          kind: facts.provider,
          reason: `${KEY_NAMES[facts.provider]} needs an API key, and none is stored.`,
        };
      }
      return { ready: true, via: 'endpoint' };
    case 'ollama':
      // Chosen by the user: if it is not running, the request says so.
      return { ready: true, via: 'endpoint' };
    case 'vscode-lm':
      return (await facts.hasVsCodeModel())
        ? { ready: true, via: 'vscode-lm' }
        : {
            ready: false,
            missing: 'vscode-model',
            reason: 'No VS Code model: the settings ask for one and no extension offers any.',
          };
    case 'auto':
      if (facts.baseUrl !== '') return { ready: true, via: 'endpoint' };
      if (await facts.hasVsCodeModel()) return { ready: true, via: 'vscode-lm' };
      if (await facts.ollamaAnswers()) return { ready: true, via: 'local-ollama' };
      return {
        ready: false,
        missing: 'model',
        reason: 'No language model yet: no VS Code model, no endpoint, no Ollama running.',
      };
  }
}
