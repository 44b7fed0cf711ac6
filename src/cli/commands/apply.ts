import { loadLanguagesForPaths } from '../../core/language/languages';
import { applyOperations } from '../../core/ops/apply';
import { parseOperations } from '../../core/ops/format';
import { type CliCommand, parseCommandArgs } from '../command';
import { CliError, UsageError } from '../cliError';
import { describeResult, resultsAsJson, unifiedDiff } from '../reportChanges';
import { workspaceRoot } from '../workspaceFiles';
import { readAnswerOrThrow } from '../answerInput';
import { checkWriteOrThrow, diskSnapshot, writeChanges } from '../writeChanges';

export const applyCommand: CliCommand = {
  name: 'apply',
  summary: 'apply element operations (a model answer) to the workspace, verified, all or nothing',
  usage: `Usage: scalpel apply <operations file | -> [--root DIR] [--allow GLOB...] [--dry-run] [--partial] [--json]

Reads operations in Scalpel's format (or as JSON), resolves them against the files as
they are now, verifies the result and writes it. If any operation fails, no file changes
and the result of every operation is printed.

Options:
  --root DIR    workspace root; a relative operations file is relative to it, like after
                git -C (default: the current directory)
  --dry-run     verify and print the diff, write nothing
  --partial     write the operations that verified even if others failed
  --allow GLOB  let the answer write protected files matching GLOB (repeatable): .vscode/*.json,
                .env*, node_modules/, ignored, read-only. Version-control folders (.git, ...) never.
  --json        print {ok, results: [{index, type, path, status, message, hint, suggestions}], files}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      root: { type: 'string' },
      'dry-run': { type: 'boolean' },
      partial: { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    const source = positionals[0];
    if (positionals.length !== 1 || source === undefined)
      throw new UsageError(`apply takes one operations file, or - for stdin\n\n${this.usage}`);
    const root = workspaceRoot(io, values.root);
    const answer = await readAnswerOrThrow(source, root, io);
    const parsed = parseOperations(answer);
    if (parsed.operations.length === 0 && parsed.errors.length === 0)
      throw new CliError(`${source}: no operations found`);
    const snapshot = diskSnapshot(root);
    await loadLanguagesForPaths(parsed.operations.map((o) => o.path));
    const result = applyOperations(snapshot, parsed.operations, values.partial === true ? { partial: true } : {});
    const verified = result.ok && parsed.errors.length === 0;
    const writable = verified || (values.partial === true && result.changes.length > 0);
    if (writable && values['dry-run'] !== true) {
      await checkWriteOrThrow(root, result.changes, { allow: values.allow ?? [] });
      writeChanges(root, result.changes, { allow: values.allow ?? [], baselines: snapshot.fingerprints });
    }
    if (values.json === true) {
      io.stdout(
        `${JSON.stringify(
          {
            ok: verified,
            written: writable && values['dry-run'] !== true,
            parseErrors: parsed.errors,
            results: resultsAsJson(result),
            files: result.changes.map((c) => ({ path: c.path, created: c.created })),
          },
          null,
          2,
        )}\n`,
      );
    } else {
      for (const error of parsed.errors)
        io.stdout(
          `error   line ${error.line}: ${error.message}${error.expected === undefined ? '' : ` (expected ${error.expected})`}\n`,
        );
      for (const r of result.results) io.stdout(`${describeResult(r)}\n`);
      if (values['dry-run'] === true && writable) io.stdout(unifiedDiff(result.changes));
      if (!writable) io.stdout('nothing was written: the batch did not verify\n');
      else if (values['dry-run'] === true) io.stdout('dry run: nothing was written\n');
      else io.stdout(`wrote ${result.changes.length} file${result.changes.length === 1 ? '' : 's'}\n`);
    }
    return verified ? 0 : 1;
  },
};
