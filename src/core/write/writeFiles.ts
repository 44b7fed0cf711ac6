import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statfsSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { type FileFingerprint, fingerprintOf, fingerprintOfText, sameContent } from '../workspace/fileFingerprint';
import { checkWriteTargets, type WriteGateOptions } from './writeGate';
import { describeFsError, type WriteTarget } from './writeTarget';

/**
 * Writes a verified batch to disk, all or nothing, so that it can neither escape the workspace nor lose anybody's
 * save:
 * - every target passes the write gate first (containment, protected paths, one file under two names);
 * - everything that can be checked before writing is (the file is still what the batch was verified against, valid
 *   UTF-8, writable, the disk has room): a refusal writes nothing;
 * - new content goes to a temporary file with an unpredictable name, created exclusively (a planted symlink is never
 *   followed), in the real target's folder, with the target's mode, then renamed over it;
 * - right before each rename the file is checked again, and a save that still slips in between lands in the replaced
 *   file, where it is seen after the rename and put back: a change by anyone else is a conflict;
 * - any failure rolls back what was written, content and mode, unless someone saved over it since.
 */

export interface FileWrite {
  /** Workspace-relative path, forward slashes. */
  readonly path: string;
  /** The text the batch was verified against; undefined for a file the batch creates. */
  readonly before: string | undefined;
  readonly after: string;
}

export interface WriteFilesOptions extends WriteGateOptions {
  /** Per path, the file as it was read for the request; without one, `before` is the baseline. */
  readonly baselines?: ReadonlyMap<string, FileFingerprint>;
  /** Protected paths the user confirmed for this batch (VS Code's modal); the CLI allows with globs instead. */
  readonly confirmed?: ReadonlySet<string>;
  /** Runs between the last check of a file and its rename: the tests and the stress bench put a save there. */
  readonly beforeRename?: (path: string) => void;
}

export type WriteFailureKind =
  /** The gate or a check before writing refused the batch; nothing was written. */
  | 'refused'
  /** A protected path the user did not allow; nothing was written. */
  | 'protected'
  /** Someone else changed a file since it was read; what was written is rolled back. */
  | 'conflict'
  /** The file system failed while writing; what was written is rolled back. */
  | 'failed';

export type WriteFilesResult =
  | { readonly ok: true; readonly written: readonly string[] }
  | {
      readonly ok: false;
      readonly kind: WriteFailureKind;
      /** The file the failure is about. */
      readonly path: string;
      readonly reason: string;
      /** One line: the file, the reason and what became of the batch. */
      readonly message: string;
      /** Files left as another program saved them after Scalpel wrote them, instead of rolled back. */
      readonly keptOtherSaves: readonly string[];
    };

interface Planned {
  readonly write: FileWrite;
  readonly target: WriteTarget;
  readonly baseline: FileFingerprint;
  readonly bytes: Buffer;
  /** Mode bits to keep (0o7777), or undefined for a new file (the umask decides). */
  readonly mode: number | undefined;
}

interface Written {
  readonly planned: Planned;
  /** The bytes to put back: the file before the batch, or a save that raced the rename. */
  readonly restore: Buffer | undefined;
  readonly createdFolders: readonly string[];
}

