import type { Node, Tree } from 'web-tree-sitter';
import type { ElementNode, FileOutline } from '../../elements/element';
import { ancestryOf, elementsAtOffset } from '../../elements/resolve';
import {
  ReferenceSearchCutShort,
  type OverlayText,
  type RenameAnswer,
  type ReferenceHit,
  type ReferenceSearchOptions,
  type ReferenceSemantics,
} from '../../graph/semantics';
import type { SourceFileSystem } from '../../graph/sourceFiles';
import type { LanguageSupport } from '../languageSupport';
import type { TreeSitterLanguageSpec } from './languageSpec';
import { parseWithSpec, SpecOutliner } from './treeSitterOutline';
import { treeSitterRename } from './treeSitterRename';

/**
 * References for the languages read with tree-sitter (Python, Go, Rust, Java, C#), through the same seam as
 * TypeScript's (src/core/graph/semantics.ts): the files a name search found (ripgrep, src/core/search/) are parsed,
 * each occurrence of the name that is an identifier of code (not in a comment or a string, not the name of a
 * declaration) is a candidate use, placed in its enclosing element; the language's rules then resolve it through what
 * is cheap to read (a Python module's imports, a Go package, a Rust module path, a Java package, a C# namespace):
 * `resolved` when the occurrence must mean this element, `other` when it must mean something else (dropped), and
 * `byName` when only the name ties them (a method called on a value whose type the syntax does not tell), which the
 * hit says.
 */

/** How an occurrence of the name reads in the syntax. */
export interface SiteShape {
  /**
   * `use`: the code uses something of that name; `declaration`: the name a declaration gives (this element's or
   * another's); `skip`: no use (an import's name, a parameter, a label).
   */
  readonly role: 'use' | 'declaration' | 'skip';
  /**
   * `bare`: the name alone; `self`: on `self`/`this`/`Self`/`base`; `qualified`: after a qualifier (`q.name`,
   * `q::name`); `keyword`: a keyword argument or a field of a literal (`f(name=1)`, `T{Name: 1}`).
   */
  readonly via: 'bare' | 'self' | 'qualified' | 'keyword';
  /** The qualifier as written (`pkg.m`, `crate::a`, `x`), for `qualified`. */
  readonly qualifier?: string;
  /** The qualifier is a value (`x.name` in Rust), not a path: the name is a field or a method. */
  readonly onValue?: true;
  readonly isCall: boolean;
  readonly isWrite: boolean;
}

export type Verdict = 'resolved' | 'byName' | 'other';

/** No use: an import's name, a parameter, a label. */
export const SKIP_SHAPE: SiteShape = { role: 'skip', via: 'bare', isCall: false, isWrite: false };
/** The name a declaration gives. */
export const DECLARATION_SHAPE: SiteShape = { role: 'declaration', via: 'bare', isCall: false, isWrite: false };
/** A keyword argument or a field of a literal. */
export const KEYWORD_SHAPE: SiteShape = { role: 'use', via: 'keyword', isCall: false, isWrite: false };

/**
 * Where every language's reading of an occurrence starts: undefined for a node that is no name (`nameTypes`), the
 * declaration shape for the name a declaration of `declarationParents` gives, else the parent to read on from.
 */
export function nameParentOrShape(
  node: Node,
  nameTypes: ReadonlySet<string>,
  declarationParents: ReadonlySet<string>,
): Node | SiteShape | undefined {
  if (!nameTypes.has(node.type)) return undefined;
  const parent = node.parent;
  if (parent === null) return undefined;
  if (declarationParents.has(parent.type) && isField(node, 'name')) return DECLARATION_SHAPE;
  return parent;
}

/** A use, as the language read it. */
export function useShape(
  via: SiteShape['via'],
  qualifier: string | undefined,
  isCall: boolean,
  isWrite: boolean,
  onValue = false,
): SiteShape {
  return {
    role: 'use',
    via,
    ...(qualifier === undefined ? {} : { qualifier }),
    ...(onValue ? { onValue: true } : {}),
    isCall,
    isWrite,
  };
}

