import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { globToRegExp } from './glob';

/**
 * The one list of the workspace's files that every search reads (FIND, find_symbols, references, the search tool,
 * the code graph), walked the way git and VS Code's search see a workspace: the `.gitignore` files (each relative to
 * its folder, deeper ones overriding, a `!pattern` un-ignoring), the exclusion globs of the surface (`files.exclude`,
 * `search.exclude`, `scalpel.exclude` in VS Code; the same defaults in the CLI), and nothing skipped by its name alone:
 * a `build/` or `.storybook/` folder of sources is listed like any other.
 *
 * Symbolic links are followed only inside the root, each real folder read once (a link to `.` or to a parent folder
 * adds nothing and cannot loop); a link leading outside is not followed and is reported as skipped. Paths are
 * workspace-relative with forward slashes, as written on disk (leading dots kept).
 */

/** A glob of files left out, with the setting it comes from, for messages: `files.exclude "**\/.git"`. */
export interface ExcludeGlob {
  readonly glob: string;
  /** Where the glob comes from, as a user finds it: `files.exclude`, `scalpel.exclude`. */
  readonly setting: string;
  /**
   * Left out of the listing (so of every search) but readable when named, like VS Code's `search.exclude`: a
   * dependency's source may be read, not searched. Absent: neither listed nor read.
   */
  readonly listingOnly?: true;
}

/**
 * What VS Code leaves out of its search by default (`files.exclude` and `search.exclude`): version-control folders
 * and installed dependencies. The CLI and the MCP server use them; VS Code passes the user's own settings instead.
 */
export const DEFAULT_EXCLUDES: readonly ExcludeGlob[] = [
  ...['**/.git', '**/.svn', '**/.hg', '**/CVS', '**/.DS_Store', '**/Thumbs.db'].map((glob) => ({
    glob,
    setting: 'files.exclude (default)',
  })),
  ...['**/node_modules', '**/bower_components'].map((glob) => ({
    glob,
    setting: 'search.exclude (default)',
    listingOnly: true as const,
  })),
];

/** Files listed at most: past it the listing says it was cut short, and so does every search over it. */
export const MAX_LISTED_FILES = 100_000;

export interface WorkspaceFilesOptions {
  /** Globs left out besides the `.gitignore` files; default {@link DEFAULT_EXCLUDES}. */
  readonly exclude?: readonly ExcludeGlob[];
  /** Default {@link MAX_LISTED_FILES}. */
  readonly maxFiles?: number;
}

/** A symbolic link the walk did not follow, and why. */
export interface SkippedLink {
  /** Workspace-relative path of the link. */
  readonly path: string;
  readonly reason: string;
}

export interface WorkspaceListing {
  /** Every file not ignored or excluded, workspace-relative, sorted. */
  readonly files: readonly string[];
  /** Links left unfollowed because they lead outside the root (or cannot be read). */
  readonly skippedLinks: readonly SkippedLink[];
  /** The listing stopped at `maxFiles`: searches over it are partial. */
  readonly truncated: boolean;
  /** Folders read: each real folder once, however many links lead to it. */
  readonly foldersRead: number;
}

/**
 * A path as a user or an agent writes a file or folder of the workspace: `./src/` and `src` are the same, `.` is
 * the root (''), and a leading dot that is part of a name (`.storybook/main.ts`) is kept.
 */
export function normalizeWorkspacePath(path: string): string {
  let normalized = path.trim().replace(/\\/g, '/');
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  normalized = normalized.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return normalized === '.' ? '' : normalized;
}

interface CompiledExclude {
  readonly rule: string;
  readonly regExp: RegExp;
}

function compileExcludes(excludes: readonly ExcludeGlob[]): CompiledExclude[] {
  return excludes.map(({ glob, setting }) => ({ rule: `${setting} "${glob}"`, regExp: globToRegExp(glob) }));
}

interface IgnoreLevel {
  /** Workspace-relative folder of the `.gitignore` ('' for the root). */
  readonly folder: string;
  readonly rules: Ignore;
  readonly file: string;
}

