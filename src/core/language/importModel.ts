import type { ElementNode } from '../elements/element';

/**
 * Imports as the apply planner sees them in any language: a declaration is a module and a set of bindings. A
 * language reads its own syntax into these shapes (see ImportEditing in languageSupport.ts).
 */

export interface NamedBinding {
  /** The local name. */
  readonly name: string;
  /** The exported name when it differs (`a as b` imports `a` as `b`). */
  readonly imported: string;
  /** Written `type a` inside a value import. */
  readonly typeOnly: boolean;
}

export interface ImportShape {
  readonly module: string;
  /** `import type ...`. */
  readonly typeOnly: boolean;
  readonly defaultName?: string;
  readonly namespaceName?: string;
  readonly named: readonly NamedBinding[];
  /** `import x = require('m')`: the local name. */
  readonly equalsName?: string;
  /** Whether the declaration has a `{ }` list (even an empty one). */
  readonly hasNamedList: boolean;
}

/** One import declaration through a batch. */
export interface ImportDeclarationState {
  readonly element: ElementNode | undefined;
  /** Current text of the declaration (from its first token to its end). */
  text: string;
  removed: boolean;
  readonly ops: number[];
  /** The existing declaration a new one goes after; undefined for an existing one. */
  readonly after?: ImportDeclarationState;
  /** The existing declaration a new one goes before (CREATE_ELEMENT BEFORE an import); undefined otherwise. */
  readonly before?: ImportDeclarationState;
  /** The code a new declaration goes right before when no import is there (CREATE_ELEMENT BEFORE the first code). */
  readonly beforeCode?: ElementNode;
  /** Set for declarations this plan created. */
  readonly created: boolean;
}

/** What changed between two versions of one import declaration, as ADD_IMPORT and REMOVE_IMPORT contents. */
export interface ImportBindingChange {
  /** One import declaration naming the bindings to add, or undefined when none are added. */
  readonly add: string | undefined;
  /** One import declaration naming the bindings to remove, or undefined when none are removed. */
  readonly remove: string | undefined;
}

export type ImportStep =
  | { readonly ok: true; readonly note?: string }
  | { readonly ok: false; readonly message: string; readonly hint: string; readonly suggestions?: readonly string[] };
