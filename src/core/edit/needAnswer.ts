import { elementIndex, fenceFor } from '../context/buildContext';
import { linesLabel, linesOf, type LineSpan } from '../context/viewPieces';
import type { TokenCounter } from '../context/tokens';
import type { ElementNode, FileOutline } from '../elements/element';
import { levenshtein, nearestPaths, resolveElementPath } from '../elements/resolve';
import { memberList } from './memberList';
import type { PlanFile } from './planning';
import { readNeed } from './needLine';
import type { ShownFile } from './shownRecord';

/**
 * The answer to `NEED <path>` lines in an edit round: the named elements (or files) in full, with their `// @` label
 * and the labels of their members, under a token budget. Whatever is sent is recorded as shown in full, so the
 * seen-code rule then lets the model replace it. A path that names nothing gets the nearest valid paths; a file
 * outside the request is refused without quoting it (issue 17: only the request's files reach the model).
 */

export interface UnansweredNeed {
  readonly path: string;
  readonly reason: string;
  readonly suggestions: readonly string[];
}

export interface NeedAnswer {
  /** The message part that answers the NEED lines. */
  readonly text: string;
  /** Canonical paths (or file paths) sent in full. */
  readonly sent: readonly string[];
  readonly unanswered: readonly UnansweredNeed[];
  /** What the answer showed, to add to the seen-code record. */
  readonly shown: readonly ShownFile[];
}

export function answerNeeds(
  files: readonly PlanFile[],
  paths: readonly string[],
  counter: TokenCounter,
  budget: number,
): NeedAnswer {
  const parts: string[] = [];
  const sent: string[] = [];
  const unanswered: UnansweredNeed[] = [];
  const shown = new Map<
    string,
    { whole: boolean; full: string[]; partial: Array<{ path: string; lines: LineSpan[] }> }
  >();
  let left = budget;
  const send = (
    path: string,
    text: string,
    file: string,
    element: ElementNode | undefined,
    lines?: LineSpan,
  ): boolean => {
    const tokens = counter.count(text);
    if (tokens > left) {
      const members =
        element === undefined || lines !== undefined || element.children.length === 0
          ? undefined
          : memberList(element, counter);
      unanswered.push({
        path,
        reason: `too large to send in full (${tokens} tokens, ${Math.max(0, left)} left of the budget of ${budget}); ${members === undefined ? 'NEED a smaller part of it' : `NEED the members you need instead: ${members}`}`,
        suggestions: [],
      });
      return false;
    }
    left -= tokens;
    parts.push(text);
    const label = element?.path ?? file;
    sent.push(lines === undefined ? label : `${label} ${linesLabel(lines)}`);
    const record = shown.get(file) ?? { whole: false, full: [], partial: [] };
    if (element === undefined) record.whole = true;
    else if (lines !== undefined) record.partial.push({ path: element.path, lines: [lines] });
    else record.full.push(element.path);
    shown.set(file, record);
    return true;
  };

  for (const raw of paths) {
    const need = readNeed(raw);
    const path = need.path.replace(/^file:/i, '').replace(/^\.\//, '');
    const file = fileOf(files, path);
    if (file === undefined) {
      unanswered.push({
        path: raw,
        reason: 'not a file of this request: only its files can be shown',
        suggestions: nearestFiles(files, path),
      });
      continue;
    }
    if (path === file.path || !file.outlinable) {
      if (sent.includes(file.path)) continue;
      send(raw, wholeFileText(file.outline), file.path, undefined);
      continue;
    }
    const resolved = resolveElementPath(file.outline, path);
    if (!resolved.ok) {
      unanswered.push({
        path: raw,
        reason: resolved.message,
        suggestions: resolved.suggestions.length > 0 ? resolved.suggestions : nearestPaths(file.outline, path),
      });
      continue;
    }
    const { element } = resolved;
    if (sent.includes(element.path) || sent.includes(file.path)) continue;
    if (need.lines !== undefined) {
      // A window widened: the lines asked for, within the element, labelled with where they are.
      const span: LineSpan = [
        Math.max(element.startLine, need.lines[0]),
        Math.min(element.endLine, Math.max(need.lines[0], need.lines[1])),
      ];
      if (span[0] > span[1]) {
        unanswered.push({
          path: raw,
          reason: `${element.path} spans ${linesLabel([element.startLine, element.endLine])}: ask for lines within it`,
          suggestions: [],
        });
        continue;
      }
      send(raw, linesText(file.outline, element, span), file.path, element, span);
      continue;
    }
    send(raw, elementText(file.outline, element), file.path, element);
  }

  const lines: string[] = [];
  if (parts.length > 0) lines.push('The code you asked for (NEED), in full:', '', parts.join('\n'));
  for (const need of unanswered) {
    lines.push(`- NEED ${need.path}: ${need.reason}`);
    if (need.suggestions.length > 0) lines.push(`  Existing paths nearby: ${need.suggestions.join(', ')}`);
  }
  return {
    text: lines.join('\n'),
    sent,
    unanswered,
    shown: [...shown].map(([path, record]) => ({
      path,
      whole: record.whole,
      full: record.full,
      signature: [],
      stub: [],
      ...(record.partial.length === 0 ? {} : { partial: record.partial }),
    })),
  };
}

/** The request file a path starts with (the longest, so `src/a.ts` does not take `src/a.ts.bak/...`). */
function fileOf(files: readonly PlanFile[], path: string): PlanFile | undefined {
  let best: PlanFile | undefined;
  for (const file of files) {
    if (path !== file.path && !path.startsWith(`${file.path}/`)) continue;
    if (best === undefined || file.path.length > best.path.length) best = file;
  }
  return best;
}

function nearestFiles(files: readonly PlanFile[], path: string): string[] {
  const head = path.split('/').slice(0, 3).join('/');
  return [...files]
    .map((f) => ({
      path: f.path,
      score: levenshtein(f.path, path.slice(0, f.path.length)) + levenshtein(f.path, head),
    }))
    .sort((a, b) => a.score - b.score)
    .slice(0, 5)
    .map((f) => f.path);
}

function wholeFileText(outline: FileOutline): string {
  const fence = fenceFor(outline.text);
  const body = outline.text.endsWith('\n') ? outline.text : `${outline.text}\n`;
  return `File ${outline.file} (whole file, ${outline.lineCount} lines)\n${elementIndex(outline)}${fence}${outline.language}\n${body}${fence}\n`;
}

/** The element as written, with its label and its members' labels so the model need not guess their paths. */
export function elementText(outline: FileOutline, element: ElementNode): string {
  const code = outline.text.slice(element.range.start, element.range.end);
  const fence = fenceFor(code);
  const members =
    element.children.length === 0
      ? ''
      : `Members: ${element.children.map((c) => c.path.slice(element.path.length + 1)).join(', ')}\n`;
  return `${members}${fence}${outline.language}\n// @ ${element.path}\n${code}\n${fence}\n`;
}

/** Lines of a long element as written, labelled with the element and the lines: what `NEED <path> LINES a-b` sends. */
function linesText(outline: FileOutline, element: ElementNode, span: LineSpan): string {
  const code = linesOf(outline.text, span);
  const fence = fenceFor(code);
  return `${fence}${outline.language}\n// @ ${element.path}, ${linesLabel(span)}\n${code}\n${fence}\n`;
}
