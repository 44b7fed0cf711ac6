import type { ElementNode } from '../elements/element';

/**
 * What a language offers beyond syntax, over a whole workspace: the files each file imports, the errors of files
 * with proposed texts in place, and where a declaration is used. A language provides it through
 * `LanguageSupport.semantics` (TypeScript: src/core/language/typescript/typescriptSemantics.ts); the code graph, the
 * type check and the references are written against this interface only, so they stay language-neutral. Offsets
 * are into the text the language read, which it returns with them.
 */

/** A text a request proposes for a file; `undefined` deletes the file. */
export type OverlayText = string | undefined;

export interface ImportEdge {
  /** As written: `./user`, `@/lib/db`. */
  readonly specifier: string;
  /** The workspace file it resolves to, or undefined (a package, or a file that does not exist). */
  readonly target: string | undefined;
  /** `export … from`: whoever imports this file sees the target's exports too. */
  readonly reExport: boolean;
}

export interface LanguageError {
  /** Offset into the text the errors were found in. */
  readonly start: number;
  /**
   * The language's error code: TypeScript's as a number (2554 for TS2554); a checker's own name for it otherwise
   * (pyright's rule `reportCallIssue`, rustc's `E0061`), or the checker's name when it has none (`javac`).
   */
  readonly code: number | string;
  readonly message: string;
  /** Set when warnings and suggestions were asked for too (`ErrorsOptions.allCategories`). */
  readonly category?: 'error' | 'warning' | 'suggestion';
  /**
   * Set when the error only says that the environment lacks something, with why in a few words (`@types/node is not
   * installed`, `the project's configuration`): a package not installed, type definitions of a runtime or a test
   * runner missing, compiler options. No edit can fix such an error; the type check sets it aside and reports it apart.
   */
  readonly environment?: string;
}

export interface FileErrors {
  /** The text the errors were found in (the proposed one, or the file as on disk). */
  readonly text: string;
  readonly errors: readonly LanguageError[];
  /** The file's export surface, when asked for (see `surfaces`). */
  readonly surface?: string;
}

export interface ErrorsOptions {
  readonly signal?: AbortSignal;
  /** Files whose export surface to return with their errors. */
  readonly surfaceOf?: readonly string[];
  /**
   * More files the program must hold besides `files`: a module augmentation (`declare module`, `declare global`)
   * changes types wherever it is, so both sides of a comparison need the same ones.
   */
  readonly roots?: readonly string[];
  /** Warnings and suggestions too, each with its category (the agent tools' diagnostics). */
  readonly allCategories?: boolean;
  /** Told what a long step is doing (building a program reads hundreds of files on the first check). */
  readonly onProgress?: (message: string) => void;
}

export interface ReferenceHit {
  /** Workspace-relative file of the use. */
  readonly file: string;
  /** Offset of the use in `text`. */
  readonly start: number;
  /** The file's text the offset is into. */
  readonly text: string;
  readonly isWrite: boolean;
  /** The use calls the declaration (or constructs it, tags a template with it, renders it as a JSX tag). */
  readonly isCall: boolean;
  /**
   * Only the name ties the use to the declaration (a method called on a value whose type the syntax does not tell):
   * what it says is said "by name". Absent: resolved.
   */
  readonly byName?: true;
}

export interface ReferenceSearchOptions {
  /**
   * Time in ms the search may take once the program is ready (its build is not counted: it is kept warm for the next
   * search). A search that type-checks hundreds of files of a large project takes tens of seconds, more than a
   * context may wait for.
   */
  readonly timeLimitMs?: number;
}

/** A reference search stopped at its time limit; what it found so far is too partial to show. */
export class ReferenceSearchCutShort extends Error {
  constructor(readonly elapsedMs: number) {
    super(`the reference search was cut short after ${(elapsedMs / 1000).toFixed(1)} s`);
    this.name = 'ReferenceSearchCutShort';
  }
}

/** A name used inside an element's own code, and the workspace declaration it resolves to. */
export interface UseHit {
  /** Offset of the use in the element's file. */
  readonly start: number;
  readonly isCall: boolean;
  /** Workspace-relative file of the declaration. */
  readonly declarationFile: string;
  /** Offset of the declaration in `declarationText`. */
  readonly declarationStart: number;
  readonly declarationText: string;
}

/**
 * Where a declaration is used: the part of a language's semantics the references in a context, FIND, the agent tools'
 * references and the reference checks read (src/core/graph/references.ts). TypeScript's comes with its full
 * {@link WorkspaceSemantics}; the tree-sitter languages have this part only
 * (src/core/language/treeSitter/treeSitterReferences.ts).
 */
