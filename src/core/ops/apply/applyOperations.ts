import { ElementPathSyntaxError, parseElementPath } from '../../elements/elementPath';
import { isOutlinable, outlineSource } from '../../elements/outline';
import { nearestPaths } from '../../elements/resolve';
import type { FileOutline } from '../../elements/element';
import { ElementNestingError } from '../../elements/nesting';
import { C_LIKE_SYNTAX, type CodeScan } from '../../language/languageSupport';
import { languageFor, languageNames } from '../../language/languages';
import { OPERATION_TYPES, type Operation, type OperationResult } from '../operation';
import type { Action, Expectation } from './actions';
import { applyEdits } from './editBuffer';
import { applyFileOperation } from './fileOperations';
import type { OpFailure } from './actions';
import { type ElementOperation, FilePlanner, isElementOperation } from './filePlan';
import { type Lexicon, RenderError, renderActions } from './render';
import { detectStyle, usesLoneCr } from './textStyle';
import type { ApplyOptions, ApplyResult, FileChange, SnapshotReader } from './types';
import { verifyEdit, type VerifyProblem } from './verify';
import { checkWorkspacePath } from './workspacePath';
import { claimRename, mergeRenames, renameSummary, type RenameClaim } from './renameMerge';
import { FileBeingSavedError } from '../../workspace/fileFingerprint';

/**
 * Applies a batch of operations to a snapshot of the workspace, purely: every path resolves against the snapshot,
 * every change is verified (it parses with no new syntax error, nothing outside the named elements moved, every
 * replaced or created element is where it belongs), and nothing is returned unless all of it holds — or, with
 * `partial`, what holds.
 */

interface FileWork {
  readonly path: string;
  readonly before: string | undefined;
  readonly elementOps: number[];
  fileOp: number | undefined;
}

const FILE_OPERATIONS = new Set(['CREATE_FILE', 'REPLACE_FILE']);

function fileOf(operation: Operation): { ok: true; file: string } | { ok: false; failure: OpFailure } {
  if (typeof operation.path !== 'string') {
    return {
      ok: false,
      failure: { message: `${operation.type} has no path`, hint: 'give the workspace-relative path' },
    };
  }
  if (FILE_OPERATIONS.has(operation.type)) return { ok: true, file: operation.path };
  try {
    return { ok: true, file: parseElementPath(operation.path).file };
  } catch (error) {
    if (error instanceof ElementPathSyntaxError) {
      return {
        ok: false,
        failure: {
          message: error.message,
          hint: 'write paths as <file>/<kind>[<name>]/..., e.g. src/user.ts/class[User]/method[save]',
        },
      };
    }
    throw error;
  }
}

/**
 * A path that does not parse (a lost bracket) usually still starts with its file: the nearest valid paths of that
 * file, when the model may see it, tell it what it meant, as for an unknown name.
 */
function withNearestPaths(
  failure: OpFailure,
  operation: Operation,
  visibleFiles: ReadonlySet<string> | undefined,
  read: (path: string) => string | undefined,
): OpFailure {
  if (typeof operation.path !== 'string') return failure;
  const file = /^(?:file:)?(?:\.\/)?([^[\]]*?\.[A-Za-z0-9]+)(?=\/)/.exec(operation.path)?.[1];
  if (file === undefined || (visibleFiles !== undefined && !visibleFiles.has(file)) || !isOutlinable(file))
    return failure;
  const text = read(file);
  if (text === undefined) return failure;
  const suggestions = nearestPaths(outlineSource(file, text), operation.path);
  return suggestions.length === 0 ? failure : { ...failure, suggestions };
}

