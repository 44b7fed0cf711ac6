import { createEditService } from '../../core/edit/editService';
import type { NewTypeError } from '../../core/check/typeCheck';
import { firstStop } from '../../core/edit/preWriteGate';
import { remainingTypeErrors, typeCheckSummary } from '../../core/edit/typeCheckStep';
import { describeChecks, type EnvironmentError, type TypeCheckSummary } from '../../core/check/typeCheck';
import { briefMessage } from '../../core/check/newErrors';
import type { Advice, AdviceAction, AdviceSetting } from '../../core/edit/advice';
import { errorCodeLabel } from '../../core/graph/semantics';
import { languageFor, supportedLanguages } from '../../core/language/languages';
import { createProvider, providerConfigFromEnv } from '../../core/llm/createProvider';
import { appendMetrics } from '../../core/llm/metrics';
import type { EditFileRequest } from '../../core/llm/pipeline';
import { serializeOperations } from '../../core/ops/format';
import { type CliCommand, parseCommandArgs, parsePositiveInteger } from '../command';
import { CliError, UsageError } from '../cliError';
import { metricsFilePath } from '../metricsFile';
import { describeReplaced, historyAsJson } from '../operationHistory';
import { describeResult, resultsAsJson, unifiedDiff } from '../reportChanges';
import { cliGateFailure, cliPreWriteGates, diskSnapshot, writeChanges } from '../writeChanges';
import { focusByFileOrThrow, workspacePathOf, workspaceRoot } from '../workspaceFiles';
import type { Logger } from '../../core/logger';
import { isConflictPolicy, type Conflict } from '../../core/edit/rebase';
import { conversationIdOrThrow, loadConversation, saveConversation } from '../conversationFile';

