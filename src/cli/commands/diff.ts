import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { diffElementsInDetail } from '../../core/ops/diff';
import { serializeOperations, serializeOperationsAsJson } from '../../core/ops/format';
import { CliError, UsageError } from '../cliError';
import { type CliCommand, parseCommandArgs } from '../command';
import { workspaceRoot } from '../workspaceFiles';

function readInput(root: string, input: string): string {
  const absolute = resolve(root, input);
  try {
    return readFileSync(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`${input}: no such file`);
    if (code === 'EISDIR') throw new CliError(`${input}: is a directory, not a file`);
    throw new CliError(`${input}: cannot read (${code ?? String(error)})`);
  }
}

/** The after file's path relative to the workspace root, as operations name it. */
function defaultOperationPath(root: string, afterInput: string): string {
  const path = relative(root, resolve(root, afterInput));
  if (path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) {
    throw new UsageError(`${afterInput} is outside the workspace root ${root}: name its workspace path with --as`);
  }
  return path.split(sep).join('/');
}

export const diffCommand: CliCommand = {
  name: 'diff',
  summary: 'print the element operations that turn one version of a file into another',
  usage: `Usage: scalpel diff <before-file> <after-file> [--as PATH] [--root DIR] [--json]

Prints the smallest list of element operations (REPLACE_ELEMENT, PATCH_ELEMENT, CREATE_ELEMENT, ...) that turns
<before-file> into <after-file> exactly, checked by applying them. Text that element operations cannot express
falls back to replacing the enclosing element, or the whole file. A declaration renamed within the file, with
every use of its name in the file's code, comes out as RENAME_ELEMENT when that is cheaper, one per declaration
renamed; its places are the file's own (applied in a workspace, the rename also changes other files' uses).

Options:
  --as PATH   the workspace path the operations name (default: <after-file> relative to the workspace root)
  --root DIR  workspace root; relative files are relative to it, like after git -C (default: the current
              directory). The files themselves may lie anywhere: diff only reads them.
  --json      print the operations as a JSON array of {type, path, content, position}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      as: { type: 'string' },
      root: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    const [beforeInput, afterInput] = positionals;
    if (positionals.length !== 2 || beforeInput === undefined || afterInput === undefined) {
      throw new UsageError(`diff takes exactly two files\n\n${this.usage}`);
    }
    const root = workspaceRoot(io, values.root);
    const before = readInput(root, beforeInput);
    const after = readInput(root, afterInput);
    const path = values.as ?? defaultOperationPath(root, afterInput);
    if (path.trim() === '') throw new UsageError('--as needs a path');
    const diff = diffElementsInDetail(path, before, after);
    io.stdout(
      values.json === true ? `${serializeOperationsAsJson(diff.operations)}\n` : serializeOperations(diff.operations),
    );
    if (!diff.verified) {
      io.stderr(`scalpel diff: warning: applying these operations does not give ${afterInput} exactly\n`);
      return 1;
    }
    return 0;
  },
};
