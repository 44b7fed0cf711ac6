import * as vscode from 'vscode';
import type { ChatFocus } from './chatFocus';
import { workspacePathOrThrow } from './chatFocus';

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
