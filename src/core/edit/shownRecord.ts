import type { ContextResult, PartialView } from '../context/buildContext';
import type { FileOutline } from '../elements/element';
import { walkElements } from '../elements/resolve';
import type { RequestMetrics } from '../llm/metrics';
import type { VerificationProblem } from './verification';

/**
 * What the model was shown, per request: which files went whole and which elements in full, as a signature or as a
 * stub. Issue 18's seen-code rule reads it (a REPLACE of an element seen only as a stub is refused); the result
 * keeps it so every surface can also tell the user. A follow-up's record is the context's plus what the follow-ups
 * showed since (NEED answers, lines listed verbatim, code a repair message showed in full): the `withShown...` merges.
 */

export interface ShownFile {
  readonly path: string;
  /** The file's whole text was in the request. */
  readonly whole: boolean;
  /** Canonical paths of the elements shown with their whole text (focused elements and their containers' headers excluded). */
  readonly full: readonly string[];
  readonly signature: readonly string[];
  readonly stub: readonly string[];
  /** Elements shown in part, with the lines shown as written (issue 28: windows, a container's own text). */
  readonly partial?: readonly PartialView[];
  /**
   * Lines of the file shown verbatim outside whole elements (a references list, a FIND answer, a repair excerpt),
   * trimmed: a PATCH_ELEMENT whose SEARCH lines are all among them was written from what was shown (issue 24).
   */
  readonly lines?: readonly string[];
}

export interface ShownRequest {
  readonly phase: RequestMetrics['phase'];
  readonly files: readonly ShownFile[];
}

/** A focused context as a record: every element at the level the context chose for it. */
export function shownByContext(
  context: Pick<ContextResult, 'files' | 'elements'> & Partial<Pick<ContextResult, 'partial'>>,
): ShownFile[] {
  return context.files.map((file) => {
    const whole = file.mode === 'whole';
    const inFile = context.elements.filter((e) => e.path === file.file || e.path.startsWith(`${file.file}/`));
    const at = (level: string): string[] => inFile.filter((e) => e.level === level).map((e) => e.path);
    const partial = whole ? [] : (context.partial ?? []).filter((p) => p.path.startsWith(`${file.file}/`));
    return {
      path: file.file,
      whole,
      full: whole ? [] : at('full'),
      signature: at('signature'),
      stub: at('stub'),
      ...(partial.length === 0 ? {} : { partial }),
    };
  });
}

/** The planning outline shows every element (imports aside) by its signature, no body. */
export function shownByOutline(
  outlines: readonly { readonly outline: FileOutline; readonly outlinable: boolean }[],
): ShownFile[] {
  return outlines.map(({ outline, outlinable }) => ({
    path: outline.file,
    whole: false,
    full: [],
    signature: outlinable
      ? [...walkElements(outline.elements)].filter((e) => e.kind !== 'import').map((e) => e.path)
      : [],
    stub: [],
  }));
}

/** The repair message showed some files or elements in full (the seen-code rule's problems): record them as seen. */
export function withShownInRepair(files: readonly ShownFile[], problems: readonly VerificationProblem[]): ShownFile[] {
  const result = files.map((f) => ({ ...f, full: [...f.full] }));
  for (const { shows } of problems) {
    if (shows === undefined) continue;
    let file = result.find((f) => f.path === shows.file);
    if (file === undefined) {
      file = { path: shows.file, whole: false, full: [], signature: [], stub: [] };
      result.push(file);
    }
    const index = result.indexOf(file);
    if (shows.path === undefined) result[index] = { ...file, whole: true };
    else if (shows.lines !== undefined)
      result[index] = { ...file, partial: [...(file.partial ?? []), { path: shows.path, lines: shows.lines }] };
    else if (!file.full.includes(shows.path)) result[index] = { ...file, full: [...file.full, shows.path] };
  }
  return result;
}

/** The record of a request plus what a NEED answer showed in full. */
export function withShownByNeeds(files: readonly ShownFile[], added: readonly ShownFile[]): ShownFile[] {
  const result = files.map((f) => ({ ...f, full: [...f.full] }));
  for (const extra of added) {
    const index = result.findIndex((f) => f.path === extra.path);
    if (index < 0) {
      result.push({ ...extra, full: [...extra.full] });
      continue;
    }
    const file = result[index];
    if (file === undefined) continue;
    const partial = [...(file.partial ?? []), ...(extra.partial ?? [])];
    result[index] = {
      ...file,
      whole: file.whole || extra.whole,
      full: [...file.full, ...extra.full.filter((p) => !file.full.includes(p))],
      ...(partial.length === 0 ? {} : { partial }),
    };
  }
  return result;
}

/**
 * The record of a request plus the lines its text listed verbatim (uses, FIND answers, type errors' lines), for the
 * files the record holds: a file known only by such lines is not part of the request and cannot be edited in it.
 */
export function withShownLines(
  files: readonly ShownFile[],
  lines: ReadonlyMap<string, readonly string[]>,
): ShownFile[] {
  return files.map((file) => {
    const listed = lines.get(file.path);
    if (listed === undefined || listed.length === 0) return file;
    return { ...file, lines: [...new Set([...(file.lines ?? []), ...listed])] };
  });
}
