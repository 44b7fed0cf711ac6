import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ignore from 'ignore';

/**
 * `.gitignore` files read the way git reads them: every one from the root down to the file's folder, each relative
 * to its own folder, a later `!pattern` un-ignoring what an earlier file ignored.
 */

export interface IgnoreFile {
  /** Workspace-relative folder ('' for the root), forward slashes. */
  readonly folder: string;
  readonly text: string | undefined;
}

/** The folders whose `.gitignore` applies to `path`, root first. */
export function gitignoreFolders(path: string): string[] {
  const segments = path.split('/');
  return segments
    .slice(0, -1)
    .reduce<string[]>((folders, segment, i) => [...folders, i === 0 ? segment : `${folders[i]}/${segment}`], ['']);
}

/** The rule that ignores `path`, in words (`.gitignore "dist/"`), or undefined. */
export function gitignoreRule(path: string, files: readonly IgnoreFile[]): string | undefined {
  let verdict: string | undefined;
  for (const { folder, text } of files) {
    if (text === undefined) continue;
    const relative = folder === '' ? path : path.slice(folder.length + 1);
    const result = ignore().add(text).test(relative);
    const where = folder === '' ? '.gitignore' : `${folder}/.gitignore`;
    if (result.ignored) verdict = `${where} "${result.rule?.pattern ?? relative}"`;
    else if (result.unignored) verdict = undefined;
  }
  return verdict;
}

/** The rule of the `.gitignore` files under `root` on disk that ignores `path`, or undefined. */
export function gitignoreRuleOnDisk(root: string, path: string): string | undefined {
  const files = gitignoreFolders(path).map((folder) => {
    try {
      return { folder, text: readFileSync(join(root, folder, '.gitignore'), 'utf8') };
    } catch {
      return { folder, text: undefined };
    }
  });
  return gitignoreRule(path, files);
}
