import type { Node } from 'web-tree-sitter';
import type { ElementKind, SyntaxProblem } from '../../elements/element';
import type { ImportShape } from '../importModel';
import type { CodeScan, CodeSyntax, ContainerFlavor, LanguageInfo } from '../languageSupport';

/**
 * A language read with tree-sitter is one spec: which syntax nodes are elements (their kind, name and body), what
 * joins an element's range (comments, decorators, attributes), how its comments and elided bodies are written, and
 * how its imports read. treeSitterLanguage.ts turns a spec into a LanguageSupport; everything else (ranges, paths,
 * ordinals, signatures, syntax errors, containers, verification) is the same for every spec.
 */

/**
 * The name of the stand-in type or function that wrapContent parses content for a container inside (`class _ {`):
 * rules that check names against their owner's (constructorNameProblems) leave the stand-in out.
 */
export const STAND_IN_NAME = '_';

export interface ParentInfo {
  /** The kind of the enclosing element; undefined at the top level. */
  readonly kind: ElementKind | undefined;
  /** The enclosing element's syntax node (the declaration, not its wrapper). */
  readonly node: Node | undefined;
}

/** What one syntax node declares. */
export interface Declaration {
  readonly kind: ElementKind;
  /** The name as the path writes it; '' for a nameless kind (`constructor`). */
  readonly name: string;
  /**
   * The node whose named children are searched for member elements (a class body, a function body for nested
   * functions); null when the element holds no members.
   */
  readonly body: Node | null;
  /** Flavor of the body as a container (what content inserted there must parse as); default `class`. */
  readonly flavor?: ContainerFlavor;
}

export interface TreeSitterLanguageSpec {
  /** The language's catalog entry; its `grammar` names the tree-sitter grammar. */
  readonly info: LanguageInfo;
  /** The tag of a fenced code block (`python`). */
  readonly fenceTag: string;
  /**
   * What a node declares, or undefined when it is no element. Called for the named children of the root and of
   * every element's body (after {@link unwrap}).
   */
  declarationOf(node: Node, parent: ParentInfo): Declaration | undefined;
  /**
   * A node that wraps a declaration and belongs to its range (Python `decorated_definition`): returns the inner
   * declaration node; undefined for a node that wraps nothing.
   */
  unwrap?(node: Node): Node | undefined;
  /**
   * A sibling written directly after a declaration that belongs to it (Python's attribute docstring, the string on
   * the line after `x = 1`): it joins the range of `node`, the declaration before it.
   */
  trails?(node: Node, next: Node): boolean;
  /** Node types that are comments: a run directly above an element (no blank line between) joins its range. */
  readonly commentTypes: readonly string[];
  /**
   * A comment that documents the file rather than what follows it (Rust's `//!`): it never joins an element's range.
   */
  isFileComment?(node: Node): boolean;
  /**
   * Top-level node types that head the file and must stay above its code (Go's `package` clause, Java's `package` declaration, Rust's `#![...]`):
   * new imports and a FIRST_CHILD of the file go after them.
   */
  readonly headerTypes?: readonly string[];
  /**
   * Sibling node types written before a declaration that belong to it (Rust `attribute_item`, C# attributes when
   * the grammar makes them siblings): they join the range of the declaration after them.
   */
  readonly leadingTypes?: readonly string[];
  /**
   * Node types of bodies that must not be empty though the grammar lets them be, without an error node (Python's
   * `block`: `def f():` followed by a line that is not deeper parses as an empty body). Reported as syntax errors.
   */
  readonly nonEmptyTypes?: readonly string[];
  /**
   * What the language's own compiler refuses though the grammar parses it (CPython's indentation rules, `from
   * __future__` after code): reported with the syntax errors, so verification refuses an edit that adds one.
   */
  compilerProblems?(root: Node, text: string): readonly SyntaxProblem[];
  /** How the language writes comments and bodies in a context and in rendering. */
  readonly syntax: CodeSyntax;
  /** A lexical pass over code that need not parse on its own (see LanguageSupport.scanCode). */
  scanCode(text: string): CodeScan;
  /**
   * For content inserted into a container: the text put around it so that it parses as it will sit there (a Python
   * method is parsed inside `class _:`, named STAND_IN_NAME), and how many lines the prefix adds. Absent: content parses as it is.
   */
  wrapContent?(content: string, flavor: ContainerFlavor): { text: string; prefixLines: number; indent: string };
  /** Import declarations, when the language has import operations. */
  readonly imports?: ImportSpec;
  /**
   * The decorators of a declaration that its signature leaves out (Python's, on the `decorated_definition` wrapping
   * it), as written; `outer` is the wrapper, or the node itself.
   */
  decoratorsOf?(node: Node, outer: Node): readonly string[];
  /**
   * A statement that only holds an empty body's place (Python's `pass`): when it is a body's only statement (a
   * docstring aside), a member created there takes its place.
   */
  isPlaceholder?(node: Node): boolean;
  /** The signature of a declaration; undefined (or absent): its text up to its body, on one line. */
  signatureOf?(node: Node, text: string): string | undefined;
  /**
   * Node types whose named children are read as if they stood in the node's place (Java's
   * `enum_body_declarations`, which holds the members after an enum's constants).
   */
  readonly inlineTypes?: readonly string[];
}

