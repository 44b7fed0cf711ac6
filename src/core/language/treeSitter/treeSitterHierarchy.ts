import type { Node } from 'web-tree-sitter';
import type { ElementNode, FileOutline } from '../../elements/element';
import { elementsAtOffset } from '../../elements/resolve';
import {
  declarationNameOffset,
  type OpenFile,
  type ParsedSource,
  type ReferenceRules,
  type ReferenceTarget,
  type RulesWorkspace,
  type TypeAt,
  type Verdict,
} from './treeSitterReferences';

/**
 * A method's rename across its class hierarchy (Python, Java, C#; issue 27). The subclasses of its class are the
 * types whose bases name it, each base read as a use of the class through the same imports as every other use (a
 * subclass of a subclass too), in the files that mention the class's name; their methods of that name (with as many
 * parameters where the language overloads) are its overrides, renamed with it, by name when only the name ties a
 * link of the chain. The bases of its class are followed up the same way, through the bases the imports resolve: an
 * override is not renamed apart from the method it overrides, and a new name a base or a subclass already declares
 * is refused.
 */

export interface HierarchyContext<S> {
  readonly rules: ReferenceRules<S>;
  readonly open: OpenFile<S>;
  readonly workspace: RulesWorkspace;
  /** The files of the language that mention a name, besides the declaring file. */
  readonly mentioning: (name: string) => readonly string[];
}

/** A type found in the hierarchy: how it is tied to the type it was reached from. */
interface Related extends TypeAt {
  /** Only the name ties a link of the chain from the target's class. */
  readonly byName: boolean;
}

/** An override of the target, to rename with it. */
export interface OverridePlace {
  readonly file: string;
  readonly offset: number;
  readonly byName: boolean;
}

export interface HierarchyRename {
  readonly places: readonly OverridePlace[];
  /** Why the rename cannot be done in this hierarchy, or undefined. */
  readonly refused?: string;
}

const TYPE_KINDS: ReadonlySet<string> = new Set(['class', 'interface', 'record', 'struct', 'enum']);
/** A chain of bases this long is followed no further. */
const MAX_DEPTH = 16;
/** Types of the hierarchy read at most, each way. */
const MAX_TYPES = 500;

export function hierarchyRename<S>(
  context: HierarchyContext<S>,
  target: ReferenceTarget,
  newName: string,
): HierarchyRename {
  const { rules, open } = context;
  const container = target.containers.at(-1);
  const kinds = rules.overridable ?? new Set<string>();
  if (rules.baseNamesOf === undefined || container === undefined || !TYPE_KINDS.has(container.kind))
    return { places: [] };
  if (!kinds.has(target.element.kind)) return { places: [] };
  const declaring = open(target.file);
  if (declaring === undefined) return { places: [] };
  const own: TypeAt = { file: target.file, element: container, containers: target.containers.slice(0, -1) };
  const arity = arityOf(rules, declaring, target.element, target.name);
  const sameMember = (type: Related, name: string): ElementNode | undefined => {
    const parsed = open(type.file);
    if (parsed === undefined) return undefined;
    return type.element.children.find(
      (child) =>
        kinds.has(child.kind) &&
        rules.identifierOf(child) === name &&
        (rules.overloads !== true || arityOf(rules, parsed, child, name) === arity),
    );
  };
  const where = (type: Related, member: ElementNode): string => {
    const text = open(type.file)?.text ?? '';
    const code = (text.split('\n')[member.startLine - 1] ?? member.signature).trim();
    const shown = code.length > 120 ? `${code.slice(0, 119)}…` : code;
    return `${type.file}:${member.startLine}: ${shown}`;
  };

  for (const base of ancestorsOf(context, own)) {
    const overridden = sameMember(base, target.name);
    if (overridden !== undefined)
      return {
        places: [],
        refused: `${container.name}'s ${target.name} overrides the ${target.name} of ${base.element.name} (${where(base, overridden)}); renamed alone it would no longer override it: rename ${overridden.path} instead, which renames its overrides too`,
      };
    const taken = sameMember(base, newName);
    if (taken !== undefined)
      return {
        places: [],
        refused: `${base.element.name}, a base of ${container.name}, already declares ${newName} (${where(base, taken)}): the renamed ${target.name} would override it; choose another name`,
      };
  }
  const places: OverridePlace[] = [];
  for (const sub of subtypesOf(context, own)) {
    const taken = sameMember(sub, newName);
    if (taken !== undefined)
      return {
        places: [],
        refused: `${sub.element.name}, a subclass of ${container.name}${sub.byName ? ' only the name ties to it (by name)' : ''}, already declares ${newName} (${where(sub, taken)}): it would override the renamed ${target.name}; choose another name, or rename that one first`,
      };
    const override = sameMember(sub, target.name);
    const parsed = open(sub.file);
    if (override === undefined || parsed === undefined) continue;
    const offset = declarationNameOffset(parsed, override, target.name, (node) => rules.shapeOf(node));
    if (offset !== undefined) places.push({ file: sub.file, offset, byName: sub.byName });
  }
  return { places };
}

/** The types of an outline, each with its containers. */
export function* typesIn(outline: FileOutline): Generator<{ element: ElementNode; containers: ElementNode[] }> {
  const visit = function* (
    elements: readonly ElementNode[],
    chain: ElementNode[],
  ): Generator<{ element: ElementNode; containers: ElementNode[] }> {
    for (const element of elements) {
      if (TYPE_KINDS.has(element.kind)) yield { element, containers: chain };
      yield* visit(element.children, [...chain, element]);
    }
  };
  yield* visit(outline.elements, []);
}

