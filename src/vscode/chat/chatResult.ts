import type * as vscode from 'vscode';
import type { Advice } from '../../core/edit/advice';
import type { KnownFocus } from './chatFocus';

export type ScalpelChatCommand = 'edit' | 'context' | 'plan' | 'changes';

/** What a `@scalpel` answer remembers for follow-ups and later turns (JSON: the chat stores it with the history). */
export interface ScalpelChatMetadata {
  readonly command: ScalpelChatCommand;
  readonly instruction: string;
  readonly outcome: 'ok' | 'failed' | 'cancelled' | 'nothing' | 'usage' | 'declined';
  /** The pending edit an /edit prepared. */
  readonly editId?: string;
  /**
   * What the request was about, for a follow-up that switches command: the focus it used, or for /plan the
   * elements the model named.
   */
  readonly focus?: KnownFocus;
  /** What Undo will name the edit (the same rule as the palette's). */
  readonly undoLabel?: string;
  /** The verified operations of an /edit, in the operation format. */
  readonly operations?: string;
  /** What to do after a failure, as the core advised it. */
  readonly advice?: Advice;
  /** Which recorded transcript this is (integration tests only). */
  readonly transcript?: number;
}

export function chatResult(metadata: ScalpelChatMetadata, errorMessage?: string): vscode.ChatResult {
  return { metadata, ...(errorMessage === undefined ? {} : { errorDetails: { message: errorMessage } }) };
}

export function metadataOf(result: vscode.ChatResult): ScalpelChatMetadata | undefined {
  const metadata: unknown = result.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const command = (metadata as { command?: unknown }).command;
  return command === 'edit' || command === 'context' || command === 'plan'
    ? (metadata as ScalpelChatMetadata)
    : undefined;
}

/**
 * The focus of the previous answer when this request is its follow-up: the same instruction under another command
 * (`/plan` then `/edit`, `/edit` then `/context`). The same command again is a retry and reads the cursor afresh.
 */
export function focusFromHistory(
  context: vscode.ChatContext,
  command: ScalpelChatCommand,
  instruction: string,
): KnownFocus | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn === undefined || !('result' in turn)) continue;
    const metadata = metadataOf(turn.result);
    if (metadata === undefined) continue;
    return metadata.command !== command && metadata.instruction === instruction ? metadata.focus : undefined;
  }
  return undefined;
}
