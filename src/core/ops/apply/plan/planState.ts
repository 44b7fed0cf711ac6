import type { ElementKind, ElementNode, FileOutline, TextRange } from '../../../elements/element';
import { formatSegment, kindsCompatible } from '../../../elements/elementPath';
import { ancestryOf, resolveElementPath } from '../../../elements/resolve';
import type {
  ContainerFlavor,
  CodeScan,
  ContainerInfo,
  DeclaratorInfo,
  ImportBook,
  ImportPlacement,
  LanguageSupport,
  SourceEditor,
} from '../../../language/languageSupport';
import type {
  AddImportOperation,
  BlankLinesAround,
  CreateElementOperation,
  DeleteElementOperation,
  PatchElementOperation,
  RemoveImportOperation,
  ReplaceElementOperation,
} from '../../operation';
import type { OpFailure, Slot } from '../actions';
import type { BlankLines, LayoutSide } from '../containerLayout';
import { declarationMismatch, describeElement } from '../contentChecks';
import { findNewPlaceholder } from '../placeholders';
import type { TextStyle } from '../textStyle';
import type { FrameEdit } from './planFrame';

/**
 * The state one file's plan shares across operation kinds (plan*.ts each plan one kind over it): the targets
 * (elements rewritten or deleted), the groups of new elements, the import book, and failures and notes per
 * operation. Its methods are what every kind needs: resolving a path, and refusing an edit that collides with
 * another of the batch. The compositions the planner allows are listed in filePlan.ts.
 */

export type ElementOperation =
  | ReplaceElementOperation
  | CreateElementOperation
  | DeleteElementOperation
  | PatchElementOperation
  | AddImportOperation
  | RemoveImportOperation;

/** An element an operation rewrites or deletes, with what the batch has made of it so far. */
export interface Target {
  readonly element: ElementNode;
  /** The element or overload signature whose range is edited. */
  readonly node: ElementNode;
  readonly range: TextRange;
  readonly ops: number[];
  readonly parentChain: readonly string[];
  readonly flavor: ContainerFlavor;
  readonly containerOpen: number | undefined;
  readonly declarator: DeclaratorInfo | undefined;
  state: 'replaced' | 'patched' | 'deleted';
  /** Current text of the range (file line breaks); for a declarator that became its own statement, that statement. */
  text: string;
  split: boolean;
}

/** New elements that go to one place of one container, in batch order. */
export interface Group {
  readonly key: string;
  readonly container: ContainerInfo;
  readonly containerElement: ElementNode | undefined;
  readonly slot: Slot;
  readonly items: {
    ops: number[];
    text: string;
    block: boolean;
    sides?: { readonly first: LayoutSide; readonly last: LayoutSide };
    /** Blank lines the operation asked for (BLANK_LINES). */
    blankLines?: BlankLinesAround;
    creation: Creation | undefined;
  }[];
  readonly neighbourBlock: boolean;
  readonly blankLines: BlankLines;
  /** The siblings around the slot in the snapshot. */
  readonly above?: LayoutSide;
  readonly below?: LayoutSide;
  readonly trailingComma: boolean;
  /** Fixed blank lines after the group (a directive opening the file's prologue). */
  readonly blankAfter?: number;
}

export interface Creation {
  readonly index: number;
  readonly containerKey: string;
  readonly containerPath: string;
  readonly containerChain: readonly string[];
  readonly children: readonly ElementNode[];
  readonly declared: readonly { kind: ElementKind; name: string }[];
  readonly group: Group;
}

export const COMMA_FLAVORS = new Set<ContainerFlavor>(['object', 'enum']);

/** A rename by REPLACE_ELEMENT or PATCH_ELEMENT. */
export interface Rename {
  readonly kind: ElementKind;
  readonly name: string;
  readonly path: string;
}

/**
 * Kinds whose names are labels rather than declarations: `describe`, `it 'adds'`. Two may share one (they are
 * numbered), so a new one never clashes.
 */
const LABEL_KINDS: ReadonlySet<ElementKind> = new Set<ElementKind>(['statement', 'call']);

export function isLabelKind(kind: ElementKind): boolean {
  return LABEL_KINDS.has(kind);
}

export function segmentOf(element: ElementNode): string {
  return `${element.kind}[${element.name}]`;
}