function malformed(operation: Operation): OpFailure | undefined {
  if (!(OPERATION_TYPES as readonly string[]).includes((operation as { type?: unknown }).type as string)) {
    return {
      message: `unknown operation type "${String((operation as { type?: unknown }).type)}"`,
      hint: `use one of ${OPERATION_TYPES.join(', ')}`,
    };
  }
  const content = (operation as { content?: unknown }).content;
  if (operation.type === 'PATCH_ELEMENT') {
    const patches: unknown = operation.patches;
    if (
      !Array.isArray(patches) ||
      patches.some(
        (p: unknown) =>
          typeof (p as { search?: unknown }).search !== 'string' ||
          typeof (p as { replace?: unknown }).replace !== 'string',
      )
    ) {
      return {
        message: `PATCH_ELEMENT ${operation.path} has malformed SEARCH/REPLACE pairs`,
        hint: 'give pairs of search and replace text',
      };
    }
    return undefined;
  }
  if (operation.type === 'DELETE_ELEMENT') return undefined;
  if (operation.type === 'RENAME_ELEMENT') {
    if (typeof (operation as { newName?: unknown }).newName === 'string') return undefined;
    return {
      message: `RENAME_ELEMENT ${operation.path} has no new name`,
      hint: 'write RENAME_ELEMENT <path> <newName>',
    };
  }
  if (typeof content !== 'string')
    return { message: `${operation.type} ${operation.path} has no content`, hint: 'add the code block' };
  if (operation.type === 'CREATE_ELEMENT') {
    const position: unknown = operation.position;
    const kind = (position as { kind?: unknown } | undefined)?.kind;
    if (kind !== 'FIRST_CHILD' && kind !== 'LAST_CHILD' && kind !== 'BEFORE' && kind !== 'AFTER') {
      return {
        message: `CREATE_ELEMENT ${operation.path} has no valid position`,
        hint: 'use FIRST_CHILD, LAST_CHILD, BEFORE <sibling> or AFTER <sibling>',
      };
    }
    if ((kind === 'BEFORE' || kind === 'AFTER') && typeof (position as { sibling?: unknown }).sibling !== 'string') {
      return {
        message: `CREATE_ELEMENT ${operation.path} ${kind} names no sibling`,
        hint: `write ${kind} <sibling>, e.g. ${kind} method[save]`,
      };
    }
  }
  return undefined;
}

/**
 * An existing file the request did not send: refused before anything reads it for the answer, so no repair message
 * quotes it (closest lines, nearby paths) to a model that was never shown it.
 */
function notSent(
  path: string,
  operation: Operation,
  visibleFiles: ReadonlySet<string> | undefined,
  read: (path: string) => string | undefined,
): OpFailure | undefined {
  if (visibleFiles === undefined || visibleFiles.has(path) || read(path) === undefined) return undefined;
  return {
    message: `${operation.type} ${operation.path}: ${path} is not part of this request`,
    hint: 'change only the files you were shown, or create new ones; to edit this file, ask with it included',
  };
}