/** The element whose uses are searched, as the rules read it. */
export interface ReferenceTarget {
  readonly file: string;
  readonly element: ElementNode;
  /** The identifier code writes for it. */
  readonly name: string;
  /** Its containers, outermost first (a class, an impl block, a namespace). */
  readonly containers: readonly ElementNode[];
}

/** One occurrence of the name, with what the rules need to judge it. */
export interface Site<S> {
  readonly file: string;
  readonly node: Node;
  readonly shape: SiteShape;
  /** The elements around the occurrence, outermost first. */
  readonly holders: readonly ElementNode[];
  /** What the file's own declarations and imports say (the rules' {@link ReferenceRules.scopeOf}). */
  readonly scope: S;
}

/** What the rules may read besides the two files: other files of the workspace (a Go module's go.mod). */
export interface RulesWorkspace {
  readFile(file: string): string | undefined;
}

/** One language's reading of uses. `S` is what it keeps per file (imports, package, module path). */
export interface ReferenceRules<S> {
  /** The identifier code refers to the element by; undefined when it has none (a group of constants). */
  identifierOf(element: ElementNode): string | undefined;
  /** How the occurrence at `node` (a leaf whose text is the name) reads; undefined when it is no code identifier. */
  shapeOf(node: Node): SiteShape | undefined;
  /** What resolution reads of one file, computed once per file and search. */
  scopeOf(file: string, root: Node, workspace: RulesWorkspace): S;
  /** Whether the occurrence means the target. */
  resolve(target: ReferenceTarget, targetScope: S, site: Site<S>, workspace: RulesWorkspace): Verdict;
  /** Other names a file gives the target (`from m import f as g`): their bare uses are the target's too. */
  aliasesIn?(target: ReferenceTarget, targetScope: S, fileScope: S, file: string): readonly string[];
  /**
   * For a rename: the offsets of the target's name in the file's imports (`from m import f`, `use crate::m::f`,
   * `import a.b.User;`), which the use search skips as no use. Absent: the language imports no single names.
   */
  importedNames?(
    target: ReferenceTarget,
    targetScope: S,
    fileScope: S,
    root: Node,
    workspace: RulesWorkspace,
  ): number[];
  /**
   * For a rename: why renaming the target to `newName` breaks what the places cannot fix (a Java public class must be
   * in a file of its name; a Go name used from other packages must stay exported), or undefined.
   */
  renameProblem?(target: ReferenceTarget, newName: string, files: readonly string[]): string | undefined;
  /**
   * For a rename's collision check: what an element's name is declared in beside its container (a Go method's
   * receiver type: `(*T).Scale` and a function `Scale` do not collide). Absent: '' for all.
   */
  namespaceOf?(element: ElementNode): string;
  /**
   * For a rename's collision check: the other files whose top-level names share the file's scope (a Go package: the
   * folder's files of the same package clause). Absent: a file's top level is its own.
   */
  packageFiles?(file: string, files: readonly string[], workspace: RulesWorkspace): string[];
  /**
   * For a rename of a member: the name nodes (each base's last identifier) of the bases a type declaration names
   * (`class Sub(Base)`, `extends`/`implements`, a C# base list), each read as a use of that base. Absent: the rename
   * follows no class hierarchy in the language.
   */
  baseNamesOf?(declaration: Node): Node[];
  /** The member kinds a subclass overrides (methods; Python's class attributes, C#'s properties), with baseNamesOf. */
  readonly overridable?: ReadonlySet<string>;
  /** Methods of one name may differ by their parameters (Java, C#): an override takes as many as it overrides. */
  readonly overloads?: true;
  /** Inside its type a member is used bare (Java, C#): a local of the new name around such a use would take it. */
  readonly bareMembers?: true;
  /**
   * For a rename's collision check: the other declarations of a partial type (C#'s `partial class`) among `files`,
   * read with `open`. Absent: a type is declared once.
   */
  partsOf?(type: TypeAt, open: OpenFile<S>, files: readonly string[]): TypeAt[];
}

