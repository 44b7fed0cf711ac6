import type { Node } from 'web-tree-sitter';
import type { ElementNode } from '../../elements/element';
import { ancestryOf } from '../../elements/resolve';
import type { OverlayText, ReferenceHit, RenameAnswer, RenameLocation } from '../../graph/semantics';
import type { SourceFileSystem } from '../../graph/sourceFiles';
import type { TreeSitterLanguageSpec } from './languageSpec';
import { hierarchyRename } from './treeSitterHierarchy';
import { parseWithSpec, SpecOutliner } from './treeSitterOutline';
import {
  declarationNameOffset,
  type OpenFile,
  type ParsedSource,
  type ReferenceRules,
  type ReferenceTarget,
  type RulesWorkspace,
} from './treeSitterReferences';
import { collisionOf, memberShadowOf, shadowOf } from './treeSitterRenameChecks';

/**
 * Rename for the languages read with tree-sitter (Python, Go, Rust, Java, C#; issue 27): no compiler finds the places,
 * the reference search does. A rename changes the declaration's own name, every use the search finds (its identifier
 * only; a use through an alias, `from m import f as g; g()`, keeps the alias) and the imports that name the
 * declaration (`from m import f`, `use crate::m::f`), which the use search skips. A use only the name ties to the
 * declaration (a method called on a value whose type the syntax does not tell) is renamed too and marked by name, so
 * the answer can list it for the agent to check; the language's checker, where installed, checks the batch after. A
 * method's overrides in subclasses (Python, Java, C#) are renamed with it (src/core/language/treeSitter/
 * treeSitterHierarchy.ts).
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
  /** The files of the language that mention a name (the declaring one may be left out); absent: `candidates`. */
  readonly mentioning?: (name: string) => readonly string[];
}

/** What the checks of a rename read: the search, the request's files (parsed once) and the target. */
export interface RenameContext<S> {
  readonly search: RenameSearch<S>;
  readonly open: OpenFile<S>;
  readonly workspace: RulesWorkspace;
  readonly target: ReferenceTarget;
  readonly mentioning: (name: string) => readonly string[];
}

export function treeSitterRename<S>(search: RenameSearch<S>, request: RenameRequest): RenameAnswer {
  const { spec, rules, fileSystem } = search;
  const { file, element, newName, candidates, texts, hits } = request;
  const name = rules.identifierOf(element);
  if (name === undefined) return { locations: [], refused: `its name "${element.name}" is not one identifier` };
  const textOf = (path: string): string | undefined => (texts.has(path) ? texts.get(path) : fileSystem.readFile(path));
  const workspace: RulesWorkspace = { readFile: textOf };
  const parsed = new Map<string, ParsedSource<S> | undefined>();
  const open: OpenFile<S> = (path) => {
    if (parsed.has(path)) return parsed.get(path);
    const text = textOf(path);
    let entry: ParsedSource<S> | undefined;
    if (text !== undefined) {
      const tree = parseWithSpec(spec, text);
      const outline = new SpecOutliner(spec, path, text).outline(tree);
      entry = { path, text, tree, outline, scope: rules.scopeOf(path, tree.rootNode, workspace) };
    }
    parsed.set(path, entry);
    return entry;
  };
  try {
    const declaring = open(file);
    if (declaring === undefined) return { locations: [], refused: `there is no file ${file}` };
    const { text, tree, outline } = declaring;
    const containers = (ancestryOf(outline, element.path) ?? []).slice(0, -1);
    const target: ReferenceTarget = { file, element, name, containers };
    const targetScope = declaring.scope;
    const own = declarationNameOffset({ text, tree }, element, name, (node) => rules.shapeOf(node));
    if (own === undefined) return { locations: [], refused: `${element.path} does not write its name ${name}` };
    const overloads = ((containers.at(-1)?.children ?? outline.elements) as readonly ElementNode[]).filter(
      (e) => e.kind === element.kind && e.name === element.name,
    );
    if (overloads.length > 1) return { locations: [], refused: overloadRefusal(name, overloads, containers.at(-1)) };
    const context: RenameContext<S> = {
      search,
      open,
      workspace,
      target,
      mentioning: request.mentioning ?? (() => candidates),
    };

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
        if (textOf(path)?.includes(name) !== true) continue;
        const opened = open(path);
        if (opened === undefined) continue;
        for (const offset of rules.importedNames(target, targetScope, opened.scope, opened.tree.rootNode, workspace))
          add(path, offset, opened.text, false);
      }
    }
    const hierarchy = hierarchyRename({ rules, open, workspace, mentioning: context.mentioning }, target, newName);
    for (const place of hierarchy.places) {
      const opened = open(place.file);
      if (opened !== undefined) add(place.file, place.offset, opened.text, place.byName);
    }
    const places = [...locations.values()];
    const collision = collisionOf(context, newName, outline);
    const refused =
      rules.renameProblem?.(target, newName, [...new Set(places.map((p) => p.file ?? ''))]) ??
      hierarchy.refused ??
      (collision === undefined
        ? (shadowOf(context, newName, own, places) ?? memberShadowOf(context, newName, own, places))
        : undefined);
    return {
      locations: places,
      ...(refused === undefined ? {} : { refused }),
      ...(collision === undefined ? {} : { collision }),
    };
  } finally {
    for (const entry of parsed.values()) entry?.tree.delete();
  }
}

/**
 * Why one of several declarations of a name in one scope (Java and C# overloads, a Python property's getter and
 * setter) is not renamed alone: the reference search ties a call to the name, not to one of them, so its calls of the
 * others would be renamed with it (issue 27: `RENAME_ELEMENT method[f]#1` renamed the calls of `f#2`).
 */
function overloadRefusal(name: string, overloads: readonly ElementNode[], container: ElementNode | undefined): string {
  const lines = overloads.map((e) => e.startLine).join(', ');
  return (
    `${name} is declared ${overloads.length} times in ${container?.path ?? 'this file'} (lines ${lines}), and the ` +
    `reference search ties a use to the name, not to one of them: one cannot be renamed alone. Change the ` +
    `declaration and the uses you mean with REPLACE_ELEMENT and PATCH_ELEMENT (references lists the uses by name)`
  );
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
