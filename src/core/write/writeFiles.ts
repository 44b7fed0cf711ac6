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
  realpathSync,
  renameSync,
  rmdirSync,
  statfsSync,
  statSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { type FileFingerprint, fingerprintOf, fingerprintOfText, sameContent } from '../workspace/fileFingerprint';
import { readAllOf, recordOwnWrite } from './readWhole';
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
  /**
   * A time limit (`Date.now()` ms): checked after every other check, right before the first file is written; past it
   * nothing is. The clock, not a timer: a timer cannot fire while synchronous work holds the process.
   */
  readonly deadline?: number;
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

function readAll(fd: number): Buffer {
  return readAllOf(fd, fstatSync(fd).size);
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

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS']);

/**
 * Replaces an existing file with `bytes` if it still holds `expected`, so that no save by another program is lost:
 * - the file is checked, then moved aside (a rename captures whatever is at the name at that instant, so a save by
 *   renaming that landed after the check is caught: the file moved aside is not the one checked, and it is put back);
 * - the new file is hard-linked into the name, which fails if anything took the name meanwhile (a save creating the
 *   file anew): that newer file stays;
 * - the file moved aside is read again through the descriptor opened for the check: a save written in place into it
 *   after the check shows there, and is returned as `raced` for the caller to put back.
 * For a few microseconds the name does not exist; on a file system without hard links a plain rename replaces it.
 */
function replaceChecked(
  planned: Pick<Planned, 'target' | 'mode' | 'write'>,
  bytes: Buffer,
  expected: FileFingerprint,
  beforeRename: ((path: string) => void) | undefined,
  sync = true,
): { previous: Buffer; raced: boolean; inode: number } {
  const { real } = planned.target;
  const path = planned.write.path;
  const temporary = writeTemporary(real, bytes, planned.mode, sync);
  let fd: number | undefined;
  let aside: string | undefined;
  try {
    // The folder is checked again: a folder swapped for a symlink since the gate would take the rename elsewhere.
    if (realpathSync.native(dirname(real)) !== dirname(real)) {
      throw new WriteFailure('refused', path, 'its folder was replaced by a symbolic link');
    }
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    const current = readAll(fd);
    const opened = fstatSync(fd);
    if (!sameContent(fingerprintOf(current), expected)) {
      throw new WriteFailure('conflict', path, 'it changed on disk while the batch was being written');
    }
    beforeRename?.(path);
    aside = temporaryName(dirname(real));
    renameSync(real, aside);
    const moved = lstatSync(aside);
    if (moved.ino !== opened.ino || moved.dev !== opened.dev) {
      putBack(aside, real);
      aside = undefined;
      throw new WriteFailure('conflict', path, 'another program saved it while it was being written');
    }
    const ours = lstatSync(temporary);
    try {
      linkSync(temporary, real);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') {
        // Saved anew in the instant the name was free: that save is newer than the file moved aside.
        throw new WriteFailure('conflict', path, 'another program saved it while it was being written');
      }
      if (!NO_HARD_LINKS.has(code ?? '')) {
        putBack(aside, real);
        aside = undefined;
        throw error;
      }
      renameSync(temporary, real);
    }
    // The file moved aside is checked once more, by its clock and size and by its content: a program still writing
    // into it (a save in place that paused) shows here.
    const asideNow = fstatSync(fd);
    const untouched = asideNow.size === opened.size && asideNow.mtimeMs === opened.mtimeMs;
    if (untouched && readAll(fd).equals(current)) return { previous: current, raced: false, inode: ours.ino };
    // A save went into the file moved aside after the check: that file goes back to its name, with the save in it
    // (and with any write still under way into it), unless an even newer save replaced Scalpel's meanwhile.
    swapBack(real, aside, ours);
    aside = undefined;
    return { previous: current, raced: true, inode: ours.ino };
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (aside !== undefined) tryUnlink(aside);
    tryUnlink(temporary);
  }
}

/** Returns a file moved aside to its name, unless a newer one took the name meanwhile. */
function putBack(aside: string, real: string): void {
  try {
    linkSync(aside, real);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EEXIST' && !NO_HARD_LINKS.has(code ?? '')) throw error;
    if (code !== 'EEXIST') {
      renameSync(aside, real);
      return;
    }
  }
  tryUnlink(aside);
}

