import { buildContext, ContextBudgetError, type ContextFileRequest } from '../../context/buildContext';
import type { ElementNode } from '../../elements/element';
import { parseElementPath } from '../../elements/elementPath';
import { resolveElementPathOrThrow } from '../../elements/resolve';
import { decodeCursorOrThrow, encodeCursor, queryKey } from '../budget';
import { count } from '../table';
import type { TokenCounter } from '../../context/tokens';
import { type ToolSpec } from '../types';
import { numberArg, stringsArg } from '../validateInput';
import { canonicalPathOrThrow, CURSOR_PROPERTY, cursorOf, lastSegmentOf, lineRange } from './common';

/**
 * The view's default budget: enough for a focused element and its neighbours' signatures, while the stubs of a
 * 5,000-line file would otherwise fill the whole answer budget (measured: p95 9.6k tokens at 10k) with code far away.
 */
export const DEFAULT_CONTEXT_TOKENS = 4_000;

interface ContextInput {
  readonly focus: readonly string[];
  readonly maxTokens?: number;
  readonly cursor?: string;
}

/** An element over the snippet limit, shown in numbered slices instead of in the focused view. */
/** Lines `from`.. of the element, numbered: at most `lines` of them and, past the first, what fits `tokens`. */
function sliceOf(
  text: string,
  element: ElementNode,
  from: number,
  lines: number,
  tokens: number,
  counter: TokenCounter,
): { text: string; to: number } {
  const all = text.slice(element.range.start, element.range.end).split('\n');
  const last = Math.min(all.length, from + lines);
  const width = String(element.startLine + last).length;
  const shown: string[] = [];
  let used = 0;
  let to = from;
  for (; to < last; to++) {
    const line = `${String(element.startLine + to).padStart(width)}| ${all[to] ?? ''}`;
    used += counter.count(line) + 1;
    if (to > from && used > tokens) break;
    shown.push(line);
  }
  return { text: shown.join('\n'), to };
}

