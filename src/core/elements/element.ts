/**
 * The element model: a source file seen as a tree of program elements, each with a stable path such as
 * `src/user.ts/class[User]/method[validate]`. The grammar is in docs/element-paths.md.
 */

export const ELEMENT_KINDS = [
  'import', // import declaration; name = module specifier
  'class',
  'interface',
  'enum',
  'member', // enum member
  'type', // type alias
  'function',
  'method',
  'constructor', // name is empty; the segment is written `constructor`
  'property',
  'getter',
  'setter',
  'index', // index signature; name = the key's type, e.g. `string`
  'call', // call signature of an interface or type literal (name empty), or a call passing a function inside a test or DSL callback (name = callee and first string argument: `it 'adds'`)
  'namespace', // namespace / module declaration; `declare module 'x'` has name `x`
  'variable', // one declarator of a const/let/var statement
  'static', // class static block; name = its 1-based ordinal among static blocks of the class
  'default', // anonymous `export default ...`; name is empty; the segment is written `default`
  'export=', // `export = x`; name is empty; the segment is written `export=`
  'export', // `export { a } from './x'`, `export * from './x'`, `export { a }`; name = module specifier or `{a,b}`
  'statement', // any other top-level statement; name = a short label (`describe`, `app.get`, `if`)
  'struct', // Go struct type, Rust struct or union, C# struct
  'trait', // Rust trait
  'impl', // Rust impl block; name = `Type` or `Trait for Type`, generics left out
  'record', // Java or C# record
] as const;

export type ElementKind = (typeof ELEMENT_KINDS)[number];

/** Kinds whose segment carries no name: `constructor`, `default`, `export=`, `call`. */
export const NAMELESS_KINDS: ReadonlySet<ElementKind> = new Set<ElementKind>([
  'constructor',
  'default',
  'export=',
  'call',
]);

export interface TextRange {
  /** Offset of the first character (0-based, UTF-16 code units, into the file's text as read, BOM included). */
  readonly start: number;
  /** Offset one past the last character. */
  readonly end: number;
}

export interface ElementNode {
  readonly kind: ElementKind;
  /** The name as written in a path segment (quotes stripped, computed names kept with their brackets). */
  readonly name: string;
  /** 1-based position among same-kind same-name siblings, when the name alone is not unique. */
  readonly ordinal?: number;
  /** The full canonical path, file part included. */
  readonly path: string;
  /**
   * Full text range: leading JSDoc/comments and decorators included, trailing `;` or `,` of the
   * declaration included, the line break after it excluded.
   */
  readonly range: TextRange;
  /** The declaration itself, without leading comments (decorators included). */
  readonly declarationRange: TextRange;
  /** The range of the body block (`{ ... }`) for elements that have one. */
  readonly bodyRange?: TextRange;
  /** 1-based first and last line of `range`. */
  readonly startLine: number;
  readonly endLine: number;
  /**
   * One-line-ish declaration without its body, e.g. `validate(input: string): boolean`,
   * `class User extends Base implements X`, `const port: number`.
   */
  readonly signature: string;
  /**
   * Decorators written above a declaration whose signature leaves them out (Python's `@property`,
   * `@app.route("/x")`), each on one line, whitespace collapsed and shortened: a context shows them one a line above
   * the signature, as the file writes them.
   */
  readonly decorators?: readonly string[];
  /** For an overload set: one entry per signature, implementation last. `#n` in a path addresses entry n (1-based). */
  readonly overloads?: readonly ElementNode[];
  readonly children: readonly ElementNode[];
}

/** The signature on one line with the decorators in front of it (`@property def name(self) -> str`), for tables. */
export function signatureLine(element: ElementNode): string {
  return element.decorators === undefined ? element.signature : [...element.decorators, element.signature].join(' ');
}

export interface SyntaxProblem {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

export interface FileOutline {
  /** Workspace-relative path with forward slashes. */
  readonly file: string;
  readonly text: string;
  /** The language's tag for a fenced code block (`ts`, `tsx`, `py`): what a context labels the file's code with. */
  readonly language: string;
  /** Top-level elements in file order (imports included, as kind `import`). */
  readonly elements: readonly ElementNode[];
  readonly syntaxErrors: readonly SyntaxProblem[];
  readonly lineCount: number;
}
