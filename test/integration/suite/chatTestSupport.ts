// Drives `@scalpel` in the real Chat view for the chat and the one-edit-path suites: sends a message the way a user
// does and reads the answer the extension recorded under test (command `scalpel.chat.lastResponse`, registered only
// in test mode), since the chat renders into the workbench, out of reach of a test.
import * as vscode from 'vscode';
import type { RecordedRequest } from '../../support/llmServer';
import { openWorkspaceFile, scalpelExtensionOrThrow, waitFor } from './helpers';

export type TranscriptPart =
  | { type: 'markdown'; value: string }
  | { type: 'progress'; value: string }
  | { type: 'anchor'; uri: string; range?: [number, number, number, number]; title?: string }
  | { type: 'reference'; uri: string }
  | { type: 'button'; command: string; title: string; arguments: unknown[] };

export interface Transcript {
  sequence: number;
  prompt: string;
  command: string | undefined;
  model: string;
  parts: TranscriptPart[];
  done: boolean;
  result?: {
    metadata?: {
      editId?: string;
      outcome?: string;
      command?: string;
      undoLabel?: string;
      operations?: string;
      advice?: { nextStep: string; actions: { kind: string; setting?: string }[] };
    };
    errorDetails?: { message: string };
  };
  followups?: { prompt: string; label?: string; command?: string }[];
}

export const KEY = 'sk-scripted-chat';
export const MODEL_ID = 'openai:gpt-4o-mini';
/**
 * Sent at once, in Ask mode (Agent mode offers only models that call tools, which Scalpel's endpoints do not), with
 * Scalpel's model picked as a user picks it: a chat view opened and sent to in one go has not chosen a model yet.
 */
export const CHAT_OPTIONS = { isPartialQuery: false, mode: 'ask', modelSelector: { vendor: 'scalpel', id: MODEL_ID } };
export const USER_TS = 'src/user.ts';

export function engineLoaded(): boolean {
  return Object.keys(require.cache).some((path) => path.replace(/\\/g, '/').endsWith('/dist/engine.js'));
}

export async function configure(values: Readonly<Record<string, unknown>>): Promise<void> {
  const config = vscode.workspace.getConfiguration('scalpel');
  for (const [name, value] of Object.entries(values))
    await config.update(name, value, vscode.ConfigurationTarget.Workspace);
}

export async function lastTranscript(): Promise<Transcript | undefined> {
  return vscode.commands.executeCommand<Transcript | undefined>('scalpel.chat.lastResponse');
}

/** Sends a message in the Chat view, as typed (with files attached, as dropped on the chat input). */
export async function send(query: string, attachFiles: readonly vscode.Uri[] = []): Promise<number> {
  const before = (await lastTranscript())?.sequence ?? 0;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, ...CHAT_OPTIONS, attachFiles });
  return before;
}

export async function answerAfter(sequence: number, description: string): Promise<Transcript> {
  return waitFor(
    async () => {
      const transcript = await lastTranscript();
      return transcript !== undefined && transcript.sequence > sequence && transcript.done ? transcript : undefined;
    },
    { timeoutMs: 20_000, description },
  );
}

/** Sends a message and returns Scalpel's finished answer. */
export async function ask(query: string, attachFiles: readonly vscode.Uri[] = []): Promise<Transcript> {
  return answerAfter(await send(query, attachFiles), `Scalpel's answer to "${query}"`);
}

export function markdownOf(transcript: Transcript): string {
  return transcript.parts
    .map((p) => (p.type === 'markdown' ? p.value : p.type === 'anchor' ? `[${p.title ?? p.uri}]` : ''))
    .join('');
}

export function anchors(transcript: Transcript): Extract<TranscriptPart, { type: 'anchor' }>[] {
  return transcript.parts.filter((p): p is Extract<TranscriptPart, { type: 'anchor' }> => p.type === 'anchor');
}

/** The command links of an answer (its actions: Preview, Apply, ...), with their decoded arguments. */
export function actions(transcript: Transcript): { title: string; command: string; arguments: unknown[] }[] {
  return [...markdownOf(transcript).matchAll(/\[\*\*([^\]*]+)\*\*\]\(command:([\w.]+)(?:\?([^)]*))?\)/g)].map((m) => ({
    title: m[1] ?? '',
    command: m[2] ?? '',
    arguments: m[3] === undefined ? [] : (JSON.parse(decodeURIComponent(m[3])) as unknown[]),
  }));
}

export function userMessageOf(request: RecordedRequest | undefined): string {
  const messages = request?.body?.messages ?? [];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

export function systemMessageOf(request: RecordedRequest | undefined): string {
  const system = request?.body?.messages?.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

/**
 * A chat suite's set-up: Scalpel active with src/user.ts open, its OpenAI-compatible provider pointed at the scripted
 * server (user.ts has 45 lines: below 10 lines a file goes whole, so the model sees a focused view of it), and its
 * model offered to the chat.
 */
export async function useScriptedModel(baseUrl: string): Promise<void> {
  await openWorkspaceFile(USER_TS);
  await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
  await configure({ provider: 'openai', baseUrl, model: 'gpt-4o-mini', smallFileLines: 10 });
  await vscode.commands.executeCommand('scalpel.setApiKey', 'openai', KEY);
  await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length > 0, {
    description: "Scalpel's model for the scripted server",
  });
}

/** Undoes useScriptedModel. A chat session left open keeps watching the files it touched: later suites start quiet. */
export async function leaveScriptedModel(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
  await configure({ provider: undefined, baseUrl: undefined, model: undefined, smallFileLines: undefined });
}
