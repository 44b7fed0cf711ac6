import { gitignoreRuleOnDisk } from '../workspace/gitignore';
import { protectionOf, type WritePolicyOptions } from './writePolicy';
import { realRootOrThrow, resolveWriteTarget, type WriteTarget } from './writeTarget';

/**
 * The one gate every write passes, whatever the surface (the CLI's writer, the VS Code WorkspaceEdit, the edit
 * service): containment (canonical paths inside the root), one file under two names, and the protected-path policy.
 * It writes nothing; it says per path whether to write, ask the user, or refuse.
 */

export interface WriteGateOptions extends WritePolicyOptions {
  /** The workspace root (absolute); symlinks in it are resolved. */
  readonly root: string;
}

export type GateVerdict =
  | { readonly verdict: 'write'; readonly path: string; readonly target: WriteTarget }
  /** Protected: written only if the user confirms (VS Code) or allows it (`--allow`, `scalpel.allowWrite`). */
  | { readonly verdict: 'ask'; readonly path: string; readonly target: WriteTarget; readonly reason: string }
  | { readonly verdict: 'refuse'; readonly path: string; readonly reason: string };

/** The `.gitignore` files under the root, as the CLI and the writer read them when the caller gives no rule. */
function defaultExcludedBy(realRoot: string): (path: string) => string | undefined {
  return (path) => gitignoreRuleOnDisk(realRoot, path);
}

/** Judges each path of a batch, in order. Paths are workspace-relative; an unreadable root refuses them all. */
export function checkWriteTargets(paths: readonly string[], options: WriteGateOptions): GateVerdict[] {
  let realRoot: string;
  try {
    realRoot = realRootOrThrow(options.root);
  } catch (error) {
    const reason = `the workspace root ${options.root} cannot be read (${error instanceof Error ? error.message : String(error)})`;
    return paths.map((path) => ({ verdict: 'refuse', path, reason }));
  }
  const policy: WritePolicyOptions = { ...options, excludedBy: options.excludedBy ?? defaultExcludedBy(realRoot) };
  const verdicts: GateVerdict[] = paths.map((path) => {
    const resolved = resolveWriteTarget(realRoot, path);
    if (!resolved.ok) return { verdict: 'refuse', path, reason: resolved.reason };
    const protection = protectionOf(resolved.target, policy);
    if (protection === undefined) return { verdict: 'write', path, target: resolved.target };
    if (protection.level === 'never') return { verdict: 'refuse', path, reason: protection.reason };
    return { verdict: 'ask', path, target: resolved.target, reason: protection.reason };
  });
  // One file under two names (a symlinked folder, a hard link) is one file: two changes to it would lose one.
  const seen = new Map<string, string>();
  return verdicts.map((entry) => {
    if (entry.verdict === 'refuse') return entry;
    const { target } = entry;
    const keys = [target.real, ...(target.stat === undefined ? [] : [`${target.stat.dev}:${target.stat.ino}`])];
    const first = keys.map((key) => seen.get(key)).find((p) => p !== undefined);
    for (const key of keys) if (!seen.has(key)) seen.set(key, entry.path);
    if (first === undefined || first === entry.path) return entry;
    return {
      verdict: 'refuse',
      path: entry.path,
      reason: `it is the same file as ${first} (through a symbolic or hard link); change it under one name in one operation`,
    };
  });
}
