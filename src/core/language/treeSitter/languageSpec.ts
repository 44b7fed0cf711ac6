import type { Node } from 'web-tree-sitter';
import type { ElementKind } from '../../elements/element';
import type { ImportShape } from '../importModel';
import type { CodeScan, CodeSyntax, ContainerFlavor, LanguageInfo } from '../languageSupport';

/**
 * A language read with tree-sitter is one spec: which syntax nodes are elements (their kind, name and body), what
 * joins an element's range (comments, decorators, attributes), how its comments and elided bodies are written, and
 * how its imports read. treeSitterLanguage.ts turns a spec into a LanguageSupport; everything else (ranges, paths,
 * ordinals, signatures, syntax errors, containers, verification) is the same for every spec.
 */

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
  /** Node types that are comments: a run directly above an element (no blank line between) joins its range. */
  readonly commentTypes: readonly string[];
  /**
   * A comment that documents the file rather than what follows it (Rust's `//!`): it never joins an element's range.
   */
  isFileComment?(node: Node): boolean;
  /**
   * Top-level node types that head the file and must stay above its code (Go's `package` clause, Rust's `#![...]`):
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
  /** How the language writes comments and bodies in a context and in rendering. */
  readonly syntax: CodeSyntax;
  /** A lexical pass over code that need not parse on its own (see LanguageSupport.scanCode). */
  scanCode(text: string): CodeScan;
  /**
   * For content inserted into a container: the text put around it so that it parses as it will sit there (a Python
   * method is parsed inside `class _:`), and how many lines the prefix adds. Absent: content parses as it is.
   */
  wrapContent?(content: string, flavor: ContainerFlavor): { text: string; prefixLines: number; indent: string };
  /** Import declarations, when the language has import operations. */
  readonly imports?: ImportSpec;
  /** The signature of a declaration: by default its text up to its body, on one line. */
  signatureOf?(node: Node, text: string): string;
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
   * `std::fmt::Display`): the declaration it stands for; undefined when the content is not such a short form.
   */
  asDeclaration?(content: string): string | undefined;
  /**
   * Where an added import goes when the language merges imports into existing declarations its own way (a line in a
   * Go import block, a name in a Rust use list). `declarations` are the file's live import declarations in order,
   * `text` the request as written. Undefined: a declaration of its own after the last one.
   */
  merge?(declarations: readonly ImportDeclarationText[], request: ImportShape, text: string): ImportMerge | undefined;
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
