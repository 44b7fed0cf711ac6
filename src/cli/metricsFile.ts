import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the CLI keeps its token metrics: SCALPEL_METRICS_FILE, else the XDG state folder. */
export function metricsFilePath(env: NodeJS.ProcessEnv): string {
  const explicit = env['SCALPEL_METRICS_FILE'];
  if (explicit !== undefined && explicit.trim() !== '') return explicit;
  const state =
    env['XDG_STATE_HOME'] !== undefined && env['XDG_STATE_HOME'] !== ''
      ? env['XDG_STATE_HOME']
      : join(homedir(), '.local', 'state');
  return join(state, 'scalpel', 'metrics.jsonl');
}
