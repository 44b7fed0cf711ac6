import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CliIo } from '../../../src/cli/command';
import { runCli } from '../../../src/cli/runCli';

/** What one `scalpel` run printed and how it ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  /** The environment the CLI sees (nothing of this process's is passed on). */
  readonly env?: NodeJS.ProcessEnv;
  /** Standard input, for `-`. */
  readonly stdin?: string;
  /** Called with stderr so far after each write; true interrupts the run (Ctrl-C). */
  readonly interruptWhen?: (stderr: string) => boolean;
}

/**
 * Runs the CLI in this process through `runCli`, the entry the `bin` script wraps: the same argument parsing,
 * commands, error reporting and exit codes, without the ~0.5 s a Node process start costs per case. HOME points at
 * `cwd` unless `env` names another, so the default metrics file never lands in the real home folder.
 */
export async function scalpel(cwd: string, args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const controller = new AbortController();
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
      if (!controller.signal.aborted && options.interruptWhen?.(stderr) === true) controller.abort();
    },
    cwd,
    env: { HOME: cwd, ...options.env },
    readStdin: (maxBytes) => Promise.resolve(Buffer.from(options.stdin ?? '', 'utf8').subarray(0, maxBytes + 1)),
    signal: controller.signal,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** The checkout's `dist/cli.js`, found upwards from the compiled test (which esbuild may place at any depth). */
function cliScript(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'cli.js');
  }
  throw new Error(`no package.json above ${__dirname}`);
}

/**
 * Runs the built `dist/cli.js` as a child process, for what only a real process shows: the exit code as the shell
 * sees it, piped standard input and SIGINT. Asynchronous, so a scripted server in this process can answer it.
 */
export function scalpelProcess(cwd: string, args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliScript(), ...args], {
      cwd,
      env: { PATH: process.env['PATH'], HOME: cwd, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!interrupted && options.interruptWhen?.(stderr) === true) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
