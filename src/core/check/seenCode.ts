import type { ContextResult } from '../context/buildContext';
import { linesLabel, mergeSpans, type LineSpan } from '../context/viewPieces';
import type { FileOutline } from '../elements/element';
import { filePartOf, parseElementPath } from '../elements/elementPath';
import { resolveElementPath } from '../elements/resolve';
import type { Operation, PatchElementOperation } from '../ops/operation';
import { judgePartialPatch } from './seenLines';

/**
 * The seen-code rule: an operation that replaces code as a whole must have been written from that code. What the
 * model saw is recorded per request (the files it saw whole, the elements it saw in full); a REPLACE_ELEMENT or
 * PATCH_ELEMENT of an element it saw only as a signature or stub (or not at all), and a REPLACE_FILE or a
 * PATCH_ELEMENT of the file itself (its text between elements) of an existing file it did not see whole, are refused
 * with the element or file to show in full, so the next answer is informed. A PATCH_ELEMENT whose SEARCH lines were
 * all shown verbatim (a references list, a FIND answer, a repair excerpt) is allowed: it replaces only what was seen.
 * Creating elements, deleting elements, import operations and new files stay allowed.
 */

export interface SeenCode {
  /** Workspace-relative files the model saw whole. */
  readonly wholeFiles: ReadonlySet<string>;
  /** Canonical paths of the elements the model saw in full (their members with them). */
  readonly fullElements: ReadonlySet<string>;
  /**
   * Elements the model saw in part (issue 28: a very large element's windows, a container's header and own text,
   * an import declaration shortened), with the file lines it saw as written: a PATCH may change only those.
   */
  readonly partialElements?: ReadonlyMap<string, readonly LineSpan[]>;
  /**
   * Per file, lines shown verbatim outside whole elements (trimmed): a PATCH_ELEMENT whose SEARCH lines are all
   * among them is allowed, since it replaces only lines the model saw (issue 24).
   */
  readonly lines?: ReadonlyMap<string, ReadonlySet<string>>;
}

export function emptySeenCode(): SeenCode {
  return { wholeFiles: new Set(), fullElements: new Set() };
}

/** What a context showed in full: the files sent whole and the elements at level `full`, and what it showed in part. */
export function seenInContext(
  context: Pick<ContextResult, 'files' | 'elements'> & Partial<Pick<ContextResult, 'partial'>>,
): SeenCode {
  return {
    wholeFiles: new Set(context.files.filter((f) => f.mode === 'whole').map((f) => f.file)),
    fullElements: new Set(context.elements.filter((e) => e.level === 'full').map((e) => e.path)),
    partialElements: partialLines(context.partial ?? []),
  };
}

/** Everything seen in either record (a repair round adds what it showed to what the request showed). */
export function mergeSeenCode(a: SeenCode, b: SeenCode): SeenCode {
  return {
    wholeFiles: new Set([...a.wholeFiles, ...b.wholeFiles]),
    fullElements: new Set([...a.fullElements, ...b.fullElements]),
    partialElements: partialLines(
      [...(a.partialElements ?? []), ...(b.partialElements ?? [])].map(([path, lines]) => ({ path, lines })),
    ),
    lines: mergeShownLines(a.lines, b.lines),
  };
}

/** Lines shown verbatim per file in either record. */
function mergeShownLines(
  a: ReadonlyMap<string, ReadonlySet<string>> | undefined,
  b: ReadonlyMap<string, ReadonlySet<string>> | undefined,
): Map<string, ReadonlySet<string>> {
  const byFile = new Map<string, ReadonlySet<string>>();
  for (const [file, lines] of [...(a ?? []), ...(b ?? [])]) byFile.set(file, new Set([...(byFile.get(file) ?? []), ...lines]));
  return byFile;
}

/** Lines seen per element path, merged. */
export function partialLines(
  views: Iterable<{ readonly path: string; readonly lines: readonly LineSpan[] }>,
): Map<string, readonly LineSpan[]> {
  const byPath = new Map<string, LineSpan[]>();
  for (const { path, lines } of views) byPath.set(path, [...(byPath.get(path) ?? []), ...lines]);
  return new Map([...byPath].map(([path, lines]) => [path, mergeSpans(lines)]));
}

