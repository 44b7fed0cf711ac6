import type { ElementNode } from '../elements/element';
import { languageFor } from '../language/languages';
import type { CodeGraph } from './codeGraph';
import type { ByNamePlace } from '../ops/operation';
import type { OverlayText, RenameLocation } from './semantics';

/**
 * A rename as its language's rename finds it (issue 27), shared by the `rename` agent tool and the RENAME_ELEMENT
 * operation: which files the search must see, its places, and what refuses it. TypeScript/JavaScript: the compiler's
 * rename; Python, Go, Rust, Java, C#: the reference search's places, those only the name ties marked by name.
 */

/** What renaming an element would change, as its language's rename finds it. */
export interface RenamePlan {
  /** Workspace-relative file of the declaration. */
  readonly file: string;
  /** The identifier the rename replaces (Go's `method[(*T).Scale]`: `Scale`). */
  readonly oldName: string;
  /** Each place, with the text of its file; `file` undefined: outside the workspace (`outside` names it). */
  readonly locations: readonly RenameLocation[];
  /** Why the language refuses the rename. */
  readonly refused?: string;
  /** A declaration of the new name already in the same scope. */
  readonly collision?: string;
  /** Workspace files of the language that mention the name, the declaring one included: where the rename looked. */
  readonly searched: number;
  /**
   * How the places were found: `compiler` (each resolved by the language's compiler) or `syntax` (the reference
   * search: identifiers of code resolved through imports where cheap, the rest marked by name).
   */
  readonly resolution: 'compiler' | 'syntax';
  /** What the search did not cover, in words (files that mention the name left out); empty when it covered all. */
  readonly gaps: readonly string[];
}

/** What a refusal says of a file of a language without a rename, and what to do instead. */
export const RENAME_LANGUAGES =
  'rename covers TypeScript/JavaScript, Python, Go, Rust, Java and C#; list the uses with references (and the text with search), then change them with apply';

/** References of an element with many uses: every mentioning file up to this many is searched. */
export const MAX_RENAME_FILES = 2_000;

/**
 * The places renaming `element` of `file` to `newName` changes, or undefined when the file's language has no rename.
 * `textsOf` gives the text each file is to be read as, for the files the rename searches (a snapshot that differs from
 * the disk); undefined keeps the graph's own.
 */
export function planRename(
  graph: CodeGraph,
  file: string,
  element: ElementNode,
  newName: string,
  textsOf?: (files: readonly string[]) => ReadonlyMap<string, OverlayText>,
): RenamePlan | undefined {
  const semantics = graph.referencesFor(file);
  if (semantics?.renameLocations === undefined) return undefined;
  const { imports } = graph;
  imports.refresh();
  // As the reference search: the files that mention the name are the ones the compiler must see.
  const name = semantics.searchName?.(element) ?? element.name;
  const mentions = imports.filesMentioning(name);
  const candidates = mentions.files.filter((f) => f !== file && graph.referencesFor(f) === semantics);
  const searched = candidates.slice(0, MAX_RENAME_FILES);
  const texts = textsOf?.([file, ...searched]) ?? new Map<string, OverlayText>();
  // The files of the language that mention another name (a class's: its subclasses, its other parts), as searched.
  const mentioning = (other: string): readonly string[] =>
    imports
      .filesMentioning(other, texts)
      .files.filter((f) => graph.referencesFor(f) === semantics)
      .slice(0, MAX_RENAME_FILES);
  const answer = semantics.renameLocations(file, element, newName, searched, texts, mentioning);
  const gaps = [
    ...(candidates.length > searched.length
      ? [`${candidates.length - searched.length} more files that mention the name not searched`]
      : []),
    ...(mentions.cutShort ? [`the name search stopped at its time limit after ${mentions.searched} files`] : []),
    ...(mentions.truncated ? ['the workspace listing stopped at its limit'] : []),
  ];
  return {
    file,
    oldName: name,
    ...answer,
    searched: searched.length + 1,
    resolution: semantics.resolution ?? 'compiler',
    gaps,
  };
}

/** Why the rename of `path` cannot be done as planned, in words, or undefined when it can. */
export function renameRefusal(plan: RenamePlan, path: string, newName: string): string | undefined {
  const language = languageFor(plan.file)?.displayName ?? 'the language';
  if (plan.refused !== undefined) return `${language} does not rename ${path}: ${plan.refused}`;
  if (plan.collision !== undefined)
    return `${newName} is already declared where ${path} is (${plan.collision}); choose another name, or rename that one first`;
  const outside = [...new Set(plan.locations.flatMap((l) => (l.file === undefined ? [l.outside ?? '?'] : [])))];
  if (outside.length > 0)
    return `the rename of ${path} would change files outside the workspace: ${outside.join(', ')}; rename is refused (a declaration merged with a dependency's keeps its name)`;
  if (plan.locations.length === 0) return `${language} found no place to rename for ${path}`;
  return undefined;
}

/** A replacement of `before.slice(start, end)` by `newText`. */
export interface RenameEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** One file a rename changes: the text its places are offsets into, and the edits, sorted. */
export interface RenameFileEdits {
  readonly path: string;
  readonly before: string;
  readonly edits: readonly RenameEdit[];
}

/** The plan's places per workspace file, files in path order, edits in offset order. */
export function renameFileEdits(plan: RenamePlan): RenameFileEdits[] {
  const byFile = new Map<string, RenameLocation[]>();
  for (const location of plan.locations) {
    if (location.file === undefined) continue;
    byFile.set(location.file, [...(byFile.get(location.file) ?? []), location]);
  }
  return [...byFile]
    .map(([path, locations]) => ({
      path,
      before: locations[0]?.text ?? '',
      edits: [...locations]
        .sort((a, b) => a.start - b.start)
        .map((l) => ({ start: l.start, end: l.start + l.length, newText: l.replacement })),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The plan's places that only the name ties to the declaration, in file and offset order. */
export function byNamePlaces(plan: RenamePlan): ByNamePlace[] {
  const places: ByNamePlace[] = [];
  const sorted = plan.locations
    .filter((l): l is RenameLocation & { file: string } => l.byName === true && l.file !== undefined)
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start));
  for (const location of sorted) {
    const { text, start } = location;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const lineEnd = text.indexOf('\n', start);
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < start; i = text.indexOf('\n', i + 1)) line += 1;
    const code = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).trim();
    places.push({ file: location.file, line, code: code.length > 160 ? `${code.slice(0, 159)}…` : code });
  }
  return places;
}

/** How many places the plan changes in workspace files, and how many of them only by name. */
export function placeCounts(plan: RenamePlan): { readonly places: number; readonly byName: number } {
  const inside = plan.locations.filter((l) => l.file !== undefined);
  return { places: inside.length, byName: inside.filter((l) => l.byName === true).length };
}

/**
 * The identifier code writes for the element (Go's `method[(*T).Scale]` is `Scale`) and the element's name after the
 * rename (`(*T).Grow`): the old name the text search looks for, and the name in the declaration's new path.
 */
export function renamedNames(
  graph: CodeGraph,
  file: string,
  element: ElementNode,
  newName: string,
): { readonly oldName: string; readonly newElementName: string } {
  const oldName = graph.referencesFor(file)?.searchName?.(element) ?? element.name;
  const newElementName = element.name.endsWith(oldName)
    ? `${element.name.slice(0, element.name.length - oldName.length)}${newName}`
    : newName;
  return { oldName, newElementName };
}
