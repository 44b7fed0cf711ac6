import type { ElementNode, FileOutline, SyntaxProblem, TextRange } from '../elements/element';
import type { LanguageChecker, ReferenceSemantics, WorkspaceSemantics } from '../graph/semantics';
import type { SourceFileSystem } from '../graph/sourceFiles';
import type { ImportBindingChange, ImportDeclarationState, ImportShape, ImportStep } from './importModel';

/**
 * The language seam: everything Scalpel knows about one programming language sits behind {@link LanguageSupport}.
 * Context, apply, diff and the surfaces reach a language only through `languageFor(path)` (languages.ts), so a new
 * language is one new implementation registered there, with no edit to apply, context or the surfaces.
 *
 * The element model (ElementNode, paths, kinds) is shared by all languages; a language decides how its files map
 * onto it (outline), how code is checked (syntax errors in the outline, compared before and after an edit), and
 * how content lands in a file (the {@link SourceEditor} the apply planner asks).
 *
 * How a language writes comments and bodies ({@link CodeSyntax}) reaches the renderer (block edges), the placeholder
 * check (its comment syntax) and the context (`# @ path` labels, `: …` stubs). Languages read with tree-sitter are
 * one spec each (treeSitter/languageSpec.ts). Element kinds and container flavors are still closed lists
 * (elements/element.ts, here): a language maps its declarations onto them.
 */

export interface LanguageInfo {
  /** Stable id, e.g. `typescript`. */
  readonly id: string;
  /** As a sentence names it: "TypeScript or JavaScript". */
  readonly displayName: string;
  /** File extensions, lower case, with the dot. */
  readonly extensions: readonly string[];
  /** VS Code language ids the extension activates on and shows its menus for. */
  readonly vscodeLanguageIds: readonly string[];
  /**
   * The tree-sitter grammar of @vscode/tree-sitter-wasm the language parses with (`tree-sitter-python.wasm`), for a
   * language read by a spec: scripts/build.mjs copies each one named here into dist/tree-sitter/.
   */
  readonly grammar?: string;
}

export interface LanguageSupport extends LanguageInfo {
  /** The element tree of a file; `syntaxErrors` is what verification compares before and after an edit. */
  outline(file: string, text: string): FileOutline;
  /** A lexical pass over code that need not parse on its own: what re-indenting and rendering must not touch. */
  scanCode(text: string): CodeScan;
  /** The editing rules for one file's snapshot, over one parse (its outline included). */
  editor(file: string, text: string): SourceEditor;
  /**
   * For the element diff: a change of one import declaration as bindings added and removed, when it is one;
   * absent in a language without import operations (the diff then replaces the declaration).
   */
  importBindingChange?(beforeText: string, afterText: string): ImportBindingChange | undefined;
  /**
   * Workspace-wide semantics (import edges, type errors, references) for the code graph, the type check and the
   * references in a context (src/core/graph/semantics.ts); absent in a language without them. One instance serves a
   * workspace and is kept warm across requests.
   */
  semantics?(fileSystem: SourceFileSystem, options?: SemanticsOptions): WorkspaceSemantics;
  /**
   * Where declarations are used, for a language without full {@link semantics} (the tree-sitter ones): the references
   * in a context, FIND and the agent tools read it. Ignored when `semantics` is present (its references serve).
   */
  references?(fileSystem: SourceFileSystem): ReferenceSemantics;
  /**
   * The checker of a language without `semantics` (pyright, a toolchain on PATH: src/core/check/checkers/), for the
   * type check of a batch; absent when the language has none. One instance serves a workspace and is kept warm.
   */
  checker?(fileSystem: SourceFileSystem, options?: SemanticsOptions): LanguageChecker;
  /** How the language writes comments and bodies; absent: C-like (`//` comments, `{ … }` bodies). */
  readonly syntax?: CodeSyntax;
  /**
   * Loads what the language parses with (a WebAssembly grammar) when it loads asynchronously; absent when the
   * language is ready at once. `loadLanguagesFor` (languages.ts) calls it before the synchronous methods run.
   */
  load?(): Promise<void>;
}

export interface SemanticsOptions {
  /**
   * Which copy of the language's checker to use, as the user set it (TypeScript: a folder like `typescript.tsdk`,
   * or `bundled`); absent: the workspace's own when it has one, else the one Scalpel ships.
   */
  readonly toolchain?: string;
  /** How long one run of a checker that is a separate program (pyright, cargo, go, javac, dotnet) may take, in ms. */
  readonly timeLimitMs?: number;
}

