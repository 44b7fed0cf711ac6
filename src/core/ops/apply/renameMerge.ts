import type { ByNamePlace, Operation, RenameElementOperation, RenamePlaces, RenameResolution } from '../operation';
import type { OpFailure } from './actions';
import { applyEdits } from './editBuffer';
import { untouchedAfter } from './untouchedAfter';
import type { FileChange, TextEdit } from './types';

/**
 * RENAME_ELEMENT in the apply engine (issue 27). Its places were found before the batch by its language's rename
 * (`ApplyOptions.renames`: the engine runs no compiler); here they are checked against the batch's snapshot and
 * joined into the batch's file changes, beside what the other operations change. A place another operation of the
 * batch also changes is a conflict and the rename's failure: nothing is merged over another edit.
 */

export interface RenameClaim {
  readonly index: number;
  readonly operation: RenameElementOperation;
  readonly places: RenamePlaces;
}

/** The rename's places, when they were found and hold for the snapshot; else why the operation fails. */
export function claimRename(
  index: number,
  operation: RenameElementOperation,
  renames: ReadonlyMap<Operation, RenameResolution> | undefined,
  read: (path: string) => string | undefined,
): { readonly ok: true; readonly claim: RenameClaim } | { readonly ok: false; readonly failure: OpFailure } {
  const label = `RENAME_ELEMENT ${operation.path} ${operation.newName}`;
  const resolution = renames?.get(operation);
  if (resolution === undefined)
    return {
      ok: false,
      failure: {
        message: `${label}: its places were not looked up (a rename needs the workspace's code graph, which runs only where the edit has a workspace folder)`,
        hint: 'rename the declaration and its uses with element operations, or run the edit in its workspace',
      },
    };
  if (!resolution.ok)
    return {
      ok: false,
      failure: {
        message: `${label}: ${resolution.message}`,
        ...(resolution.hint === undefined ? {} : { hint: resolution.hint }),
        ...(resolution.suggestions === undefined ? {} : { suggestions: resolution.suggestions }),
      },
    };
  for (const file of resolution.places.files) {
    if (read(file.path) !== file.before)
      return {
        ok: false,
        failure: {
          message: `${label}: ${file.path} is not the text the rename's places were found in`,
          hint: 'send the rename again',
        },
      };
  }
  return { ok: true, claim: { index, operation, places: resolution.places } };
}

/** What the other operations of the batch do to a file, for the merge. */
export interface FileEdits {
  /** The operation that writes the whole file (CREATE_FILE, REPLACE_FILE), when one does and did not fail. */
  readonly wholeFile?: number;
  /** The element operations of the file that did not fail. */
  readonly elementOps: readonly number[];
}

interface Owned {
  readonly edit: TextEdit;
  readonly ops: readonly number[];
}

/**
 * Joins the renames' places into `changes` (in place): each rename whole, or not at all when one of its places meets
 * a change of another operation (or of an earlier rename). Returns the renames that were joined; the others are in
 * `failures`.
 */
export function mergeRenames(
  claims: readonly RenameClaim[],
  changes: FileChange[],
  fileEdits: (path: string) => FileEdits | undefined,
  failures: Map<number, OpFailure>,
): Map<number, RenamePlaces> {
  const owned = new Map<string, Owned[]>();
  const ownedIn = (path: string): Owned[] => {
    let list = owned.get(path);
    if (list === undefined) {
      const ops = fileEdits(path)?.elementOps ?? [];
      list = (changes.find((c) => c.path === path)?.edits ?? []).map((edit) => ({ edit, ops }));
      owned.set(path, list);
    }
    return list;
  };
  const merged = new Map<number, RenamePlaces>();
  for (const claim of claims) {
    if (failures.has(claim.index)) continue;
    const failure = conflictOf(claim, fileEdits, ownedIn);
    if (failure !== undefined) {
      failures.set(claim.index, failure);
      continue;
    }
    for (const file of claim.places.files)
      ownedIn(file.path).push(...file.edits.map((edit) => ({ edit, ops: [claim.index] })));
    merged.set(claim.index, claim.places);
  }
  for (const claim of merged.values()) {
    for (const file of claim.files) {
      const at = changes.findIndex((c) => c.path === file.path);
      const edits = ownedIn(file.path)
        .map((o) => o.edit)
        .sort((a, b) => a.start - b.start || a.end - b.end);
      const change: FileChange = {
        path: file.path,
        before: file.before,
        after: applyEdits(file.before, edits),
        edits,
        created: false,
      };
      if (at >= 0) changes[at] = change;
      else changes.push(change);
    }
  }
  // The lines the renames left and the places they changed by name only, as the batch's files read after it.
  for (const [index, places] of merged)
    merged.set(index, {
      ...places,
      untouched: untouchedAfter(places.untouched, changes),
      ...(places.byName === undefined ? {} : { byName: untouchedAfter(places.byName, changes) }),
    });
  return merged;
}

