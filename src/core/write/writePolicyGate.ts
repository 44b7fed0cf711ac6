import type { GateFinding, PreWriteGate } from '../edit/preWriteGate';
import { checkWriteTargets, type WriteGateOptions } from './writeGate';

/**
 * The write gate (containment through symlinks, one file under two names, protected paths) as the edit service's
 * pre-write gate, so every surface's batch passes it before it becomes a change set. The writers check again at the
 * last moment (src/core/write/writeFiles.ts, VS Code's applyChanges): what is on disk may have moved since.
 *
 * `options` are read per batch: a surface's settings (`scalpel.allowWrite`, its exclusions) may change between two.
 * Their `userNamed` adds to the request's named files.
 */
export function writePolicyGate(
  options: WriteGateOptions | ((paths: readonly string[]) => WriteGateOptions | Promise<WriteGateOptions>),
): PreWriteGate {
  return {
    async check({ changes, namedFiles }): Promise<GateFinding[]> {
      const paths = changes.map((c) => c.path);
      const resolved = typeof options === 'function' ? await options(paths) : options;
      const userNamed = new Set([...namedFiles, ...(resolved.userNamed ?? [])]);
      return checkWriteTargets(paths, { ...resolved, userNamed }).flatMap((verdict): GateFinding[] =>
        verdict.verdict === 'write' ? [] : [{ path: verdict.path, decision: verdict.verdict, reason: verdict.reason }],
      );
    },
  };
}