export function applyOperations(
  snapshot: SnapshotReader,
  operations: readonly Operation[],
  options: ApplyOptions = {},
): ApplyResult {
  const strategy = options.strategy ?? 'hybrid';
  const partial = options.partial === true;
  const failures = new Map<number, OpFailure>();
  const notes = new Map<number, string>();
  const renames = new Map<number, string>();
  const readAs = new Map<number, string>();
  const skippedBecause = new Map<number, string>();
  const files = new Map<string, FileWork>();
  const createdBy = new Map<string, number>();
  const renameClaims: RenameClaim[] = [];
  // Each file is read once: every operation of the batch sees the same snapshot text.
  const texts = new Map<string, string | undefined>();
  const read = (path: string): string | undefined => {
    if (!texts.has(path)) {
      let text: string | undefined;
      try {
        text = snapshot.read(path);
      } catch (error) {
        // Being saved is not "no such file": the whole batch stops, and the surface says so.
        if (error instanceof FileBeingSavedError) throw error;
        text = undefined;
      }
      texts.set(path, typeof text === 'string' ? text : undefined);
    }
    return texts.get(path);
  };

  operations.forEach((operation, index) => {
    if (operation.type === 'CREATE_FILE' && typeof operation.path === 'string') {
      const check = checkWorkspacePath(operation.path);
      if (check.ok && !createdBy.has(check.path)) createdBy.set(check.path, index);
    }
  });

  operations.forEach((operation, index) => {
    const fail = (failure: OpFailure): void => void failures.set(index, failure);
    const shapeProblem = malformed(operation);
    if (shapeProblem !== undefined) return fail(shapeProblem);
    const located = fileOf(operation);
    if (!located.ok) return fail(withNearestPaths(located.failure, operation, options.visibleFiles, read));
    const check = checkWorkspacePath(located.file);
    if (!check.ok) {
      return fail({
        message: `${operation.type} refused "${located.file}": ${check.reason}`,
        hint: 'use a path relative to the workspace root, inside it',
      });
    }
    const path = check.path;
    const hidden = notSent(path, operation, options.visibleFiles, read);
    if (hidden !== undefined) return fail(hidden);
    if (operation.type === 'RENAME_ELEMENT') {
      // Its places lie in many files, the model's or not: joined after the other operations (renameMerge.ts).
      const claimed = claimRename(index, operation, options.renames, read);
      if (!claimed.ok) return fail(claimed.failure);
      renameClaims.push(claimed.claim);
      return undefined;
    }
    const isElementOp = isElementOperation(operation);
    if (strategy === 'file' && isElementOp) {
      return fail({
        message: `${operation.type} is not accepted: the edit strategy is "file" (whole files only)`,
        hint: `send the whole new ${path} with REPLACE_FILE`,
      });
    }
    if (strategy === 'element' && operation.type === 'REPLACE_FILE' && languageFor(path) !== undefined) {
      return fail({
        message: `REPLACE_FILE ${path} is not accepted: the edit strategy is "element"`,
        hint: 'change the file with element operations (REPLACE_ELEMENT, PATCH_ELEMENT, CREATE_ELEMENT, DELETE_ELEMENT, ADD_IMPORT)',
      });
    }
    if (isElementOp && read(path) === undefined) {
      // `README.md/heading[Intro]`: a kind the element model does not know leaves it all in the file part.
      const parts = path.split('/');
      for (let end = parts.length - 1; end > 0; end--) {
        const prefix = parts.slice(0, end).join('/');
        if (read(prefix) === undefined) continue;
        const prefixHidden = notSent(prefix, operation, options.visibleFiles, read);
        if (prefixHidden !== undefined) return fail(prefixHidden);
        return fail({
          message: `${operation.type} ${operation.path}: ${prefix} has no elements${languageFor(prefix) !== undefined ? ` named "${parts.slice(end).join('/')}"` : ` (it is not ${languageNames()})`}`,
          hint:
            languageFor(prefix) !== undefined
              ? `check the outline of ${prefix} for the element's path`
              : `send the whole new file with REPLACE_FILE ${prefix}`,
        });
      }
    }
    let work = files.get(path);
    if (work === undefined) {
      work = { path, before: read(path), elementOps: [], fileOp: undefined };
      files.set(path, work);
    }
    const creator = createdBy.get(path);
    if (isElementOp) {
      if (work.before === undefined) {
        return fail(
          creator !== undefined && creator !== index
            ? {
                message: `${operation.type} ${operation.path}: ${path} is created by operation #${creator + 1} of this batch`,
                hint: 'put this code into that CREATE_FILE content; element operations apply to files as they are before the batch',
              }
            : {
                message: `${operation.type} ${operation.path}: there is no file ${path}`,
                hint: `create it with CREATE_FILE ${path}`,
              },
        );
      }
      if (languageFor(path) === undefined) {
        return fail({
          message: `${operation.type} ${operation.path}: ${path} is not ${languageNames()}, so it has no elements`,
          hint: `send the whole new file with REPLACE_FILE ${path}`,
        });
      }
      if (work.fileOp !== undefined) {
        return fail({
          message: `${operation.type} ${operation.path} conflicts with operation #${work.fileOp + 1}, which writes the whole of ${path}`,
          hint: 'use either element operations or one REPLACE_FILE for a file, not both',
        });
      }
      work.elementOps.push(index);
      return undefined;
    }
    if (work.fileOp !== undefined) {
      const previous = operations[work.fileOp];
      const same =
        previous !== undefined &&
        previous.type === operation.type &&
        (previous as { content?: string }).content === (operation as { content?: string }).content;
      return fail({
        message: same
          ? `${operation.type} ${path} repeats operation #${work.fileOp + 1}`
          : `${operation.type} ${path} conflicts with operation #${work.fileOp + 1}, which also writes the whole file`,
        hint: 'send one operation with the final content of the file',
      });
    }
    if (work.elementOps.length > 0) {
      return fail({
        message: `${operation.type} ${path} conflicts with operation #${(work.elementOps[0] ?? 0) + 1}, which edits elements of that file`,
        hint: 'use either element operations or one REPLACE_FILE for a file, not both',
      });
    }
    if (operation.type === 'CREATE_FILE' && work.before !== undefined) {
      return fail({
        message: `CREATE_FILE ${path}: the file already exists`,
        hint: `to change it, use REPLACE_FILE ${path} or element operations`,
      });
    }
    if (operation.type === 'REPLACE_FILE' && work.before === undefined) {
      return fail({
        message:
          creator !== undefined
            ? `REPLACE_FILE ${path}: the file is created by operation #${creator + 1} of this batch`
            : `REPLACE_FILE ${path}: there is no such file`,
        hint:
          creator !== undefined ? 'send one CREATE_FILE with the final content' : `create it with CREATE_FILE ${path}`,
      });
    }
    work.fileOp = index;
    return undefined;
  });

  const changes: FileChange[] = [];
  for (const work of files.values()) {
    try {
      if (work.fileOp !== undefined && !failures.has(work.fileOp)) {
        const operation = operations[work.fileOp];
        if (operation?.type === 'CREATE_FILE' || operation?.type === 'REPLACE_FILE') {
          const outcome = applyFileOperation(work.path, work.before, operation);
          if (!outcome.ok) failures.set(work.fileOp, outcome.failure);
          else if (outcome.change !== undefined) changes.push(outcome.change);
        }
      }
      const elementOps = work.elementOps.filter((i) => !failures.has(i));
      if (elementOps.length > 0 && work.before !== undefined) {
        const change = applyElementOperations(
          work.path,
          work.before,
          elementOps,
          operations,
          partial,
          failures,
          notes,
          renames,
          readAs,
          skippedBecause,
        );
        if (change !== undefined) changes.push(change);
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // A file nested deeper than Scalpel reads is refused as such; anything else is a defect, said as one.
      const failure: OpFailure =
        error instanceof ElementNestingError
          ? { message: reason, hint: 'Scalpel cannot edit this file; leave it out of the answer' }
          : { message: `internal error while applying to ${work.path}: ${reason}` };
      for (const index of [...work.elementOps, ...(work.fileOp === undefined ? [] : [work.fileOp])]) {
        if (!failures.has(index)) failures.set(index, failure);
      }
    }
  }

  const renamed = mergeRenames(
    renameClaims,
    changes,
    (path) => {
      const work = files.get(path);
      if (work === undefined) return undefined;
      return {
        ...(work.fileOp === undefined || failures.has(work.fileOp) ? {} : { wholeFile: work.fileOp }),
        elementOps: work.elementOps.filter((i) => !failures.has(i)),
      };
    },
    failures,
  );

  const failedList = [...failures.keys()].sort((a, b) => a - b);
  const ok = failedList.length === 0;
  const failedText = failedList.map((i) => `#${i + 1}`).join(', ');
  const results: OperationResult[] = operations.map((operation, index) => {
    const failure = failures.get(index);
    if (failure !== undefined) {
      return {
        index,
        operation,
        status: 'failed',
        message: failure.message,
        ...(failure.hint === undefined ? {} : { hint: failure.hint }),
        ...(failure.suggestions === undefined || failure.suggestions.length === 0
          ? {}
          : { suggestions: failure.suggestions }),
      };
    }
    const skipped = skippedBecause.get(index);
    if (skipped !== undefined) return { index, operation, status: 'skipped', message: skipped };
    const rename = renamed.get(index);
    if (!ok && !partial) {
      return {
        index,
        operation,
        status: 'skipped',
        message: `not applied: the batch applies all or nothing, and operation${failedList.length > 1 ? 's' : ''} ${failedText} failed`,
        hint: 'send this operation again together with the corrected ones',
        // What it would change, for the repair message: the model keeps it knowing what it leaves.
        ...(rename === undefined ? {} : { rename }),
      };
    }
    const note = rename === undefined ? notes.get(index) : renameSummary(rename);
    const renamedTo = rename?.renamedTo ?? renames.get(index);
    const readPath = readAs.get(index);
    return {
      index,
      operation,
      status: 'ok',
      ...(note === undefined ? {} : { message: note }),
      ...(renamedTo === undefined ? {} : { renamedTo }),
      ...(readPath === undefined ? {} : { readAs: readPath }),
      ...(rename === undefined ? {} : { rename }),
    };
  });
  const keep = ok || partial;
  return { ok, results, changes: keep ? changes.filter((c) => c.edits.length > 0 || c.created) : [] };
}

/** Plans, renders and verifies the element operations of one file; failures are recorded per operation. */
function applyElementOperations(
  path: string,
  original: string,
  indices: readonly number[],
  operations: readonly Operation[],
  partial: boolean,
  failures: Map<number, OpFailure>,
  notes: Map<number, string>,
  renames: Map<number, string>,
  readAs: Map<number, string>,
  skippedBecause: Map<number, string>,
): FileChange | undefined {
  // A file whose lines end with a lone CR (classic Mac) is planned with LF in its place (one character for one, so
  // every offset holds) and its new text written back with CR: the rest of apply knows LF and CRLF only. Not in a
  // language whose compiler reads a lone CR as whitespace: there the file is verified as the compiler reads it.
  const language = languageFor(path);
  if (language === undefined) throw new Error(`no language reads ${path}`);
  const loneCr = language.syntax?.loneCrIsWhitespace !== true && usesLoneCr(original);
  const before = loneCr ? original.replace(/\r(?!\n)/g, '\n') : original;
  const style = detectStyle(before);
  const lexicon: Lexicon = {
    scanCode: (text: string): CodeScan => language.scanCode(text),
    syntax: language.syntax ?? C_LIKE_SYNTAX,
  };
  const planner = new FilePlanner(path, before, language, style);
  const outline = planner.outline;
  for (const index of indices) {
    const operation = operations[index];
    if (operation !== undefined && isElementOperation(operation)) planner.plan(index, operation as ElementOperation);
  }
  const verificationFailed = new Set<number>();
  for (let round = 0; round <= indices.length + 1; round++) {
    const plan = planner.finish(verificationFailed);
    for (const [index, failure] of plan.failures) if (!failures.has(index)) failures.set(index, failure);
    for (const [index, note] of plan.notes) notes.set(index, note);
    for (const [index, path] of plan.renames) renames.set(index, path);
    for (const [index, path] of plan.readAs) readAs.set(index, path);
    if (!partial && failures.size > 0 && round === 0) {
      // All or nothing: still verify what planned, so every operation's own problem is reported at once.
      attributeProblems(before, outline, plan.actions, plan.expectations, style.eol, failures, lexicon);
      return undefined;
    }
    if (plan.actions.length === 0) return undefined;
    const outcome = renderAndVerify(before, outline, plan.actions, plan.expectations, style.eol, lexicon);
    if (outcome.ok) {
      markDropped(indices, plan.actions, plan.notes, failures, skippedBecause);
      const planned = outcome.buffer.edits();
      if (applyEdits(before, planned) !== outcome.buffer.text)
        throw new Error('the edits do not reproduce the edited text');
      const edits = loneCr ? planned.map((e) => ({ ...e, newText: e.newText.replace(/\r?\n/g, '\r') })) : planned;
      return {
        path,
        before: original,
        after: loneCr ? applyEdits(original, edits) : outcome.buffer.text,
        edits,
        created: false,
      };
    }
    const blamed = attributeProblems(before, outline, plan.actions, plan.expectations, style.eol, failures, lexicon);
    for (const index of blamed) verificationFailed.add(index);
    if (!partial || blamed.length === 0) return undefined;
  }
  return undefined;
}

/** Operations that planned fine but share an action with one that failed: skipped, with the reason. */
function markDropped(
  indices: readonly number[],
  actions: readonly Action[],
  notes: ReadonlyMap<number, string>,
  failures: ReadonlyMap<number, OpFailure>,
  skippedBecause: Map<number, string>,
): void {
  const applied = new Set(actions.flatMap((a) => a.ops));
  for (const index of indices) {
    // An operation with a note and no action had nothing to change (an import the file has already).
    if (failures.has(index) || applied.has(index) || notes.has(index)) continue;
    skippedBecause.set(index, 'not applied: it edits the same element as an operation that failed');
  }
}

type RenderOutcome =
  | { readonly ok: true; readonly buffer: ReturnType<typeof renderActions> }
  | { readonly ok: false; readonly problems: readonly VerifyProblem[] };

function renderAndVerify(
  before: string,
  outline: FileOutline,
  actions: readonly Action[],
  expectations: readonly Expectation[],
  eol: '\n' | '\r\n',
  lexicon: Lexicon,
): RenderOutcome {
  let buffer;
  try {
    buffer = renderActions(before, actions, eol, lexicon);
  } catch (error) {
    if (error instanceof RenderError)
      return {
        ok: false,
        problems: [{ ops: error.ops, message: error.message, hint: 'edit each element in one operation' }],
      };
    throw error;
  }
  const problems = verifyEdit(outline, buffer.text, actions, expectations);
  return problems.length === 0 ? { ok: true, buffer } : { ok: false, problems };
}

/**
 * Finds which operations a failed verification comes from: problems that name operations blame them; the others
 * are looked for by rendering each action alone. Returns the operations blamed and records their failures.
 */
function attributeProblems(
  before: string,
  outline: FileOutline,
  actions: readonly Action[],
  expectations: readonly Expectation[],
  eol: '\n' | '\r\n',
  failures: Map<number, OpFailure>,
  lexicon: Lexicon,
): number[] {
  const blamed = new Set<number>();
  const record = (ops: readonly number[], problem: VerifyProblem): void => {
    for (const index of ops) {
      blamed.add(index);
      if (!failures.has(index)) failures.set(index, { message: problem.message, hint: problem.hint });
    }
  };
  const whole = renderAndVerify(before, outline, actions, expectations, eol, lexicon);
  if (whole.ok) return [];
  let unexplained: VerifyProblem | undefined;
  for (const problem of whole.problems) {
    if (problem.ops !== undefined) record(problem.ops, problem);
    else unexplained ??= problem;
  }
  if (unexplained === undefined) return [...blamed];
  let found = false;
  for (const action of actions) {
    const own = expectations.filter((e) => e.ops.every((i) => action.ops.includes(i)));
    const alone = renderAndVerify(before, outline, [action], own, eol, lexicon);
    if (alone.ok) continue;
    found = true;
    for (const problem of alone.problems) record(problem.ops ?? action.ops, problem);
  }
  if (!found) {
    const all = actions.flatMap((a) => a.ops);
    record(all, {
      ...unexplained,
      message: `${unexplained.message} (each of operations ${[...new Set(all)].map((i) => `#${i + 1}`).join(', ')} verifies alone, together they do not)`,
    });
  }
  return [...blamed];
}
