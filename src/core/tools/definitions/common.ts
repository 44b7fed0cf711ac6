import { lastSegmentOf, parseElementPath } from '../../elements/elementPath';
import { resolveElementPath } from '../../elements/resolve';
import { languageFor, supportedLanguages } from '../../language/languages';
import type { AnswerBudget } from '../budget';
import { decodeCursorOrThrow, encodeCursor, queryKey } from '../budget';
import type { CodeGraph } from '../graph/codeGraph';
import { count, pageNote, tablePage, type TableSpec } from '../table';
import { ToolInputError, type ToolAnswer, type ToolEnv } from '../types';
import { normalizeWorkspacePath, type WorkspaceListing } from '../../workspace/workspaceFiles';
import { globToRegExp } from '../../workspace/glob';
import { takeTurn } from '../turns';

/** The part of an element path after its file: `class[User]/method[validate]`. */
export function withinFile(path: string, file: string): string {
  return path.startsWith(`${file}/`) ? path.slice(file.length + 1) : path;
}

/** `3-40`, or `5` for one line. */
export function lineRange(start: number, end: number): string {
  return start === end ? String(start) : `${start}-${end}`;
}

export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export { lastSegmentOf };

export function cursorOf(input: Record<string, unknown>): { cursor?: string } {
  const cursor = input['cursor'];
  return typeof cursor === 'string' && cursor !== '' ? { cursor } : {};
}

/** The answer's note says how to pass it: no description needed in the tool list. */
export const CURSOR_PROPERTY = { type: 'string' } as const;

/**
 * A paged tabular answer: the heading, the rows that fit, and the note saying what was left out and how to get it.
 */
export function pagedAnswer<R>(
  env: ToolEnv,
  budget: AnswerBudget,
  input: Record<string, unknown>,
  heading: string,
  spec: TableSpec<R>,
  rows: readonly R[],
  what: string,
  extraNotes: readonly string[] = [],
): ToolAnswer {
  const key = queryKey(input);
  const offset = decodeCursorOrThrow(typeof input['cursor'] === 'string' ? input['cursor'] : undefined, key);
  if (offset > rows.length)
    return { text: `${heading}\ncursor past the end: there are ${rows.length} ${what}`, isError: true };
  if (rows.length === 0) return { text: [heading, `no ${what}`, ...extraNotes].join('\n') };
  // The heading, the note and its cursor, counted before the rows so the page stops in time.
  const reserved = env.counter.count(`${heading}\n${extraNotes.join('\n')}`) + 60;
  const page = tablePage({ spec, rows, offset, reservedTokens: reserved, budget, counter: env.counter });
  const next = page.nextOffset === undefined ? undefined : encodeCursor(page.nextOffset, key);
  return {
    text: [heading, page.text, pageNote(rows.length, offset, page.shown, what, next), ...extraNotes].join('\n'),
  };
}

/**
 * The canonical form of an element path (resolved tolerantly, as the apply engine does), or the file itself for a
 * path without element segments; a path that names nothing throws with the nearest valid paths.
 */
export function canonicalPathOrThrow(env: ToolEnv, path: string): string {
  let parsed;
  try {
    parsed = parseElementPath(path);
  } catch (error) {
    throw new ToolInputError(error instanceof Error ? error.message : String(error));
  }
  const outline = env.outlines.getOrThrow(parsed.file);
  if (parsed.segments.length === 0) return outline.file;
  const resolved = resolveElementPath(outline, path);
  if (!resolved.ok) {
    throw new ToolInputError(
      `${resolved.message}${resolved.suggestions.length === 0 ? '' : `; nearest: ${resolved.suggestions.join(', ')}`}`,
    );
  }
  return resolved.path;
}

/** The code graph, saying first when this call has to build it. */
export async function graphOf(env: ToolEnv): Promise<CodeGraph> {
  if (!env.graphReady() && env.progress !== undefined) {
    const files = env.workspace.listSourceFiles().length;
    await env.progress(`building the code graph of ${count(files)} source files (once; later queries reuse it)`);
  }
  const shared = env.graph();
  const graph = env.signal === undefined || shared.withSignal === undefined ? shared : shared.withSignal(env.signal);
  await graph.prepare?.(() => takeTurn(env, 'while reading the workspace for the code graph'));
  return graph;
}

/**
 * References, callers, callees and call chains come from a language's semantics (TypeScript's language service); a
 * file of another language has none, which the agent is told instead of getting an empty list that reads as "unused".
 */
export function semanticsOrThrow(path: string, what: string): void {
  const file = parseElementPath(path).file;
  const language = languageFor(file);
  if (language === undefined || language.semantics !== undefined) return;
  const withSemantics = supportedLanguages()
    .filter((l) => l.semantics !== undefined)
    .map((l) => l.displayName)
    .join(', ');
  throw new ToolInputError(
    `${what} are followed in ${withSemantics} files only, and ${file} is ${language.displayName}; search names with find_symbols instead`,
  );
}

/**
 * What a folder's listing left out that the agent should know: links not followed (they lead outside the workspace)
 * and a listing cut at its limit. Ignored and excluded files are left out silently, as in the editor's own search.
 */
export function listingNotesOf(listing: WorkspaceListing | undefined): string[] {
  if (listing === undefined) return [];
  const notes: string[] = [];
  const links = listing.skippedLinks;
  if (links.length > 0) {
    const named = links.slice(0, 5).map((link) => `${link.path} (${link.reason})`);
    notes.push(
      `not followed: ${named.join(', ')}${links.length > 5 ? ` and ${count(links.length - 5)} more links` : ''}`,
    );
  }
  if (listing.truncated)
    notes.push(`the workspace listing stopped at ${count(listing.files.length)} files: files past it are not included`);
  return notes;
}

/** A VS Code glob: with a `/` it matches whole paths (`src/**\/*.ts`), without one a file or folder name anywhere. */
function globMatcherOf(glob: string): (path: string) => boolean {
  const normalized = normalizeWorkspacePath(glob);
  const regExp = globToRegExp(normalized.includes('/') ? normalized : `**/${normalized}`);
  return (path) => {
    const segments = path.split('/');
    return segments.some((_, i) => regExp.test(segments.slice(0, segments.length - i).join('/')));
  };
}

/** Whether a file passes `include` (one of them, when given) and no `exclude`. */
export function fileFilterOf(
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): (file: string) => boolean {
  const includes = (include ?? []).map(globMatcherOf);
  const excludes = (exclude ?? []).map(globMatcherOf);
  return (file) => (includes.length === 0 || includes.some((m) => m(file))) && !excludes.some((m) => m(file));
}

/** The `include` and `exclude` arguments of the tools that filter files. */
export const FILE_GLOBS = {
  include: { type: 'array', items: { type: 'string' } },
  exclude: { type: 'array', items: { type: 'string' } },
} as const;
