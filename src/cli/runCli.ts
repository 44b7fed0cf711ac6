import { version } from '../../package.json';
import { ElementNestingError } from '../core/elements/nesting';
import { loadLanguagesFor } from '../core/language/languages';
import { FileBeingSavedError } from '../core/workspace/fileFingerprint';
import { CliError } from './cliError';
import type { CliCommand, CliIo } from './command';
import { applyCommand } from './commands/apply';
import { changesCommand, syncCommand } from './commands/changes';
import { contextCommand } from './commands/context';
import { diffCommand } from './commands/diff';
import { editCommand } from './commands/edit';
import { mcpCommand } from './commands/mcp';
import { outlineCommand } from './commands/outline';
import { statsCommand } from './commands/stats';
import { tokensCommand } from './commands/tokens';

const COMMANDS: readonly CliCommand[] = [
  outlineCommand,
  contextCommand,
  tokensCommand,
  editCommand,
  applyCommand,
  diffCommand,
  changesCommand,
  syncCommand,
  statsCommand,
  mcpCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: scalpel <command> [options]',
    '',
    'Surgical AI code edits at the level of program elements.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run "scalpel <command> --help" for the options of a command.',
  ].join('\n');
}

/**
 * The whole CLI behind one call: `scalpel <argv...>` against the given streams, environment, directory and
 * cancellation signal, resolving to the exit code. It never reads `process.cwd()`, `process.env` or the process's
 * streams itself, so tests run it in-process and the `bin` entry below is only the adapter to the real process.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${version}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr(`scalpel: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  try {
    // The parsers of the languages of the files named on the command line; operations load theirs when applied.
    await loadLanguagesFor(rest);
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`scalpel ${command.name}: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof ElementNestingError || error instanceof FileBeingSavedError) {
      io.stderr(`scalpel ${command.name}: ${error.message}\n`);
      return 1;
    }
    io.stderr(
      `scalpel ${command.name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 70;
  }
}
