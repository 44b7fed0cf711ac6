import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isOutlinable } from '../language/languages';

/**
 * How the code graph and the type check see the workspace on disk: a listing of its source files, a cheap version
 * per file (changes whenever the file does) and the text. Paths are workspace-relative with forward slashes. The CLI
 * and the benchmarks use the Node implementation below; a host with unsaved buffers can supply its own.
 */
export interface SourceFileSystem {
  /** Absolute path of the workspace root. */
  readonly root: string;
  /** Every source file of the workspace in a language Scalpel reads (dependencies and build output excluded). */
  listSourceFiles(): readonly string[];
  /** A token that changes when the file changes; undefined when the file does not exist. */
  versionOf(file: string): string | undefined;
  readFile(file: string): string | undefined;
}

export const SOURCE_FILE_PATTERN = /\.(m|c)?(t|j)sx?$/i;

/** Folders never indexed: dependencies, version control, and the usual build and cache output. */
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules',
  'dist',
  'out',
  'build',
  'coverage',
  'bower_components',
]);

/** Workspaces bigger than this are indexed up to the limit: the graph is an aid, never worth minutes of scanning. */
export const MAX_INDEXED_FILES = 20_000;

export function nodeSourceFileSystem(root: string): SourceFileSystem {
  return {
    root,
    listSourceFiles: () => listSourceFilesUnder(root),
    versionOf: (file) => {
      try {
        const stat = statSync(join(root, file));
        return stat.isFile() ? `${stat.mtimeMs}:${stat.size}` : undefined;
      } catch {
        return undefined;
      }
    },
    readFile: (file) => {
      try {
        return readFileSync(join(root, file), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

function listSourceFilesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    names.sort();
    for (const name of names) {
      if (found.length >= MAX_INDEXED_FILES) return;
      if (name.startsWith('.') || SKIPPED_FOLDERS.has(name)) continue;
      const full = join(dir, name);
      let isDirectory: boolean;
      try {
        isDirectory = statSync(full).isDirectory();
      } catch {
        continue;
      }
      if (isDirectory) walk(full, `${prefix}${name}/`);
      else if (SOURCE_FILE_PATTERN.test(name) || isOutlinable(name)) found.push(`${prefix}${name}`);
    }
  };
  walk(root, '');
  return found;
}
