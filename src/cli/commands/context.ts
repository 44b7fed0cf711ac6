import type { ContextFileRequest } from '../../core/context/buildContext';
import { createTokenCounter, isTokenEncoding, TOKEN_ENCODINGS } from '../../core/context/tokens';
import { contextFailureOf } from '../../core/edit/contextFailure';
import { CodeGraph } from '../../core/graph/codeGraph';
import { contextReferences } from '../../core/graph/contextReferences';
import { ReferenceFinder } from '../../core/graph/references';
import { nodeSourceFileSystem } from '../../core/graph/sourceFiles';
import { buildContextWithReferences } from '../../core/llm/pipeline';
import { type CliCommand, parseCommandArgs, parsePositiveInteger } from '../command';
import { CliError, UsageError } from '../cliError';
import { focusByFileOrThrow, outlineWorkspaceFile, readWorkspaceFile, workspaceRoot } from '../workspaceFiles';

export const contextCommand: CliCommand = {
  name: 'context',
  summary: 'build the focused context the model would see for some elements',
  usage: `Usage: scalpel context <file>... --focus <path>... [--budget N] [--full] [--root DIR] [--json]

Builds the focused context for the given files: the focused elements in full, their
containers and siblings as signatures, the rest as one-line stubs, each labelled with
its element path. Files of at most --small-file-lines lines are sent whole.

Options:
  --focus PATH             element to show in full (repeatable); with one file the file
                           part may be left out: --focus class[User]/method[validate]
  --budget N               token budget; detail degrades from the outside in to fit
  --full                   send every file whole
  --no-references          leave out where the focused functions, methods and properties
                           are used across the workspace (listed after each file by default)
  --small-file-lines N     files up to N lines are sent whole (default 50)
  --encoding NAME          ${TOKEN_ENCODINGS.join(' | ')} (default o200k_base)
  --root DIR               workspace root; relative <file>s are relative to it, like after
                           git -C (default: the current directory)
  --json                   print {text, tokens, wholeFileTokens, files, elements, degraded, dropped}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      root: { type: 'string' },
      focus: { type: 'string', multiple: true },
      budget: { type: 'string' },
      full: { type: 'boolean' },
      'no-references': { type: 'boolean' },
      'small-file-lines': { type: 'string' },
      encoding: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError(`context needs at least one file\n\n${this.usage}`);
    const encoding = values.encoding ?? 'o200k_base';
    if (!isTokenEncoding(encoding)) throw new UsageError(`--encoding must be one of ${TOKEN_ENCODINGS.join(', ')}`);
    const budget = parsePositiveInteger('budget', values.budget);
    const smallFileLines = parsePositiveInteger('small-file-lines', values['small-file-lines']);
    const root = workspaceRoot(io, values.root);
    const outlines = positionals.map((file) => outlineWorkspaceFile(readWorkspaceFile(root, file)));

    const focusByFile = focusByFileOrThrow(
      values.focus ?? [],
      outlines.map((o) => o.file),
    );
    const requests: ContextFileRequest[] = outlines.map((outline) => ({
      outline,
      focus: focusByFile.get(outline.file) ?? [],
    }));
    const counter = createTokenCounter(encoding);
    let graph: CodeGraph | undefined;
    try {
      const result = buildContextWithReferences(
        {
          counter,
          ...(values['no-references'] === true
            ? {}
            : {
                references: (focused, contextBudget) => {
                  graph = new CodeGraph(nodeSourceFileSystem(root));
                  return contextReferences(new ReferenceFinder(graph), focused, counter, {
                    ...(contextBudget === undefined ? {} : { contextBudget }),
                  }).appendices;
                },
              }),
        },
        requests,
        {
          ...(budget === undefined ? {} : { budget }),
          ...(smallFileLines === undefined ? {} : { smallFileLines }),
          ...(values.full === true ? { full: true } : {}),
        },
      );
      if (values.json === true) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else io.stdout(result.text);
      return 0;
    } catch (error) {
      const failure = contextFailureOf(error);
      if (failure !== undefined) throw new CliError(failure.failure);
      throw error;
    } finally {
      graph?.dispose();
    }
  },
};