class WriteFailure extends Error {
  constructor(
    readonly kind: WriteFailureKind,
    readonly path: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** With the `u` flag a surrogate pair is one code point, so only unpaired halves match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readAll(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const chunks: Buffer[] = [];
  let position = 0;
  let length = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(65536, size - position + 1));
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    position += read;
    length += read;
  }
  return Buffer.concat(chunks, length);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function temporaryName(folder: string): string {
  return join(folder, `.scalpel-${randomBytes(8).toString('hex')}.tmp`);
}

/** The deepest existing folder above a path that does not exist yet. */
function existingFolderOf(path: string): string {
  let folder = dirname(path);
  for (;;) {
    try {
      lstatSync(folder);
      return folder;
    } catch {
      const parent = dirname(folder);
      if (parent === folder) return folder;
      folder = parent;
    }
  }
}

function plan(writes: readonly FileWrite[], options: WriteFilesOptions): Planned[] {
  const verdicts = checkWriteTargets(
    writes.map((w) => w.path),
    options,
  );
  const planned: Planned[] = [];
  const needByFolder = new Map<string, number>();
  for (const [i, verdict] of verdicts.entries()) {
    const write = writes[i];
    if (write === undefined) continue;
    if (verdict.verdict === 'refuse') throw new WriteFailure('refused', write.path, verdict.reason);
    if (verdict.verdict === 'ask' && options.confirmed?.has(write.path) !== true) {
      throw new WriteFailure('protected', write.path, `it is protected: ${verdict.reason}`);
    }
    const { target } = verdict;
    const baseline = options.baselines?.get(write.path) ?? fingerprintOfText(write.before);
    if (LONE_SURROGATE.test(write.after)) {
      throw new WriteFailure('refused', write.path, 'the new text holds an unpaired UTF-16 surrogate');
    }
    const bytes = Buffer.from(write.after, 'utf8');
    let mode: number | undefined;
    if (target.stat !== undefined) {
      let current: Buffer;
      try {
        current = readFileSync(target.real);
      } catch (error) {
        throw new WriteFailure('refused', write.path, describeFsError(error));
      }
      // A file that is not UTF-8 was read lossily (U+FFFD): writing it back would damage bytes nobody edited.
      if (!isUtf8(current)) {
        throw new WriteFailure('refused', write.path, 'it is not valid UTF-8 text, and Scalpel writes only UTF-8');
      }
      if (!sameContent(fingerprintOf(current), baseline)) {
        throw new WriteFailure(
          'conflict',
          write.path,
          baseline.exists ? 'it changed on disk since it was read' : 'another program created it meanwhile',
        );
      }
      mode = target.stat.mode & 0o7777;
    } else if (baseline.exists) {
      throw new WriteFailure('conflict', write.path, 'it was deleted on disk since it was read');
    }
    const folder = target.stat === undefined ? existingFolderOf(target.real) : dirname(target.real);
    try {
      accessSync(folder, constants.W_OK | constants.X_OK);
    } catch (error) {
      throw new WriteFailure('refused', write.path, `its folder cannot be written: ${describeFsError(error)}`);
    }
    needByFolder.set(folder, (needByFolder.get(folder) ?? 0) + bytes.length + 4096);
    planned.push({ write, target, baseline, bytes, mode });
  }
  for (const [folder, need] of needByFolder) {
    let free: number | undefined;
    try {
      const stats = statfsSync(folder);
      free = stats.bavail * stats.bsize;
    } catch {
      // Not every file system reports its room; the write itself then fails and is rolled back.
    }
    if (free !== undefined && free < need) {
      const path = planned.find((p) => p.target.real.startsWith(folder))?.write.path ?? folder;
      throw new WriteFailure('refused', path, describeFsError({ code: 'ENOSPC' }));
    }
  }
  return planned;
}

/** Creates the missing folders above a new file one by one, so a rollback removes exactly those. */
function createFolders(real: string): string[] {
  const missing: string[] = [];
  for (let folder = dirname(real); ; folder = dirname(folder)) {
    try {
      lstatSync(folder);
      break;
    } catch {
      missing.push(folder);
      if (dirname(folder) === folder) break;
    }
  }
  const created: string[] = [];
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
      created.push(folder);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') {
        for (const made of created.reverse()) tryRemoveFolder(made);
        throw error;
      }
    }
  }
  return created;
}

function tryRemoveFolder(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // Not empty (someone put a file there) or gone: leave it.
  }
}

/**
 * Writes the bytes to a fresh temporary file beside `real`: exclusive, never through a symlink, mode kept, and synced
 * to disk unless speed matters more (putting back a save that raced a rename, while its program may save again).
 */
function writeTemporary(real: string, bytes: Buffer, mode: number | undefined, sync = true): string {
  const temporary = temporaryName(dirname(real));
  const fd = openSync(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode ?? 0o666,
  );
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    if (mode !== undefined) fchmodSync(fd, mode);
    if (sync) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    tryUnlink(temporary);
    throw error;
  }
  closeSync(fd);
  return temporary;
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/**
 * Content read from a file another program may be writing: read until two reads a few milliseconds apart agree, so a
 * save caught half-way is put back whole.
 */
function settledContent(fd: number): Buffer {
  let previous = readAll(fd);
  for (let i = 0; i < 50; i++) {
    sleep(1);
    const next = readAll(fd);
    if (next.equals(previous)) return next;
    previous = next;
  }
  return previous;
}

/**
 * Replaces an existing file with `bytes`, checking right before the rename that it still holds `expected`. Returns
 * undefined when the file was replaced as it was, or the content of a save that slipped in between the check and the
 * rename (it went to the replaced file, which is read again after the rename).
 */
