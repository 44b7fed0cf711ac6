import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isOutlinable } from '../language/languages';
import { type ExcludeGlob, listWorkspaceFiles, type WorkspaceFilesOptions } from '../workspace/workspaceFiles';

/**
 * How the code graph and the type check see the workspace on disk: a listing of its source files, a cheap version
 * per file (changes whenever the file does) and the text. Paths are workspace-relative with forward slashes. The CLI
 * and the benchmarks use the Node implementation below; a host with unsaved buffers can supply its own.
 */
export interface SourceFileSystem {
  /** Absolute path of the workspace root. */
  readonly root: string;
  /**
   * Every source file of the workspace in a language Scalpel reads (what `.gitignore` and the exclusion settings
   * leave out is not listed), sorted.
   */
  listSourceFiles(): readonly string[];
  /** Whether the last listing stopped at a limit: a search over it did not cover the workspace. Absent: never. */
  listingTruncated?(): boolean;
  /** A token that changes when the file changes; undefined when the file does not exist. */
  versionOf(file: string): string | undefined;
  readFile(file: string): string | undefined;
  /**
   * Files whose text (as `readFile` gives it) differs from the disk, such as unsaved editors: a text search reads
   * them from `readFile`, the others from the disk. Absent: none.
   */
  unsavedFiles?(): readonly string[];
}

export const SOURCE_FILE_PATTERN = /\.(m|c)?(t|j)sx?$/i;

/** Workspaces bigger than this are indexed up to the limit: the graph is an aid, never worth minutes of scanning. */
export const MAX_INDEXED_FILES = 20_000;

export interface NodeSourceFileSystemOptions extends Omit<WorkspaceFilesOptions, 'exclude'> {
  /** Files of these languages only; default: every language Scalpel reads. */
  readonly isSource?: (file: string) => boolean;
  /** The exclusion globs, or a function read at each listing (settings that may change); default the listing's. */
  readonly exclude?: readonly ExcludeGlob[] | (() => readonly ExcludeGlob[]);
}

/**
 * The workspace on disk: its files as the one workspace listing has them (src/core/workspace/workspaceFiles.ts:
 * `.gitignore` and the exclusion globs respected, links kept inside the root), those of a language Scalpel reads.
 */
export function nodeSourceFileSystem(root: string, options: NodeSourceFileSystemOptions = {}): SourceFileSystem {
  const isSource = options.isSource ?? isOutlinable;
  let truncated = false;
  return {
    root,
    listSourceFiles: () => {
      const { exclude, maxFiles } = options;
      const globs = typeof exclude === 'function' ? exclude() : exclude;
      const listing = listWorkspaceFiles(root, '', {
        ...(globs === undefined ? {} : { exclude: globs }),
        ...(maxFiles === undefined ? {} : { maxFiles }),
      });
      const sources = listing.files.filter(isSource);
      truncated = listing.truncated || sources.length > MAX_INDEXED_FILES;
      return sources.slice(0, MAX_INDEXED_FILES);
    },
    listingTruncated: () => truncated,
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