export const contextTool: ToolSpec<ContextInput> = {
  name: 'context',
  title: 'Context',
  description:
    'Elements in full, the rest of their files as stubs, labelled `// @ path`. Read an element so before replacing it.',
  inputSchema: {
    type: 'object',
    properties: {
      focus: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
      },
      maxTokens: {
        type: 'integer',
        minimum: 200,
      },
      cursor: CURSOR_PROPERTY,
    },
    required: ['focus'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => {
    const maxTokens = numberArg(input, 'maxTokens');
    return {
      focus: stringsArg(input, 'focus') ?? [],
      ...(maxTokens === undefined ? {} : { maxTokens }),
      ...cursorOf(input),
    };
  },
  describe: (input) => `context of ${input.focus.join(', ')}`,
  handle(input, env, budget) {
    const maxTokens = Math.min(budget.maxTokens, input.maxTokens ?? DEFAULT_CONTEXT_TOKENS);
    const byFile = new Map<string, { focus: string[]; containers: string[]; apart: string[] }>();
    const oversized: Array<{ path: string; element: ElementNode; text: string }> = [];
    for (const raw of input.focus) {
      const path = canonicalPathOrThrow(env, raw);
      const file = parseElementPath(path).file;
      const outline = env.outlines.getOrThrow(file);
      const paths = byFile.get(file) ?? { focus: [], containers: [], apart: [] };
      byFile.set(file, paths);
      if (path === file) continue;
      const element = resolveElementPathOrThrow(outline, path).element;
      if (element.endLine - element.startLine + 1 <= budget.maxSnippetLines) paths.focus.push(path);
      else if (element.children.length > 0) {
        // A long container shows its header, own text and members' signatures: focus on a member for its body.
        paths.containers.push(path);
      } else {
        oversized.push({ path, element, text: outline.text });
        paths.apart.push(path);
      }
    }
    // What the agent sees now is its baseline: get_changes reports the user's edits since, apply merges with them.
    for (const file of byFile.keys()) env.conversation.recordShown(file, env.outlines.getOrThrow(file).text);
    const key = queryKey({ ...input });
    const offset = decodeCursorOrThrow(input.cursor, key);
    const sections: string[] = [];
    const notes: string[] = [];
    /** Focused elements that do not fit the view come in slices like a long one, never as an error. */
    const sliceFocused = (): void => {
      const outlines = [...byFile.entries()].flatMap(([file, paths]) =>
        paths.focus.map((path) => ({
          path,
          element: resolveElementPathOrThrow(env.outlines.getOrThrow(file), path).element,
          text: env.outlines.getOrThrow(file).text,
        })),
      );
      oversized.unshift(...outlines);
      for (const paths of byFile.values()) paths.focus.length = 0;
    };
    // A cursor is only ever given for slices: a later page slices what the first one did.
    if (offset > 0 && oversized.length === 0) sliceFocused();
    if (offset === 0) {
      const requests: ContextFileRequest[] = [...byFile.entries()].map(([file, { focus, containers, apart }]) => ({
        outline: env.outlines.getOrThrow(file),
        focus,
        ...(containers.length === 0 ? {} : { containers: containers.map((path) => ({ path })) }),
        ...(apart.length === 0 ? {} : { shownApart: apart }),
      }));
      // Room for the slices and notes below the view.
      const sliceReserve = oversized.length === 0 ? 300 : Math.min(maxTokens / 2, 4_000);
      const viewOf = (budgetTokens: number): string | undefined => {
        try {
          // A focus that does not fit comes in slices here, never shown in part (windows meant for the edit
          // pipeline's NEED ... LINES).
          const view = buildContext(requests, env.counter, { budget: budgetTokens, showInPart: false });
          if (view.dropped.length > 0)
            notes.push(
              `${count(view.dropped.length)} elements left out to fit the budget; focus on fewer elements to see them`,
            );
          return view.text.trimEnd();
        } catch (error) {
          if (!(error instanceof ContextBudgetError)) throw error;
          return undefined;
        }
      };
      let view = viewOf(Math.max(200, maxTokens - sliceReserve));
      if (view === undefined) {
        // Over the view's budget: the files as stubs, the focused elements in slices that fit (issue 27: this was an
        // error blaming a budget the agent never set).
        const focused = [...byFile.values()].flatMap((paths) => paths.focus);
        sliceFocused();
        notes.unshift(
          `${focused.join(', ')} ${focused.length === 1 ? 'is' : 'are'} over the view's ${count(maxTokens)} tokens (maxTokens, default ${count(DEFAULT_CONTEXT_TOKENS)}): shown in slices`,
        );
        view = viewOf(Math.max(200, Math.floor(maxTokens / 4)));
      }
      if (view !== undefined) sections.push(view);
    }
    const first = oversized[0];
    if (first !== undefined) {
      const lines = first.element.endLine - first.element.startLine + 1;
      const sliceTokens = Math.max(200, maxTokens - env.counter.count(sections.join('\n')) - 300);
      const slice = sliceOf(first.text, first.element, offset, budget.maxSnippetLines, sliceTokens, env.counter);
      sections.push(
        `${first.path} is ${count(lines)} lines${lines > budget.maxSnippetLines ? `, over the ${budget.maxSnippetLines}-line snippet limit` : ''}: lines ` +
          `${lineRange(first.element.startLine + offset, first.element.startLine + slice.to - 1)}\n${slice.text}`,
      );
      if (slice.to < lines)
        notes.push(`the next lines of ${first.path}: call again with cursor "${encodeCursor(slice.to, key)}"`);
      const members = first.element.children.map((c) => lastSegmentOf(c.path));
      if (members.length > 0 && offset === 0)
        notes.push(`or focus on its members: ${members.slice(0, 30).join(', ')}${members.length > 30 ? ', …' : ''}`);
      for (const other of oversized.slice(1))
        notes.push(`${other.path} is also too long to show here: ask for it in its own call`);
    }
    return { text: [...sections, ...notes].join('\n') };
  },
};
