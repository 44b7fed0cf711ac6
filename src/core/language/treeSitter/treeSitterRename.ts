import type { Node, Tree } from 'web-tree-sitter';
import type { ElementNode } from '../../elements/element';
import { ancestryOf, elementsAtOffset } from '../../elements/resolve';
import type { OverlayText, ReferenceHit, RenameAnswer, RenameLocation } from '../../graph/semantics';
import type { SourceFileSystem } from '../../graph/sourceFiles';
import type { TreeSitterLanguageSpec } from './languageSpec';
import { parseWithSpec, SpecOutliner } from './treeSitterOutline';
import {
  declarationNameOffset,
  wordOffsets,
  type ReferenceRules,
  type ReferenceTarget,
  type RulesWorkspace,
  type SiteShape,
} from './treeSitterReferences';

/**
 * Rename for the languages read with tree-sitter (Python, Go, Rust, Java, C#; issue 27): no compiler finds the places,
 * the reference search does. A rename changes the declaration's own name, every use the search finds (its identifier
 * only; a use through an alias, `from m import f as g; g()`, keeps the alias) and the imports that name the
 * declaration (`from m import f`, `use crate::m::f`), which the use search skips. A use only the name ties to the
 * declaration (a method called on a value whose type the syntax does not tell) is renamed too and marked by name, so
 * the answer can list it for the agent to check; the language's checker, where installed, checks the batch after.
 */

export interface RenameSearch<S> {
  readonly spec: TreeSitterLanguageSpec;
  readonly rules: ReferenceRules<S>;
  readonly fileSystem: SourceFileSystem;
}

export interface RenameRequest {
  readonly file: string;
  readonly element: ElementNode;
  readonly newName: string;
  readonly candidates: readonly string[];
  readonly texts: ReadonlyMap<string, OverlayText>;
  /** The uses the reference search found, with `texts` in place. */
  readonly hits: readonly ReferenceHit[];
}

/** Elements whose declarations share a scope with the code around them (not a class's members). */
const SCOPES: ReadonlySet<string> = new Set(['namespace', 'function', 'method']);

/** Kinds a new name can collide with: declarations, not imports or bare statements. */
const DECLARED = new Set(['import', 'export', 'statement']);

export function treeSitterRename<S>(search: RenameSearch<S>, request: RenameRequest): RenameAnswer {
  const { spec, rules, fileSystem } = search;
  const { file, element, newName, candidates, texts, hits } = request;
  const name = rules.identifierOf(element);
  if (name === undefined) return { locations: [], refused: `its name "${element.name}" is not one identifier` };
  const textOf = (path: string): string | undefined => (texts.has(path) ? texts.get(path) : fileSystem.readFile(path));
  const workspace: RulesWorkspace = { readFile: textOf };
  const trees: Tree[] = [];
  const parse = (text: string): Tree => {
    const tree = parseWithSpec(spec, text);
    trees.push(tree);
    return tree;
  };
  try {
    const text = textOf(file);
    if (text === undefined) return { locations: [], refused: `there is no file ${file}` };
    const tree = parse(text);
    const outline = new SpecOutliner(spec, file, text).outline(tree);
    const containers = (ancestryOf(outline, element.path) ?? []).slice(0, -1);
    const target: ReferenceTarget = { file, element, name, containers };
    const targetScope = rules.scopeOf(file, tree.rootNode, workspace);
    const own = declarationNameOffset({ text, tree }, element, name, (node) => rules.shapeOf(node));
    if (own === undefined) return { locations: [], refused: `${element.path} does not write its name ${name}` };

    const locations = new Map<string, RenameLocation>();
    const add = (path: string, start: number, source: string, byName: boolean): void => {
      const key = `${path}:${start}`;
      if (locations.has(key)) return;
      locations.set(key, {
        file: path,
        start,
        length: name.length,
        replacement: newName,
        text: source,
        ...(byName ? { byName: true } : {}),
      });
    };
    add(file, own, text, false);
    // A use through another name (an alias an import gives) keeps that name: only the name itself is renamed.
    for (const hit of hits)
      if (hit.text.startsWith(name, hit.start)) add(hit.file, hit.start, hit.text, hit.byName === true);
    if (rules.importedNames !== undefined) {
      for (const path of new Set([file, ...candidates])) {
        const candidateText = path === file ? text : textOf(path);
        if (candidateText?.includes(name) !== true) continue;
        const root = path === file ? tree.rootNode : parse(candidateText).rootNode;
        const scope = path === file ? targetScope : rules.scopeOf(path, root, workspace);
        for (const offset of rules.importedNames(target, targetScope, scope, root, workspace))
          add(path, offset, candidateText, false);
      }
    }
    const places = [...locations.values()];
    const collision = collisionOf(search, target, newName, outline, textOf, parse);
    const refused =
      rules.renameProblem?.(target, newName, [...new Set(places.map((p) => p.file ?? ''))]) ??
      (collision === undefined ? shadowOf(search, target, newName, own, places, textOf, parse) : undefined);
    return {
      locations: places,
      ...(refused === undefined ? {} : { refused }),
      ...(collision === undefined ? {} : { collision }),
    };
  } finally {
    for (const tree of trees) tree.delete();
  }
}

/**
 * A declaration of `newName` beside the target, as `file:line: code`: a member of the same class or impl, a name of
 * the same file's top level, or of the same Go package (every file of it).
 */
