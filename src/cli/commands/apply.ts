import { answerDecline } from '../../core/edit/answerNotes';
import { blockingProblems, createEditService } from '../../core/edit/editService';
import { REFERENCES_STEP } from '../../core/edit/referencesStep';
import { remainingTypeErrors } from '../../core/edit/typeCheckStep';
import { verificationNotes, type StepReport } from '../../core/edit/verification';
import { parseOperations } from '../../core/ops/format';
import { type CliCommand, parseCommandArgs } from '../command';
import { CliError, UsageError } from '../cliError';
import { describeResult, resultsAsJson, unifiedDiff } from '../reportChanges';
import { workspaceRoot } from '../workspaceFiles';
import { readAnswerOrThrow } from '../answerInput';
import { checkWriteOrThrow, diskSnapshot, writeChanges } from '../writeChanges';
import { DECLINE_EXIT_CODE, describeRemaining } from './edit';

export const applyCommand: CliCommand = {
  name: 'apply',
  summary: 'apply element operations (a model answer) to the workspace, verified as edit does, all or nothing',
  usage: `Usage: scalpel apply <operations file | -> [--root DIR] [--verify types|syntax] [--allow-new-errors]
                     [--allow GLOB...] [--dry-run] [--partial] [--json]

Reads operations in Scalpel's format (or as JSON), resolves them against the files as
they are now, verifies the result as "scalpel edit" does and writes it. If any operation
or check fails, no file changes and the result of every operation is printed.
Exit 0 when it was written (with --dry-run: when it verified), 1 when it did not verify,
4 when the answer declines the task (DECLINE: <reason>, printed; nothing is written).

Options:
  --root DIR          workspace root; a relative operations file is relative to it, like after
                      git -C (default: the current directory)
  --verify LEVEL      types (default): also refuse new TypeScript errors in the changed files and
                      their importers, and a rename or delete whose old name is still used outside
                      the batch (the places are listed); syntax: the parse alone
  --allow-new-errors  write the batch even if it adds type errors or leaves uses of a renamed or
                      deleted element (they are listed on stderr)
  --dry-run           verify and print the diff, write nothing
  --partial           write the operations that verified even if others failed
  --allow GLOB        let the answer write protected files matching GLOB (repeatable): .vscode/*.json,
                      .env*, node_modules/, ignored, read-only. Version-control folders (.git, ...) never.
  --json              print {ok, written, results: [{index, type, path, status, message, hint, suggestions}],
                      problems, checkNotes, files, declined}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      root: { type: 'string' },
      'dry-run': { type: 'boolean' },
      partial: { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      verify: { type: 'string' },
      'allow-new-errors': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    const source = positionals[0];
    if (positionals.length !== 1 || source === undefined)
      throw new UsageError(`apply takes one operations file, or - for stdin\n\n${this.usage}`);
    const verify = values.verify ?? 'types';
    if (verify !== 'types' && verify !== 'syntax')
      throw new UsageError(`--verify takes types or syntax, not "${verify}"\n\n${this.usage}`);
    const root = workspaceRoot(io, values.root);
    const answer = await readAnswerOrThrow(source, root, io);
    const parsed = parseOperations(answer);
    const declined = parsed.operations.length === 0 ? answerDecline(answer) : undefined;
    if (declined !== undefined) {
      if (values.json === true)
        io.stdout(`${JSON.stringify({ ok: false, written: false, declined, results: [], files: [] }, null, 2)}\n`);
      else io.stdout(`the answer declines the task: ${declined}\nnothing was written\n`);
      return DECLINE_EXIT_CODE;
    }
    if (parsed.operations.length === 0 && parsed.errors.length === 0)
      throw new CliError(`${source}: no operations found`);
    const snapshot = diskSnapshot(root);
    const allowNewErrors = values['allow-new-errors'] === true;
    const partial = values.partial === true;
    // The same verification as `scalpel edit` (and the agent tools' apply): the seen-code rule aside, which needs a
    // record of what a model was shown.
    const service = createEditService({ workspaceRoot: root });
    const verification = await service.verify({
      snapshot,
      operations: parsed.operations,
      settings: { verify },
      allowNewErrors,
      allowBrokenReferences: allowNewErrors,
      partial,
    });
    const result = verification.apply;
    const blocking = blockingProblems(verification, { allowNewErrors, allowBrokenReferences: allowNewErrors });
    const verified = result.ok && blocking.length === 0 && parsed.errors.length === 0;
    const writable = (verified || (partial && result.changes.length > 0)) && verification.ok;
    const dryRun = values['dry-run'] === true;
    if (writable && !dryRun) {
      await checkWriteOrThrow(root, result.changes, { allow: values.allow ?? [] });
      writeChanges(root, result.changes, { allow: values.allow ?? [], baselines: snapshot.fingerprints });
    }
    const letThrough = writable ? allowedProblems(verification.steps) : { typeErrors: [], references: 0 };
    const notes = verificationNotes(verification.steps);
    if (values.json === true) {
      io.stdout(
        `${JSON.stringify(
          {
            ok: verified,
            written: writable && !dryRun,
            parseErrors: parsed.errors,
            results: resultsAsJson(result),
            problems: verification.steps.flatMap((report) =>
              report.problems.map((problem) => ({ step: report.step, ...problem })),
            ),
            checkNotes: notes,
            files: writable ? result.changes.map((c) => ({ path: c.path, created: c.created })) : [],
            ...(letThrough.typeErrors.length === 0 ? {} : { newTypeErrors: letThrough.typeErrors }),
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
      for (const report of verification.steps.slice(1))
        for (const problem of report.problems)
          io.stdout(
            `${blocking.includes(problem) ? 'refused' : 'allowed'} ${problem.path} (${report.step}): ${problem.message.replace(/\n/g, '\n        ')}\n`,
          );
      for (const note of notes) io.stdout(`note    ${note}\n`);
      for (const line of describeRemaining(letThrough.typeErrors, true)) io.stderr(`${line}\n`);
      if (letThrough.references > 0)
        io.stderr(
          `scalpel: uses of renamed or deleted elements allowed: ${letThrough.references} (--allow-new-errors)\n`,
        );
      if (dryRun && writable) io.stdout(unifiedDiff(result.changes));
      if (!writable) io.stdout('nothing was written: the batch did not verify\n');
      else if (dryRun) io.stdout('dry run: nothing was written\n');
      else io.stdout(`wrote ${result.changes.length} file${result.changes.length === 1 ? '' : 's'}\n`);
    }
    return verified ? 0 : 1;
  },
};

/** What --allow-new-errors let through: the type errors, and how many uses of renamed or deleted elements. */
function allowedProblems(steps: readonly StepReport[]): {
  typeErrors: ReturnType<typeof remainingTypeErrors>;
  references: number;
} {
  return {
    typeErrors: remainingTypeErrors(steps),
    references: steps
      .filter((report) => report.step === REFERENCES_STEP)
      .reduce((sum, report) => sum + report.problems.reduce((n, p) => n + (p.brokenReferences?.length ?? 0), 0), 0),
  };
}
