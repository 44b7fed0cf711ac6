import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cliError';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Reads standard input (for `-`) to its end, or to `maxBytes` + 1 bytes and no further: a caller that gets more than
   * `maxBytes` refuses the input without having held more of it.
   */
  readonly readStdin: (maxBytes: number) => Promise<Buffer>;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  /**
   * The executable's own script, which a worker thread can run (src/cli/main.ts); absent when the CLI runs inside
   * another program (the tests), which then keeps all the work on its own thread.
   */
  readonly workerScript?: string;
}

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with the CLI's conventions: unknown flags are usage errors, `--help` is always accepted. */
export function parseCommandArgs<T extends Options>(command: CliCommand, args: readonly string[], options: T) {
  try {
    return parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n\n${command.usage}`);
  }
}

export function parsePositiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new UsageError(`--${name} expects a positive whole number, got "${value}"`);
  return number;
}
