import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the CLI keeps its token metrics: SCALPEL_METRICS_FILE (a relative one taken from `cwd`), else the XDG
 * state folder under $HOME. Both come from the environment the CLI was given, not from this process, so an
 * in-process run (the tests') never touches the real home folder.
 */
export function metricsFilePath(env: NodeJS.ProcessEnv, cwd?: string): string {
  const explicit = env['SCALPEL_METRICS_FILE'];
  if (explicit !== undefined && explicit.trim() !== '') return cwd === undefined ? explicit : resolve(cwd, explicit);
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  const state =
    env['XDG_STATE_HOME'] !== undefined && env['XDG_STATE_HOME'] !== ''
      ? env['XDG_STATE_HOME']
      : join(home, '.local', 'state');
  return join(state, 'scalpel', 'metrics.jsonl');
}
