import { normalizeFilePath } from '../../elements/elementPath';

/**
 * The syntactic half of keeping writes inside the workspace: the apply engine sees only paths, so it refuses the
 * ones that cannot be workspace-relative. The other half runs at write time, in the one write gate both surfaces pass
 * (src/core/write: the CLI's writer and the extension's applyChanges): every target's real path, symlinks resolved,
 * must stay inside the root.
 */
export type WorkspacePathCheck =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

export function checkWorkspacePath(input: string): WorkspacePathCheck {
  const trimmed = input.trim();
  if (trimmed.length === 0) return { ok: false, reason: 'the path is empty' };
  if (trimmed.includes('\0')) return { ok: false, reason: 'the path holds a NUL character' };
  const slashed = trimmed.replace(/^file:(?:\/\/)?/i, '').replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed) || slashed.startsWith('~')) {
    return { ok: false, reason: 'absolute paths are not accepted; write the path relative to the workspace root' };
  }
  if (slashed.split('/').includes('..')) return { ok: false, reason: '".." may not appear in a workspace path' };
  const path = normalizeFilePath(slashed)
    .split('/')
    .filter((segment, i) => segment !== '.' || i === 0)
    .join('/')
    .replace(/\/$/, '');
  if (path.length === 0 || path === '.') return { ok: false, reason: 'the path names no file' };
  return { ok: true, path };
}
