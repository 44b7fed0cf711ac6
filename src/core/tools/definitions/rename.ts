import { createTwoFilesPatch } from 'diff';
import { parseElementPath } from '../../elements/elementPath';
import { elementsAtOffset, resolveElementPath } from '../../elements/resolve';
import { blockingProblems, verificationNotes } from '../../edit/verification';
import { remainingTypeErrors } from '../../edit/typeCheckStep';
import { languageFor } from '../../language/languages';
import type { FileChange, TextEdit } from '../../ops/apply';
import type { Operation } from '../../ops/operation';
import { searchText, TextSearchError } from '../../search/textSearch';
import type { RenameLocation } from '../../graph/semantics';
import { RENAME_LANGUAGES } from '../graph/workspaceGraph';
import { count, diffWithinBudget, tablePage, type TableSpec } from '../table';
import { ToolInputError, type ToolAnswer, type ToolEnv, type ToolSpec } from '../types';
import { clipped, stringArg } from '../validateInput';
import { canonicalPathOrThrow, graphOf, withinFile } from './common';
import type { AnswerBudget } from '../budget';

/**
 * `rename` (issue 27): a declaration renamed with every use the language's rename finds (TypeScript's
 * `findRenameLocations`), as one batch through the verification and the write path of `apply`. The text the
 * compiler does not tie to the declaration (strings, comments, other files) is listed, never changed: the agent
 * decides. TypeScript/JavaScript only for now.
 */

interface RenameInput {
  readonly path: string;
  readonly newName: string;
  readonly apply: boolean;
}

/** Words no declaration may be named (ECMAScript reserved words, strict mode's included). */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'implements interface let package private protected public static yield await'
  ).split(' '),
);

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

/** Text matches collected at most; past it the answer says so. */
const MAX_TEXT_HITS = 2_000;
const TEXT_SEARCH_TIME_LIMIT_MS = 15_000;

/** A whole-word match of the old name that the rename leaves as it is. */
export interface UntouchedRow {
  readonly file: string;
  readonly line: number;
  /** The enclosing element's path, or '' (the top level, or a file Scalpel does not outline). */
  readonly element: string;
  /**
   * `string`, `comment`, `code` (not tied to the declaration by the compiler) or `text` (a file of no language); a
   * line with matches of several kinds names each, comma-separated.
   */
  readonly in: string;
  readonly code: string;
}

export const untouchedTable: TableSpec<UntouchedRow> = {
  columns: ['line', 'in', 'element', 'code'],
  group: (row) => row.file,
  cells: (row) => [String(row.line), row.in, withinFile(row.element, row.file), row.code],
  json: (row) => ({ file: row.file, line: row.line, in: row.in, element: row.element, code: row.code }),
};

