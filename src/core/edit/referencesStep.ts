import type { ElementNode, FileOutline } from '../elements/element';
import { filePartOf } from '../elements/elementPath';
import { resolveElementPath } from '../elements/resolve';
import type { CodeGraph } from '../graph/codeGraph';
import { clip, isReferable, type ReferenceFinder, type ReferenceSite } from '../graph/references';
import type { OverlayText } from '../graph/semantics';
import { languageFor } from '../language/languages';
import type { FileChange } from '../ops/apply';
import type { OperationResult } from '../ops/operation';
import type { StepOutcome, VerificationProblem, VerificationStep } from './verification';

/**
 * Issue 24's reference check, as a verification step for every way in (a model's answer, `scalpel apply`, Apply
 * from Clipboard, the agent tools' apply): a REPLACE_ELEMENT or PATCH_ELEMENT that renames an element, and a
 * DELETE_ELEMENT, is refused while references to the old name remain outside what the batch changes, with the places
 * listed. The references come from the language-neutral reference API (`ReferenceFinder.referencesOf`: the
 * semantics of TypeScript, the reference search of the tree-sitter languages); uses found by name only are noted, not
 * refused; a language without a reference search is not judged, and the step says so instead of claiming there are
 * no references.
 */

export const REFERENCES_STEP = 'references';

/** A use of a renamed or deleted element that the batch leaves in place. */
export interface BrokenReference {
  /** The element as it was (its canonical path before the batch). */
  readonly target: string;
  /** Its new path, for a rename; undefined for a delete. */
  readonly renamedTo?: string;
  /** Workspace-relative file of the use. */
  readonly file: string;
  /** 1-based, in the file before the batch. */
  readonly line: number;
  readonly column: number;
  /** The innermost element holding the use; undefined at the top level. */
  readonly elementPath: string | undefined;
  /** The line as written, trimmed. */
  readonly lineText: string;
}

export interface ReferencesStepOptions {
  /** Its problems go back for repair but do not stop the batch once the rounds are spent (--allow-new-errors). */
  readonly mayRemain?: boolean;
}

/** Files searched besides the declaring one: a refusal must rest on a search that covered the workspace. */
const MAX_SEARCHED_FILES = 5_000;
/** Places listed per refused operation; the rest are counted by file. */
const LISTED_SITES = 10;

export function referencesStep(
  graph: CodeGraph,
  finder: ReferenceFinder,
  { mayRemain = false }: ReferencesStepOptions = {},
): VerificationStep {
  return {
    name: REFERENCES_STEP,
    mayRemain,
    run({ snapshot, apply }): StepOutcome {
      const changes = new Map(apply.changes.map((change) => [change.path, change] as const));
      // The batch's files as it saw them; the rest of the workspace as the graph reads it.
      const texts = new Map<string, OverlayText>(
        [...changes.values()].flatMap((c) => (c.before === undefined ? [] : [[c.path, c.before] as const])),
      );
      const problems: VerificationProblem[] = [];
      const notes: string[] = [];
      for (const result of apply.results) {
        const removed = removedElement(result, (file) => snapshot.read(file), graph);
        if (removed === undefined) continue;
        const { file, element, before } = removed;
        const after = changes.get(file)?.after ?? before;
        // The batch created the name again (a new element at the old path): its uses still resolve.
        if (resolvesExactly(graph.outlineOf(file, after), element.path)) continue;
        if (graph.referencesFor(file) === undefined) {
          notes.push(
            `references to ${element.path} were not checked: ${languageFor(file)?.displayName ?? 'this language'} has no reference search yet`,
          );
          continue;
        }
        const found = finder.referencesOf(file, element.path, { texts, maxFiles: MAX_SEARCHED_FILES });
        if (found.cutShort === true) {
          notes.push(`references to ${element.path} were not searched in time: uses of it may remain`);
          continue;
        }
        if (found.unsearched !== undefined)
          notes.push(
            `references to ${element.path}: ${found.unsearched} file${found.unsearched === 1 ? '' : 's'} mentioning ${element.name} ${found.unsearched === 1 ? 'was' : 'were'} not searched`,
          );
        const left = found.sites.filter((site) => remainsAfter(site, changes, graph));
        // A use found by its name alone (outside TypeScript, not tied to this element through an import) may be
        // another element's: it is said, not a reason to refuse.
        const remaining = left.filter((site) => site.byName !== true);
        const byName = left.length - remaining.length;
        if (byName > 0)
          notes.push(
            `references to ${element.path}: ${byName} use${byName === 1 ? '' : 's'} of the name ${element.name} left in place that may be another element's (found by name only)`,
          );
        if (remaining.length === 0) continue;
        const broken = remaining.map((site): BrokenReference => ({
          target: element.path,
          ...(result.renamedTo === undefined ? {} : { renamedTo: result.renamedTo }),
          file: site.file,
          line: site.line,
          column: site.column,
          elementPath: site.elementPath,
          lineText: site.lineText,
        }));
        problems.push({
          path: file,
          message: describeBroken(result, element, broken),
          operationIndex: result.index,
          brokenReferences: broken,
        });
      }
      return { problems, notes };
    },
  };
}