/** The `.gitignore` rule (in words) that ignores `path` (a folder when `folder`), given the levels above it. */
function ignoredBy(levels: readonly IgnoreLevel[], path: string, folder: boolean): string | undefined {
  let verdict: string | undefined;
  for (const level of levels) {
    const relativePath = level.folder === '' ? path : path.slice(level.folder.length + 1);
    if (relativePath === '') continue;
    const result = level.rules.test(folder ? `${relativePath}/` : relativePath);
    if (result.ignored) verdict = `${level.file} "${result.rule?.pattern ?? relativePath}"`;
    else if (result.unignored) verdict = undefined;
  }
  return verdict;
}

function isInside(realRoot: string, real: string): boolean {
  const rel = relative(realRoot, real);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

interface PendingFolder {
  readonly absolute: string;
  readonly rel: string;
  readonly levels: readonly IgnoreLevel[];
}

/**
 * Lists the files under `folder` ('' = the whole workspace). Regular folders are read first and links after them,
 * so a file reachable both ways is listed under its own path, not the link's.
 */
export function listWorkspaceFiles(root: string, folder = '', options: WorkspaceFilesOptions = {}): WorkspaceListing {
  const excludes = compileExcludes(options.exclude ?? DEFAULT_EXCLUDES);
  const maxFiles = options.maxFiles ?? MAX_LISTED_FILES;
  const start = normalizeWorkspacePath(folder);
  const files: string[] = [];
  const skippedLinks: SkippedLink[] = [];
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { files, skippedLinks, truncated: false, foldersRead: 0 };
  }
  const visited = new Set<string>();
  const listedReal = new Set<string>();
  const links: PendingFolder[] = [];
  let truncated = false;
  let foldersRead = 0;

  const excludedBy = (path: string): string | undefined => excludes.find(({ regExp }) => regExp.test(path))?.rule;

  // The `.gitignore` files of the folders above the start folder apply to it too.
  const levelsAbove: IgnoreLevel[] = [];
  const startSegments = start === '' ? [] : start.split('/');
  for (let depth = 0; depth < startSegments.length; depth++) {
    const above = startSegments.slice(0, depth).join('/');
    const level = readIgnoreLevel(join(realRoot, above), above);
    if (level !== undefined) levelsAbove.push(level);
  }

  const read = (pending: PendingFolder): void => {
    let real: string;
    try {
      real = realpathSync(pending.absolute);
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    foldersRead += 1;
    let entries: Dirent[];
    try {
      entries = readdirSync(pending.absolute, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const own = entries.some((e) => e.name === '.gitignore' && !e.isDirectory())
      ? readIgnoreLevel(pending.absolute, pending.rel)
      : undefined;
    const levels = own === undefined ? pending.levels : [...pending.levels, own];
    const folders: PendingFolder[] = [];
    for (const entry of entries) {
      if (truncated) return;
      const rel = pending.rel === '' ? entry.name : `${pending.rel}/${entry.name}`;
      const absolute = join(pending.absolute, entry.name);
      let isFolder = entry.isDirectory();
      let isLink = false;
      if (entry.isSymbolicLink()) {
        isLink = true;
        let target: string;
        try {
          target = realpathSync(absolute);
          isFolder = statSync(target).isDirectory();
        } catch {
          skippedLinks.push({ path: rel, reason: 'a link whose target cannot be read' });
          continue;
        }
        if (!isInside(realRoot, target)) {
          skippedLinks.push({ path: rel, reason: 'a link that leads outside the workspace' });
          continue;
        }
        if (!isFolder) {
          // A link to a file listed under its own path is that file: one name is enough.
          if (listedReal.has(target)) continue;
        }
      } else if (!isFolder && !entry.isFile()) {
        continue;
      }
      if (excludedBy(rel) !== undefined || ignoredBy(levels, rel, isFolder) !== undefined) continue;
      if (isFolder) {
        const next = { absolute, rel, levels };
        if (isLink) links.push(next);
        else folders.push(next);
        continue;
      }
      if (files.length >= maxFiles) {
        truncated = true;
        return;
      }
      files.push(rel);
      listedReal.add(isLink ? realpathOrSelf(absolute) : join(real, entry.name));
    }
    for (const next of folders) read(next);
  };

  read({ absolute: join(realRoot, start), rel: start, levels: levelsAbove });
  // Links after every regular folder: a link to a folder already read adds nothing.
  while (links.length > 0 && !truncated) {
    const next = links.shift();
    if (next !== undefined) read(next);
  }
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, skippedLinks, truncated, foldersRead };
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function readIgnoreLevel(absoluteFolder: string, folder: string): IgnoreLevel | undefined {
  let text: string;
  try {
    text = readFileSync(join(absoluteFolder, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
  return ignoreLevel(folder, text);
}

/** The rules of `folder`'s `.gitignore`, whose text is `text`. */
function ignoreLevel(folder: string, text: string): IgnoreLevel {
  return { folder, rules: ignore().add(text), file: folder === '' ? '.gitignore' : `${folder}/.gitignore` };
}

/**
 * Why a file may not be read (a `.gitignore` rule or an exclusion glob, in words), or undefined: the rule the read
 * tools give when asked for a file the listing does not hold. Search-only exclusions (`listingOnly`) do not count.
 * One question; a caller asking for many paths keeps a {@link workspaceExclusionRule}.
 */
export function workspaceExclusionOf(
  root: string,
  path: string,
  options: Pick<WorkspaceFilesOptions, 'exclude'> = {},
): string | undefined {
  return workspaceExclusionRule(root, options)(path);
}

/** A folder's `.gitignore` as last read, with the stamp of the file it was read from. */
interface StampedLevel {
  readonly stamp: string;
  readonly text: string | undefined;
  readonly level: IgnoreLevel | undefined;
}

/**
 * A stamp younger than this is not trusted alone: file times tick in steps of a few milliseconds, so a file written
 * twice in one step keeps its stamp when its size does not change ("racy git"); its text is compared instead.
 */
const RACY_MS = 2_000;

/**
 * {@link workspaceExclusionOf} for many paths (every read of the tools' disk workspace asks it, issue 25): the
 * exclusion globs compiled once, and each folder's `.gitignore` read and compiled once, then read again only when its
 * stamp (size, modification time, inode) changes or is too recent to tell (its text is compared then). A stat per
 * folder above the path is what a question costs, and an edited, added or deleted `.gitignore` takes effect on the
 * next question. The globs are fixed for the rule's life: VS Code builds a new workspace (so a new rule) when an
 * exclusion setting changes.
 */
export function workspaceExclusionRule(
  root: string,
  options: Pick<WorkspaceFilesOptions, 'exclude'> = {},
): (path: string) => string | undefined {
  const excludes = compileExcludes((options.exclude ?? DEFAULT_EXCLUDES).filter((e) => e.listingOnly !== true));
  const levels = new Map<string, StampedLevel>();
  const levelOf = (folder: string): IgnoreLevel | undefined => {
    const file = join(root, folder, '.gitignore');
    let stamp = 'none';
    let racy = false;
    try {
      const stat = statSync(file, { throwIfNoEntry: false });
      if (stat !== undefined) {
        stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
        racy = Date.now() - stat.mtimeMs < RACY_MS;
      }
    } catch {
      // A folder that cannot be read has no rules to give.
    }
    const known = levels.get(folder);
    if (known !== undefined && known.stamp === stamp && !racy) return known.level;
    let text: string | undefined;
    try {
      text = stamp === 'none' ? undefined : readFileSync(file, 'utf8');
    } catch {
      text = undefined;
    }
    if (known !== undefined && known.text === text) {
      levels.set(folder, { ...known, stamp });
      return known.level;
    }
    const level = text === undefined ? undefined : ignoreLevel(folder, text);
    levels.set(folder, { stamp, text, level });
    return level;
  };
  return (path) => {
    const normalized = normalizeWorkspacePath(path);
    if (normalized === '') return undefined;
    const segments = normalized.split('/');
    const found: IgnoreLevel[] = [];
    for (let depth = 0; depth < segments.length; depth++) {
      const prefix = segments.slice(0, depth + 1).join('/');
      const excluded = excludes.find(({ regExp }) => regExp.test(prefix))?.rule;
      if (excluded !== undefined) return excluded;
      const level = levelOf(segments.slice(0, depth).join('/'));
      if (level !== undefined) found.push(level);
      const isLast = depth === segments.length - 1;
      const ignored = ignoredBy(found, prefix, !isLast);
      if (ignored !== undefined) return ignored;
    }
    return undefined;
  };
}
