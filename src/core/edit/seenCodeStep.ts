import { partialLines, unseenTargets, type SeenCode } from '../check/seenCode';
import { linesLabel, linesOf } from '../context/viewPieces';
import type { FileOutline } from '../elements/element';
import { outlineSource } from '../elements/outline';
import { isOutlinable } from '../language/languages';
import type { ShownRequest } from './shownRecord';
import type { VerificationProblem, VerificationStep } from './verification';

/**
 * Issue 18's seen-code rule as a verification step: an operation that replaces code it was not shown in full is
 * refused, and its repair message carries that code in full (the problem's `shows`), so the next answer is written
 * from it. Registered by the edit service for every surface; operations that come with no record of what was shown
 * (pasted into `verify`) are not judged by it.
 */

export const SEEN_CODE_STEP = 'seen-code';

export function seenCodeOf(shown: readonly ShownRequest[]): SeenCode {
  const wholeFiles = new Set<string>();
  const fullElements = new Set<string>();
  const lines = new Map<string, Set<string>>();
  for (const request of shown) {
    for (const file of request.files) {
      if (file.whole) wholeFiles.add(file.path);
      for (const path of file.full) fullElements.add(path);
      if (file.lines === undefined || file.lines.length === 0) continue;
      const into = lines.get(file.path) ?? new Set<string>();
      for (const line of file.lines) into.add(line);
      lines.set(file.path, into);
    }
  }
  const partialElements = partialLines(shown.flatMap((request) => request.files.flatMap((f) => f.partial ?? [])));
  return { wholeFiles, fullElements, partialElements, lines };
}

export function seenCodeStep(): VerificationStep {
  return {
    name: SEEN_CODE_STEP,
    run({ snapshot, operations, shown }): VerificationProblem[] {
      if (shown === undefined) return [];
      const outlines = new Map<string, FileOutline | undefined>();
      const outlineOf = (file: string): FileOutline | undefined => {
        if (!outlines.has(file)) {
          const text = snapshot.read(file);
          outlines.set(file, text === undefined || !isOutlinable(file) ? undefined : outlineSource(file, text));
        }
        return outlines.get(file);
      };
      return unseenTargets(operations, seenCodeOf(shown), outlineOf).map((refused) => {
        const outline = outlineOf(refused.show.file);
        const element =
          refused.show.path === undefined || outline === undefined
            ? undefined
            : findElement(outline.elements, refused.show.path);
        const label = refused.show.path ?? refused.show.file;
        const lines = refused.show.lines;
        if (lines !== undefined && outline !== undefined) {
          // A window widened: only the lines asked for, each run under its own label.
          const runs = lines.map(
            (span) => `  ${label}, ${linesLabel(span)}:\n${fenced(outline.language, linesOf(outline.text, span))}`,
          );
          return {
            path: refused.show.file,
            message: `${refused.reason}\n${runs.join('\n')}`,
            operationIndex: operations.indexOf(refused.operation),
            shows: refused.show,
          };
        }
        const text =
          element === undefined ? (outline?.text ?? '') : outline?.text.slice(element.range.start, element.range.end);
        return {
          path: refused.show.file,
          message: `${refused.reason}\n  ${label} in full:\n${fenced(outline?.language ?? '', text ?? '')}`,
          operationIndex: operations.indexOf(refused.operation),
          shows: refused.show,
        };
      });
    },
  };
}

function findElement(elements: FileOutline['elements'], path: string): FileOutline['elements'][number] | undefined {
  for (const element of elements) {
    if (element.path === path) return element;
    if (path.startsWith(`${element.path}/`)) return findElement(element.children, path);
  }
  return undefined;
}

function fenced(language: string, text: string): string {
  const fence = text.includes('```') ? '~~~~' : '```';
  return `${fence}${language}\n${text}\n${fence}`;
}
