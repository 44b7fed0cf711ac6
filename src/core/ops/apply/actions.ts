import type { ElementKind, TextRange } from '../../elements/element';
import type { ContainerInfo } from '../../language/languageSupport';
import type { BlankLinesAround } from '../operation';
import type { LayoutSide } from './containerLayout';

/**
 * The planned changes of one file, in snapshot offsets: what the planner decided and the renderer writes. Each
 * carries the indices of the operations it comes from, so a failure found later is reported on them.
 */

/** Where inserted elements go, relative to snapshot text. */
export type Slot =
  | { readonly kind: 'after'; readonly anchor: TextRange }
  | { readonly kind: 'before'; readonly anchor: TextRange }
  | { readonly kind: 'first' }
  | { readonly kind: 'last' }
  /** A line start of the file (after headers, directives or imports). */
  | { readonly kind: 'line'; readonly offset: number }
  | { readonly kind: 'end' };

export interface InsertItem {
  readonly ops: readonly number[];
  /** `\n`-separated lines, each with its full indentation; commas of comma-separated members are not included. */
  readonly text: string;
  /** A block-like element (a method, a class, anything over several lines): set apart by the file's blank lines. */
  readonly block: boolean;
  /** The first and last element the item declares, for the blank lines its container puts between such neighbours. */
  readonly sides?: { readonly first: LayoutSide; readonly last: LayoutSide };
  /** Blank lines the operation asked for, above and below the item (BLANK_LINES); they win over the container's. */
  readonly blankLines?: BlankLinesAround;
}

export interface InsertAction {
  readonly kind: 'insert';
  readonly ops: readonly number[];
  readonly container: ContainerInfo;
  /** The container element's range; undefined for the file. */
  readonly containerRange?: TextRange;
  readonly slot: Slot;
  readonly items: readonly InsertItem[];
  /** Blank lines next to a block-like element, and between two one-line fields or statements. */
  readonly blankLines: { readonly block: number; readonly line: number; readonly pairs?: ReadonlyMap<string, number> };
  /** Whether the sibling next to the slot is block-like. */
  readonly neighbourBlock: boolean;
  /** The siblings right above and below the slot in the snapshot, when the slot lies between members. */
  readonly above?: LayoutSide;
  readonly below?: LayoutSide;
  /** For comma-separated members: whether the last member keeps a trailing comma. */
  readonly trailingComma: boolean;
  /** Fixed blank lines before/after the block, overriding what the surroundings suggest. */
  readonly blankBefore?: number;
  readonly minBlankAfter?: number;
  /** Fixed blank lines after the block (an import placed before another: the blank lines above stay above). */
  readonly blankAfter?: number;
}

export interface RewriteAction {
  readonly kind: 'rewrite';
  readonly ops: readonly number[];
  readonly range: TextRange;
  /** Replacement in the file's line breaks. */
  readonly newText: string;
  /**
   * Text of a container (or of the file) between its members: written before the new elements go in, so that they
   * take their blank lines from the text as it is then (commented-out code removed where they go).
   */
  readonly frame?: boolean;
}

export interface DeleteAction {
  readonly kind: 'delete';
  readonly ops: readonly number[];
  readonly range: TextRange;
  /** Offset of the `{` of an object literal or enum the element is a comma-separated member of. */
  readonly commaContainerOpen?: number;
  /** Offset of the `{` of any other container (class, interface, namespace), for blank-line tidying. */
  readonly containerOpen?: number;
}

export type Action = InsertAction | RewriteAction | DeleteAction;

/** Something the edited file must hold for an operation to count as done. */
export interface Expectation {
  readonly ops: readonly number[];
  /** Kind/name chain of the container, `kind[name]` segments; empty for top level. */
  readonly parentChain: readonly string[];
  readonly kind: ElementKind;
  readonly name: string;
  readonly describe: string;
}

/** Why an operation failed, and what the model should do instead. */
export interface OpFailure {
  readonly message: string;
  readonly hint?: string;
  readonly suggestions?: readonly string[];
}
