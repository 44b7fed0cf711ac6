import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isOutlinable } from '../elements/outline';
import { resolveInWorkspace } from '../workspace/workspacePaths';
import type { ToolWorkspace } from './types';

/** Folders that hold generated or vendored code: never listed, whatever .gitignore says. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'out', 'build', 'coverage']);

function readGitignore(root: string): Ignore {
  const rules = ignore();
  try {
    rules.add(readFileSync(join(root, '.gitignore'), 'utf8'));
  } catch {
    // No .gitignore: only the fixed folders are skipped.
  }
  return rules;
}

/** The workspace on disk, for the CLI's MCP server and the tests. Paths leaving the root are refused. */
export function diskWorkspace(root: string): ToolWorkspace {
  const gitignore = readGitignore(root);
  const absoluteOf = (path: string): string | undefined => {
    try {
      return resolveInWorkspace(root, path === '' || path === '.' ? '.' : path);
    } catch {
      return undefined;
    }
  };
  return {
    root,
    listSourceFiles(folder = '') {
      const start = folder.replace(/^\.\/?/, '').replace(/\/+$/, '');
      const absolute = absoluteOf(start === '' ? '.' : start);
      if (absolute === undefined) return [];
      const found: string[] = [];
      const walk = (dir: string, rel: string): void => {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          return;
        }
        for (const name of names) {
          const childRel = rel === '' ? name : `${rel}/${name}`;
          let isDir: boolean;
          try {
            isDir = statSync(join(dir, name)).isDirectory();
          } catch {
            continue;
          }
          if (isDir) {
            if (name.startsWith('.') || SKIPPED_FOLDERS.has(name) || gitignore.ignores(`${childRel}/`)) continue;
            walk(join(dir, name), childRel);
          } else if (isOutlinable(name) && !/\.d\.[mc]?ts$/.test(name) && !gitignore.ignores(childRel)) {
            found.push(childRel);
          }
        }
      };
      walk(absolute, start);
      return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
    read(path) {
      const absolute = absoluteOf(path);
      if (absolute === undefined) return undefined;
      try {
        return readFileSync(absolute, 'utf8');
      } catch {
        return undefined;
      }
    },
    version(path) {
      const absolute = absoluteOf(path);
      if (absolute === undefined) return 'missing';
      try {
        const stat = statSync(absolute);
        return `${stat.mtimeMs}:${stat.size}`;
      } catch {
        return 'missing';
      }
    },
    isFolder(path) {
      const absolute = absoluteOf(path === '' ? '.' : path);
      if (absolute === undefined) return false;
      try {
        return statSync(absolute).isDirectory();
      } catch {
        return false;
      }
    },
  };
}