function replaceChecked(
  planned: Pick<Planned, 'target' | 'mode' | 'write'>,
  bytes: Buffer,
  expected: FileFingerprint,
  beforeRename: ((path: string) => void) | undefined,
  sync = true,
): { previous: Buffer; raced: Buffer | undefined } {
  const { real } = planned.target;
  const temporary = writeTemporary(real, bytes, planned.mode, sync);
  let fd: number;
  try {
    // The folder is checked again: a folder swapped for a symlink since the gate would take the rename elsewhere.
    if (realpathSync.native(dirname(real)) !== dirname(real)) {
      throw new WriteFailure('refused', planned.write.path, 'its folder was replaced by a symbolic link');
    }
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    tryUnlink(temporary);
    throw error;
  }
  try {
    const current = readAll(fd);
    const opened = fstatSync(fd);
    const now = lstatSync(real);
    if (!sameContent(fingerprintOf(current), expected) || now.ino !== opened.ino || now.dev !== opened.dev) {
      tryUnlink(temporary);
      throw new WriteFailure('conflict', planned.write.path, 'it changed on disk while the batch was being written');
    }
    beforeRename?.(planned.write.path);
    renameSync(temporary, real);
    const after = readAll(fd);
    return { previous: current, raced: after.equals(current) ? undefined : settledContent(fd) };
  } finally {
    closeSync(fd);
  }
}

/** Creates a new file, failing if anything has taken its name meanwhile: a hard link is exclusive, a rename is not. */
function createExclusive(planned: Planned, beforeRename: ((path: string) => void) | undefined): void {
  const { real } = planned.target;
  const temporary = writeTemporary(real, planned.bytes, undefined);
  try {
    beforeRename?.(planned.write.path);
    try {
      linkSync(temporary, real);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') {
        throw new WriteFailure('conflict', planned.write.path, 'another program created it meanwhile');
      }
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
      // A file system without hard links: check, then rename.
      try {
        lstatSync(real);
        throw new WriteFailure('conflict', planned.write.path, 'another program created it meanwhile');
      } catch (missing) {
        if (missing instanceof WriteFailure) throw missing;
      }
      renameSync(temporary, real);
    }
  } finally {
    tryUnlink(temporary);
  }
}

/** Puts one written file back, unless someone saved over it since; returns false when it was left as they saved it. */
function rollBack(written: Written): boolean {
  const { planned, restore } = written;
  const ours = fingerprintOf(planned.bytes);
  let current: Buffer | undefined;
  try {
    current = readFileSync(planned.target.real);
  } catch {
    current = undefined;
  }
  let kept = true;
  if (current === undefined || !sameContent(fingerprintOf(current), ours)) {
    kept = false;
  } else if (restore === undefined) {
    tryUnlink(planned.target.real);
  } else {
    // Putting back races saves too: a save that lands in the file being put back is put back in turn.
    let bytes = restore;
    let expected = ours;
    for (let attempt = 0; attempt < 5; attempt++) {
      let raced: Buffer | undefined;
      try {
        raced = replaceChecked(planned, bytes, expected, undefined, false).raced;
      } catch {
        kept = false;
        break;
      }
      if (raced === undefined) break;
      expected = fingerprintOf(bytes);
      bytes = raced;
    }
  }
  for (const folder of [...written.createdFolders].reverse()) tryRemoveFolder(folder);
  return kept;
}

/** Writes the batch, all or nothing. Never throws for a file system error: the result says what happened. */
export function writeFiles(writes: readonly FileWrite[], options: WriteFilesOptions): WriteFilesResult {
  const done: Written[] = [];
  let planned: Planned[] = [];
  let current: Planned | undefined;
  try {
    planned = plan(writes, options);
    for (const item of planned) {
      current = item;
      if (item.target.stat === undefined) {
        const createdFolders = createFolders(item.target.real);
        try {
          createExclusive(item, options.beforeRename);
        } catch (error) {
          for (const folder of [...createdFolders].reverse()) tryRemoveFolder(folder);
          throw error;
        }
        done.push({ planned: item, restore: undefined, createdFolders });
        continue;
      }
      const { previous, raced } = replaceChecked(item, item.bytes, item.baseline, options.beforeRename);
      done.push({ planned: item, restore: raced ?? previous, createdFolders: [] });
      if (raced !== undefined) {
        throw new WriteFailure('conflict', item.write.path, 'another program saved it while it was being written');
      }
    }
    return { ok: true, written: planned.map((p) => p.write.path) };
  } catch (error) {
    const kept: string[] = [];
    for (const written of [...done].reverse()) if (!rollBack(written)) kept.push(written.planned.write.path);
    const failure =
      error instanceof WriteFailure
        ? error
        : new WriteFailure('failed', current?.write.path ?? writes[0]?.path ?? '', describeFsError(error));
    const outcome =
      done.length === 0
        ? 'nothing was written'
        : kept.length === 0
          ? 'every file was restored'
          : `every file was restored except ${kept.join(', ')}, which another program saved meanwhile (its save was kept)`;
    const savedKept = failure.reason.startsWith('another program saved it') ? ' (that save was kept)' : '';
    return {
      ok: false,
      kind: failure.kind,
      path: failure.path,
      reason: failure.reason,
      message: `${failure.path}: ${failure.reason}${savedKept}; ${outcome}`,
      keptOtherSaves: kept,
    };
  }
}