function collisionOf<S>(
  search: RenameSearch<S>,
  target: ReferenceTarget,
  newName: string,
  outline: { readonly elements: readonly ElementNode[] },
  textOf: (path: string) => string | undefined,
  parse: (text: string) => Tree,
): string | undefined {
  const { spec, rules, fileSystem } = search;
  const namespace = rules.namespaceOf?.(target.element) ?? '';
  const clash = (elements: readonly ElementNode[]): ElementNode | undefined =>
    elements.find(
      (e) =>
        e !== target.element &&
        !DECLARED.has(e.kind) &&
        rules.identifierOf(e) === newName &&
        (rules.namespaceOf?.(e) ?? '') === namespace,
    );
  const describe = (path: string, found: ElementNode): string => {
    const line = (textOf(path) ?? '').split('\n')[found.startLine - 1]?.trim() ?? found.signature;
    return `${path}:${found.startLine}: ${line.length > 120 ? `${line.slice(0, 119)}…` : line}`;
  };
  const container = target.containers.at(-1);
  const near = clash(container?.children ?? outline.elements);
  if (near !== undefined) return describe(target.file, near);
  if (container !== undefined || rules.packageFiles === undefined) return undefined;
  for (const path of rules.packageFiles(target.file, fileSystem.listSourceFiles(), { readFile: textOf })) {
    const text = textOf(path);
    if (text === undefined || !text.includes(newName)) continue;
    const found = clash(new SpecOutliner(spec, path, text).outline(parse(text)).elements);
    if (found !== undefined) return describe(path, found);
  }
  return undefined;
}

/**
 * Why the new name would mean something else where the rename puts it, or undefined: for a top-level item, a bare `newName` in the
 * declaring file (a local, an import, a builtin it calls, which would then mean the renamed item) or, where a bare use
 * is renamed, in the function around it or at its file's top level (one would take the other's place). Members are
 * reached through their value (`x.name`) and left to the collision check.
 */
function shadowOf<S>(
  search: RenameSearch<S>,
  target: ReferenceTarget,
  newName: string,
  own: number,
  places: readonly RenameLocation[],
  textOf: (path: string) => string | undefined,
  parse: (text: string) => Tree,
): string | undefined {
  const { spec, rules } = search;
  if (target.containers.some((c) => c.kind !== 'namespace') || (rules.namespaceOf?.(target.element) ?? '') !== '')
    return undefined;
  const byFile = new Map<string, number[]>();
  for (const place of places)
    if (place.file !== undefined) byFile.set(place.file, [...(byFile.get(place.file) ?? []), place.start]);
  for (const [path, starts] of byFile) {
    const text = textOf(path);
    const taken = text === undefined ? [] : wordOffsets(text, newName);
    if (text === undefined || taken.length === 0) continue;
    const tree = parse(text);
    const outline = new SpecOutliner(spec, path, text).outline(tree);
    const shapeAt = (offset: number, length: number): SiteShape | undefined => {
      const node = tree.rootNode.descendantForIndex(offset, offset + length);
      if (node === null || node.startIndex !== offset || node.endIndex !== offset + length) return undefined;
      return rules.shapeOf(node);
    };
    const isBare = (offset: number, length: number): boolean => shapeAt(offset, length)?.via === 'bare';
    const isDeclared = (offset: number, name: string): boolean => shapeAt(offset, name.length)?.role === 'declaration';
    // The function whose scope an occurrence is in; a function's own name is in the scope around it.
    const functionAt = (offset: number, name: string): ElementNode | undefined => {
      const functions = elementsAtOffset(outline, offset).filter((e) => e.kind === 'function' || e.kind === 'method');
      const innermost = functions.at(-1);
      const ownName = innermost !== undefined && rules.identifierOf(innermost) === name && isDeclared(offset, name);
      return ownName ? functions.at(-2) : innermost;
    };
    // A member's name (a method of a class, an impl, a Go receiver type) is reached through its value, not bare.
    const isMemberName = (offset: number): boolean => {
      if (!isDeclared(offset, newName)) return false;
      const chain = elementsAtOffset(outline, offset);
      const declared = chain.at(-1);
      if (declared === undefined || rules.identifierOf(declared) !== newName) return false;
      const parent = chain.at(-2);
      const scoped = parent === undefined || SCOPES.has(parent.kind);
      return !scoped || (rules.namespaceOf?.(declared) ?? '') !== '';
    };
    const bound = taken.filter((offset) => isBare(offset, newName.length) && !isMemberName(offset));
    for (const start of starts) {
      if (!isBare(start, target.name.length)) continue;
      const declaration = path === target.file && start === own;
      const holder = functionAt(start, target.name);
      const clash = bound.find((offset) => {
        if (declaration) return true;
        const around = functionAt(offset, newName);
        return around === undefined || around === holder;
      });
      if (clash === undefined) continue;
      const lineStart = text.lastIndexOf('\n', clash - 1) + 1;
      const lineEnd = text.indexOf('\n', clash);
      const line = text.slice(0, clash).split('\n').length;
      const code = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).trim();
      const shown = code.length > 120 ? `${code.slice(0, 119)}…` : code;
      return `${newName} already means something else where the rename puts it (${path}:${line}: ${shown}): the renamed ${target.name} would hide it or be hidden by it; choose another name`;
    }
  }
  return undefined;
}

/** Offsets of the identifiers of `names` whose dotted prefix up to them is `full` (`a.b.User` in `import a.b.User.*`). */
export function prefixOffsets(names: readonly Node[], full: string): number[] {
  const offsets: number[] = [];
  let prefix = '';
  for (const name of names) {
    prefix = prefix === '' ? name.text : `${prefix}.${name.text}`;
    if (prefix === full) offsets.push(name.startIndex);
  }
  return offsets;
}
