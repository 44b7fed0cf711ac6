import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs one of the bench's child scripts in a fresh Node process and reads the JSON line it prints last. */
export function runChild<T>(
  root: string,
  script: string,
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): T {
  const result = spawnSync(process.execPath, [...nodeArgs, join(root, 'out', 'bench', 'children', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${script} exited with ${String(result.status ?? result.signal)}: ${errorLines(result.stderr, 3)}`);
  }
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`${script} printed no result: ${lastLines(result.stdout + result.stderr, 6)}`);
  }
}

export function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

/** The lines of a failed command's output that say what failed, rather than the stack trace under them. */
export function errorLines(text: string, count: number): string {
  const lines = text
    .split('\n')
    .filter((line) => /error/i.test(line) && !/^\s+at /.test(line) && !/^\s*errors: \[/.test(line));
  return lines.length > 0 ? lines.slice(0, count).join('\n') : lastLines(text, count);
}