export const editCommand: CliCommand = {
  name: 'edit',
  summary: 'ask a model for an edit: plan, focused context, operations, verify, repair, write',
  usage: `Usage: scalpel edit <file>... [--focus <path>...] -m "<instruction>" [options]

Builds the focused context, asks the model for element operations, verifies them
(sending failures back for repair), shows the diff and writes the files.
Exit 0 only if the edit applied (with --dry-run: if it verified); 1 when it did not verify
or failed; 3 when --on-conflict ask left elements for you; 4 when the model declined the
task (it answered DECLINE: <reason>, printed; nothing is written).

Model (flags win over environment variables):
  --provider NAME     openai | anthropic | ollama  ($SCALPEL_PROVIDER; default: the provider
                      whose key is set, OPENAI_API_KEY or ANTHROPIC_API_KEY, else a local Ollama)
  --base-url URL      OpenAI-compatible or Anthropic endpoint ($SCALPEL_BASE_URL)
  --model NAME        model name ($SCALPEL_MODEL)
  --timeout SECONDS   time limit of the whole command: planning, every model request and repair
                      round, the type check; past it nothing is written and the exit code is 1
                      (default: none; each model request alone still ends after 600 s, or
                      after 300 s when the server sends no response at all)

Options:
  -m, --message TEXT  the instruction
  --focus PATH        element to show in full (repeatable); with one file the file part
                      may be left out. Without a focus, the model first plans what it needs.
  --budget N          context token budget (default 12000)
  --full              send whole files
  --repair-rounds N   follow-ups for failed operations and the model's NEED/FIND (default 2;
                      0 disables)
  --no-plan           never run the planning phase
  --verify LEVEL      types (default): also refuse new type errors in the changed files and their
                      importers (they go back to the model first): TypeScript's for TS/JS, pyright's
                      for Python, cargo check's for Rust, javac's for Java and go build's and vet's
                      for Go when on PATH; C# edits get their parse.
                      syntax: the parse alone.
                      Only errors the edit causes count: an error the file already had (same code
                      and message) is old, and errors that say a dependency or type definitions
                      are not installed, or that come from the project's configuration, are set
                      aside and listed apart
  --allow-new-errors  write the edit even if new type errors remain after the repair rounds
  --tsdk DIR          the TypeScript that checks types: a folder holding a typescript package or
                      its lib folder, or "bundled" (default: the workspace's node_modules/typescript
                      when there, else the one bundled with Scalpel)
  --checker LANG=WHICH  the checker of a language without TypeScript's semantics (repeatable):
                      python=off checks Python's syntax only; python=DIR uses the pyright in DIR
                      (a folder holding pyright's package.json and langserver.index.js); python=bundled
                      (default: the workspace's node_modules/pyright when there, else the bundled one);
                      rust=PATH, java=PATH and go=PATH name cargo, javac and go (default: found on PATH),
                      =off skips them
  --check-time-limit SECONDS  how long one check by pyright, cargo, javac or go may take (default 120); past it the
                      batch is checked for syntax only and the output says so
  --dry-run           verify and print the diff, write nothing
  --allow GLOB        let the answer write protected files matching GLOB (repeatable; see docs/security.md)
  --conversation ID   the conversation whose baselines (what the model last saw of each file) this edit
                      uses and updates; the next request sends what you changed since (default: default)
  --on-conflict POLICY  when you changed an element the model changes too, while it worked:
                      user_wins (default) keeps yours and reports the operation; agent_wins writes the
                      model's version and prints yours; ask writes the rest, prints both versions of each
                      such element and exits 3 (run again with user_wins or agent_wins to decide)
  --json              print {ok, operations, results, files, usage, conflicts, notes, typeCheck, history}
                      as JSON on stdout (history: every operation of every round with its final
                      status); progress goes to stderr as JSON lines
                      {"event":"progress","phase":...,"message":...}
  --verbose           log requests to stderr
  --root DIR          workspace root; relative <file>s are relative to it, like after git -C
                      (default: the current directory)`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      root: { type: 'string' },
      focus: { type: 'string', multiple: true },
      message: { type: 'string', short: 'm' },
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      timeout: { type: 'string' },
      budget: { type: 'string' },
      full: { type: 'boolean' },
      'repair-rounds': { type: 'string' },
      'no-plan': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      verify: { type: 'string' },
      'allow-new-errors': { type: 'boolean' },
      tsdk: { type: 'string' },
      checker: { type: 'string', multiple: true },
      'check-time-limit': { type: 'string' },
      allow: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      verbose: { type: 'boolean' },
      conversation: { type: 'string' },
      'on-conflict': { type: 'string' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    const instruction = values.message?.trim();
    if (instruction === undefined || instruction === '')
      throw new UsageError(`edit needs an instruction: -m "..."\n\n${this.usage}`);
    if (positionals.length === 0) throw new UsageError(`edit needs at least one file\n\n${this.usage}`);
    const root = workspaceRoot(io, values.root);
    const budget = parsePositiveInteger('budget', values.budget) ?? 12000;
    const repairRounds =
      values['repair-rounds'] === '0' ? 0 : parsePositiveInteger('repair-rounds', values['repair-rounds']);

    const verify = values.verify ?? 'types';
    if (verify !== 'types' && verify !== 'syntax')
      throw new UsageError(`--verify takes types or syntax, not "${verify}"\n\n${this.usage}`);

    const conflictPolicy = values['on-conflict'] ?? 'user_wins';
    if (!isConflictPolicy(conflictPolicy))
      throw new UsageError(
        `--on-conflict takes user_wins, agent_wins or ask, not "${conflictPolicy}"\n\n${this.usage}`,
      );
    const conversationId = conversationIdOrThrow(values.conversation);
    const checkers = checkerChoicesOrThrow(values.checker ?? []);
    const checkTimeLimitSeconds = parsePositiveInteger('check-time-limit', values['check-time-limit']);

    const paths = positionals.map((file) => workspacePathOf(root, file));
    const snapshot = diskSnapshot(root);
    for (const path of paths) if (snapshot.read(path) === undefined) throw new CliError(`${path}: no such file`);
    const focusByFile = focusByFileOrThrow(values.focus ?? [], paths);
    const files: EditFileRequest[] = paths.map((path) => ({ path, focus: focusByFile.get(path) ?? [] }));

    let providerConfig;
    try {
      providerConfig = providerConfigFromEnv(io.env, {
        ...(values.provider === undefined ? {} : { provider: values.provider }),
        ...(values['base-url'] === undefined ? {} : { baseUrl: values['base-url'] }),
        ...(values.model === undefined ? {} : { model: values.model }),
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    const timeoutSeconds = parsePositiveInteger('timeout', values.timeout);
    // --timeout bounds the whole command; one request can take no longer than that either.
    if (timeoutSeconds !== undefined) providerConfig = { ...providerConfig, timeoutMs: timeoutSeconds * 1000 };
    const deadline = timeoutSeconds === undefined ? undefined : AbortSignal.timeout(timeoutSeconds * 1000);
    // The clock as well as the timer: a timer cannot fire while synchronous work (a huge answer) holds the process.
    const deadlineAt = timeoutSeconds === undefined ? undefined : Date.now() + timeoutSeconds * 1000;
    const signal = deadline === undefined ? io.signal : AbortSignal.any([io.signal, deadline]);
    const timedOut = (): boolean =>
      !io.signal.aborted && (deadline?.aborted === true || (deadlineAt !== undefined && Date.now() >= deadlineAt));
    let lastStep = 'starting';
    const logger = stderrLogger(io.stderr, values.verbose === true);
    const provider = createProvider(providerConfig, logger);
    const progress = (message: string, phase = 'start'): void => {
      lastStep = message;
      // With --json, stdout holds one JSON document at the end; progress goes to stderr as one JSON object a line.
      if (values.json === true) io.stderr(`${JSON.stringify({ event: 'progress', phase, message })}\n`);
      else io.stderr(`scalpel: ${message}\n`);
    };
    progress(`using ${provider.id} model ${provider.model} at ${provider.endpoint}`);
    if (verify === 'types') {
      // TypeScript's semantics and pyright check types; the other languages are verified by their parse.
      const unchecked = paths.filter((path) => !typeCheckable(path, checkers));
      if (unchecked.length > 0)
        progress(
          `no type checker for ${unchecked.map((path) => `${path} (${languageFor(path)?.displayName ?? 'no element model'})`).join(', ')}: ${unchecked.length === 1 ? 'it is' : 'they are'} verified by the parse alone`,
        );
    }

    const metricsFile = metricsFilePath(io.env, io.cwd);
    const service = createEditService({
      logger,
      workspaceRoot: root,
      // The same gate as `scalpel apply` and the MCP server; the files on the command line count as named.
      preWriteGates: cliPreWriteGates(root, values.allow ?? []),
      recordMetrics: (requests) => {
        try {
          appendMetrics(metricsFile, requests);
        } catch (error) {
          logger.warn(
            `could not write metrics to ${metricsFile}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      },
    });
    const conversation = loadConversation(io.env, root, conversationId);
    // Read when the model is done: a file you saved meanwhile is merged per element, not overwritten.
    const current = diskSnapshot(root);
    const result = await service.edit({
      instruction,
      files,
      snapshot,
      current,
      conversation,
      provider,
      settings: {
        tokenBudget: budget,
        verify,
        conflictPolicy,
        ...(values.tsdk === undefined ? {} : { typescript: values.tsdk }),
        checkers,
        ...(checkTimeLimitSeconds === undefined ? {} : { checkTimeLimitSeconds }),
        ...(values['no-plan'] === true ? { planning: 'never' } : {}),
        ...(repairRounds === undefined ? {} : { repairRounds }),
      },
      ...(values.full === true ? { full: true } : {}),
      signal,
      onProgress: (event) => progress(event.message, event.phase),
      // Always stream: Ctrl-C and the inactivity timeout act between chunks, and a cut-off answer is recognised as
      // truncated rather than as broken JSON. --verbose shows the answer as it arrives.
      onText: values.verbose === true ? (delta) => io.stderr(delta) : () => undefined,
      command: 'cli.edit',
      ...(values['allow-new-errors'] === true ? { allowNewErrors: true } : {}),
    });
    const { outcome, usage, resolution } = result;
    // The limit may run out in a step that does not watch the signal (the type check): nothing is written then either.
    const expired = timedOut();
    const failure = expired
      ? `the time limit of ${timeoutSeconds ?? 0} s (--timeout) ran out while ${lastStep}; nothing was written`
      : result.status === 'refused' && result.failure !== undefined
        ? cliGateFailure(result.failure, firstStop(result.gateFindings))
        : result.failure;
    // A batch that verified but changes nothing is still a success, as it always was for the CLI.
    const ok = (result.status === 'ready' || result.status === 'nothing') && !expired;
    const written = ok && values['dry-run'] !== true;
    // Only --allow-new-errors lets a batch with remaining type errors through: say what it adds. One list feeds
    // both stderr and --json.
    const remaining = remainingTypeErrors(outcome.verification);
    const typeCheck = typeCheckSummary(outcome.verification);
    if (values.json !== true) for (const line of describeTypeCheck(typeCheck)) io.stderr(`${line}\n`);
    // Listed with --json too, where an editor or terminal can jump to them; --json has them as newTypeErrors.
    for (const line of describeRemaining(remaining, ok)) io.stderr(`${line}\n`);
    const changes = resolution?.changes ?? outcome.apply.changes;
    const conflicts = resolution?.conflicts ?? [];
    const pending = conflicts.filter((c) => c.decision === 'pending');
    if (written && changes.length > 0) {
      try {
        writeChanges(root, changes, {
          allow: values.allow ?? [],
          userNamed: new Set(paths),
          baselines: resolution === undefined ? snapshot.fingerprints : current.fingerprints,
          ...(deadlineAt === undefined ? {} : { deadline: deadlineAt }),
        });
      } catch (error) {
        if (!(error instanceof CliError) || !error.message.includes('the time limit ran out')) throw error;
        throw new CliError(
          `the time limit of ${timeoutSeconds ?? 0} s (--timeout) ran out before the files were written; nothing was written`,
        );
      }
      // What was written is what the model last saw of those files now.
      for (const change of changes) conversation.recordShown(change.path, change.after);
    }
    await saveConversationQuietly(io.env, root, conversation, logger);
    if (values.json !== true) {
      for (const conflict of conflicts) io.stderr(describeConflict(conflict));
      for (const conflict of resolution?.overridden ?? []) io.stderr(describeConflict(conflict));
    }
    if (values.json === true) {
      io.stdout(
        `${JSON.stringify(
          {
            ok,
            written,
            ...(ok || failure === undefined ? {} : { failure }),
            ...(result.declined === undefined ? {} : { declined: result.declined }),
            ...(ok || result.advice === undefined ? {} : { advice: result.advice }),
            ...(outcome.plan === undefined ? {} : { plan: outcome.plan }),
            operations: serializeOperations(outcome.operations),
            results: resultsAsJson(outcome.apply),
            parseErrors: outcome.parseErrors,
            files: ok ? changes.map((c) => ({ path: c.path, created: c.created })) : [],
            conflicts: conflicts.map(conflictAsJson),
            overridden: (resolution?.overridden ?? []).map(conflictAsJson),
            ...(result.userChanges === undefined ? {} : { userChanges: result.userChanges.files }),
            usage,
            ...(remaining.length === 0 ? {} : { newTypeErrors: remaining }),
            ...(typeCheck === undefined ? {} : { typeCheck: typeCheckAsJson(typeCheck) }),
            notes: outcome.notes,
            history: historyAsJson(outcome.history, {
              apply: outcome.apply,
              written,
              verified: ok,
              keptOut: new Set(conflicts.filter((c) => c.decision !== 'agent').map((c) => c.index)),
            }),
            ...(ok ? {} : { lastAnswer: outcome.lastAnswer }),
          },
          null,
          2,
        )}\n`,
      );
    } else if (ok) {
      io.stdout(unifiedDiff(changes));
      // A rename lists what it left with the old name: the user decides about those lines.
      for (const r of outcome.apply.results) if (r.rename !== undefined) io.stderr(`${describeResult(r)}\n`);
      for (const line of describeReplaced(outcome.history)) io.stderr(`${line}\n`);
      printNotes(io.stderr, outcome.notes);
      progress(
        `${written ? 'applied' : 'verified (dry run, nothing written)'}: ${outcome.operations.length - conflicts.length} operation(s) in ${changes.length} file(s); ` +
          `${usage.inputTokens} input + ${usage.outputTokens} output tokens in ${usage.requests} request(s)`,
      );
    } else if (result.status === 'declined') {
      // The reason is the answer; any other prose of it follows as notes.
      printNotes(io.stderr, outcome.notes);
    } else if (result.status !== 'refused') {
      // A refused batch verified: its failure line says all; the operations and the answer were fine.
      for (const r of outcome.apply.results) io.stderr(`${describeResult(r)}\n`);
      // The whole last answer follows when there is one; the notes of earlier rounds would be lost without this.
      if (outcome.lastAnswer === '' || outcome.error !== undefined) printNotes(io.stderr, outcome.notes);
      else printNotes(io.stderr, outcome.notes.slice(0, -1));
      if (outcome.error === undefined && outcome.lastAnswer !== '')
        io.stderr(`--- the model's last answer ---\n${outcome.lastAnswer}\n---\n`);
    }
    if (result.status === 'declined' && !expired) {
      if (values.json !== true)
        io.stderr(`scalpel: the model declined the task: ${result.declined ?? ''}\nscalpel: nothing was written\n`);
      return DECLINE_EXIT_CODE;
    }
    // A failed model call says what to do in its own message; the other failures get the advice in flags.
    if (!ok && values.json !== true && result.advice !== undefined && result.error === undefined)
      io.stderr(`${describeAdvice(result.advice)}\n`);
    if (!ok)
      throw new CliError(failure ?? 'the edit did not apply', result.status === 'cancelled' && !expired ? 130 : 1);
    if (pending.length > 0) {
      io.stderr(
        `scalpel: ${pending.length} element(s) changed by you and by the model were not written (--on-conflict ask); ` +
          'run again with --on-conflict user_wins or agent_wins to decide\n',
      );
      return ASK_EXIT_CODE;
    }
    return 0;
  },
};

/**
 * The type errors a batch was let through with (`allowed`), or that stopped it, for the terminal: per file a count,
 * then each error where an editor or terminal can jump to it (`file:line:column`), its code, the first line of its
 * message and the element it is in: one line each, never a compiler's whole chain of explanations.
 */
export function describeRemaining(errors: readonly NewTypeError[], allowed: boolean): string[] {
  const byFile = new Map<string, NewTypeError[]>();
  for (const error of errors) byFile.set(error.file, [...(byFile.get(error.file) ?? []), error]);
  return [...byFile].flatMap(([file, inFile]) => [
    `scalpel: ${allowed ? 'new type errors allowed in' : 'new type errors the model did not fix in'} ${file}: ${inFile.length} error${inFile.length === 1 ? '' : 's'} the edit adds`,
    ...inFile.map(
      (e) =>
        `  ${e.file}:${e.line}:${e.column} ${errorCodeLabel(e.code)} ${briefMessage(e.message)}` +
        (e.elementPath === undefined ? '' : ` (in ${e.elementPath})`),
    ),
  ]);
}

/** At most this many environment errors are listed on stderr (all of them are in --json). */
const MAX_ENVIRONMENT_LINES = 5;

/** `--checker python=off --checker python=/opt/pyright` as settings: language id to its checker. */
function checkerChoicesOrThrow(given: readonly string[]): Record<string, string> {
  const ids = new Set(supportedLanguages().map((language) => language.id));
  const choices: Record<string, string> = {};
  for (const flag of given) {
    const at = flag.indexOf('=');
    const id = at < 0 ? flag : flag.slice(0, at);
    const which = at < 0 ? '' : flag.slice(at + 1).trim();
    if (!ids.has(id) || which === '')
      throw new UsageError(
        `--checker takes LANG=off, LANG=bundled or LANG=DIR with LANG one of ${[...ids].join(', ')}, not "${flag}"`,
      );
    choices[id] = which;
  }
  return choices;
}

/** Whether a file's types are checked: its language has semantics, or a checker that is not turned off. */
function typeCheckable(path: string, checkers: Readonly<Record<string, string>>): boolean {
  const language = languageFor(path);
  if (language === undefined) return false;
  return language.semantics !== undefined || (language.checker !== undefined && checkers[language.id] !== 'off');
}

/** Which checker checked each language, and the errors it set aside as the environment's, one line each. */
function describeTypeCheck(summary: TypeCheckSummary | undefined): string[] {
  if (summary === undefined) return [];
  const lines = describeChecks(summary.checks).map((line) => `scalpel: ${line}`);
  const set = summary.environmentErrors;
  if (set.length === 0) return lines;
  lines.push(
    `scalpel: ${set.length} error${set.length === 1 ? '' : 's'} set aside, not caused by the code (the environment lacks something; they never block an edit):`,
  );
  lines.push(...set.slice(0, MAX_ENVIRONMENT_LINES).map(environmentLine));
  if (set.length > MAX_ENVIRONMENT_LINES)
    lines.push(`  … and ${set.length - MAX_ENVIRONMENT_LINES} more (--json lists them)`);
  return lines;
}

function environmentLine(e: EnvironmentError): string {
  return `  ${e.file}:${e.line}:${e.column} ${errorCodeLabel(e.code)} ${briefMessage(e.message)} (${e.reason})`;
}

function typeCheckAsJson(summary: TypeCheckSummary): object {
  return {
    ...(summary.checker === undefined ? {} : { checker: summary.checker }),
    checks: summary.checks,
    environmentErrors: summary.environmentErrors,
    checkedFiles: summary.checkedFiles,
    omittedImporters: summary.omittedImporters,
  };
}

/** The advice in the CLI's terms: the sentence, then the flags or variables that do it. */
function describeAdvice(advice: Advice): string {
  const flags = [...new Set(advice.actions.flatMap(cliActionOf))];
  return `scalpel: ${advice.nextStep}${flags.length === 0 ? '' : ` (${flags.join('; ')})`}`;
}

function settingFlag(setting: AdviceSetting): string[] {
  switch (setting) {
    case 'verify':
      return ['--verify syntax checks the syntax alone'];
    case 'tokenBudget':
      return ['--budget N'];
    case 'baseUrl':
      return ['--base-url URL'];
    case 'model':
      return ['--model NAME'];
    case 'maxOutputTokens':
    case 'exclude':
      return [];
  }
}

function cliActionOf(action: AdviceAction): string[] {
  switch (action.kind) {
    case 'applyAnyway':
      return ['--allow-new-errors writes it with them'];
    case 'openSettings':
      return settingFlag(action.setting);
    case 'setApiKey':
      return ['set OPENAI_API_KEY, ANTHROPIC_API_KEY or SCALPEL_API_KEY'];
    case 'selectModel':
      return ['--model NAME'];
    case 'showLog':
      return ['--verbose shows the requests'];
    case 'plan':
      return ['leave --focus out to plan first'];
    case 'showAnswer':
      return [];
  }
}

/** `--on-conflict ask` left elements for the user to decide: the rest was written. */
export const ASK_EXIT_CODE = 3;

/** The model declined the task (`DECLINE: <reason>`, issue 24): nothing was written, and that is its answer. */
export const DECLINE_EXIT_CODE = 4;

function conflictAsJson(conflict: Conflict): object {
  return {
    index: conflict.index,
    type: conflict.operation.type,
    path: conflict.path,
    ...(conflict.element === undefined ? {} : { element: conflict.element }),
    ...(conflict.kind === undefined ? {} : { kind: conflict.kind }),
    ...(conflict.decision === undefined ? {} : { decision: conflict.decision }),
    reason: conflict.reason,
    ...(conflict.userText === undefined ? {} : { yours: conflict.userText }),
    ...(conflict.modelText === undefined ? {} : { model: conflict.modelText }),
  };
}

/** One conflict for the terminal; under ask and agent_wins with both versions, so nothing of yours is lost from view. */
function describeConflict(conflict: Conflict): string {
  const name = conflict.element ?? conflict.path;
  const head =
    conflict.decision === 'agent'
      ? `scalpel: wrote the model's version of ${name} over yours (${conflict.reason}); yours was:`
      : conflict.decision === 'pending'
        ? `scalpel: not written, you decide: ${name} (${conflict.reason})`
        : `scalpel: kept yours, dropped ${conflict.operation.type} ${name} (${conflict.reason})`;
  const lines = [head];
  if (conflict.decision !== 'kept-user' && conflict.userText !== undefined)
    lines.push(`--- yours: ${name}`, conflict.userText);
  if (conflict.decision === 'pending') lines.push(`--- the model's: ${name}`, conflict.modelText ?? '(deleted)');
  return `${lines.join('\n')}\n`;
}

async function saveConversationQuietly(
  env: NodeJS.ProcessEnv,
  root: string,
  conversation: Parameters<typeof saveConversation>[2],
  logger: Logger,
): Promise<void> {
  try {
    await saveConversation(env, root, conversation);
  } catch (error) {
    logger.warn(`could not save the conversation: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The model's notes (text beside its operations): the user reads them before trusting "applied". */
function printNotes(write: (text: string) => void, notes: readonly string[]): void {
  for (const note of notes) write(`scalpel: the model notes: ${note.replace(/\n/g, '\n  ')}\n`);
}

function stderrLogger(write: (text: string) => void, verbose: boolean): Logger {
  const line = (level: string) => (message: string | Error) =>
    write(`scalpel [${level}] ${message instanceof Error ? message.message : message}\n`);
  return {
    trace: verbose ? line('trace') : () => undefined,
    debug: verbose ? line('debug') : () => undefined,
    info: verbose ? line('info') : () => undefined,
    warn: line('warn'),
    error: line('error'),
  };
}