function conflictOf(
  claim: RenameClaim,
  fileEdits: (path: string) => FileEdits | undefined,
  ownedIn: (path: string) => Owned[],
): OpFailure | undefined {
  const { operation } = claim;
  const label = `RENAME_ELEMENT ${operation.path} ${operation.newName}`;
  const hint =
    'RENAME_ELEMENT changes every use of the name itself: leave the name as it is in the other operations, or rename in an answer of its own';
  for (const file of claim.places.files) {
    const whole = fileEdits(file.path)?.wholeFile;
    if (whole !== undefined)
      return {
        message: `${label} conflicts with operation #${whole + 1}, which writes the whole of ${file.path}, where the rename changes ${file.edits.length} place${file.edits.length === 1 ? '' : 's'}`,
        hint,
      };
    const others = ownedIn(file.path);
    for (const edit of file.edits) {
      const other = others.find((o) => overlaps(o.edit, edit));
      if (other === undefined) continue;
      const ops = other.ops.map((i) => `#${i + 1}`).join(', ');
      return {
        message: `${label}: line ${lineOf(file.before, edit.start)} of ${file.path}, a place it renames, is also changed by operation${other.ops.length === 1 ? '' : 's'} ${ops}`,
        hint,
      };
    }
  }
  return undefined;
}

/** Whether two edits of one text touch the same characters (an insertion counts inside a span, not at its ends). */
function overlaps(a: TextEdit, b: TextEdit): boolean {
  if (a.start === a.end) return a.start > b.start && a.start < b.end;
  if (b.start === b.end) return b.start > a.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** `renamed in 5 places in 3 files; 1 line with the old name left as they are (...)`: a RENAME_ELEMENT's result. */
export function renameSummary(places: RenamePlaces): string {
  const count = places.files.reduce((sum, f) => sum + f.edits.length, 0);
  const left = places.untouched.length;
  const aliases = keptNameNote(places.files);
  const byName = places.byName ?? [];
  return [
    `renamed in ${count} place${count === 1 ? '' : 's'} in ${places.files.length} file${places.files.length === 1 ? '' : 's'}`,
    ...(byName.length === 0
      ? []
      : [
          `${count - byName.length} resolved, ${byName.length} tied by name only (check they mean it: ${byNameList(byName, 5)})`,
        ]),
    ...(aliases === undefined ? [] : [aliases]),
    left === 0
      ? 'no other whole-word match of the old name'
      : `${left} line${left === 1 ? '' : 's'} with the old name left as they are (strings, comments, code the rename does not tie to it)`,
    ...places.notes,
  ].join('; ');
}

/**
 * The places where a rename keeps the old name for the code that reads it (TypeScript's rename writes a shorthand
 * `{ old }` as `{ old: newName }` and a re-export as `export { newName as old }`), in words: undefined when there are
 * none. A rename that looks complete in a summary must say where the old name still stands.
 */
export function keptNameNote(
  files: readonly {
    readonly path: string;
    readonly before: string;
    readonly edits: readonly { readonly start: number; readonly newText: string }[];
  }[],
): string | undefined {
  const kept = files.flatMap((f) =>
    f.edits
      .filter((e) => !/^[\p{L}\p{N}_$]+$/u.test(e.newText))
      .map((e) => `${f.path}:${lineOf(f.before, e.start)} \`${e.newText}\``),
  );
  if (kept.length === 0) return undefined;
  const shown = kept.slice(0, 5).join(', ');
  return `${kept.length} place${kept.length === 1 ? ' keeps' : 's keep'} the old name for the code that reads it (a shorthand property, a re-export): ${shown}${kept.length > 5 ? `, and ${kept.length - 5} more` : ''}`;
}

/** `src/a.py:4, src/b.py:9` for the first `shown` by-name places, and how many more. */
export function byNameList(places: readonly ByNamePlace[], shown: number): string {
  const listed = places.slice(0, shown).map((p) => `${p.file}:${p.line}`);
  return `${listed.join(', ')}${places.length > shown ? `, and ${places.length - shown} more` : ''}`;
}
