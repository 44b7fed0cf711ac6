import { ElementPathSyntaxError, formatSegment, lastSegmentOf, parseElementPath } from '../elements/elementPath';
import { resolveElementPath } from '../elements/resolve';
import type { CodeGraph } from '../graph/codeGraph';
import { isReferable } from '../graph/references';
import { byNamePlaces, planRename, renamedNames, renameFileEdits, renameRefusal } from '../graph/renamePlan';
import { languageFor } from '../language/languages';
import type { SnapshotReader } from '../ops/apply';
import { newNameProblem } from '../ops/newName';
import type { Operation, RenameElementOperation, RenameResolution } from '../ops/operation';
import { untouchedMatches } from '../search/untouchedMatches';

/**
 * The places of the RENAME_ELEMENTs of a batch (issue 27), found before the batch is applied: the apply engine is
 * pure, the rename is the language's (the rename tool's, src/core/graph/renamePlan.ts: TypeScript's language service,
 * the reference search of Python, Go, Rust, Java and C#), read with the batch's snapshot in place of the disk. The
 * places only the name ties to the declaration are listed with the result for the model to check; the batch's type
 * check (pyright, go vet, cargo check, javac where installed) then judges the whole.
 */

/** The places of each RENAME_ELEMENT of `operations`, or why it cannot be done. */
export type RenameResolver = (
  operations: readonly Operation[],
  snapshot: SnapshotReader,
  visibleFiles?: ReadonlySet<string>,
) => Promise<Map<Operation, RenameResolution>>;

export interface RenameResolverDeps {
  readonly graph: CodeGraph;
  /** Every file of the workspace, for the text search of the old name (strings, comments, files of no language). */
  readonly listFiles: () => readonly string[];
  /**
   * Whether the rename may change a file outside the request's files: undefined when it may, else why not, in the
   * user's terms (an exclusion, a protected path). Absent: any file may be changed.
   */
  readonly mayWrite?: (file: string) => Promise<string | undefined>;
}

export function renameResolver(deps: RenameResolverDeps): RenameResolver {
  return async (operations, snapshot, visibleFiles) => {
    const found = new Map<Operation, RenameResolution>();
    for (const operation of operations) {
      if (operation.type !== 'RENAME_ELEMENT') continue;
      const resolution = await resolveRename(deps, operation, snapshot, visibleFiles);
      if (resolution !== undefined) found.set(operation, resolution);
    }
    return found;
  };
}

async function resolveRename(
  deps: RenameResolverDeps,
  operation: RenameElementOperation,
  snapshot: SnapshotReader,
  visibleFiles: ReadonlySet<string> | undefined,
): Promise<RenameResolution | undefined> {
  const { graph } = deps;
  let parsed;
  try {
    parsed = parseElementPath(operation.path);
  } catch (error) {
    // The apply step reports a path that does not parse, with the nearest paths.
    if (error instanceof ElementPathSyntaxError) return undefined;
    throw error;
  }
  const { file, segments } = parsed;
  const refuse = (message: string, hint?: string): RenameResolution => ({
    ok: false,
    message,
    ...(hint === undefined ? {} : { hint }),
  });
  if (segments.length === 0)
    return refuse(`${file} is a file`, 'name the declaration to rename: <file>/<kind>[<name>]');
  const language = languageFor(file);
  const badName = newNameProblem(operation.newName, language?.id);
  if (badName !== undefined) return refuse(`the new name "${operation.newName}" ${badName}`);
  const noRename = (): RenameResolution =>
    refuse(
      `RENAME_ELEMENT renames TypeScript/JavaScript, Python, Go, Rust, Java and C# declarations; ${file} is ${language?.displayName ?? 'no language Scalpel reads'}`,
      'change the declaration and each of its uses with REPLACE_ELEMENT or PATCH_ELEMENT (FIND <name> lists the uses)',
    );
  if (graph.referencesFor(file)?.renameLocations === undefined) return noRename();
  const text = snapshot.read(file);
  if (text === undefined) return refuse(`there is no file ${file}`);
  const resolved = resolveElementPath(graph.outlineOf(file, text), operation.path);
  if (!resolved.ok)
    return {
      ok: false,
      message: resolved.message,
      hint: `check the outline of ${file} for the declaration's path`,
      suggestions: resolved.suggestions,
    };
  const { element } = resolved;
  if (!isReferable(element)) return refuse(`${element.path} has no name that code can refer to`);
  const { oldName, newElementName } = renamedNames(graph, file, element, operation.newName);
  if (oldName === operation.newName) return refuse(`${element.path} is already named ${oldName}`);
  // The compiler reads the snapshot, not the disk, where the two differ (unsaved editors).
  const plan = planRename(graph, file, element, operation.newName, (files) => {
    const texts = new Map<string, string | undefined>();
    for (const f of files) {
      const snapshotText = snapshot.read(f);
      if (snapshotText !== graph.textOf(f)) texts.set(f, snapshotText);
    }
    return texts;
  });
  if (plan === undefined) return noRename();
  const refusal = renameRefusal(plan, element.path, operation.newName);
  if (refusal !== undefined) return refuse(refusal);
  const files = renameFileEdits(plan);
  for (const edited of files) {
    if (edited.path !== file && visibleFiles?.has(edited.path) !== true) {
      const why = await deps.mayWrite?.(edited.path);
      if (why !== undefined)
        return refuse(
          `the rename would change ${edited.path}, which may not be written: ${why}`,
          'leave this declaration its name, or ask the user to allow the file',
        );
    }
  }
  const untouched = await untouchedMatches(
    {
      root: graph.fileSystem.root,
      files: deps.listFiles(),
      texts: new Map(files.map((f) => [f.path, f.before] as const)),
      read: (f) => snapshot.read(f) ?? graph.textOf(f),
      outlineOf: (f, t) => (languageFor(f) === undefined ? undefined : graph.outlineOf(f, t)),
    },
    oldName,
    new Set(plan.locations.map((l) => `${l.file ?? ''}:${l.start}`)),
  );
  const byName = byNamePlaces(plan);
  const parent = element.path.slice(0, element.path.length - lastSegmentOf(element.path).length);
  return {
    ok: true,
    places: {
      renamedTo: `${parent}${formatSegment(element.kind, newElementName)}`,
      files,
      untouched: untouched.rows,
      ...(byName.length === 0 ? {} : { byName }),
      notes: [...plan.gaps.map((gap) => `not searched in full: ${gap}`), ...untouched.notes],
    },
  };
}
