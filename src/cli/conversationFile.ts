import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { lock } from 'proper-lockfile';
import { EditConversation, type ConversationState } from '../core/edit/conversation';
import { CliError, UsageError } from './cliError';

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

/**
 * Largest state file read. A conversation keeps at most 4,000,000 characters of baselines (src/core/edit/conversation.ts),
 * which JSON and UTF-8 can at most triple; anything larger was not written by Scalpel.
 */
export const MAX_STATE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The state file's text, or undefined when there is none Scalpel could have written: missing, not a regular file (a
 * folder, a FIFO, a link to a device such as /dev/zero), over MAX_STATE_FILE_BYTES, or unreadable. Opened without
 * blocking, so a FIFO put there cannot hang the command, and read no further than the limit.
 */
function readStateFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_STATE_FILE_BYTES) return undefined;
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, MAX_STATE_FILE_BYTES) + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    // Grown past the limit since the stat: not a file to trust either.
    return length > MAX_STATE_FILE_BYTES ? undefined : buffer.toString('utf8', 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function parseState(text: string | undefined, id: string): ConversationState | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isState(parsed) ? { ...parsed, id } : undefined;
  } catch {
    return undefined;
  }
}

const EMPTY_STATE = (id: string): ConversationState => ({ id, baselines: [], proposed: [], turns: [] });

/** What each loaded conversation was on disk when it was loaded: the base of the merge when it is saved. */
const loadedStates = new WeakMap<EditConversation, ConversationState>();

/**
 * The conversation saved for this workspace, or a new one. A damaged state file, or one that is not a regular file
 * under MAX_STATE_FILE_BYTES, starts afresh (it holds only baselines).
 */
export function loadConversation(env: NodeJS.ProcessEnv, root: string, id: string): EditConversation {
  const state = parseState(readStateFile(conversationFilePath(env, root, id)), id);
  const conversation = state === undefined ? new EditConversation(id) : EditConversation.fromState(state);
  loadedStates.set(conversation, conversation.toState());
  return conversation;
}

/**
 * Two processes on one conversation (two terminals, an agent and a user) each load it, work, and save: the save merges
 * per file. A file this process changed (saw anew, forgot) takes this process's baseline; every other file keeps what
 * is on disk now, which another process may have written meanwhile; turns are appended. Under a lock, so no save
 * lands between the read and the write.
 */
export function mergeStates(
  base: ConversationState,
  ours: ConversationState,
  theirs: ConversationState,
): ConversationState {
  const mergePairs = (
    pick: (state: ConversationState) => readonly (readonly [string, string])[],
  ): Array<readonly [string, string]> => {
    const before = new Map(pick(base));
    const mine = new Map(pick(ours));
    const merged = new Map(pick(theirs));
    // Ours in our order (most recently seen last), so the bounds keep what this process saw last.
    for (const [path, text] of mine) {
      if (before.get(path) === text) continue;
      merged.delete(path);
      merged.set(path, text);
    }
    // Forgotten here (or dropped by the bounds): gone, unless the other process saw the file anew meanwhile.
    for (const [path, text] of before) {
      if (!mine.has(path) && merged.get(path) === text) merged.delete(path);
    }
    return [...merged];
  };
  const newTurns = ours.turns.slice(base.turns.length);
  return {
    id: ours.id,
    baselines: mergePairs((s) => s.baselines),
    proposed: mergePairs((s) => s.proposed),
    turns: [...theirs.turns, ...newTurns],
  };
}

/** How long a save waits for another process's save of the same conversation, and when a lock counts as abandoned. */
const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  retries: { retries: 100, factor: 1.2, minTimeout: 10, maxTimeout: 200 },
} as const;

/**
 * Saves the conversation, merged with what another process saved meanwhile (see mergeStates), under a lock: a
 * temporary file renamed over the old one, readable by the user only. A state path that cannot be written (a folder in
 * its place, no permission) is a CliError naming it; no temporary file is left behind.
 */
export async function saveConversation(
  env: NodeJS.ProcessEnv,
  root: string,
  conversation: EditConversation,
): Promise<string> {
  const file = conversationFilePath(env, root, conversation.id);
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let release: (() => Promise<void>) | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    release = await lock(file, LOCK_OPTIONS);
    const base = loadedStates.get(conversation) ?? EMPTY_STATE(conversation.id);
    const theirs = parseState(readStateFile(file), conversation.id) ?? EMPTY_STATE(conversation.id);
    // Bounded again: the merged state goes through the conversation's own limits.
    const merged = EditConversation.fromState(mergeStates(base, conversation.toState(), theirs)).toState();
    writeFileSync(temporary, JSON.stringify({ version: 1, root, ...merged }), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
    loadedStates.set(conversation, merged);
    return file;
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot save the conversation state to ${file}: ${describeStateError(error, file)}`);
  } finally {
    await release?.().catch(() => undefined);
  }
}

function describeStateError(error: unknown, file: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  let isFolder = false;
  try {
    isFolder = statSync(file).isDirectory();
  } catch {
    // Not there: the code says why.
  }
  if (isFolder || code === 'EISDIR')
    return 'a folder is in its place; remove it, or set SCALPEL_STATE_DIR to another folder';
  if (code === 'ELOCKED') return 'another scalpel process kept it locked; try again';
  if (code === 'EACCES' || code === 'EPERM')
    return 'permission denied; make it writable, or set SCALPEL_STATE_DIR to another folder';
  if (code === 'ENOTDIR')
    return 'a file is in the place of one of its folders; set SCALPEL_STATE_DIR to another folder';
  return error instanceof Error ? error.message : String(error);
}
