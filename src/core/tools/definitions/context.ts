import { buildContext, ContextBudgetError, type ContextFileRequest } from '../../context/buildContext';
import type { ElementNode } from '../../elements/element';
import { parseElementPath } from '../../elements/elementPath';
import { resolveElementPathOrThrow } from '../../elements/resolve';
import { decodeCursorOrThrow, encodeCursor, queryKey } from '../budget';
import { count } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
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
function sliceOf(text: string, element: ElementNode, from: number, lines: number): { text: string; to: number } {
  const all = text.slice(element.range.start, element.range.end).split('\n');
  const to = Math.min(all.length, from + lines);
  const width = String(element.startLine + to).length;
  const body = all
    .slice(from, to)
    .map((line, i) => `${String(element.startLine + from + i).padStart(width)}| ${line}`)
    .join('\n');
  return { text: body, to };
}

export const contextTool: ToolSpec<ContextInput> = {
  name: 'context',
  title: 'Focused context',
  description:
    'The code of the focused elements in full, inside a view of their files: containers as headers, neighbours as ' +
    'signatures, the rest as one-line stubs, each labelled with its element path (`// @ path`). Read an element ' +
    'this way before replacing it; only the imports its code uses come with it. Over the 80-line snippet limit, a ' +
    'container shows its members as signatures and another element comes in numbered slices with a cursor.',
  inputSchema: {
    type: 'object',
    properties: {
      focus: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: 'Element paths to show in full (a file path alone shows the file as signatures and stubs).',
      },
      maxTokens: {
        type: 'integer',
        minimum: 200,
        description: `Token budget of the view (default ${DEFAULT_CONTEXT_TOKENS}; at most the answer budget). Far stubs go first.`,
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
    if (offset === 0) {
      const requests: ContextFileRequest[] = [...byFile.entries()].map(([file, { focus, containers, apart }]) => ({
        outline: env.outlines.getOrThrow(file),
        focus,
        ...(containers.length === 0 ? {} : { containers: containers.map((path) => ({ path })) }),
        ...(apart.length === 0 ? {} : { shownApart: apart }),
      }));
      // Room for the slices and notes below the view.
      const sliceReserve = oversized.length === 0 ? 300 : Math.min(maxTokens / 2, 4_000);
      try {
        const view = buildContext(requests, env.counter, { budget: Math.max(200, maxTokens - sliceReserve) });
        sections.push(view.text.trimEnd());
        if (view.dropped.length > 0)
          notes.push(
            `${count(view.dropped.length)} elements left out to fit the budget; focus on fewer elements to see them`,
          );
      } catch (error) {
        if (!(error instanceof ContextBudgetError)) throw error;
        // Only after every focused element was shown in part: the answer holds too little for this many elements.
        throw new ToolInputError(
          `even with their members named only and long elements as windows, the ${count(input.focus.length)} focused ` +
            `elements need ${count(error.required)} tokens, more than this answer can hold (${count(error.budget)}); ` +
            'ask for fewer elements per call',
        );
      }
    }
    const first = oversized[0];
    if (first !== undefined) {
      const lines = first.element.endLine - first.element.startLine + 1;
      const slice = sliceOf(first.text, first.element, offset, budget.maxSnippetLines);
      sections.push(
        `${first.path} is ${count(lines)} lines, over the ${budget.maxSnippetLines}-line snippet limit: ` +
          `lines ${lineRange(first.element.startLine + offset, first.element.startLine + slice.to - 1)}\n${slice.text}`,
      );
      if (slice.to < lines)
        notes.push(
          `next ${budget.maxSnippetLines} lines of ${first.path}: call again with cursor "${encodeCursor(slice.to, key)}"`,
        );
      const members = first.element.children.map((c) => lastSegmentOf(c.path));
      if (members.length > 0 && offset === 0)
        notes.push(`or focus on its members: ${members.slice(0, 30).join(', ')}${members.length > 30 ? ', …' : ''}`);
      for (const other of oversized.slice(1))
        notes.push(`${other.path} is also over ${budget.maxSnippetLines} lines: ask for it in its own call`);
    }
    return { text: [...sections, ...notes].join('\n') };
  },
};
