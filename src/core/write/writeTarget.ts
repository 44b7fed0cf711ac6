import { lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { checkWorkspacePath } from '../ops/apply/workspacePath';

/**
 * Where a write really lands. A path is canonicalized at write time, not only parsed: the realpath of the file, or
 * of its deepest existing folder for a file still to be created, must lie inside the workspace root. A symlinked file
 * or folder inside the root is written through to its real file (the link stays a link); one that leads outside, or
 * nowhere, is refused.
 */

export interface WriteTarget {
  /** Workspace-relative, forward slashes, as the batch names it. */
  readonly path: string;
  /** The real file the write goes to (every symlink resolved). */
  readonly real: string;
  /** `real` relative to the real root, forward slashes: what the policy judges besides `path`. */
  readonly realPath: string;
  /** The real file's stat, or undefined when it does not exist yet. */
  readonly stat: Stats | undefined;
}

export type ResolvedTarget =
  { readonly ok: true; readonly target: WriteTarget } | { readonly ok: false; readonly reason: string };

/** Longest file name most file systems take (NAME_MAX), and path (PATH_MAX), in bytes. */
const NAME_MAX = 255;
const PATH_MAX = 4095;

export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The root with its own symlinks resolved; every target is compared against this. */
export function realRootOrThrow(root: string): string {
  return realpathSync.native(root);
}

/** Why a file system error keeps Scalpel from writing, in words a user can act on. */
export function describeFsError(error: unknown): string {
  const code = errorCode(error);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'the disk quota is exceeded';
    case 'ENAMETOOLONG':
      return 'the name is too long for the file system';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'ENOTDIR':
      return 'a part of its folder path is a file, not a folder';
    case 'ELOOP':
      return 'it goes through a loop of symbolic links';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'EIO':
      return 'an input/output error';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

function nameTooLong(absolute: string): boolean {
  if (Buffer.byteLength(absolute) > PATH_MAX) return true;
  return absolute.split(sep).some((segment) => Buffer.byteLength(segment) > NAME_MAX);
}

/**
 * The real location of a path that may not exist yet: the realpath of its deepest existing ancestor with the missing
 * rest appended. A name that exists but cannot be resolved is a dangling or looping symlink.
 */
function realLocation(absolute: string): { ok: true; real: string } | { ok: false; reason: string } {
  const missing: string[] = [];
  let candidate = absolute;
  for (;;) {
    try {
      const real = realpathSync.native(candidate);
      return { ok: true, real: missing.length === 0 ? real : join(real, ...missing.reverse()) };
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT') return { ok: false, reason: describeFsError(error) };
    }
    let entry: Stats | undefined;
    try {
      entry = lstatSync(candidate);
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT') return { ok: false, reason: describeFsError(error) };
    }
    if (entry?.isSymbolicLink() === true) {
      return {
        ok: false,
        reason: `${missing.length === 0 ? 'it is' : 'it goes through'} a symbolic link that leads nowhere`,
      };
    }
    const parent = join(candidate, '..');
    if (parent === candidate) return { ok: false, reason: 'no folder of it exists' };
    missing.push(candidate.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    candidate = parent;
  }
}

/** Resolves one write target against the real root, or says why it may not be written. */
export function resolveWriteTarget(realRoot: string, path: string): ResolvedTarget {
  const check = checkWorkspacePath(path);
  if (!check.ok) return { ok: false, reason: check.reason };
  // With the `u` flag a surrogate pair is one code point, so only unpaired halves match: the file system would get
  // U+FFFD in their place, a file of another name than the one reported.
  if (/[\uD800-\uDFFF]/u.test(check.path)) {
    return { ok: false, reason: 'its name holds an unpaired UTF-16 surrogate, which no file name can hold' };
  }
  const absolute = join(realRoot, ...check.path.split('/'));
  if (!isInside(realRoot, absolute)) return { ok: false, reason: 'it leads outside the workspace' };
  if (nameTooLong(absolute)) return { ok: false, reason: describeFsError({ code: 'ENAMETOOLONG' }) };
  const location = realLocation(absolute);
  if (!location.ok) return { ok: false, reason: location.reason };
  const real = location.real;
  if (!isInside(realRoot, real)) {
    return { ok: false, reason: 'it resolves through a symbolic link to a place outside the workspace' };
  }
  if (nameTooLong(real)) return { ok: false, reason: describeFsError({ code: 'ENAMETOOLONG' }) };
  let stat: Stats | undefined;
  try {
    stat = statSync(real);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') return { ok: false, reason: describeFsError(error) };
  }
  if (stat?.isDirectory() === true) return { ok: false, reason: 'it is a directory, not a file' };
  if (stat !== undefined && !stat.isFile()) {
    return { ok: false, reason: 'it is not a regular file (a device, socket or pipe)' };
  }
  return {
    ok: true,
    target: { path: check.path, real, realPath: relative(realRoot, real).split(sep).join('/'), stat },
  };
}
