import type { Node, Tree } from 'web-tree-sitter';
import type { ElementNode } from '../../elements/element';
import { ancestryOf } from '../../elements/resolve';
import type { OverlayText, ReferenceHit, RenameAnswer, RenameLocation } from '../../graph/semantics';
import type { SourceFileSystem } from '../../graph/sourceFiles';
import type { TreeSitterLanguageSpec } from './languageSpec';
import { parseWithSpec, SpecOutliner } from './treeSitterOutline';
import {
  declarationNameOffset,
  type ReferenceRules,
  type ReferenceTarget,
  type RulesWorkspace,
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
    const refused = rules.renameProblem?.(target, newName, [...new Set(places.map((p) => p.file ?? ''))]);
    const collision = collisionOf(search, target, newName, outline, textOf, parse);
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
