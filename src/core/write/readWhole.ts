import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { FileBeingSavedError } from '../workspace/fileFingerprint';

/**
 * Reads a file only when it is whole: never in the middle of another program's save. A save in place (`O_TRUNC`, as
 * `fs.writeFileSync`, most editors and `cat > file` write) empties the file and then fills it; read in between, the
 * file is a prefix of what its owner saved, and an edit built on that prefix would replace the rest. Nothing in the
 * bytes shows it, so the file's own clock decides: a file is read once nothing has changed it (content, size or
 * status) for `quietMs`, by its modification and change times or, when those cannot be trusted (a time in the
 * future, from another machine's clock), by watching it. A file still changing after `maxWaitMs` is refused with
 * "is being saved; try again". A file this process wrote itself, unchanged since, is read at once.
 *
 * What this cannot see: a program that stops for longer than `quietMs` in the middle of writing a file looks the same
 * as one that finished. The writer's last check (src/core/write/writeFiles.ts) then still catches it if the program
 * resumes before the file is replaced.
 */

/** How long a file must have been left alone to count as saved. Editors write a file in one go, in milliseconds. */
export const DEFAULT_QUIET_MS = 500;
/** How long a read waits for a file that keeps changing before it refuses. */
export const DEFAULT_MAX_WAIT_MS = 3_000;

export interface ReadWholeOptions {
  readonly quietMs?: number;
  readonly maxWaitMs?: number;
  /** The clock (ms); the tests and the stress bench keep the real one. */
  readonly now?: () => number;
  /** Waits synchronously: the snapshot readers the apply engine calls are synchronous. */
  readonly sleep?: (ms: number) => void;
}

export interface WholeFile {
  readonly bytes: Buffer;
  /** The file's status as it was read (the same before and after the read). */
  readonly stat: Stats;
  /** How long the read waited for the file to settle, in ms (0 for a file nobody had just changed). */
  readonly waitedMs: number;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(1, Math.ceil(ms)));
}

/** Everything a write changes: the identity of the file, its size and both of its clocks. */
function statKey(stat: Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/**
 * When the file last changed, by its own clocks. A time in whole seconds may come from a file system that keeps
 * only seconds (FAT, some network shares): the change may then have happened up to a second later than it says.
 */
function lastChangeOf(stat: Stats): number {
  const last = Math.max(stat.mtimeMs, stat.ctimeMs);
  return last % 1000 === 0 ? last + 1000 : last;
}

/** Files this process wrote, by identity, with the status they had right after: those are whole. */
const ownWrites = new Map<string, string>();
const MAX_OWN_WRITES = 1_000;

/** Records a file this process has just written in full (the writer calls it after linking the file in). */
export function recordOwnWrite(stat: Stats): void {
  const id = `${stat.dev}:${stat.ino}`;
  ownWrites.delete(id);
  ownWrites.set(id, statKey(stat));
  if (ownWrites.size > MAX_OWN_WRITES) {
    const oldest = ownWrites.keys().next().value;
    if (oldest !== undefined) ownWrites.delete(oldest);
  }
}

function isOwnWrite(stat: Stats): boolean {
  return ownWrites.get(`${stat.dev}:${stat.ino}`) === statKey(stat);
}

/** Everything the descriptor holds from its start, `size` a first guess: a file that grows meanwhile is read to its end. */
export function readAllOf(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let length = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(65536, size - length + 1));
    const read = readSync(fd, chunk, 0, chunk.length, length);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    length += read;
  }
  return Buffer.concat(chunks, length);
}

/** A folder, a FIFO, a device or a socket: nothing Scalpel reads as a source file. */
function notAFileError(path: string, stat: Stats): NodeJS.ErrnoException {
  const code = stat.isDirectory() ? 'EISDIR' : 'ENOTFILE';
  return Object.assign(new Error(`${code}: not a regular file, '${path}'`), { code, path });
}

/**
 * Reads `absolutePath` once it is whole (see above). Throws the file system's error for a file that cannot be read
 * (ENOENT, EISDIR, ...) and `FileBeingSavedError` (naming `displayPath`) for one that kept changing.
 */
export function readWholeFile(absolutePath: string, displayPath: string, options: ReadWholeOptions = {}): WholeFile {
  const quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepSync;
  const started = now();
  let watched: { key: string; since: number } | undefined;
  for (;;) {
    const stat = statSync(absolutePath);
    if (!stat.isFile()) throw notAFileError(absolutePath, stat);
    const at = now();
    const key = statKey(stat);
    if (watched?.key !== key) watched = { key, since: at };
    const lastChange = lastChangeOf(stat);
    // A change time in the future says nothing about the present: only what was watched counts then.
    const quietFor = Math.max(at - watched.since, lastChange <= at ? at - lastChange : 0);
    if (quietFor >= quietMs || isOwnWrite(stat)) {
      // Non-blocking: a FIFO put in the file's place since the stat must not hang the read.
      const fd = openSync(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const before = fstatSync(fd);
        if (!before.isFile()) throw notAFileError(absolutePath, before);
        const bytes = readAllOf(fd, before.size);
        const after = fstatSync(fd);
        if (statKey(before) === key && statKey(after) === key && bytes.length === after.size) {
          return { bytes, stat: after, waitedMs: at - started };
        }
      } finally {
        closeSync(fd);
      }
      // It changed while it was read: watch it again from now.
      watched = undefined;
    }
    const waited = now() - started;
    if (waited >= maxWaitMs) throw new FileBeingSavedError(displayPath, waited);
    sleep(Math.min(Math.max(10, quietMs - quietFor), 100, maxWaitMs - waited));
  }
}