export const renameTool: ToolSpec<RenameInput> = {
  name: 'rename',
  title: 'Rename',
  description:
    'Rename a TypeScript/JavaScript declaration and its uses, checked like apply; strings and comments holding the name are listed, unchanged. Dry run unless apply.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      newName: { type: 'string' },
      apply: { type: 'boolean' },
    },
    required: ['path', 'newName'],
    additionalProperties: false,
  },
  writes: true,
  parse: (input) => {
    const path = stringArg(input, 'path') ?? '';
    const newName = stringArg(input, 'newName') ?? '';
    if (!IDENTIFIER.test(newName))
      throw new ToolInputError(`"newName" must be an identifier (letters, digits, _ or $), got ${clipped(newName)}`);
    if (RESERVED.has(newName)) throw new ToolInputError(`"newName" ${newName} is a reserved word`);
    return { path, newName, apply: input['apply'] === true };
  },
  describe: (input) => `${input.apply ? 'rename' : 'plan the rename of'} ${input.path} to ${input.newName}`,
  isDryRun: (input) => !input.apply,
  async handle(input, env, budget) {
    const path = canonicalPathOrThrow(env, input.path);
    const { file, segments } = parseElementPath(path);
    if (segments.length === 0)
      throw new ToolInputError(`${path} is a file; give the element path of the declaration to rename`);
    const language = languageFor(file);
    if (language?.id !== 'typescript')
      throw new ToolInputError(
        `${file} is ${language?.displayName ?? 'no language Scalpel reads'}: ${RENAME_LANGUAGES}`,
      );
    const resolved = resolveElementPath(env.outlines.getOrThrow(file), path);
    if (!resolved.ok) throw new ToolInputError(resolved.message);
    const oldName = resolved.element.name;
    if (oldName === input.newName) throw new ToolInputError(`${path} is already named ${oldName}`);
    const graph = await graphOf(env);
    if (graph.rename === undefined) throw new ToolInputError(RENAME_LANGUAGES);
    if (env.progress !== undefined) await env.progress(`finding the places to rename ${oldName}`);
    const plan = graph.rename(path, input.newName);
    const refuse = (why: string): ToolAnswer => ({ text: `${why}\nnothing was written`, isError: true });
    if (plan.refused !== undefined) return refuse(`TypeScript does not rename ${path}: ${plan.refused}`);
    if (plan.collision !== undefined)
      return refuse(
        `${input.newName} is already declared where ${path} is (${plan.collision}); choose another name, or rename that one first`,
      );
    const outside = [...new Set(plan.locations.flatMap((l) => (l.file === undefined ? [l.outside ?? '?'] : [])))];
    if (outside.length > 0)
      return refuse(
        `the rename of ${path} would change files outside the workspace: ${outside.join(', ')}; rename is refused (a declaration merged with a dependency's keeps its name)`,
      );
    const byFile = new Map<string, RenameLocation[]>();
    for (const location of plan.locations) {
      const at = location.file ?? '';
      byFile.set(at, [...(byFile.get(at) ?? []), location]);
    }
    const excluded = [...byFile.keys()].flatMap((f) => {
      const why = env.workspace.excludedBy?.(f);
      return why === undefined ? [] : [`${f} (${why})`];
    });
    if (excluded.length > 0)
      return refuse(`the rename of ${path} would change files excluded from the agent: ${excluded.join(', ')}`);
    const snapshot = env.writer.snapshot();
    const changes: FileChange[] = [];
    for (const [at, locations] of byFile) {
      const before = locations[0]?.text ?? '';
      if (snapshot.read(at) !== before) return refuse(`${at} changed while the rename was planned; call rename again`);
      changes.push(changeOf(at, before, locations));
    }
    changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const gate = await env.writer.checkWrite?.(changes);
    if (gate !== undefined) return refuse(`the rename of ${path} would write where it may not: ${gate}`);

    const places = plan.locations.length;
    const files = changes.map((c) => c.path);
    const lines = [
      `rename ${path} to ${input.newName}: ${count(places)} places in ${count(files.length)} files (${files.join(', ')})`,
      `searched: the ${count(plan.searched)} TypeScript/JavaScript files of the workspace that mention ${oldName}, and what they import`,
      ...plan.gaps.map((gap) => `not searched in full: ${gap}`),
    ];
    // The same verification as apply's: parse, then the type check (only new errors block).
    const operations: Operation[] = changes.map((c) => ({ type: 'REPLACE_FILE', path: c.path, content: c.after }));
    if (env.progress !== undefined) await env.progress(`verifying the rename in ${count(files.length)} files`);
    const verification = await env.writer.verify({ snapshot, operations, partial: false, verify: 'types' });
    const blocking = blockingProblems(verification, { allowNewErrors: false, allowBrokenReferences: false });
    for (const problem of verification.steps.slice(1).flatMap((report) => report.problems))
      lines.push(`${blocking.includes(problem) ? 'refused' : 'allowed'} ${problem.path}: ${problem.message}`);
    lines.push(...verificationNotes(verification.steps).map((note) => `note: ${note}`));
    const verified = verification.ok && verification.apply.ok && blocking.length === 0;
    lines.push(verified ? 'verified: no new type errors' : 'not verified: the checks above refused the rename');
    const untouched = await untouchedOccurrences(env, oldName, plan.locations);

    if (!verified || !input.apply) {
      lines.push(verified ? 'dry run, nothing written (apply: true writes it); the diff:' : 'nothing was written');
      const untouchedText = untouchedSection(env, budget, untouched, env.counter.count(lines.join('\n')) + 200);
      if (verified) lines.push(...diffWithinBudget(env.counter, budget, diffOf(changes), [...lines, ...untouchedText]));
      lines.push(...untouchedText);
      return { text: lines.join('\n'), ...(verified ? {} : { isError: true }) };
    }
    if (env.signal?.aborted === true) return refuse([...lines, 'cancelled before the write'].join('\n'));
    const written = verification.apply.changes;
    const typeErrors = remainingTypeErrors(verification.steps);
    const outcome = await env.writer.write(
      {
        title: `agent rename: ${oldName} to ${input.newName}`,
        operations,
        results: verification.apply.results,
        changes: written,
        ...(typeErrors.length === 0 ? {} : { typeErrors }),
      },
      env.signal,
    );
    lines.push(`${outcome.status}: ${outcome.message}`);
    const ok = outcome.status === 'written' || outcome.status === 'applied';
    if (ok) {
      for (const change of written) env.conversation.recordShown(change.path, change.after);
      env.history.lastBatch = new Map(written.map((change) => [change.path, change.before] as const));
    }
    lines.push(...untouchedSection(env, budget, untouched, env.counter.count(lines.join('\n')) + 60));
    return { text: lines.join('\n'), isError: !['written', 'applied', 'preview'].includes(outcome.status) };
  },
};

/** The file's text with each location's name replaced. */
function changeOf(path: string, before: string, locations: readonly RenameLocation[]): FileChange {
  const edits: TextEdit[] = [...locations]
    .sort((a, b) => a.start - b.start)
    .map((l) => ({ start: l.start, end: l.start + l.length, newText: l.replacement }));
  let after = '';
  let at = 0;
  for (const edit of edits) {
    after += before.slice(at, edit.start) + edit.newText;
    at = edit.end;
  }
  after += before.slice(at);
  return { path, before, after, edits, created: false };
}

