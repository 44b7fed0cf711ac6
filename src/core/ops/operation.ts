/**
 * Element operations: what the model answers with. The text format is described in docs/operations.md; the
 * same operations are accepted as JSON in the shape `{type, path, content, elementKind, position}`.
 */

export const OPERATION_TYPES = [
  'REPLACE_ELEMENT',
  'CREATE_ELEMENT',
  'DELETE_ELEMENT',
  'PATCH_ELEMENT',
  'ADD_IMPORT',
  'REMOVE_IMPORT',
  'CREATE_FILE',
  'REPLACE_FILE',
  'RENAME_ELEMENT',
] as const;

export type OperationType = (typeof OPERATION_TYPES)[number];

export type CreatePosition =
  | { readonly kind: 'FIRST_CHILD' }
  | { readonly kind: 'LAST_CHILD' }
  | { readonly kind: 'BEFORE'; readonly sibling: string }
  | { readonly kind: 'AFTER'; readonly sibling: string };

interface OperationBase {
  /** 1-based line of the operation's header in the model's answer, when it came from text. */
  readonly line?: number;
}

/** Replaces an element (its leading comments and decorators included) with `content`. */
export interface ReplaceElementOperation extends OperationBase {
  readonly type: 'REPLACE_ELEMENT';
  readonly path: string;
  readonly content: string;
}

/**
 * Creates an element inside `path` (a container element, or a file for top-level elements).
 * `BEFORE`/`AFTER` name a sibling by its last segment (`method[validate]`) or its full path.
 */
export interface CreateElementOperation extends OperationBase {
  readonly type: 'CREATE_ELEMENT';
  readonly path: string;
  readonly position: CreatePosition;
  readonly content: string;
  /** Optional hint of what is being created (`method`, `function`, ...); used to check the content. */
  readonly elementKind?: string;
  /**
   * Optional blank lines between the new element and the lines above and below it (`BLANK_LINES=1,0`), where the
   * spacing the container already uses is not what is wanted.
   */
  readonly blankLines?: BlankLinesAround;
}

/** Blank lines above and below a created element. */
export interface BlankLinesAround {
  readonly above: number;
  readonly below: number;
}

/** The most blank lines BLANK_LINES may ask for on one side. */
export const MAX_BLANK_LINES = 3;

export interface DeleteElementOperation extends OperationBase {
  readonly type: 'DELETE_ELEMENT';
  readonly path: string;
}

export interface SearchReplacePair {
  readonly search: string;
  readonly replace: string;
}

/** Search/replace pairs matched only inside the element at `path`; each search must match exactly once. */
export interface PatchElementOperation extends OperationBase {
  readonly type: 'PATCH_ELEMENT';
  readonly path: string;
  readonly patches: readonly SearchReplacePair[];
}

/** `path` is the file; `content` one import declaration, merged into an existing import of the same module. */
export interface AddImportOperation extends OperationBase {
  readonly type: 'ADD_IMPORT';
  readonly path: string;
  readonly content: string;
}

/**
 * `path` is the file (or `<file>/import[<module>]`); `content` is an import declaration naming the bindings to
 * remove (`import { a } from './x'`), or just the module specifier to remove the whole declaration.
 */
export interface RemoveImportOperation extends OperationBase {
  readonly type: 'REMOVE_IMPORT';
  readonly path: string;
  readonly content: string;
}

export interface CreateFileOperation extends OperationBase {
  readonly type: 'CREATE_FILE';
  readonly path: string;
  readonly content: string;
}

/** The file-level fallback: the whole new content of an existing file. */
export interface ReplaceFileOperation extends OperationBase {
  readonly type: 'REPLACE_FILE';
  readonly path: string;
  readonly content: string;
}

/**
 * Renames a declaration and every use its language's rename finds (TypeScript's compiler; the reference search of
 * Python, Go, Rust, Java and C#, by-name places marked), in every file, as part of the batch (issue 27). No code
 * block: the places are the language's, not the model's.
 */
