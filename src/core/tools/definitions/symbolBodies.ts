import type { ElementNode } from '../../elements/element';
import type { AnswerBudget } from '../budget';
import { decodeTextCursorOrThrow, encodeTextCursor, queryKey } from '../budget';
import { count } from '../table';
import type { ToolAnswer, ToolEnv } from '../types';
import { lineRange, withinFile } from './common';

/**
 * find_symbols with `includeBody` (issue 27): each match's full text in a fenced block under its line range and path,
 * with its members `depth` levels down listed first. Matches fill the answer budget one by one; one that does not fit
 * a page of its own comes as its first lines with a cursor for the rest, never as an error.
 */

export interface BodyMatch {
  readonly file: string;
  readonly element: ElementNode;
  /** Members listed under it (already cut to the depth asked for), with their level below it (1 = a child). */
  readonly members: ReadonlyArray<{ readonly element: ElementNode; readonly level: number }>;
}

/** The element's lines as the file has them: the first one from its line's start, so indentation stays aligned. */
function linesOf(text: string, element: ElementNode): string[] {
  const lineStart = text.lastIndexOf('\n', element.range.start - 1) + 1;
  const before = text.slice(lineStart, element.range.start);
  const start = /^\s*$/.test(before) ? lineStart : element.range.start;
  return text.slice(start, element.range.end).split('\n');
}

/** A fence longer than any run of backticks in the code. */
function fenceFor(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.map((line) => Math.max(0, ...(line.match(/`+/g) ?? []).map((r) => r.length))));
  return '`'.repeat(longest + 1);
}

export function bodyAnswer(
  env: ToolEnv,
  budget: AnswerBudget,
  input: Record<string, unknown>,
  heading: string,
  matches: readonly BodyMatch[],
  extraNotes: readonly string[],
): ToolAnswer {
  const key = queryKey(input);
  const { row: offset, line: fromLine } = decodeTextCursorOrThrow(
    typeof input['cursor'] === 'string' ? input['cursor'] : undefined,
    key,
  );
  if (offset > matches.length)
    return { text: `${heading}\ncursor past the end: there are ${matches.length} symbols`, isError: true };
  if (matches.length === 0) return { text: [heading, 'no symbols', ...extraNotes].join('\n') };
  // The heading, the notes and the closing note with its cursor, counted before the bodies so the page stops in time.
  let used = env.counter.count(`${heading}\n${extraNotes.join('\n')}`) + 80;
  const blocks: string[] = [];
  const shownFiles = new Set<string>();
  let group: string | undefined;
  let index = offset;
  let cut: { path: string; shownTo: number; lines: number } | undefined;
  const end = Math.min(matches.length, offset + budget.pageSize);
  for (; index < end; index++) {
    const match = matches[index] as BodyMatch;
    const first = index === offset;
    const skip = first ? fromLine : 0;
    const outline = env.outlines.getOrThrow(match.file);
    const all = linesOf(outline.text, match.element);
    const fence = fenceFor(all);
    const start = match.element.startLine + skip;
    const head = [
      ...(match.file === group ? [] : [`## ${match.file}`]),
      `${lineRange(start, match.element.endLine)} ${withinFile(match.element.path, match.file)}${skip > 0 ? ` (lines ${count(skip + 1)}-${count(all.length)} of its ${count(all.length)})` : ''}`,
      ...(skip > 0
        ? []
        : match.members.map(
            ({ element, level }) =>
              `${' '.repeat(level)}${lineRange(element.startLine, element.endLine)} ${withinFile(element.path, match.file)}`,
          )),
      `${fence}${outline.language}`,
    ];
    const body = all.slice(skip);
    const whole = [...head, ...body, fence].join('\n');
    const cost = env.counter.count(whole) + 1;
    if (used + cost <= budget.maxTokens) {
      shownFiles.add(match.file);
      blocks.push(whole);
      used += cost;
      group = match.file;
      continue;
    }
    if (!first) break;
    // A body over what is left of the page: its first lines, and a cursor to the line after them.
    used += env.counter.count(head.join('\n')) + env.counter.count(fence) + 2;
    const shown: string[] = [];
    for (const line of body) {
      const lineCost = env.counter.count(line) + 1;
      if (shown.length > 0 && used + lineCost > budget.maxTokens) break;
      used += lineCost;
      shown.push(line);
    }
    shownFiles.add(match.file);
    blocks.push([...head, ...shown, fence].join('\n'));
    group = match.file;
    if (skip + shown.length < all.length) {
      cut = { path: match.element.path, shownTo: skip + shown.length, lines: all.length };
      break;
    }
  }
  // What the agent read is its baseline, as after context: get_changes and apply's merge start from it.
  for (const file of shownFiles) env.conversation.recordShown(file, env.outlines.getOrThrow(file).text);
  const notes: string[] = [];
  if (cut !== undefined) {
    const next = encodeTextCursor(index, cut.shownTo, key);
    const more = matches.length - index - 1;
    notes.push(
      `${cut.path}: lines ${count(fromLine > 0 && index === offset ? fromLine + 1 : 1)}-${count(cut.shownTo)} of its ${count(cut.lines)} shown, to fit the answer's ${count(budget.maxTokens)} tokens; the rest${more > 0 ? ` and ${count(more)} more symbols` : ''}: call again with the same arguments and cursor "${next}"`,
    );
  } else if (index < matches.length) {
    const next = encodeTextCursor(index, 0, key);
    notes.push(
      `symbols ${count(offset + 1)}-${count(index)} of ${count(matches.length)}; ${count(matches.length - index)} more: call again with the same arguments and cursor "${next}"`,
    );
  } else {
    notes.push(
      offset === 0
        ? `${count(matches.length)} symbols, all shown`
        : `symbols ${count(offset + 1)}-${count(matches.length)} of ${count(matches.length)}, the last page`,
    );
  }
  return { text: [heading, ...blocks, ...notes, ...extraNotes].join('\n') };
}
