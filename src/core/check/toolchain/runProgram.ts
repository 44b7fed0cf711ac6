import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Running a checker that is a separate program (`cargo check`, `go vet`, `javac`, `dotnet build`): found on PATH,
 * run with a time limit, its output kept up to a cap, stopped (with everything it started) when the limit runs out
 * or the request is cancelled. Nothing here knows a language.
 */

export interface ProgramRun {
  /** The exit code; undefined when it was stopped (time limit, cancel) or could not start. */
  readonly code: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** Stopped at the time limit. */
  readonly timedOut: boolean;
  /** Why it could not start (`ENOENT`), when it could not. */
  readonly failedToStart?: string;
  readonly elapsedMs: number;
}

export interface ProgramOptions {
  readonly cwd: string;
  readonly timeLimitMs: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  /** At most this many characters of each stream are kept; default 8 MB. */
  readonly maxOutputChars?: number;
}

const DEFAULT_MAX_OUTPUT = 8 * 1024 * 1024;

export function runProgram(command: string, args: readonly string[], options: ProgramOptions): Promise<ProgramRun> {
  const started = Date.now();
  const cap = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a stop reaches what it started (rustc under cargo, the compiler under go).
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const stop = (): void => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        if (process.platform === 'win32') child.kill();
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeLimitMs);
    const onAbort = (): void => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (run: Omit<ProgramRun, 'stdout' | 'stderr' | 'elapsedMs' | 'timedOut'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...run, stdout, stderr, timedOut, elapsedMs: Date.now() - started });
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < cap) stdout += chunk.slice(0, cap - stdout.length);
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < cap) stderr += chunk.slice(0, cap - stderr.length);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish({ code: undefined, failedToStart: error.code ?? error.message }),
    );
    child.on('close', (code) => finish({ code: code ?? undefined }));
  });
}

/**
 * The absolute path of an executable named `name` on PATH (with Windows' extensions), or undefined. A name with a
 * folder in it is taken as a path.
 */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (isAbsolute(name) || name.includes('/') || name.includes('\\')) return isExecutable(name) ? name : undefined;
  const folders = (env['PATH'] ?? env['Path'] ?? '').split(delimiter).filter((folder) => folder !== '');
  const extensions = process.platform === 'win32' ? (env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const folder of folders) {
    for (const extension of extensions) {
      const candidate = join(folder, `${name}${extension}`);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `cargo 1.95.0 (f2d3ce0bd 2026-03-21)` → `1.95.0`: the first version-like word of a `--version` answer. */
export function versionIn(text: string): string | undefined {
  // `go version go1.19.8 linux/amd64` writes its version right after `go`.
  return /(?:\b|(?<=\bgo))(\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?)\b/.exec(text)?.[1];
}

/** Seconds as a message writes them: `45 s`, `1.5 s`. */
export function secondsText(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds >= 10 || Number.isInteger(seconds) ? seconds.toFixed(0) : seconds.toFixed(1)} s`;
}
