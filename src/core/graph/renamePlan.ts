import type { ElementNode } from '../elements/element';
import type { CodeGraph } from './codeGraph';
import type { OverlayText, RenameLocation } from './semantics';

/**
 * A rename as its language's rename finds it (issue 27), shared by the `rename` agent tool and the RENAME_ELEMENT
 * operation: which files the compiler must see, its places, and what refuses it. TypeScript/JavaScript only: the
 * other languages' semantics have no rename.
 */

/** What renaming an element would change, as its language's rename finds it. */
export interface RenamePlan {
  /** Workspace-relative file of the declaration. */
  readonly file: string;
  /** Each place, with the text of its file; `file` undefined: outside the workspace (`outside` names it). */
  readonly locations: readonly RenameLocation[];
  /** Why the language refuses the rename. */
  readonly refused?: string;
  /** A declaration of the new name already in the same scope. */
  readonly collision?: string;
  /** Workspace files of the language that mention the name, the declaring one included: where the rename looked. */
  readonly searched: number;
  /** What the search did not cover, in words (files that mention the name left out); empty when it covered all. */
  readonly gaps: readonly string[];
}

/** What a refusal says of a file of another language, and what to do instead. */
export const RENAME_LANGUAGES =
  'rename is TypeScript/JavaScript only for now; list the uses with references (and the text with search), then change them with apply';

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
  const semantics = graph.semanticsFor(file);
  if (semantics?.renameLocations === undefined) return undefined;
  const { imports } = graph;
  imports.refresh();
  // As the reference search: the files that mention the name are the ones the compiler must see.
  const mentions = imports.filesMentioning(element.name);
  const candidates = mentions.files.filter((f) => f !== file && graph.semanticsFor(f) === semantics);
  const searched = candidates.slice(0, MAX_RENAME_FILES);
  const texts = textsOf?.([file, ...searched]) ?? new Map<string, OverlayText>();
  const answer = semantics.renameLocations(file, element, newName, searched, texts);
  const gaps = [
    ...(candidates.length > searched.length
      ? [`${candidates.length - searched.length} more files that mention the name not searched`]
      : []),
    ...(mentions.cutShort ? [`the name search stopped at its time limit after ${mentions.searched} files`] : []),
    ...(mentions.truncated ? ['the workspace listing stopped at its limit'] : []),
  ];
  return { file, ...answer, searched: searched.length + 1, gaps };
}

/** Why the rename of `path` cannot be done as planned, in words, or undefined when it can. */
export function renameRefusal(plan: RenamePlan, path: string, newName: string): string | undefined {
  if (plan.refused !== undefined) return `TypeScript does not rename ${path}: ${plan.refused}`;
  if (plan.collision !== undefined)
    return `${newName} is already declared where ${path} is (${plan.collision}); choose another name, or rename that one first`;
  const outside = [...new Set(plan.locations.flatMap((l) => (l.file === undefined ? [l.outside ?? '?'] : [])))];
  if (outside.length > 0)
    return `the rename of ${path} would change files outside the workspace: ${outside.join(', ')}; rename is refused (a declaration merged with a dependency's keeps its name)`;
  if (plan.locations.length === 0) return `TypeScript found no place to rename for ${path}`;
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
