import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EditConversation, type ConversationState } from '../core/edit/conversation';
import { UsageError } from './cliError';

/**
 * The CLI's conversations, one state file each, so separate `scalpel` invocations share baselines (what the model
 * last saw of each file). The files live in the user's state folder ($SCALPEL_STATE_DIR, else
 * $XDG_STATE_HOME/scalpel, else ~/.local/state/scalpel), under a hash of the workspace root: never in the workspace,
 * so nothing of it can end up in a commit or in `.git/`.
 */

export const DEFAULT_CONVERSATION = 'default';

const ID = /^[\w.-]{1,64}$/;

export function conversationIdOrThrow(value: string | undefined): string {
  const id = value ?? DEFAULT_CONVERSATION;
  if (!ID.test(id) || id.startsWith('.'))
    throw new UsageError(`--conversation takes a name of letters, digits, '.', '_' or '-' (up to 64), not "${id}"`);
  return id;
}

export function stateDirOf(env: NodeJS.ProcessEnv): string {
  const explicit = env['SCALPEL_STATE_DIR'];
  if (explicit !== undefined && explicit.trim() !== '') return explicit;
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  const state =
    env['XDG_STATE_HOME'] !== undefined && env['XDG_STATE_HOME'] !== ''
      ? env['XDG_STATE_HOME']
      : join(home, '.local', 'state');
  return join(state, 'scalpel');
}

/** The state file of a conversation in a workspace. */
export function conversationFilePath(env: NodeJS.ProcessEnv, root: string, id: string): string {
  let real = root;
  try {
    real = realpathSync.native(root);
  } catch {
    // A root that does not resolve keeps its name: the commands reading it fail on their own with a clear error.
  }
  const workspace = createHash('sha256').update(real).digest('hex').slice(0, 16);
  return join(stateDirOf(env), 'conversations', workspace, `${id}.json`);
}

function isState(value: unknown): value is ConversationState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const pairs = (list: unknown): boolean =>
    Array.isArray(list) &&
    list.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string');
  return (
    typeof state['id'] === 'string' &&
    pairs(state['baselines']) &&
    pairs(state['proposed']) &&
    Array.isArray(state['turns'])
  );
}

/** The conversation saved for this workspace, or a new one; a damaged file starts afresh (it holds only baselines). */
export function loadConversation(env: NodeJS.ProcessEnv, root: string, id: string): EditConversation {
  const file = conversationFilePath(env, root, id);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new EditConversation(id);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isState(parsed) ? EditConversation.fromState({ ...parsed, id }) : new EditConversation(id);
  } catch {
    return new EditConversation(id);
  }
}

/** Saves the conversation: a temporary file renamed over the old one, readable by the user only. */
export function saveConversation(env: NodeJS.ProcessEnv, root: string, conversation: EditConversation): string {
  const file = conversationFilePath(env, root, conversation.id);
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ version: 1, root, ...conversation.toState() }), { mode: 0o600 });
  renameSync(temporary, file);
  return file;
}
