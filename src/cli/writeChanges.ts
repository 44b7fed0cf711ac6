import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FileChange } from '../core/ops/apply';
import { resolveInWorkspace } from '../core/workspace/workspacePaths';
import { CliError } from './cliError';

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes a verified batch, all or nothing. Each file must still hold what the batch was verified against (a file
 * changed meanwhile is a conflict and nothing is written); new content goes to a temporary file beside the target
 * and is renamed over it, and if any step fails the files already replaced are put back.
 */
export function writeChanges(root: string, changes: readonly FileChange[]): void {
  const targets = changes.map((change) => ({ change, absolute: resolveInWorkspace(root, change.path) }));
  for (const { change, absolute } of targets) {
    const current = readOrUndefined(absolute);
    if (current !== change.before) {
      throw new CliError(
        change.before === undefined
          ? `${change.path} was created by someone else meanwhile; nothing was written`
          : `${change.path} changed on disk since it was read; nothing was written (run the command again)`,
      );
    }
  }
  const done: Array<{ absolute: string; before: string | undefined }> = [];
  try {
    for (const { change, absolute } of targets) {
      mkdirSync(dirname(absolute), { recursive: true });
      const temporary = `${absolute}.scalpel-${process.pid}.tmp`;
      writeFileSync(temporary, change.after, 'utf8');
      renameSync(temporary, absolute);
      done.push({ absolute, before: change.before });
    }
  } catch (error) {
    for (const { absolute, before } of done.reverse()) {
      if (before === undefined) rmSync(absolute, { force: true });
      else writeFileSync(absolute, before, 'utf8');
    }
    throw new CliError(
      `writing failed, every file was restored: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A snapshot reader over the workspace on disk that refuses paths leaving it and remembers what it read. */
export function diskSnapshot(root: string): { read(path: string): string | undefined } {
  const cache = new Map<string, string | undefined>();
  return {
    read(path) {
      if (!cache.has(path)) {
        let absolute: string;
        try {
          absolute = resolveInWorkspace(root, path);
        } catch {
          // An unsafe path reads as missing here; the apply step refuses it with its own reason.
          cache.set(path, undefined);
          return undefined;
        }
        cache.set(path, readOrUndefined(absolute));
      }
      return cache.get(path);
    },
  };
}