/** The element an operation removes under its old name: deleted, or renamed by a replace or a patch. */
function removedElement(
  result: OperationResult,
  read: (file: string) => string | undefined,
  graph: CodeGraph,
): { file: string; element: ElementNode; before: string } | undefined {
  if (result.status !== 'ok') return undefined;
  const { operation } = result;
  const removes =
    operation.type === 'DELETE_ELEMENT' ||
    ((operation.type === 'REPLACE_ELEMENT' || operation.type === 'PATCH_ELEMENT') && result.renamedTo !== undefined);
  if (!removes) return undefined;
  const file = filePartOf(operation.path);
  if (file === undefined) return undefined;
  const before = read(file);
  if (before === undefined) return undefined;
  const resolved = resolveElementPath(graph.outlineOf(file, before), operation.path);
  if (!resolved.ok || !isReferable(resolved.element)) return undefined;
  return { file, element: resolved.element, before };
}

function resolvesExactly(outline: FileOutline, path: string): ElementNode | undefined {
  const resolved = resolveElementPath(outline, path);
  return resolved.ok && !resolved.tolerant ? resolved.element : undefined;
}

/**
 * Whether a use found before the batch is still there after it: its file is untouched, or the element holding it
 * still exists and still holds its line as it was. A use whose element the batch removed or rewrote without that
 * line is taken as updated.
 */
function remainsAfter(site: ReferenceSite, changes: ReadonlyMap<string, FileChange>, graph: CodeGraph): boolean {
  const change = changes.get(site.file);
  if (change === undefined || change.before === undefined) return true;
  if (site.elementPath === undefined) return holdsLine(change.after, site.lineText);
  const before = resolvesExactly(graph.outlineOf(site.file, change.before), site.elementPath);
  const after = resolvesExactly(graph.outlineOf(site.file, change.after), site.elementPath);
  if (after === undefined) return false;
  const afterText = change.after.slice(after.range.start, after.range.end);
  if (before !== undefined && change.before.slice(before.range.start, before.range.end) === afterText) return true;
  return holdsLine(afterText, site.lineText);
}

function holdsLine(text: string, lineText: string): boolean {
  return text.split('\n').some((line) => line.trim() === lineText);
}

/** The refusal, for the model and the user alike: what the operation removes, where it is still used, what to do. */
function describeBroken(result: OperationResult, element: ElementNode, broken: readonly BrokenReference[]): string {
  const { operation } = result;
  const count = `${broken.length} use${broken.length === 1 ? '' : 's'} of ${element.name}`;
  const does = result.renamedTo === undefined ? 'deletes it' : `renames it to ${result.renamedTo}`;
  const lines = [
    `${operation.type} ${element.path} ${does}, but ${count} remain${broken.length === 1 ? 's' : ''} outside what the batch changes:`,
  ];
  for (const site of broken.slice(0, LISTED_SITES))
    lines.push(
      `- ${site.file}:${site.line} in ${site.elementPath ?? `${site.file} (top level)`}: ${clip(site.lineText)}`,
    );
  if (broken.length > LISTED_SITES) {
    const rest = broken.slice(LISTED_SITES);
    const files = [...new Set(rest.map((s) => s.file))];
    lines.push(
      `- … and ${rest.length} more in ${files.slice(0, 5).join(', ')}${files.length > 5 ? ' and more files' : ''}`,
    );
  }
  lines.push(
    result.renamedTo === undefined
      ? 'Change or remove those uses in the same batch, or keep the element.'
      : `Update those uses in the same batch, or keep the name ${element.name}.`,
  );
  return lines.join('\n');
}