function diffOf(changes: readonly FileChange[]): string[] {
  return changes
    .map((c) =>
      createTwoFilesPatch(`a/${c.path}`, `b/${c.path}`, c.before ?? '', c.after, undefined, undefined, { context: 0 }),
    )
    .join('')
    .replace(/^=+\n/gm, '')
    .split('\n')
    .filter((line) => line !== '');
}

/**
 * Whole-word matches of the old name in the workspace's files (the search tool's ripgrep) that the rename does not
 * change: in strings and comments, in code the compiler does not tie to the declaration, in files of no language.
 */
async function untouchedOccurrences(
  env: ToolEnv,
  oldName: string,
  locations: readonly RenameLocation[],
): Promise<{ rows: UntouchedRow[]; notes: string[] }> {
  const listing = env.workspace.listing?.('') ?? {
    files: env.workspace.listSourceFiles(),
    skippedLinks: [],
    truncated: false,
    foldersRead: 0,
  };
  const texts = new Map<string, string | undefined>();
  for (const file of env.workspace.unsavedFiles?.() ?? []) texts.set(file, env.workspace.read(file));
  let result;
  try {
    result = await searchText(
      { text: oldName, mode: 'identifier', caseSensitive: true },
      { root: env.workspace.root, files: listing.files, texts },
      { maxHits: MAX_TEXT_HITS, timeLimitMs: TEXT_SEARCH_TIME_LIMIT_MS },
    );
  } catch (error) {
    if (error instanceof TextSearchError) return { rows: [], notes: [`the text search failed: ${error.message}`] };
    throw error;
  }
  // A location's span is the name itself: a match starting there is one the rename changes.
  const renamed = new Set(locations.map((l) => `${l.file ?? ''}:${l.start}`));
  const rows: UntouchedRow[] = [];
  const byFile = new Map<string, (typeof result.hits)[number][]>();
  for (const hit of result.hits) byFile.set(hit.file, [...(byFile.get(hit.file) ?? []), hit]);
  for (const [file, hits] of byFile) {
    const text = texts.get(file) ?? env.workspace.read(file) ?? '';
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    const language = languageFor(file);
    const scan = language?.scanCode(text);
    const outline = language === undefined ? undefined : env.outlines.get(file);
    for (const hit of hits) {
      const offset = (starts[hit.line - 1] ?? 0) + hit.column - 1;
      if (renamed.has(`${file}:${offset}`)) continue;
      const inside = (ranges: readonly { start: number; end: number }[] | undefined): boolean =>
        ranges?.some((r) => offset >= r.start && offset < r.end) === true;
      const where =
        scan === undefined ? 'text' : inside(scan.comments) ? 'comment' : inside(scan.literals) ? 'string' : 'code';
      const element = outline === undefined ? '' : (elementsAtOffset(outline, offset).at(-1)?.path ?? '');
      // One row per line, naming each kind of match on it.
      const same = rows.at(-1);
      if (same?.file === file && same.line === hit.line) {
        if (!same.in.split(',').includes(where)) rows[rows.length - 1] = { ...same, in: `${same.in},${where}` };
        continue;
      }
      const line = hit.lineText.trim();
      rows.push({
        file,
        line: hit.line,
        element,
        in: where,
        code: line.length > 160 ? `${line.slice(0, 159)}…` : line,
      });
    }
  }
  const notes = [
    ...(result.limitReached ? [`the text search stopped at ${count(MAX_TEXT_HITS)} matches: more may follow`] : []),
    ...(result.cutShort
      ? [`the text search stopped at its time limit after ${count(result.filesSearched)} files`]
      : []),
  ];
  return { rows, notes };
}

/** The untouched matches as a table, as many rows as fit after `reserved` tokens and half of what is left. */
function untouchedSection(
  env: ToolEnv,
  budget: AnswerBudget,
  untouched: { rows: UntouchedRow[]; notes: string[] },
  reserved: number,
): string[] {
  const { rows, notes } = untouched;
  const heading = `not changed: ${count(rows.length)} whole-word matches of the old name the compiler does not tie to it (strings, comments, other code, other files); change them with apply if they mean it`;
  if (rows.length === 0) return ['not changed: no other whole-word match of the old name in the workspace', ...notes];
  const share = { ...budget, maxTokens: reserved + Math.floor(Math.max(0, budget.maxTokens - reserved) / 2) };
  const page = tablePage({
    spec: untouchedTable,
    rows,
    offset: 0,
    reservedTokens: reserved,
    budget: share,
    counter: env.counter,
  });
  return [
    heading,
    page.text,
    ...(page.shown < rows.length
      ? [`${count(rows.length - page.shown)} more not shown: search the name (wholeWord) to see them all`]
      : []),
    ...notes,
  ];
}
