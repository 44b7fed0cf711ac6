import { firstMatchingGlob } from '../workspace/glob';
import type { WriteTarget } from './writeTarget';

/**
 * Which files an answer may write. A model's answer is untrusted input, and some files run code or hold secrets:
 * those are never written (version-control folders: a `core.fsmonitor` line in `.git/config` runs on the next
 * `git status`, a hook on the next commit), or written only when the user allows them (a `--allow` glob, the
 * `scalpel.allowWrite` setting, a confirmation in VS Code, or by naming the file themselves).
 */

export interface WritePolicyOptions {
  /** Globs (VS Code syntax, workspace-relative) of protected files the user allows: `--allow`, `scalpel.allowWrite`. */
  readonly allow?: readonly string[];
  /** Workspace-relative paths the user named (command line, active editor, chat reference): allowed like a glob. */
  readonly userNamed?: ReadonlySet<string>;
  /** Why a path is ignored or excluded by the workspace (`.gitignore "dist/"`), or undefined. */
  readonly excludedBy?: (path: string) => string | undefined;
  /** The root is not a workspace folder (VS Code: a file opened from elsewhere): every write asks. */
  readonly outsideWorkspace?: boolean;
}

export type Protection =
  /** Never written from an answer, whatever is allowed. */
  | { readonly level: 'never'; readonly reason: string }
  /** Written only when the user allows it. */
  | { readonly level: 'ask'; readonly reason: string };

/** Version-control folders (and the `.git` file of a worktree or submodule), at any depth. */
const VCS_NAMES = new Set(['.git', '.hg', '.svn', '.bzr', '_darcs', '.jj']);

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function vcsReason(path: string): string | undefined {
  const found = segmentsOf(path).find((segment) => VCS_NAMES.has(segment.toLowerCase()));
  return found === undefined ? undefined : `it is inside ${found}, version-control data that can run programs`;
}

/** The rule (besides version control) that protects a workspace-relative path, by name alone. */
function protectedName(path: string): string | undefined {
  const segments = segmentsOf(path);
  const name = segments[segments.length - 1] ?? '';
  const lower = segments.map((segment) => segment.toLowerCase());
  if (lower.length >= 2 && lower[lower.length - 2] === '.vscode' && name.toLowerCase().endsWith('.json')) {
    return 'it is a VS Code settings, tasks or launch file (.vscode/*.json), which can run programs';
  }
  if (name.toLowerCase().startsWith('.env')) return 'it is an environment file (.env*), which may hold secrets';
  if (lower.includes('node_modules')) return 'it is inside node_modules, installed code that runs';
  return undefined;
}

/** How a target is protected, or undefined when an answer may write it freely. */
export function protectionOf(target: WriteTarget, options: WritePolicyOptions): Protection | undefined {
  const names = target.realPath === target.path ? [target.path] : [target.path, target.realPath];
  for (const name of names) {
    const vcs = vcsReason(name);
    if (vcs !== undefined) return { level: 'never', reason: vcs };
  }
  const reason =
    names.map(protectedName).find((r) => r !== undefined) ??
    (options.outsideWorkspace === true ? 'it is outside every workspace folder' : undefined) ??
    (target.stat !== undefined && (target.stat.mode & 0o222) === 0 ? 'it is read-only' : undefined) ??
    names
      .map((name) => options.excludedBy?.(name))
      .map((rule) => (rule === undefined ? undefined : `the workspace ignores or excludes it (${rule})`))
      .find((r) => r !== undefined);
  if (reason === undefined) return undefined;
  const allowed =
    names.some((name) => options.userNamed?.has(name) === true) ||
    names.some((name) => firstMatchingGlob(options.allow ?? [], name) !== undefined);
  return allowed ? undefined : { level: 'ask', reason };
}