/** The declaration node of an element: the parent of the name it declares. */
function declarationOf<S>(rules: ReferenceRules<S>, parsed: ParsedSource<S>, element: ElementNode): Node | undefined {
  const name = rules.identifierOf(element);
  if (name === undefined) return undefined;
  const offset = declarationNameOffset(parsed, element, name, (node) => rules.shapeOf(node));
  if (offset === undefined) return undefined;
  return parsed.tree.rootNode.descendantForIndex(offset, offset + name.length)?.parent ?? undefined;
}

/** How many parameters a method declares, where the language overloads by them. */
function arityOf<S>(
  rules: ReferenceRules<S>,
  parsed: ParsedSource<S>,
  element: ElementNode,
  name: string,
): number | undefined {
  if (rules.overloads !== true || rules.identifierOf(element) !== name) return undefined;
  const parameters = declarationOf(rules, parsed, element)?.childForFieldName('parameters');
  return parameters?.namedChildren.filter((p) => p !== null && p.type !== 'comment').length;
}

/**
 * Whether `sub`'s declaration names `base` among its bases: read as a use of `base` where `sub` is, `resolved` or
 * `byName`; undefined when it does not name it.
 */
function linkOf<S>(context: HierarchyContext<S>, base: TypeAt, sub: TypeAt): Verdict | undefined {
  const { rules, open, workspace } = context;
  const name = rules.identifierOf(base.element);
  const baseFile = open(base.file);
  const subFile = open(sub.file);
  if (name === undefined || baseFile === undefined || subFile === undefined) return undefined;
  const declaration = declarationOf(rules, subFile, sub.element);
  if (declaration === undefined) return undefined;
  const baseTarget: ReferenceTarget = { file: base.file, element: base.element, name, containers: base.containers };
  let verdict: Verdict | undefined;
  for (const node of rules.baseNamesOf?.(declaration) ?? []) {
    if (node.text !== name) continue;
    const shape = rules.shapeOf(node);
    if (shape?.role !== 'use') continue;
    const holders = elementsAtOffset(subFile.outline, node.startIndex);
    const site = { file: sub.file, node, shape, holders, scope: subFile.scope };
    const read = rules.resolve(baseTarget, baseFile.scope, site, workspace);
    if (read === 'resolved') return read;
    if (read === 'byName') verdict = read;
  }
  return verdict;
}

/** The types that derive from `root`, nearest first: each names one found before among its bases. */
function subtypesOf<S>(context: HierarchyContext<S>, root: TypeAt): Related[] {
  const { rules, open } = context;
  const found: Related[] = [];
  const seen = new Set([root.element.path]);
  const queue: Array<{ type: Related; depth: number }> = [{ type: { ...root, byName: false }, depth: 0 }];
  for (let item = queue.shift(); item !== undefined && found.length < MAX_TYPES; item = queue.shift()) {
    const { type, depth } = item;
    const name = rules.identifierOf(type.element);
    if (name === undefined) continue;
    for (const path of new Set([type.file, ...context.mentioning(name)])) {
      const parsed = open(path);
      if (parsed === undefined) continue;
      for (const candidate of typesIn(parsed.outline)) {
        if (seen.has(candidate.element.path)) continue;
        const sub: TypeAt = { file: path, ...candidate };
        const link = linkOf(context, type, sub);
        if (link === undefined || link === 'other') continue;
        seen.add(candidate.element.path);
        const related: Related = { ...sub, byName: type.byName || link === 'byName' };
        found.push(related);
        if (depth + 1 < MAX_DEPTH) queue.push({ type: related, depth: depth + 1 });
      }
    }
  }
  return found;
}

/**
 * The types `root` derives from, nearest first: each is named among the bases of one found before, resolved through
 * its imports.
 */
function ancestorsOf<S>(context: HierarchyContext<S>, root: TypeAt): Related[] {
  const { rules, open, workspace } = context;
  const found: Related[] = [];
  const seen = new Set([root.element.path]);
  const queue: Array<{ type: Related; depth: number }> = [{ type: { ...root, byName: false }, depth: 0 }];
  for (let item = queue.shift(); item !== undefined && found.length < MAX_TYPES; item = queue.shift()) {
    const { type, depth } = item;
    const parsed = open(type.file);
    const declaration = parsed === undefined ? undefined : declarationOf(rules, parsed, type.element);
    if (declaration === undefined) continue;
    const names = new Set((rules.baseNamesOf?.(declaration) ?? []).map((node) => node.text));
    for (const name of names) {
      // Only a file that declares a type of the name is parsed (a base such as `Exception` is mentioned everywhere).
      const escaped = name.replace(/[$]/g, '\\$');
      const declares = new RegExp(`\\b(?:class|interface|struct|record|enum)\\s+${escaped}(?![\\p{L}\\p{N}_$])`, 'u');
      for (const path of new Set([type.file, ...context.mentioning(name)])) {
        if (!declares.test(workspace.readFile(path) ?? '')) continue;
        const candidates = open(path);
        if (candidates === undefined) continue;
        for (const candidate of typesIn(candidates.outline)) {
          if (seen.has(candidate.element.path) || rules.identifierOf(candidate.element) !== name) continue;
          const base: TypeAt = { file: path, ...candidate };
          // A base only the name ties (`from vendor import *`) may be another class: the rename does not stop at it.
          if (linkOf(context, base, type) !== 'resolved') continue;
          seen.add(candidate.element.path);
          const related: Related = { ...base, byName: false };
          found.push(related);
          if (depth + 1 < MAX_DEPTH) queue.push({ type: related, depth: depth + 1 });
        }
      }
    }
  }
  return found;
}