export interface ReferenceSemantics {
  /**
   * How uses are told apart from other things of the same name. Absent (`compiler`): the language's compiler
   * resolves each one. `syntax`: identifiers outside comments and strings, resolved through imports, packages and
   * modules where that is cheap; the rest are marked {@link ReferenceHit.byName}.
   */
  readonly resolution?: 'syntax';
  /**
   * The identifier code refers to the element by (Go's `method[(*T).Scale]` is `Scale`); undefined when it has none.
   * Absent: the element's name.
   */
  searchName?(element: ElementNode): string | undefined;
  /**
   * The uses (not the declaration) of `element` of `file`, searched in `candidates` (workspace files that may hold
   * one) with `texts` in place. Throws {@link ReferenceSearchCutShort} past `options.timeLimitMs`.
   */
  references(
    file: string,
    element: ElementNode,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    options?: ReferenceSearchOptions,
  ): ReferenceHit[];
  /**
   * Where renaming the element to `newName` changes text (its declaration included), searched in `candidates` with
   * `texts` in place: the compiler's rename (TypeScript), or the reference search's places with the ones only the name
   * ties marked {@link RenameLocation.byName} (`resolution: 'syntax'`). `mentioning` lists the workspace files of the
   * language that mention another name (a class's, to follow its subclasses and its parts). Absent: the language has
   * no rename.
   */
  renameLocations?(
    file: string,
    element: ElementNode,
    newName: string,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    mentioning?: (name: string) => readonly string[],
  ): RenameAnswer;
}

export interface WorkspaceSemantics extends ReferenceSemantics {
  /** The import edges of a file; `known` lists the workspace files a specifier may resolve to. */
  scanImports(file: string, text: string, known: ReadonlySet<string>): ImportEdge[];
  /**
   * The errors (not warnings) of each file, with `texts` in place of what is on disk, nothing written. A file the
   * overlay deletes has no entry.
   */
  errors(
    files: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    options?: ErrorsOptions,
  ): Promise<ReadonlyMap<string, FileErrors>>;
  /**
   * What importers can see of each file (its exports and their types), as text, with `texts` in place; equal texts
   * before and after an edit mean its importers cannot have new errors. Undefined when the language cannot tell.
   */
  surfaces(
    files: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    roots?: readonly string[],
  ): ReadonlyMap<string, string | undefined>;
  /**
   * The workspace declarations the element's own code uses (its members' code excluded, its own parameters and
   * locals excluded), one hit per use, with `texts` in place.
   */
  uses(file: string, element: ElementNode, texts: ReadonlyMap<string, OverlayText>): UseHit[];
  /**
   * Where the identifier `name`, as used between `start` and `end` of the file, is declared (go to definition), one
   * entry per use, with `texts` in place. Absent: the language cannot tell (the tools then look by name).
   */
  declarationsOf?(
    file: string,
    start: number,
    end: number,
    name: string,
    texts: ReadonlyMap<string, OverlayText>,
  ): DeclarationsAnswer;
  /**
   * What implements the element (an interface or one of its members, an abstract or overridable class member, a
   * class), searched in `candidates` with `texts` in place, the element itself left out. Absent: the language cannot
   * tell.
   */
  implementationsOf?(
    file: string,
    element: ElementNode,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
  ): NavigationTarget[];
  /** The checker that finds the errors, to tell the user which one checked (`TypeScript 5.9.3, the workspace's`). */
  checker?(): CheckerDescription;
  dispose(): void;
}

/** A declaration a language's navigation leads to (go to definition, go to implementation): where its name is. */
export interface NavigationTarget {
  /** Workspace-relative; undefined when it lies outside the workspace or in a dependency (`outside` names it). */
  readonly file: string | undefined;
  /** The absolute path of a target outside the workspace. */
  readonly outside?: string;
  /** Offset of the declared name in `text`. */
  readonly start: number;
  /** The file's text the offset is into. */
  readonly text: string;
  /** The name as declared. */
  readonly name: string;
}

/** One use of a name and where it is declared. */
export interface DeclarationUse {
  /** Offset of the use in the answer's `text`. */
  readonly start: number;
  readonly targets: readonly NavigationTarget[];
}

export interface DeclarationsAnswer {
  /** The text of the file the uses are in. */
  readonly text: string;
  /** Each use of the name in the range, in text order (the declarations of the name itself left out). */
  readonly uses: readonly DeclarationUse[];
}