/** How a language writes comments and bodies: what the context, the renderer and the placeholder check follow. */
export interface CodeSyntax {
  /** Starts a line comment: `//`, `#`. */
  readonly lineComment: string;
  /** `braces`: bodies are `{ ... }`; `indent`: a `:` and an indented block (Python). */
  readonly blocks: 'braces' | 'indent';
  /** Appended to a signature whose body is not shown: ` { … }`, `: …`. */
  readonly elidedBody: string;
  /**
   * The statement a body needs when deleting its members leaves it without code (Python's `pass`); absent when an
   * empty body is fine (`{}`).
   */
  readonly emptyBody?: string;
  /** Whether `...` alone on a line is ordinary code (Python's Ellipsis), not a lazy placeholder. */
  readonly ellipsisIsCode: boolean;
  /**
   * Whether the compiler reads a lone CR as whitespace, not as a line break (Rust, Go: LF only). Absent: a lone CR
   * ends a line (Python, Java, C#, TypeScript), and a file of lone CRs is edited line by line, its CRs kept.
   */
  readonly loneCrIsWhitespace?: boolean;
  /**
   * The element a whole file of the language must keep when it had it (Go's package clause, `statement[package]`):
   * content parsed alone may lack it, a file may not.
   */
  readonly fileClause?: { readonly kind: string; readonly name: string; readonly message: string };
  /**
   * Whether each member of a trait or interface ends itself, with its `;` or its body's `}` (Rust), so members written
   * on one line take no separator between them; absent: a `;` separates them there (TypeScript, Go).
   */
  readonly membersEndThemselves?: boolean;
  /** Whether a string opening a module or a body documents it (Python's docstrings): the views mark it. */
  readonly docstrings?: boolean;
}

/** What a language that does not say otherwise is written like. */
export const C_LIKE_SYNTAX: CodeSyntax = {
  lineComment: '//',
  blocks: 'braces',
  elidedBody: ' { … }',
  ellipsisIsCode: false,
};

/**
 * A lexical pass over a piece of code that need not parse on its own (a class member, an object property): where
 * its comments are, which spans are inside string literals (their line starts are text, not indentation), and
 * where its last token ends.
 */
export interface CodeScan {
  readonly comments: readonly TextRange[];
  /** String and template literal tokens; a line that starts inside one must be left exactly as it is. */
  readonly literals: readonly TextRange[];
  /** End of the last token that is not a comment, or 0. */
  readonly lastCodeEnd: number;
  /** Text of the last token that is not a comment (`,` `;` `}` ...). */
  readonly lastToken: string | undefined;
}

/**
 * Where a piece of code goes: decides how it must parse, how it is indented and how members are separated. `object`
 * and `enum` members are comma-separated; the others are statements or declarations.
 */
export type ContainerFlavor =
  | 'file'
  | 'namespace'
  | 'class'
  | 'interface'
  | 'typeLiteral'
  | 'object'
  | 'enum'
  /** The body of a function passed to a call (`describe('x', () => {...})`): its elements are the calls in it. */
  | 'callback';

export interface ContainerInfo {
  readonly flavor: ContainerFlavor;
  /** Offset of the opening bracket; undefined for a file. */
  readonly open?: number;
  /** Offset of the closing bracket; undefined for a file. */
  readonly close?: number;
  /** Indentation of the container's own lines. */
  readonly indent: string;
  /**
   * A body delimited by indentation (no brackets): where a first member goes (a line start, after a docstring) and
   * where the last member ends. Undefined for a file and for a bracketed body.
   */
  readonly block?: {
    readonly firstMemberStart: number;
    readonly end: number;
    /**
     * The statement that only holds the body's place (Python's lone `pass` or `...`, after a docstring if any): a
     * member created in the body takes its place.
     */
    readonly placeholder?: TextRange;
  };
}

export type ContainerLookup =
  { readonly ok: true; readonly container: ContainerInfo } | { readonly ok: false; readonly reason: string };

export interface ContentShape {
  /** The elements the content declares at the level of its container (paths are meaningless). */
  readonly elements: readonly ElementNode[];
  /** Syntax errors, lines counted in the content. */
  readonly syntaxErrors: readonly SyntaxProblem[];
  /** The content's last declaration ends like a statement (a terminator is expected, not a block). */
  readonly statementLike: boolean;
  /** The content already ends with its terminator (`;` or `,`). */
  readonly terminated: boolean;
}

/**
 * How one file's snapshot takes edits: the apply planner asks these questions and makes every other decision
 * (composition, conflicts, layout, verification) itself, the same for every language.
 */