export interface RenameElementOperation extends OperationBase {
  readonly type: 'RENAME_ELEMENT';
  readonly path: string;
  readonly newName: string;
}

export type Operation =
  | ReplaceElementOperation
  | CreateElementOperation
  | DeleteElementOperation
  | PatchElementOperation
  | AddImportOperation
  | RemoveImportOperation
  | CreateFileOperation
  | ReplaceFileOperation
  | RenameElementOperation;

/** A problem found while reading the model's answer. The parser never throws; it returns these. */
export interface ParseError {
  /** 1-based line in the answer. */
  readonly line: number;
  readonly message: string;
  /** What the parser expected there, in words a model can act on. */
  readonly expected?: string;
}

export interface ParseResult {
  readonly operations: readonly Operation[];
  readonly errors: readonly ParseError[];
}

/** A whole-word match of a renamed declaration's old name that the rename leaves as it is. */
export interface UntouchedMatch {
  readonly file: string;
  readonly line: number;
  /** The enclosing element's path, or '' (the top level, or a file Scalpel does not outline). */
  readonly element: string;
  /**
   * `string`, `comment`, `code` (not tied to the declaration by the compiler) or `text` (a file of no language); a
   * line with matches of several kinds names each, comma-separated.
   */
  readonly in: string;
  readonly code: string;
}

/**
 * A place a rename changes that only the name ties to the declaration: its line as found before the batch, and once
 * the rename is joined into the batch, as the batch's files read after it.
 */
export interface ByNamePlace {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

/** What a RENAME_ELEMENT changes, as its language's rename found it against the batch's snapshot (issue 27). */
export interface RenamePlaces {
  /** The declaration's path after the rename. */
  readonly renamedTo: string;
  /** Per file: the snapshot text the edits are offsets into, and the edits (sorted, each one place). */
  readonly files: readonly {
    readonly path: string;
    readonly before: string;
    readonly edits: readonly { readonly start: number; readonly end: number; readonly newText: string }[];
  }[];
  /** Whole-word matches of the old name it leaves: strings, comments, code the compiler does not tie to it. */
  readonly untouched: readonly UntouchedMatch[];
  /**
   * The places it changes that only the name ties to the declaration (a language read by its syntax: a method called
   * on a value whose type the syntax does not tell, an override in a subclass whose base only the name ties), for the
   * model to check; absent or empty: none.
   */
  readonly byName?: readonly ByNamePlace[];
  /** What the searches did not cover, in words (a time limit, files left out). */
  readonly notes: readonly string[];
}

/** The places of a RENAME_ELEMENT, or why it cannot be done; found before the batch is applied. */
export type RenameResolution =
  | { readonly ok: true; readonly places: RenamePlaces }
  | { readonly ok: false; readonly message: string; readonly hint?: string; readonly suggestions?: readonly string[] };

export type OperationStatus = 'ok' | 'failed' | 'skipped';

/** The outcome of one operation of a batch; `hint` tells the model what to do instead. */
export interface OperationResult {
  readonly index: number;
  readonly operation: Operation;
  readonly status: OperationStatus;
  readonly message?: string;
  readonly hint?: string;
  /** Nearest valid paths, when a path did not resolve. */
  readonly suggestions?: readonly string[];
  /** The element's new path, when a REPLACE_ELEMENT or PATCH_ELEMENT renamed it. */
  readonly renamedTo?: string;
  /**
   * The path as it was read, when the operation's own was resolved tolerantly (a name in the wrong case, a missing
   * container): what the user is shown instead of the model's spelling.
   */
  readonly readAs?: string;
  /**
   * What a RENAME_ELEMENT changes and leaves, when its places were joined into the batch (also when the batch was not
   * applied because another operation failed: the repair message tells the model what the kept rename does).
   */
  readonly rename?: RenamePlaces;
}
