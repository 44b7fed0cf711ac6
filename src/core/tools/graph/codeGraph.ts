import type { RenamePlan } from '../../graph/renamePlan';

/**
 * The code graph the agent tools query: where an element is used, what it uses, and the diagnostics of files. It is
 * served by the shared code graph of src/core/graph/ (workspaceGraph.ts), the one the focused context and the type
 * check use; find_path and the tools depend only on this interface.
 */

/** One place an element is used. */
export interface UseSite {
  /** Workspace-relative file. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** The innermost element enclosing the use (its canonical path), or the file when it is at the top level. */
  readonly element: string;
  /** The line's code, trimmed. */
  readonly code: string;
  /** Whether the use calls (or constructs, or renders as JSX) the element. */
  readonly call: boolean;
  /** Only the name ties the use to the element (a method on a value whose type the syntax does not tell). */
  readonly byName?: true;
}

/** The uses of an element, and what the search that found them did not cover. */
export interface ReferenceAnswer {
  readonly sites: UseSite[];
  /** `compiler`: each use resolved by the language's compiler; `syntax`: by the syntax and imports (see byName). */
  readonly resolution: 'compiler' | 'syntax';
  /** What the search did not cover, in words (files not searched, a search cut short); empty when it covered all. */
  readonly gaps: readonly string[];
}

/** An element another element uses. */
export interface UseEdge {
  /** Canonical path of the element used. */
  readonly target: string;
  /** `call` when at least one use calls it, else `ref`. */
  readonly kind: 'call' | 'ref';
  /** How many uses. */
  readonly count: number;
  /** Workspace-relative file and 1-based line of the first use. */
  readonly file: string;
  readonly line: number;
}

export interface GraphDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'suggestion';
  /** `TS2554` */
  readonly code: string;
  readonly message: string;
  /** The innermost element at the position, or the file. */
  readonly element: string;
  /** The line as written, trimmed: how `since` tells a union printed in another order from a new error. */
  readonly lineText?: string;
}

export type { RenamePlan };

/** A declaration that a declaration or implementation lookup led to. */
export interface DeclaredSite {
  /** Workspace-relative file, or the path of one outside the workspace (a dependency, the standard library). */
  readonly file: string;
  /** Canonical path of the declaring element; undefined outside the workspace and for a local. */
  readonly element?: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The element's signature, or the declaring line's code for a local or a declaration outside the workspace. */
  readonly signature: string;
  /** `local in <element>`, `outside the workspace`: why the row is not one element of the workspace. */
  readonly note?: string;
  /** Lines of the uses asked about that lead here (declaration lookups). */
  readonly useLines?: readonly number[];
}

export interface DeclarationLookup {
  readonly sites: DeclaredSite[];
  /** `compiler`: each use resolved by the language's compiler; `name`: elements of that name, nothing resolved. */
  readonly resolution: 'compiler' | 'name';
  /** Uses of the name found where it was looked for. */
  readonly uses: number;
  /** Uses the compiler led nowhere (a global without declarations, an `any`). */
  readonly unresolved: number;
}

export interface ImplementationLookup {
  readonly sites: DeclaredSite[];
  /** Files the lookup searched (those that mention the name). */
  readonly searched: number;
  /** What the search did not cover, in words; empty when it covered all. */
  readonly gaps: readonly string[];
  /** Found by name (no compiler answers in the language): what was looked for, and where. */
  readonly byName?: {
    readonly language: string;
    /** What was looked for, in words: `the Java types whose extends/implements name Shape`. */
    readonly found: string;
    readonly typeName: string;
    /** The member asked about, listed in each type that names typeName. */
    readonly member?: string;
    /** The files searched, the first few named and the rest counted. */
    readonly files: string;
  };
}

export interface CodeGraph {
  /**
   * The same graph, its queries given up when `signal` aborts (they then throw CallCancelledError): a graph whose
   * queries run elsewhere stops that work. Absent: the queries run to their end.
   */
  withSignal?(signal: AbortSignal): CodeGraph;
  /**
   * Reads and indexes the workspace ahead of a query, awaiting `turn` between files (src/core/tools/turns.ts), so
   * the first query on a big tree does not hold the thread for the whole read; later calls return at once.
   */
  prepare?(turn: () => Promise<void>): Promise<void>;
  /**
   * Where `name`, as used in the element or file `path` (on `line` only, when given), is declared. Throws
   * ToolInputError when the name is not used there.
   */
  declarations?(path: string, name: string, line?: number): Promise<DeclarationLookup>;
  /** What implements the element; throws ToolInputError for a language that cannot tell. */
  implementations?(path: string): Promise<ImplementationLookup>;
  /** Every use of the element across the workspace (its own declaration excluded), in file and line order. */
  references(path: string): Promise<ReferenceAnswer>;
  /** The places renaming the element to `newName` changes; throws ToolInputError for a language without rename. */
  rename?(path: string, newName: string): Promise<RenamePlan>;
  /** The workspace elements the element's own code uses, calls first. */
  uses(path: string): Promise<UseEdge[]>;
  /** Syntax and type diagnostics of the files, with `texts` in place of what they hold (an earlier state), nothing written. */
  diagnostics(files: readonly string[], texts?: ReadonlyMap<string, string | undefined>): Promise<GraphDiagnostic[]>;
}