/** Puts the file moved aside back in place of Scalpel's, if the name still holds Scalpel's file (`ours`). */
function swapBack(real: string, aside: string, ours: Stats): void {
  const mine = temporaryName(dirname(real));
  try {
    renameSync(real, mine);
  } catch {
    tryUnlink(aside);
    return;
  }
  const moved = lstatSync(mine);
  if (moved.ino === ours.ino && moved.dev === ours.dev) {
    putBack(aside, real);
    tryUnlink(mine);
  } else {
    putBack(mine, real);
    tryUnlink(aside);
  }
}

/** Creates a new file, failing if anything has taken its name meanwhile: a hard link is exclusive, a rename is not. */
function createExclusive(planned: Planned, beforeRename: ((path: string) => void) | undefined): number {
  const { real } = planned.target;
  const temporary = writeTemporary(real, planned.bytes, undefined);
  const inode = lstatSync(temporary).ino;
  try {
    beforeRename?.(planned.write.path);
    try {
      linkSync(temporary, real);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') {
        throw new WriteFailure('conflict', planned.write.path, 'another program created it meanwhile');
      }
      if (!NO_HARD_LINKS.has(code ?? '')) throw error;
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
  return inode;
}

/**
 * Removes a file Scalpel created, if it still holds what Scalpel wrote: moved aside first, so a save that lands
 * meanwhile is seen (in the file moved aside, or as a new file at the name) and kept. False when it was kept.
 */
function removeChecked(real: string, ours: FileFingerprint): boolean {
  let fd: number | undefined;
  const aside = temporaryName(dirname(real));
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    const opened = fstatSync(fd);
    if (!sameContent(fingerprintOf(readAll(fd)), ours)) return false;
    renameSync(real, aside);
    const moved = lstatSync(aside);
    if (moved.ino !== opened.ino || moved.dev !== opened.dev || !sameContent(fingerprintOf(readAll(fd)), ours)) {
      putBack(aside, real);
      return false;
    }
    tryUnlink(aside);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
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
    if (!removeChecked(planned.target.real, ours)) kept = false;
  } else {
    try {
      // A save racing the putting back is kept in place of it (`raced`): then the file is theirs, not as before.
      if (replaceChecked(planned, restore, ours, undefined, false).raced) kept = false;
    } catch {
      kept = false;
    }
  }
  for (const folder of [...written.createdFolders].reverse()) tryRemoveFolder(folder);
  return kept;
}

/**
 * Notes a file this process has just written whole (`inode`: the file it linked in), so reading it back right away need not wait for it to settle (src/core/write/readWhole.ts).
 */
function rememberOwnWrite(real: string, inode: number): void {
  try {
    const stat = statSync(real);
    if (stat.ino === inode) recordOwnWrite(stat);
  } catch {
    // Gone already: nothing to remember.
  }
}

/** Writes the batch, all or nothing. Never throws for a file system error: the result says what happened. */
export function writeFiles(writes: readonly FileWrite[], options: WriteFilesOptions): WriteFilesResult {
  const done: Written[] = [];
  let planned: Planned[] = [];
  let current: Planned | undefined;
  try {
    planned = plan(writes, options);
    if (options.deadline !== undefined && Date.now() >= options.deadline) {
      throw new WriteFailure('refused', planned[0]?.write.path ?? '', 'the time limit ran out before it was written');
    }
    for (const item of planned) {
      current = item;
      if (item.target.stat === undefined) {
        const createdFolders = createFolders(item.target.real);
        let inode: number;
        try {
          inode = createExclusive(item, options.beforeRename);
        } catch (error) {
          for (const folder of [...createdFolders].reverse()) tryRemoveFolder(folder);
          throw error;
        }
        done.push({ planned: item, restore: undefined, createdFolders });
        rememberOwnWrite(item.target.real, inode);
        continue;
      }
      const { previous, raced, inode } = replaceChecked(item, item.bytes, item.baseline, options.beforeRename);
      if (!raced) rememberOwnWrite(item.target.real, inode);
      // A raced file already holds the other program's save again: nothing of Scalpel's is left to roll back there.
      if (!raced) done.push({ planned: item, restore: previous, createdFolders: [] });
      if (raced) {
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
