import ignore from 'ignore';
import * as vscode from 'vscode';
import type { Exclusion, ExclusionCheck } from '../core/edit/exclusion';
import { firstMatchingGlob, globToRegExp } from '../core/workspace/glob';

// The glob reading is shared with the core's write policy (scalpel.allowWrite); it is light and allow-listed.
export { globToRegExp };
export type { Exclusion };

/**
 * Files Scalpel never sends to a model and never edits: what `files.exclude`, the `.gitignore` files or
 * `scalpel.exclude` match. Secrets (`.env`, keys) and generated or vendored code stay out of every request.
 */

function globRule(setting: string, patterns: readonly string[], path: string): string | undefined {
  const pattern = firstMatchingGlob(patterns, path);
  return pattern === undefined ? undefined : `${setting} "${pattern}"`;
}

/** `files.exclude` entries that are switched on; entries with a `when` condition depend on siblings and are skipped. */
function enabledPatterns(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, enabled]) => enabled === true)
    .map(([pattern]) => pattern);
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** The `.gitignore` files from the folder root down to the file's folder, each applied relative to its own folder. */
async function gitignoreRule(root: vscode.Uri, path: string): Promise<string | undefined> {
  const segments = path.split('/');
  let verdict: string | undefined;
  for (let depth = 0; depth < segments.length; depth++) {
    const folder = segments.slice(0, depth);
    const text = await readText(vscode.Uri.joinPath(root, ...folder, '.gitignore'));
    if (text === undefined) continue;
    const rules = ignore().add(text);
    const relative = segments.slice(depth).join('/');
    const result = rules.test(relative);
    const where = folder.length === 0 ? '.gitignore' : `${folder.join('/')}/.gitignore`;
    if (result.ignored) verdict = `${where} "${result.rule?.pattern ?? relative}"`;
    else if (result.unignored) verdict = undefined;
  }
  return verdict;
}

/** Why `path` (relative to `root`) must not reach a model, or undefined when it may. */
export async function exclusionOf(
  root: vscode.Uri,
  path: string,
  scalpelExclude: readonly string[],
): Promise<Exclusion | undefined> {
  const filesExclude = enabledPatterns(vscode.workspace.getConfiguration('files', root).get('exclude'));
  const rule =
    globRule('scalpel.exclude', scalpelExclude, path) ??
    globRule('files.exclude', filesExclude, path) ??
    (await gitignoreRule(root, path));
  return rule === undefined ? undefined : { path, rule };
}

/** The first of `paths` that is excluded, checked in order. */
export async function firstExclusion(
  root: vscode.Uri,
  paths: readonly string[],
  scalpelExclude: readonly string[],
): Promise<Exclusion | undefined> {
  for (const path of paths) {
    const exclusion = await exclusionOf(root, path, scalpelExclude);
    if (exclusion !== undefined) return exclusion;
  }
  return undefined;
}

/** The core's exclusion check for one workspace folder, with `scalpel.exclude` as read for it. */
export function exclusionCheckOf(root: vscode.Uri, scalpelExclude: readonly string[]): ExclusionCheck {
  return { firstExclusion: (paths) => firstExclusion(root, paths, scalpelExclude) };
}