/** One place a rename changes: the text at `start` (`length` long, the old name) becomes `replacement`. */
export interface RenameLocation {
  /** Workspace-relative; undefined when the place lies outside the workspace (`outside` names it). */
  readonly file: string | undefined;
  /** The absolute path, for a place outside the workspace or in an installed dependency. */
  readonly outside?: string;
  readonly start: number;
  readonly length: number;
  /** The new name with what the language adds around it (`old as ` in an import, `old: ` in a shorthand). */
  readonly replacement: string;
  /** The file's text the offset is into. */
  readonly text: string;
  /** Only the name ties the place to the declaration (see {@link ReferenceHit.byName}): the agent should check it. */
  readonly byName?: true;
}

export interface RenameAnswer {
  readonly locations: readonly RenameLocation[];
  /** Why the language refuses the rename (a library symbol, a name that cannot be renamed). */
  readonly refused?: string;
  /** A declaration of the new name already in the same scope, as `line N: code`. */
  readonly collision?: string;
}

export interface CheckerDescription {
  /** `TypeScript`. */
  readonly name: string;
  readonly version: string;
  /**
   * Where it was loaded from: the workspace's own copy, a folder a setting or flag named, the bundled one, or a
   * toolchain found on PATH.
   */
  readonly source: 'workspace' | 'setting' | 'bundled' | 'path';
  /** The folder it was loaded from (workspace-relative when inside the workspace); undefined for the bundled one. */
  readonly location?: string;
  /** Why a copy that was asked for or found was not used (too old, failed to load), when the bundled one stands in. */
  readonly fallbackReason?: string;
}

/** `TypeScript 5.9.3 (the workspace's, node_modules/typescript)`: one phrase for every surface. */
export function describeChecker(checker: CheckerDescription): string {
  const where =
    checker.source === 'workspace'
      ? `the workspace's${checker.location === undefined ? '' : `, ${checker.location}`}`
      : checker.source === 'setting'
        ? `from ${checker.location ?? 'the configured folder'}`
        : checker.source === 'path'
          ? `on PATH${checker.location === undefined ? '' : `, ${checker.location}`}`
          : 'bundled with Scalpel';
  return `${checker.name} ${checker.version} (${where})`;
}

/** `TS2554` for TypeScript's numbered codes; a checker's own code as it writes it (`reportCallIssue`, `E0061`). */
export function errorCodeLabel(code: number | string): string {
  return typeof code === 'number' ? `TS${code}` : code;
}

/**
 * A checker of a language without full {@link WorkspaceSemantics} (pyright for Python; `cargo check`, `go vet`,
 * `javac`, `dotnet build` for the others): it finds the errors of the files a batch can reach, once with the texts as
 * the batch was built on and once with the batch's, in one call, so that a checker working on a copy of the project
 * (src/core/check/shadowTree.ts) or a warm language server sets it up once. The type check
 * (src/core/check/typeCheck.ts) compares the two sides by the rule of newErrors.ts, as it does TypeScript's. A
 * language provides it through `LanguageSupport.checker`.
 */
export interface LanguageChecker {
  /** The checker that would run, or undefined when none can here (then {@link CheckerRun.skipped} says why). */
  checker(): CheckerDescription | undefined;
  /**
   * The errors (not warnings) of the changed files and of the files they can break (importers, the rest of the crate,
   * package or project), with `before` in place of the disk, then with `after`; a text `undefined` deletes the file
   * (on the before side: the batch creates it). Nothing in the workspace is written.
   */
  compare(
    before: ReadonlyMap<string, OverlayText>,
    after: ReadonlyMap<string, OverlayText>,
    options?: CheckerRunOptions,
  ): Promise<CheckerRun>;
  dispose(): void;
}

export interface CheckerRunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (message: string) => void;
  /** At most this many files besides the changed ones are checked (importers); the rest are counted as omitted. */
  readonly maxImporters?: number;
}

export interface CheckerRun {
  /** The errors of each file checked, keyed by workspace-relative file; a file without an entry had none. */
  readonly before: ReadonlyMap<string, FileErrors>;
  readonly after: ReadonlyMap<string, FileErrors>;
  /** Every file whose errors were compared (the changed ones first). */
  readonly checkedFiles: readonly string[];
  /** Files the batch can reach that were not checked (past `maxImporters`). */
  readonly omittedFiles: number;
  /** The checker that ran; undefined when none did. */
  readonly checker: CheckerDescription | undefined;
  /**
   * Why the checker did not run or did not finish, in one line (`go is not on PATH`, `cargo check did not finish
   * within 120 s`): the batch then had its syntax and references checked only, and every surface says so.
   */
  readonly skipped?: string;
}

/** cyrb53: a fast 53-bit string hash; equal texts get equal versions, so cached results carry over. */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
