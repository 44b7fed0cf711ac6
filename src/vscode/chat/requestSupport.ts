import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type { ScalpelServices } from '../services';
import type { ChatDocuments } from './chatDocuments';
import type { EditProgress } from '../../core/llm/pipeline';
import { ProgressLine } from '../edit/progressLine';
import type { ChatFocus } from './chatFocus';
import { workspacePathOrThrow } from './chatFocus';
import { inlineCode } from './chatText';

/** One request to `@scalpel`, as every command handler gets it. */
export interface ChatTurn {
  readonly ctx: Ctx;
  readonly services: ScalpelServices;
  readonly documents: ChatDocuments;
  readonly request: vscode.ChatRequest;
  readonly chatContext: vscode.ChatContext;
  readonly stream: vscode.ChatResponseStream;
  readonly token: vscode.CancellationToken;
  /** The user's words, `#` references replaced by the paths they stand for. */
  readonly instruction: string;
}

/**
 * Progress from the core as the chat shows it: each phase named once (a chat progress line cannot change), and once
 * when the model's answer starts to stream in.
 */
export function progressOf(
  stream: vscode.ChatResponseStream,
  checksTypes: boolean,
): { readonly onProgress: (event: EditProgress) => void; readonly onText: (delta: string) => void } {
  const line = new ProgressLine({ model: 'the model', startedAt: Date.now(), countTokens: () => 0, checksTypes }, '');
  const say = (): void => {
    const text = line.describe({ withTokens: false });
    stream.progress(`${text.charAt(0).toUpperCase()}${text.slice(1)}`);
  };
  let receiving = false;
  return {
    onProgress: (event) => {
      line.event(event);
      receiving = false;
      say();
    },
    onText: (delta) => {
      line.text(delta);
      if (receiving) return;
      receiving = true;
      say();
    },
  };
}

/** An AbortSignal that fires when the user stops the chat request. */
export function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

/** Lists the files the request reads (the chat shows them as "used references") and the references left out. */
export function describeFocus(stream: vscode.ChatResponseStream, focus: ChatFocus): void {
  for (const file of focus.files) stream.reference(file.uri);
  if (focus.notes.length > 0) stream.markdown(`Left out: ${focus.notes.join('; ')}.\n\n`);
}

/**
 * The user's words with each `#` reference replaced by the workspace path it stands for, so the model reads
 * `src/user.ts` where the user wrote `#file:user.ts`.
 */
export function instructionOf(request: vscode.ChatRequest): string {
  let prompt = request.prompt;
  // References come sorted last-in-prompt first, so replacing in this order keeps the earlier ranges valid.
  for (const reference of request.references) {
    if (reference.range === undefined) continue;
    const name = nameOf(reference.value);
    if (name === undefined) continue;
    const [start, end] = reference.range;
    prompt = `${prompt.slice(0, start)}${name}${prompt.slice(end)}`;
  }
  return prompt.trim();
}

function nameOf(value: unknown): string | undefined {
  try {
    if (value instanceof vscode.Uri) return workspacePathOrThrow(value).path;
    if (value instanceof vscode.Location) {
      const { path } = workspacePathOrThrow(value.uri);
      const first = value.range.start.line + 1;
      const last = value.range.end.line + 1;
      return first === last ? `${path} line ${first}` : `${path} lines ${first}-${last}`;
    }
  } catch {
    // A reference outside the workspace keeps its own words; the focus reports it.
  }
  return undefined;
}

/**
 * An element by name, then a link to where it is. The chat draws a Location as a file chip (`user.ts:15-21`)
 * whatever its title, so the name goes before it.
 */
export function linkElement(
  stream: vscode.ChatResponseStream,
  path: string,
  target: vscode.Location | vscode.Uri,
  file?: string,
): void {
  // Inside a file the chip already names, the element's path from there on is enough.
  const shown = file !== undefined && path.startsWith(`${file}/`) ? path.slice(file.length + 1) : path;
  stream.markdown(`${inlineCode(shown)} `);
  stream.anchor(target, path);
}

/**
 * Actions as command links in one trusted line. Chat command buttons (`stream.button`) render but do nothing when
 * clicked in code-server 1.139 (checked with a real click in scripts/vscode-host/screenshot-chat.mjs); command links
 * limited to these commands work there and everywhere else.
 */
export function actionLinks(stream: vscode.ChatResponseStream, actions: readonly vscode.Command[]): void {
  if (actions.length === 0) return;
  const markdown = new vscode.MarkdownString();
  markdown.isTrusted = { enabledCommands: [...new Set(actions.map((a) => a.command))] };
  markdown.appendMarkdown(
    actions
      .map(
        (a) =>
          `[**${a.title}**](command:${a.command}${a.arguments === undefined ? '' : `?${encodeURIComponent(JSON.stringify(a.arguments))}`})`,
      )
      .join(' · '),
  );
  markdown.appendMarkdown('\n\n');
  stream.markdown(markdown);
}
