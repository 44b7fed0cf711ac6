import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Keeps every path Scalpel reads or writes inside the workspace root: a model that answers with an absolute
 * path, a `..` escape or a path through a symlink that leads outside is refused, never followed.
 */

export class WorkspacePathError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`refused path "${path}": ${reason}`);
    this.name = 'WorkspacePathError';
  }
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The longest existing prefix of a path, resolved through symlinks; the missing rest appended as written. */
function realpathOfExistingPrefix(absolute: string): string {
  let existing = absolute;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return missing.length === 0 ? real : resolve(real, ...missing.reverse());
    } catch {
      const parent = resolve(existing, '..');
      if (parent === existing) return absolute;
      missing.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

/**
 * Turns a workspace-relative path written by a user or a model (`src/a.ts`, `./src/a.ts`, `file:src/a.ts`) into an
 * absolute path inside `root`, or throws WorkspacePathError.
 */
export function resolveInWorkspace(root: string, path: string): string {
  const trimmed = path
    .trim()
    .replace(/^file:/i, '')
    .replace(/\\/g, '/');
  if (trimmed.length === 0) throw new WorkspacePathError(path, 'the path is empty');
  if (isAbsolute(trimmed) || /^[A-Za-z]:\//.test(trimmed)) {
    throw new WorkspacePathError(path, 'absolute paths are not accepted; use a path relative to the workspace root');
  }
  if (trimmed.split('/').includes('..')) throw new WorkspacePathError(path, '".." may not appear in a workspace path');
  const realRoot = realpathOfExistingPrefix(resolve(root));
  const absolute = resolve(realRoot, trimmed);
  if (!isInside(realRoot, absolute)) throw new WorkspacePathError(path, 'it leads outside the workspace');
  if (!isInside(realRoot, realpathOfExistingPrefix(absolute))) {
    throw new WorkspacePathError(path, 'it goes through a symbolic link that leads outside the workspace');
  }
  return absolute;
}

/** The workspace-relative, forward-slash form of a path given on a command line (relative to `cwd` or absolute). */
export function toWorkspaceRelative(root: string, input: string, cwd: string = process.cwd()): string {
  const realRoot = realpathOfExistingPrefix(resolve(root));
  const absolute = realpathOfExistingPrefix(resolve(cwd, input.replace(/^file:/i, '')));
  if (!isInside(realRoot, absolute))
    throw new WorkspacePathError(input, `it is outside the workspace root ${realRoot}`);
  return relative(realRoot, absolute).split(sep).join('/');
}
