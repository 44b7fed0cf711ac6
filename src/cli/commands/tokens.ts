import { createTokenCounter, isTokenEncoding, TOKEN_ENCODINGS } from '../../core/context/tokens';
import { countLines } from '../../core/elements/outline';
import { type CliCommand, parseCommandArgs } from '../command';
import { UsageError } from '../cliError';
import { readWorkspaceFile, workspaceRoot } from '../workspaceFiles';

export const tokensCommand: CliCommand = {
  name: 'tokens',
  summary: 'count the tokens of files',
  usage: `Usage: scalpel tokens <file>... [--encoding NAME] [--root DIR] [--json]

Counts the tokens of each file (any language) with gpt-tokenizer.

Options:
  --encoding NAME   ${TOKEN_ENCODINGS.join(' | ')} (default o200k_base)
  --root DIR        workspace root; relative <file>s are relative to it, like after git -C
                    (default: the current directory)
  --json            print {encoding, files: [{file, lines, characters, tokens}], total}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      root: { type: 'string' },
      encoding: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError(`tokens needs at least one file\n\n${this.usage}`);
    const encoding = values.encoding ?? 'o200k_base';
    if (!isTokenEncoding(encoding)) throw new UsageError(`--encoding must be one of ${TOKEN_ENCODINGS.join(', ')}`);
    const counter = createTokenCounter(encoding);
    const root = workspaceRoot(io, values.root);
    const files = positionals.map((input) => {
      const file = readWorkspaceFile(root, input);
      return {
        file: file.path,
        lines: countLines(file.text),
        characters: file.text.length,
        tokens: counter.count(file.text),
      };
    });
    const total = files.reduce((sum, f) => sum + f.tokens, 0);
    if (values.json === true) {
      io.stdout(`${JSON.stringify({ encoding, files, total }, null, 2)}\n`);
    } else {
      const width = Math.max(...files.map((f) => f.file.length), 5);
      for (const f of files)
        io.stdout(
          `${f.file.padEnd(width)}  ${String(f.tokens).padStart(8)} tokens  ${String(f.lines).padStart(6)} lines\n`,
        );
      if (files.length > 1) io.stdout(`${'total'.padEnd(width)}  ${String(total).padStart(8)} tokens\n`);
    }
    return 0;
  },
};
