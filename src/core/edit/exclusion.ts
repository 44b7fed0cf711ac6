/**
 * Files never sent to a model and never edited. What counts as excluded is the surface's business (VS Code reads
 * `files.exclude`, the `.gitignore` files and `scalpel.exclude` for the file's folder); the edit service asks through
 * this interface before sending and before producing changes, and says why in one wording.
 */

export interface Exclusion {
  /** Workspace-relative path that was refused. */
  readonly path: string;
  /** Which rule matched, in words: `scalpel.exclude "**\/.env"`, `.gitignore "dist/"`, ... */
  readonly rule: string;
}

export interface ExclusionCheck {
  /** The first of `paths` (workspace-relative) that is excluded, checked in order. */
  firstExclusion(paths: readonly string[]): Promise<Exclusion | undefined>;
}

export type ExclusionAction = 'send' | 'edit' | 'copy';

export function exclusionMessage(exclusion: Exclusion, action: ExclusionAction): string {
  return `Scalpel does not ${action} ${exclusion.path}: it is excluded by ${exclusion.rule}. Excluded files are never sent to a model; change the setting or the .gitignore to allow it.`;
}