/** A file as a rename reads it: its text, tree, outline and what the rules read of it. */
export interface ParsedSource<S> {
  readonly path: string;
  readonly text: string;
  readonly tree: Tree;
  readonly outline: FileOutline;
  readonly scope: S;
}

/** Opens a file of the workspace (with the request's texts in place), parsed once per rename; undefined: none. */
export type OpenFile<S> = (path: string) => ParsedSource<S> | undefined;

/** A type (or any element) with its file and containers, outermost first. */
export interface TypeAt {
  readonly file: string;
  readonly element: ElementNode;
  readonly containers: readonly ElementNode[];
}

interface ParsedFile<S> {
  readonly text: string;
  readonly tree: Tree;
  readonly outline: FileOutline;
  scope: S | undefined;
}

/** The reference search of one tree-sitter language over a workspace. */
export class TreeSitterReferences<S> implements ReferenceSemantics {
  readonly resolution = 'syntax' as const;

  constructor(
    private readonly spec: TreeSitterLanguageSpec,
    private readonly rules: ReferenceRules<S>,
    private readonly fileSystem: SourceFileSystem,
  ) {}

  renameLocations(
    file: string,
    element: ElementNode,
    newName: string,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    mentioning?: (name: string) => readonly string[],
  ): RenameAnswer {
    const hits = this.references(file, element, candidates, texts);
    return treeSitterRename(
      { spec: this.spec, rules: this.rules, fileSystem: this.fileSystem },
      { file, element, newName, candidates, texts, hits, ...(mentioning === undefined ? {} : { mentioning }) },
    );
  }

  searchName(element: ElementNode): string | undefined {
    return this.rules.identifierOf(element);
  }

  references(
    file: string,
    element: ElementNode,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    options: ReferenceSearchOptions = {},
  ): ReferenceHit[] {
    const name = this.rules.identifierOf(element);
    if (name === undefined) return [];
    const started = Date.now();
    const deadline = options.timeLimitMs === undefined ? Number.POSITIVE_INFINITY : started + options.timeLimitMs;
    const textOf = (path: string): string | undefined =>
      texts.has(path) ? texts.get(path) : this.fileSystem.readFile(path);
    const workspace: RulesWorkspace = { readFile: textOf };
    const parsed = new Map<string, ParsedFile<S> | undefined>();
    const open = (path: string): ParsedFile<S> | undefined => {
      if (parsed.has(path)) return parsed.get(path);
      const text = textOf(path);
      let entry: ParsedFile<S> | undefined;
      if (text !== undefined) {
        const tree = parseWithSpec(this.spec, text);
        entry = { text, tree, outline: new SpecOutliner(this.spec, path, text).outline(tree), scope: undefined };
      }
      parsed.set(path, entry);
      return entry;
    };
    const scopeOf = (path: string, entry: ParsedFile<S>): S => {
      entry.scope ??= this.rules.scopeOf(path, entry.tree.rootNode, workspace);
      return entry.scope;
    };
    try {
      const declaring = open(file);
      if (declaring === undefined) return [];
      const containers = (ancestryOf(declaring.outline, element.path) ?? []).slice(0, -1);
      const target: ReferenceTarget = { file, element, name, containers };
      const targetScope = scopeOf(file, declaring);
      const ownName = declarationNameOffset(declaring, element, name, (node) => this.rules.shapeOf(node));
      const hits: ReferenceHit[] = [];
      for (const path of [file, ...candidates.filter((c) => c !== file)]) {
        if (Date.now() > deadline) throw new ReferenceSearchCutShort(Date.now() - started);
        const entry = open(path);
        if (entry === undefined) continue;
        const scope = scopeOf(path, entry);
        const aliases = path === file ? [] : (this.rules.aliasesIn?.(target, targetScope, scope, path) ?? []);
        for (const searched of [name, ...aliases]) {
          for (const start of wordOffsets(entry.text, searched)) {
            if (path === file && start === ownName) continue;
            const node = entry.tree.rootNode.descendantForIndex(start, start + searched.length);
            if (node === null || node.startIndex !== start || node.endIndex !== start + searched.length) continue;
            const shape = this.rules.shapeOf(node);
            if (shape === undefined || shape.role !== 'use') continue;
            const holders = elementsAtOffset(entry.outline, start);
            const site: Site<S> = { file: path, node, shape, holders, scope };
            const verdict =
              searched === name
                ? this.rules.resolve(target, targetScope, site, workspace)
                : shape.via === 'bare'
                  ? 'resolved'
                  : 'other';
            if (verdict === 'other') continue;
            hits.push({
              file: path,
              start,
              text: entry.text,
              isWrite: shape.isWrite,
              isCall: shape.isCall,
              ...(verdict === 'byName' ? { byName: true } : {}),
            });
          }
        }
      }
      return hits;
    } finally {
      for (const entry of parsed.values()) entry?.tree.delete();
    }
  }
}

