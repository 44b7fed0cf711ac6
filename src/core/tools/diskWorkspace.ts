import { readFileSync, statSync } from 'node:fs';
import { isOutlinable } from '../elements/outline';
import {
  listWorkspaceFiles,
  normalizeWorkspacePath,
  workspaceExclusionRule,
  type WorkspaceFilesOptions,
  type WorkspaceListing,
} from '../workspace/workspaceFiles';
import { resolveInWorkspace } from '../workspace/workspacePaths';
import type { ToolWorkspace } from './types';

/** Declaration files describe code that lives elsewhere: the tools list the sources. */
const DECLARATION_FILE = /\.d\.[mc]?ts$/;

/**
 * The workspace on disk, for the CLI's MCP server and the tests (and, with the user's exclusion settings, VS Code's
 * tools): the one workspace listing (src/core/workspace/workspaceFiles.ts) and the same rule for reading, so a file
 * that `.gitignore` or an exclusion setting leaves out is neither listed nor read. Paths leaving the root are refused.
 */
export function diskWorkspace(root: string, options: WorkspaceFilesOptions = {}): ToolWorkspace {
  const absoluteOf = (path: string): string | undefined => {
    try {
      return resolveInWorkspace(root, path === '' ? '.' : path);
    } catch {
      return undefined;
    }
  };
  const listing = (folder = ''): WorkspaceListing => listWorkspaceFiles(root, folder, options);
  // Asked on every read: the `.gitignore` files are read again only when they change (issue 25).
  const excludedBy = workspaceExclusionRule(root, options);
  return {
    root,
    listing,
    listSourceFiles(folder = '') {
      return listing(folder).files.filter((file) => isOutlinable(file) && !DECLARATION_FILE.test(file));
    },
    excludedBy,
    read(path) {
      const normalized = normalizeWorkspacePath(path);
      const absolute = absoluteOf(normalized);
      if (absolute === undefined || excludedBy(normalized) !== undefined) return undefined;
      try {
        return readFileSync(absolute, 'utf8');
      } catch {
        return undefined;
      }
    },
    version(path) {
      const absolute = absoluteOf(normalizeWorkspacePath(path));
      if (absolute === undefined) return 'missing';
      try {
        const stat = statSync(absolute);
        return `${stat.mtimeMs}:${stat.size}`;
      } catch {
        return 'missing';
      }
    },
    isFolder(path) {
      const absolute = absoluteOf(normalizeWorkspacePath(path));
      if (absolute === undefined) return false;
      try {
        return statSync(absolute).isDirectory();
      } catch {
        return false;
      }
    },
  };
}
