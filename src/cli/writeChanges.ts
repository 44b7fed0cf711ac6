import type { FileChange, SnapshotReader } from '../core/ops/apply';
import { type FileFingerprint, FileBeingSavedError, fingerprintOf, MISSING_FILE } from '../core/workspace/fileFingerprint';
import { resolveInWorkspace } from '../core/workspace/workspacePaths';
import { createEditService } from '../core/edit/editService';
import type { GateFinding, PreWriteGate } from '../core/edit/preWriteGate';
import { writeFiles, writePolicyGate } from '../core/write';
import { type ReadWholeOptions, readWholeFile } from '../core/write/readWhole';
import { CliError } from './cliError';

export interface CliWriteOptions {
  /** `--allow` globs: protected files the user lets an answer write. */
  readonly allow?: readonly string[];
  /** Files the user named on the command line: allowed even when protected. */
  readonly userNamed?: ReadonlySet<string>;
  /** What each file was when it was read for the request (`DiskSnapshot.fingerprints`). */
  readonly baselines?: ReadonlyMap<string, FileFingerprint>;
  /** For the tests and the stress bench: runs between the last check of a file and its rename. */
  readonly beforeRename?: (path: string) => void;
  /** `--timeout` as a `Date.now()` time: past it, nothing is written (checked right before the first write). */
  readonly deadline?: number;
}

/**
 * The CLI's pre-write gates: the write gate over the root with the `--allow` globs. Registered with the edit service
 * (`EditServiceDeps.preWriteGates`) by `edit`, and passed by `apply` and the MCP server through `service.checkWrite`.
 */
export function cliPreWriteGates(root: string, allow: readonly string[] = []): PreWriteGate[] {
  return [writePolicyGate({ root, allow })];
}

/** What the CLI adds to a gate's refusal: how to let a protected file through. */
export function cliGateFailure(failure: string, stoppedBy: GateFinding | undefined): string {
  return stoppedBy?.decision === 'ask' ? `${failure} (to let it be written: --allow '${stoppedBy.path}')` : failure;
}

/** A batch from elsewhere (`scalpel apply`, the MCP server) through the CLI's gates; a stop is one line, exit 1. */
export async function checkWriteOrThrow(
  root: string,
  changes: readonly FileChange[],
  options: { readonly allow?: readonly string[]; readonly namedFiles?: readonly string[] } = {},
): Promise<void> {
  const service = createEditService({ preWriteGates: cliPreWriteGates(root, options.allow) });
  const passage = await service.checkWrite({ changes, namedFiles: options.namedFiles ?? [] });
  if (!passage.ok) throw new CliError(cliGateFailure(passage.failure, passage.stoppedBy));
}

/**
 * Writes a verified batch through the core writer, all or nothing; a refusal or a conflict is one line, exit 1. The
 * writer checks every target again at the last moment, after the gate the batch passed.
 */
export function writeChanges(root: string, changes: readonly FileChange[], options: CliWriteOptions = {}): void {
  const result = writeFiles(changes, {
    root,
    ...(options.allow === undefined ? {} : { allow: options.allow }),
    ...(options.userNamed === undefined ? {} : { userNamed: options.userNamed }),
    ...(options.baselines === undefined ? {} : { baselines: options.baselines }),
    ...(options.beforeRename === undefined ? {} : { beforeRename: options.beforeRename }),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
  });
  if (result.ok) return;
  const advice =
    result.kind === 'protected'
      ? ` (to let it be written: --allow '${result.path}')`
      : result.kind === 'conflict'
        ? ' (run the command again)'
        : '';
  throw new CliError(`${result.message}${advice}`);
}

/** The workspace on disk, read once per file; each read is fingerprinted as the baseline the write is checked against. */
export interface DiskSnapshot extends SnapshotReader {
  readonly fingerprints: ReadonlyMap<string, FileFingerprint>;
}

/** `read`: how long a file must have been left alone before it is read (the stress bench varies it). */
export function diskSnapshot(root: string, read: ReadWholeOptions = {}): DiskSnapshot {
  const cache = new Map<string, string | undefined>();
  const fingerprints = new Map<string, FileFingerprint>();
  return {
    fingerprints,
    read(path) {
      if (!cache.has(path)) {
        let text: string | undefined;
        try {
          const absolute = resolveInWorkspace(root, path);
          // Never half a save: a file another program is writing is waited for, then refused (FileBeingSavedError).
          const { bytes, stat } = readWholeFile(absolute, path, read);
          fingerprints.set(path, fingerprintOf(bytes, stat));
          // Bytes that are not UTF-8 read as U+FFFD here; the writer refuses such a file rather than write that back.
          text = bytes.toString('utf8');
        } catch (error) {
          if (error instanceof FileBeingSavedError) throw error;
          // Missing, a folder, unreadable or an unsafe path: to the apply engine all of these are "no such file";
          // the writer's gate gives the precise reason if the batch tries to write there.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') fingerprints.set(path, MISSING_FILE);
          text = undefined;
        }
        cache.set(path, text);
      }
      return cache.get(path);
    },
  };
}