export class PlanState {
  readonly semicolons: boolean;
  readonly targets = new Map<string, Target>();
  /** Text outside members that PATCH_ELEMENT rewrote (planFrame.ts), by frame range. */
  readonly frames = new Map<string, FrameEdit>();
  readonly groups: Group[] = [];
  readonly creations: Creation[] = [];
  /** Undefined for a language without imports: ADD_IMPORT/REMOVE_IMPORT are refused there. */
  readonly imports: ImportBook | undefined;
  /** Import declarations (by `start:end` of their range) the batch changes, with the operations changing them. */
  readonly importOps = new Map<string, number[]>();
  readonly failures = new Map<number, OpFailure>();
  readonly notes = new Map<number, string>();
  /** Elements a REPLACE_ELEMENT or PATCH_ELEMENT renames, by target key: the new name and path. */
  readonly renames = new Map<string, Rename>();
  /** Imports CREATE_ELEMENT placed beside another import, by module: a later one placed beside them goes there too. */
  readonly placedImports = new Map<string, ImportPlacement>();
  /** The operation that renamed an element → the element's new path, for the operation's result. */
  readonly renamedBy = new Map<number, string>();
  /** The operation whose path was resolved tolerantly → the path it was read as, for the operation's result. */
  readonly readAs = new Map<number, string>();
  readonly outline: FileOutline;
  readonly editor: SourceEditor;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly language: LanguageSupport,
    readonly style: TextStyle,
  ) {
    // One parse serves the outline and every syntax question of the plan.
    this.editor = language.editor(file, text);
    this.outline = this.editor.outline;
    this.semicolons = this.editor.semicolons;
    this.imports = this.editor.imports?.book(style.eol);
  }

  private lastScan: { readonly code: string; readonly scan: CodeScan } | undefined;

  /**
   * The language's lexer, for re-indenting, separators and placeholders. The last scan is kept: one operation scans
   * its content for placeholders, then to re-indent it, and a content of megabytes costs a second per scan.
   */
  readonly scanCode = (code: string): CodeScan => {
    if (this.lastScan?.code === code) return this.lastScan.scan;
    const scan = this.language.scanCode(code);
    this.lastScan = { code, scan };
    return scan;
  };

  /** Whether indentation is syntax in this language (re-indenting must keep blocks nested). */
  get indentBlocks(): boolean {
    return this.language.syntax?.blocks === 'indent';
  }

  /** Removes one trailing comma (comments after it aside). */
  withoutTrailingComma(code: string): string {
    const scan = this.scanCode(code);
    if (scan.lastToken !== ',') return code;
    return code.slice(0, scan.lastCodeEnd - 1) + code.slice(scan.lastCodeEnd);
  }

  /** Appends `terminator` after the last token (before trailing comments). */
  withTerminator(code: string, terminator: string): string {
    const { lastCodeEnd } = this.scanCode(code);
    return code.slice(0, lastCodeEnd) + terminator + code.slice(lastCodeEnd);
  }

  fail(index: number, failure: OpFailure): void {
    if (!this.failures.has(index)) this.failures.set(index, failure);
  }

  resolve(index: number, path: string): { element: ElementNode; node: ElementNode } | undefined {
    const resolved = resolveElementPath(this.outline, path);
    if (!resolved.ok) {
      this.fail(index, {
        message: resolved.message,
        hint:
          resolved.suggestions.length > 0
            ? 'use one of the existing paths'
            : 'check the file outline for the right path',
        suggestions: resolved.suggestions,
      });
      return undefined;
    }
    if (resolved.tolerant && !this.readAs.has(index)) this.readAs.set(index, resolved.path);
    if (resolved.tolerant && !this.notes.has(index)) this.notes.set(index, `${path} was read as ${resolved.path}`);
    return { element: resolved.element, node: resolved.overload ?? resolved.element };
  }

  chainOf(element: ElementNode): ElementNode[] {
    return ancestryOf(this.outline, element.path) ?? [element];
  }

  parentOf(element: ElementNode): ElementNode | undefined {
    const chain = this.chainOf(element);
    return chain[chain.length - 2];
  }

  containerInfoOf(parent: ElementNode | undefined): ContainerInfo | undefined {
    if (parent === undefined) return { flavor: 'file', indent: '' };
    const lookup = this.editor.containerOf(parent);
    return lookup.ok ? lookup.container : undefined;
  }

  newTarget(element: ElementNode, node: ElementNode, index: number, state: Target['state'], text: string): Target {
    const chain = this.chainOf(element);
    const parent = chain[chain.length - 2];
    const container = this.containerInfoOf(parent);
    const range = node.range;
    return {
      element,
      node,
      range,
      ops: [index],
      parentChain: chain.slice(0, -1).map(segmentOf),
      flavor: container?.flavor ?? 'file',
      containerOpen: container?.open,
      declarator: node === element ? this.editor.declarators?.declaratorOf(element) : undefined,
      state,
      text,
      split: false,
    };
  }

  /** Refuses an edit of an element inside (or around) one another operation already edits or inserts into. */
  collides(index: number, range: TextRange, label: string): boolean {
    for (const target of this.targets.values()) {
      const same = target.range.start === range.start && target.range.end === range.end;
      if (same) continue;
      const overlaps = target.range.start < range.end && range.start < target.range.end;
      if (overlaps) {
        const inside = target.range.start <= range.start && range.end <= target.range.end;
        this.fail(index, {
          message: `${label} overlaps ${describeElement(target.node)}, which operation #${(target.ops[0] ?? 0) + 1} already ${target.state === 'deleted' ? 'deletes' : 'edits'} (${inside ? 'it contains this element' : 'this element contains it'})`,
          hint: 'make the whole change in one operation on the outer element, or edit the inner elements separately without touching the outer one',
        });
        return true;
      }
    }
    for (const frame of this.frames.values()) {
      const { start, end } = frame.range;
      const overlaps = start < range.end && range.start < end;
      const around = start === end && range.start < start && start < range.end;
      if (!overlaps && !around) continue;
      const owner =
        frame.owner === undefined
          ? `the text between the top-level elements of ${this.file}`
          : `the text of ${describeElement(frame.owner)} outside its members`;
      this.fail(index, {
        message: `${label} overlaps ${owner}, which operation #${(frame.ops[0] ?? 0) + 1} already patches`,
        hint: 'make the whole change in one operation on the outer element, or patch its own text and edit its members separately',
      });
      return true;
    }
    for (const group of this.groups) {
      const container = group.containerElement;
      if (container === undefined) continue;
      if (range.start <= container.range.start && container.range.end <= range.end) {
        const op = group.items[0]?.ops[0] ?? 0;
        this.fail(index, {
          message: `${label} contains ${describeElement(container)}, where operation #${op + 1} creates an element`,
          hint: "put the new element into this operation's content instead of a separate CREATE_ELEMENT, or leave the container alone",
        });
        return true;
      }
    }
    for (const [key, ops] of this.importOps) {
      const [start, end] = key.split(':').map(Number);
      if (start === undefined || end === undefined) continue;
      if (start < range.end && range.start < end) {
        this.fail(index, {
          message: `${label} is an import declaration that operation #${(ops[0] ?? 0) + 1} (an import operation) already changes`,
          hint: 'use only ADD_IMPORT/REMOVE_IMPORT for imports',
        });
        return true;
      }
    }
    return false;
  }

  /** A CREATE in a container that another operation of the batch replaces, patches or deletes (or one around it). */
  containerBlocked(index: number, container: ElementNode | undefined, label: string): boolean {
    if (container === undefined) return false;
    for (const target of this.targets.values()) {
      if (target.range.start <= container.range.start && container.range.end <= target.range.end) {
        this.fail(index, {
          message: `${label} conflicts with operation #${(target.ops[0] ?? 0) + 1}, which ${target.state === 'deleted' ? 'deletes' : 'rewrites'} ${target.node.path}`,
          hint:
            target.state === 'deleted'
              ? 'do not create elements in a container the batch deletes'
              : "put the new element into that operation's content instead of a separate CREATE_ELEMENT",
        });
        return true;
      }
    }
    return false;
  }

  keyOf(range: TextRange): string {
    return `${range.start}:${range.end}`;
  }

  /**
   * The content of a replace or a patch must declare exactly the element it edits, or the same element under a new
   * name that is free in its container: a rename, recorded for the operation's result and the verification.
   */
  checkDeclaresOrRename(
    index: number,
    label: string,
    declared: readonly ElementNode[],
    element: ElementNode,
    node: ElementNode,
  ): boolean {
    const key = this.keyOf(node.range);
    const current = this.renames.get(key);
    const only = declared.length === 1 ? declared[0] : undefined;
    const expectedName = current?.name ?? node.name;
    if (only === undefined || only.name === expectedName || node !== element || element.name === '' || only.name === '')
      return this.checkDeclares(index, label, declared, current === undefined ? node : { ...node, name: current.name });
    if (!kindsCompatible(only.kind, element.kind)) return this.checkDeclares(index, label, declared, node);
    if (only.name === element.name) {
      // Renamed back by a later operation of the batch.
      this.renames.delete(key);
      return true;
    }
    const siblings = this.siblingsOf(element);
    const clash = isLabelKind(element.kind)
      ? undefined
      : siblings.find(
          (s) =>
            s !== element &&
            s.name === only.name &&
            kindsCompatible(s.kind, element.kind) &&
            !(s.kind === 'getter' && element.kind === 'setter') &&
            !(s.kind === 'setter' && element.kind === 'getter') &&
            !this.isDeleted(s),
        );
    if (clash !== undefined) {
      this.fail(index, {
        message: `${label} renames ${describeElement(element)} to ${describeElement({ kind: element.kind, name: only.name })}, but ${clash.path} already exists`,
        hint: `keep the name ${element.name}, choose a name that is free in its container, or change ${clash.path} in the same batch`,
        suggestions: [clash.path],
      });
      return false;
    }
    const path = this.renamedPath(element, only.name, siblings);
    this.renames.set(key, { kind: element.kind, name: only.name, path });
    this.renamedBy.set(index, path);
    return true;
  }

  private siblingsOf(element: ElementNode): readonly ElementNode[] {
    return this.parentOf(element)?.children ?? this.outline.elements;
  }

  /** The element's path after the rename: its new name, numbered when same-kind siblings now share it. */
  private renamedPath(element: ElementNode, name: string, siblings: readonly ElementNode[]): string {
    const alike = siblings.filter((s) => s === element || (s.kind === element.kind && s.name === name));
    const ordinal = alike.length > 1 ? alike.indexOf(element) + 1 : undefined;
    const base = element.path.slice(0, element.path.length - lastSegmentLength(element));
    return `${base}${formatSegment(element.kind, name, ordinal)}`;
  }

  /** The content of a replace must declare exactly the element it replaces. */
  checkDeclares(index: number, label: string, declared: readonly ElementNode[], node: ElementNode): boolean {
    const mismatch = declarationMismatch(declared, node);
    if (mismatch !== undefined) this.fail(index, { ...mismatch, message: `${label}: ${mismatch.message}` });
    return mismatch === undefined;
  }

  /** The message does not name the operation: every report of a failure names it already (issue 14). */
  refusePlaceholder(index: number, content: string, original: string | undefined): boolean {
    const placeholder = findNewPlaceholder(content, original, {
      scanCode: this.scanCode,
      ...(this.language.syntax === undefined ? {} : { syntax: this.language.syntax }),
    });
    if (placeholder === undefined) return false;
    this.fail(index, {
      message: `the content holds a placeholder instead of code: "${placeholder.text}" (line ${placeholder.line} of the content); it would delete the code it stands for`,
      hint: 'write out the complete code, or use PATCH_ELEMENT to change only a few lines',
    });
    return true;
  }

  anchorRange(element: ElementNode): TextRange {
    const info = this.editor.declarators?.declaratorOf(element);
    return info === undefined ? element.range : info.statementRange;
  }

  /** Whether an operation of the batch gives the element another name, so that its old name is free. */
  isRenamed(element: ElementNode): boolean {
    const rename = this.renames.get(this.keyOf(element.range));
    return rename !== undefined && rename.name !== element.name;
  }

  isDeleted(element: ElementNode): boolean {
    return [...this.targets.values()].some(
      (t) => t.state === 'deleted' && t.node === element && !this.failures.has(t.ops[0] ?? -1),
    );
  }
}

/** The length of an element's own segment at the end of its path. */
function lastSegmentLength(element: ElementNode): number {
  return formatSegment(element.kind, element.name, element.ordinal).length;
}
