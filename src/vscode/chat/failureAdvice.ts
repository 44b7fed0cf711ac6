import * as vscode from 'vscode';
import type { LlmError } from '../../core/llm/errors';
import type { ChatProvider } from '../../core/llm/provider';

/** What the user can do after a failed request, by what went wrong. */
export interface FailureAdvice {
  readonly nextStep: string;
  readonly actions: readonly vscode.Command[];
}

const SHOW_LOG: vscode.Command = { command: 'scalpel.showLog', title: 'Show Log' };

function openSettings(setting: string): vscode.Command {
  return { command: 'workbench.action.openSettings', title: 'Open Settings', arguments: [setting] };
}

export async function adviceFor(
  error: LlmError | undefined,
  provider: ChatProvider | undefined,
): Promise<FailureAdvice> {
  const where = provider === undefined ? 'the model' : `${provider.model} at ${provider.endpoint}`;
  switch (error?.code) {
    case undefined:
      return {
        nextStep:
          "Rephrase the request, reference the exact element with `#` (or place the cursor in it), or run `/plan` to see which elements the model picks. The model's last answer is in the log.",
        actions: [SHOW_LOG],
      };
    case 'auth': {
      const registered = await vscode.commands.getCommands(true);
      const setKey = registered.includes('scalpel.setApiKey')
        ? [{ command: 'scalpel.setApiKey', title: 'Set API Key' }]
        : [];
      return {
        nextStep: `Store the API key for ${where} with **Scalpel: Set API Key**, or pick another model in the chat's model picker.`,
        actions: setKey,
      };
    }
    case 'network':
    case 'timeout':
      return {
        nextStep: `Check that the server at ${provider?.endpoint ?? 'the configured address'} is running and that \`scalpel.baseUrl\` points at it (for Ollama: \`ollama serve\`).`,
        actions: [openSettings('scalpel.baseUrl'), SHOW_LOG],
      };
    case 'endpoint-not-found':
      return {
        nextStep: 'Check `scalpel.baseUrl`: OpenAI-compatible servers usually serve their API under `/v1`.',
        actions: [openSettings('scalpel.baseUrl')],
      };
    case 'model-not-found':
      return {
        nextStep: "Pick another model in the chat's model picker, or set `scalpel.model` to one the server offers.",
        actions: [openSettings('scalpel.model')],
      };
    case 'context-length':
      return {
        nextStep:
          'Send less: place the cursor in the one element to change, reference fewer files with `#`, or lower `scalpel.tokenBudget`.',
        actions: [openSettings('scalpel.tokenBudget')],
      };
    case 'output-limit':
    case 'truncated':
      return {
        nextStep: 'Ask for a smaller change, or raise `scalpel.maxOutputTokens`.',
        actions: [openSettings('scalpel.maxOutputTokens')],
      };
    case 'rate-limit':
      return { nextStep: 'Wait a moment and send the request again.', actions: [] };
    case 'cancelled':
      return { nextStep: 'Send the request again when you are ready.', actions: [] };
    case 'server':
    case 'bad-request':
    case 'bad-response':
      return { nextStep: `Try again, or pick another model; the log has the server's answer.`, actions: [SHOW_LOG] };
  }
}