/** How a language's import declarations read and are written, for ADD_IMPORT/REMOVE_IMPORT and the diff. */
export interface ImportSpec {
  /** Node types of import declarations (top-level). */
  readonly nodeTypes: readonly string[];
  /**
   * One declaration's text as the imports it makes: one shape per module (`import os, sys` makes two); undefined
   * when the text is not one import declaration.
   */
  parse(text: string): readonly ImportShape[] | undefined;
  /**
   * The declaration text of `shapes` (all of one declaration). `original`, when given, is the declaration being
   * rewritten, whose layout the result keeps where it can.
   */
  render(shapes: readonly ImportShape[], original: string | undefined): string;
  /** The element name of an import declaration (its path segment): the module, as written. */
  nameOf(node: Node): string;
  /**
   * Content of an ADD_IMPORT/REMOVE_IMPORT written without the declaration's keyword (Go's `"fmt"`, Rust's
   * `std::fmt::Display`, Java's `a.b.C`, C#'s `System.Text`): the declarations it stands for; undefined (or the
   * content unchanged) when it is no such short form. Absent: content is read as it is.
   */
  asDeclaration?(content: string): string | undefined;
  /**
   * Where an added import goes when the language merges imports into existing declarations its own way (a line in a
   * Go import block, a name in a Rust use list). `declarations` are the file's live import declarations in order,
   * `text` the request as written. Undefined: a declaration of its own after the last one.
   */
  merge?(declarations: readonly ImportDeclarationText[], request: ImportShape, text: string): ImportMerge | undefined;
  /**
   * Whether declarations inside namespace blocks count as the file's (C# usings written in the namespace, the one
   * namespace of most files); not for Rust, whose `use` inside `mod tests { }` is that module's alone.
   */
  readonly inNamespaces?: boolean;
  /** One declaration as the language writes it, for the hint of a refused one (`import java.util.List;`). */
  readonly example?: string;
  /**
   * An import that must come before all other code (Python's `from __future__`): a new one goes at the top of the
   * file (after its docstring and header comments), before the other imports, not after the last one.
   */
  heads?(shape: ImportShape): boolean;
  /** Whether `existing` already imports what `added` does (Java's `a.b.*` covers `a.b.C`): a note, not a second import. */
  covers?(existing: ImportShape, added: ImportShape): boolean;
  /** Why `added` cannot sit beside `existing` (two imports of one simple name), or undefined. */
  clashOf?(existing: ImportShape, added: ImportShape): { readonly message: string; readonly hint: string } | undefined;
  /**
   * How the language orders declarations: present, a new one goes into the group (a run without blank lines) of
   * the declaration nearest to it (same kind, longest shared dotted prefix), at its sorted place when the group is
   * sorted by rank then name, else after the group's last. Absent: after the file's last import.
   */
  orderOf?(shape: ImportShape): ImportOrder;
}

/** Where an import sorts: declarations of one kind (`static`) are compared by rank, then name. */
export interface ImportOrder {
  readonly kind: string;
  readonly name: string;
  readonly rank: number;
}

/** One of a file's import declarations, for {@link ImportSpec.merge}. */
export interface ImportDeclarationText {
  readonly text: string;
  readonly shapes: readonly ImportShape[];
}

export type ImportMerge =
  /** The declaration at `index` rewritten with the import. */
  | { readonly kind: 'into'; readonly index: number; readonly text: string }
  /** A declaration of its own after the last one, written `text` (the part of the request not imported yet). */
  | { readonly kind: 'separate'; readonly text: string }
  /** Imported already: a note, not an error. */
  | { readonly kind: 'present'; readonly note: string }
  /** The import cannot be added as written. */
  | { readonly kind: 'clash'; readonly message: string; readonly hint: string };