/**
 * Where the element names itself: the declaration-shaped occurrence of its name in its declaration range, else (an
 * assignment such as Python's `x = 1`) the first occurrence there.
 */
export function declarationNameOffset(
  declaring: { readonly text: string; readonly tree: Tree },
  element: ElementNode,
  name: string,
  shapeOf: (node: Node) => SiteShape | undefined,
): number | undefined {
  const { start, end } = element.declarationRange;
  const offsets = wordOffsets(declaring.text.slice(start, end), name).map((offset) => offset + start);
  for (const offset of offsets) {
    const node = declaring.tree.rootNode.descendantForIndex(offset, offset + name.length);
    if (node !== null && shapeOf(node)?.role === 'declaration') return offset;
  }
  return offsets[0];
}

/** Offsets of `name` as a whole word (no letter, digit or `_` around it) in `text`. */
export function wordOffsets(text: string, name: string): number[] {
  const offsets: number[] = [];
  if (name === '') return offsets;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = at === 0 ? '' : (text[at - 1] ?? '');
    const after = text[at + name.length] ?? '';
    if (/[\p{L}\p{N}_]/u.test(before) || /[\p{L}\p{N}_]/u.test(after)) continue;
    offsets.push(at);
  }
  return offsets;
}

/** The chain of ancestors of a node, innermost first. */
export function* ancestors(node: Node): Generator<Node> {
  for (let current = node.parent; current !== null; current = current.parent) yield current;
}

/** The field of `parent` that holds `child`, or undefined. */
export function fieldOf(parent: Node, child: Node): string | undefined {
  for (let i = 0; i < parent.childCount; i++) {
    const candidate = parent.child(i);
    if (candidate !== null && candidate.id === child.id) return parent.fieldNameForChild(i) ?? undefined;
  }
  return undefined;
}

/** Whether the node is the one in `field` of its parent. */
export function isField(node: Node, field: string): boolean {
  const parent = node.parent;
  return parent !== null && parent.childForFieldName(field)?.id === node.id;
}

/** The containers of an element in its file, outermost first; `undefined` for none. */
export function innermostContainer(target: ReferenceTarget): ElementNode | undefined {
  return target.containers.at(-1);
}

/** Whether `holders` (around an occurrence) lie inside `element` of `file`. */
export function isInside(
  site: { readonly file: string; readonly holders: readonly ElementNode[] },
  file: string,
  element: ElementNode,
): boolean {
  return site.file === file && site.holders.some((holder) => holder.path === element.path);
}

/** A tree-sitter language with its reference search. */
export function withReferences<S>(
  language: LanguageSupport,
  spec: TreeSitterLanguageSpec,
  rules: ReferenceRules<S>,
): LanguageSupport {
  return { ...language, references: (fileSystem) => new TreeSitterReferences(spec, rules, fileSystem) };
}