export interface SourceEditor {
  readonly outline: FileOutline;
  /** Whether statements and members of this file end with `;` (what new code copies). */
  readonly semicolons: boolean;
  /** The container an element is, for CREATE_ELEMENT; a reason when it holds no members. */
  containerOf(element: ElementNode): ContainerLookup;
  /** Parses content the way it will sit in a container of this flavor. `content` is normalised (`\n`). */
  shapeOf(content: string, flavor: ContainerFlavor): ContentShape;
  /** Content replacing a top-level `node` gets back modifiers it left off that importers rely on (`export`). */
  keepModifiers(body: string, node: ElementNode): string;
  /** The line start where new top-level code goes first: after headers, directives and licences. */
  topInsertionOffset(): number;
  /**
   * Whether a top-level element heads the file and must stay above its code (Go's `package` clause): FIRST_CHILD of
   * the file goes after it. Absent: no element does.
   */
  headsFile?(element: ElementNode): boolean;
  /** Variables that share a statement (`const a = 1, b = 2`); undefined when the language has none. */
  readonly declarators: DeclaratorEditing | undefined;
  /** ADD_IMPORT/REMOVE_IMPORT and imports at the head of content; undefined when the language has none. */
  readonly imports: ImportEditing | undefined;
}

/** A variable element that shares its statement with other declarators. */
export interface DeclaratorInfo {
  /** Identity of the shared statement: equal for the declarators of one statement. */
  readonly statement: object;
  /** 0-based position among the statement's declarators. */
  readonly index: number;
  readonly count: number;
  /** The statement from its first token to its end. */
  readonly statementStart: number;
  readonly statementEnd: number;
  /** The statement with the comments directly above it, as the element model counts ranges. */
  readonly statementRange: TextRange;
}

export type DeclaratorContent =
  /** Code for the declarator alone (`b = 3`). */
  | { readonly kind: 'declarator'; readonly code: string }
  /** A statement of its own (another keyword, an export the statement lacks, a doc comment). */
  | { readonly kind: 'statement'; readonly code: string }
  | { readonly kind: 'invalid'; readonly message: string; readonly hint: string };

export type DeclaratorFate =
  | { readonly state: 'deleted' }
  | { readonly state: 'declarator'; readonly text: string }
  /** Split off as a statement of its own, placed after the rest. */
  | { readonly state: 'statement'; readonly text: string };

export interface DeclaratorEditing {
  declaratorOf(element: ElementNode): DeclaratorInfo | undefined;
  /** Reads content that replaces declarator `name`: the declarator alone, or a statement of its own. */
  readContent(info: DeclaratorInfo, content: string, name: string): DeclaratorContent;
  /** Whether patched code still declares exactly the variable `name` (as a declarator, or as a statement). */
  declares(info: DeclaratorInfo, code: string, name: string, asStatement: boolean): boolean;
  /** The statement rewritten with each declarator's fate (by index); `lineBreak` starts a split-off statement. */
  rewrite(info: DeclaratorInfo, fates: ReadonlyMap<number, DeclaratorFate>, lineBreak: string): string;
}

export type ImportContent =
  | { readonly ok: true; readonly imports: readonly ImportShape[]; readonly texts: readonly string[] }
  /** `hint`: how the language writes one (`import java.util.List;`), when not TypeScript's way. */
  | { readonly ok: false; readonly message: string; readonly hint?: string };

export interface ImportEditing {
  /** Reads the import declarations an ADD_IMPORT or REMOVE_IMPORT carries. */
  read(content: string): ImportContent;
  /** Import declarations at the head of top-level code, split from the code after them (when there is some). */
  splitLeading(content: string): { imports: string; code: string } | undefined;
  /** Whether content names an import declaration (rather than just a module). */
  isDeclaration(content: string): boolean;
  /** A fresh book of this file's import declarations for one batch. */
  book(eol: '\n' | '\r\n'): ImportBook;
}

/** Where CREATE_ELEMENT puts an import: beside an existing one, as a declaration of its own. */
export interface ImportPlacement {
  readonly after?: ElementNode;
  readonly before?: ElementNode;
  /**
   * The module's other declarations are being deleted by the batch (an import moved): add this one as written
   * instead of merging into them.
   */
  readonly separate: boolean;
}

/** The import declarations of one file through a batch; see importModel.ts. */
export interface ImportBook {
  readonly declarations: readonly ImportDeclarationState[];
  transaction(step: () => ImportStep): ImportStep;
  /** With a placement, a new declaration goes where it says instead of next to its module or after the last one. */
  add(request: ImportShape, text: string, opIndex: number, placement?: ImportPlacement): ImportStep;
  remove(request: ImportShape | { readonly module: string }, opIndex: number): ImportStep;
}