export interface UnseenTarget {
  readonly operation: Operation;
  /** Why it is refused, for the repair message. */
  readonly reason: string;
  /** The file, or the canonical element path, to show in full in the repair round (only `lines` of it, when set). */
  readonly show: { readonly file: string; readonly path?: string; readonly lines?: readonly LineSpan[] };
}

/**
 * The operations the rule refuses. `outlineOf` gives the current outline of a workspace file (undefined when the file
 * does not exist or the element model cannot read it). A path that does not resolve is left to the apply step,
 * which explains it with the nearest paths.
 */
export function unseenTargets(
  operations: readonly Operation[],
  seen: SeenCode,
  outlineOf: (file: string) => FileOutline | undefined,
): UnseenTarget[] {
  const refused: UnseenTarget[] = [];
  for (const operation of operations) {
    if (operation.type === 'REPLACE_FILE') {
      const file = filePartOf(operation.path);
      if (file === undefined || seen.wholeFiles.has(file) || outlineOf(file) === undefined) continue;
      refused.push({
        operation,
        reason:
          `REPLACE_FILE of ${file}, which you did not see whole (the focused view leaves out code): it would drop ` +
          'or rewrite what you did not see. The whole file is shown below; answer with element operations, or ' +
          'REPLACE_FILE written from it.',
        show: { file },
      });
      continue;
    }
    if (operation.type !== 'REPLACE_ELEMENT' && operation.type !== 'PATCH_ELEMENT') continue;
    const file = filePartOf(operation.path);
    if (file === undefined || seen.wholeFiles.has(file)) continue;
    const outline = outlineOf(file);
    if (outline === undefined) continue;
    if (operation.type === 'PATCH_ELEMENT' && namesFile(operation.path)) {
      // The focused view leaves out the comments between elements: a patch of them is written from the whole file.
      refused.push({
        operation,
        reason:
          `PATCH_ELEMENT of ${file} itself (its text between elements), which you did not see whole: the focused ` +
          'view leaves out the comments between elements. The whole file is shown below; write the patch again from it.',
        show: { file },
      });
      continue;
    }
    const resolved = resolveElementPath(outline, operation.path);
    if (!resolved.ok) continue;
    const path = resolved.overload?.path ?? resolved.path;
    if (isSeenInFull(resolved.path, seen) || isSeenInFull(path, seen)) continue;
    if (operation.type === 'PATCH_ELEMENT' && searchesShown(operation, seen.lines?.get(file))) continue;
    const partly = seen.partialElements?.get(resolved.path);
    if (partly !== undefined && operation.type === 'PATCH_ELEMENT') {
      // Shown in part: a patch of the lines shown stands; one of other lines gets them shown (issue 28).
      const verdict = judgePartialPatch(operation, resolved.element, outline, partly);
      if (verdict.seen) continue;
      refused.push({ operation, reason: verdict.reason, show: { file, path: resolved.path, lines: verdict.lines } });
      continue;
    }
    refused.push({
      operation,
      reason:
        partly === undefined
          ? `${operation.type} of ${resolved.path}, which you saw only as a signature or stub: its body was not shown. ` +
            'It is shown in full below; write the operation again from it.'
          : `${operation.type} of ${resolved.path}, which you saw only in part (${mergeSpans(partly).map(linesLabel).join(', ')}). ` +
            'It is shown in full below; write the operation again from it, or PATCH_ELEMENT only lines you were shown.',
      show: { file, path: resolved.path },
    });
  }
  return refused;
}

/** Every non-blank line of every SEARCH text was shown verbatim (trimmed) for the file. */
function searchesShown(operation: PatchElementOperation, shown: ReadonlySet<string> | undefined): boolean {
  if (shown === undefined || shown.size === 0) return false;
  const lines = operation.patches.flatMap((patch) =>
    patch.search
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
  return lines.length > 0 && lines.every((line) => shown.has(line));
}

/** Seen in full: the element itself, or a container shown in full around it. */
function isSeenInFull(path: string, seen: SeenCode): boolean {
  if (seen.fullElements.has(path)) return true;
  for (const full of seen.fullElements) if (path.startsWith(`${full}/`)) return true;
  return false;
}

function namesFile(path: string): boolean {
  try {
    return parseElementPath(path).segments.length === 0;
  } catch {
    return false;
  }
}
