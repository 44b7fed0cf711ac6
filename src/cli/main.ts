import { CliError } from './cliError';
import type { CliCommand, CliIo } from './command';
import { applyCommand } from './commands/apply';
import { contextCommand } from './commands/context';
import { diffCommand } from './commands/diff';
import { editCommand } from './commands/edit';
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
  statsCommand,
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

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${process.env['SCALPEL_VERSION'] ?? '0.1.0'}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr(`scalpel: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`scalpel ${command.name}: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(
      `scalpel ${command.name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 70;
  }
}

if (require.main === module) {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
  void runCli(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
