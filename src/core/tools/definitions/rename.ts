import { createTwoFilesPatch } from 'diff';
import { parseElementPath } from '../../elements/elementPath';
import { resolveElementPath } from '../../elements/resolve';
import { blockingProblems, verificationNotes } from '../../edit/verification';
import { remainingTypeErrors, typeCheckLines, typeCheckSummary } from '../../edit/typeCheckStep';
import { languageFor } from '../../language/languages';
import { applyEdits, type FileChange } from '../../ops/apply';
import { keptNameNote } from '../../ops/apply/renameMerge';
import { untouchedAfter } from '../../ops/apply/untouchedAfter';
import type { ByNamePlace, Operation, UntouchedMatch } from '../../ops/operation';
import { isIdentifier, newNameProblem } from '../../ops/newName';
import { byNamePlaces, placeCounts, RENAME_LANGUAGES, renameFileEdits, renameRefusal } from '../../graph/renamePlan';
import { untouchedMatches } from '../../search/untouchedMatches';
import { count, diffWithinBudget, tablePage, type TableSpec } from '../table';
import { ToolInputError, type ToolAnswer, type ToolEnv, type ToolSpec } from '../types';
import { clipped, stringArg } from '../validateInput';
import { canonicalPathOrThrow, graphOf, withinFile } from './common';
import type { AnswerBudget } from '../budget';
import type { RenamePlan } from '../graph/codeGraph';

/**
 * `rename` (issue 27): a declaration renamed with every use the language's rename finds (TypeScript's
 * `findRenameLocations`; for Python, Go, Rust, Java and C# the reference search, whose places only the name ties are
 * renamed and listed as such), as one batch through the verification and the write path of `apply`. The text the
 * rename does not tie to the declaration (strings, comments, other files) is listed, never changed: the agent decides.
 */

interface RenameInput {
  readonly path: string;
  readonly newName: string;
  readonly apply: boolean;
}

/** A whole-word match of the old name that the rename leaves as it is. */
export type UntouchedRow = UntouchedMatch;

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
    'Rename a declaration and its uses, checked like apply; lists by-name uses (non-TS) and strings/comments with the name. Dry run unless apply.',
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
    if (!isIdentifier(newName))
      throw new ToolInputError(`"newName" must be an identifier (letters, digits, _ or $), got ${clipped(newName)}`);
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
    if (language === undefined) throw new ToolInputError(`${file} is no language Scalpel reads: ${RENAME_LANGUAGES}`);
    const badName = newNameProblem(input.newName, language.id);
    if (badName !== undefined)
      throw new ToolInputError(`"newName" ${input.newName} ${badName} in ${language.displayName}`);
    const resolved = resolveElementPath(env.outlines.getOrThrow(file), path);
    if (!resolved.ok) throw new ToolInputError(resolved.message);
    const graph = await graphOf(env);
    if (graph.rename === undefined) throw new ToolInputError(RENAME_LANGUAGES);
    if (env.progress !== undefined) await env.progress(`finding the places to rename ${resolved.element.name}`);
    const plan = await graph.rename(path, input.newName);
    const { oldName } = plan;
    if (oldName === input.newName) throw new ToolInputError(`${path} is already named ${oldName}`);
    const refuse = (why: string): ToolAnswer => ({ text: `${why}\nnothing was written`, isError: true });
    const refusal = renameRefusal(plan, path, input.newName);
    if (refusal !== undefined) return refuse(refusal);
    const edited = renameFileEdits(plan);
    const excluded = edited.flatMap(({ path: f }) => {
      const why = env.workspace.excludedBy?.(f);
      return why === undefined ? [] : [`${f} (${why})`];
    });
    if (excluded.length > 0)
      return refuse(`the rename of ${path} would change files excluded from the agent: ${excluded.join(', ')}`);
    const snapshot = env.writer.snapshot();
    const changes: FileChange[] = [];
    for (const { path: at, before, edits } of edited) {
      if (snapshot.read(at) !== before) return refuse(`${at} changed while the rename was planned; call rename again`);
      changes.push({ path: at, before, after: applyEdits(before, edits), edits, created: false });
    }
    const gate = await env.writer.checkWrite?.(changes);
    if (gate !== undefined) return refuse(`the rename of ${path} would write where it may not: ${gate}`);

    const { places, byName } = placeCounts(plan);
    const languageName = language.id === 'typescript' ? 'TypeScript/JavaScript' : language.displayName;
    const files = changes.map((c) => c.path);
    const lines = [
      `rename ${path} to ${input.newName}: ${count(places)} places in ${count(files.length)} files (${files.join(', ')})`,
      plan.resolution === 'compiler'
        ? `searched: the ${count(plan.searched)} ${languageName} files of the workspace that mention ${oldName}, and what they import`
        : `searched: the ${count(plan.searched)} ${languageName} files of the workspace that mention ${oldName}, by Scalpel's reference search (identifiers resolved through imports, no compiler): ${count(places - byName)} places resolved, ${count(byName)} tied by name only`,
      ...plan.gaps.map((gap) => `not searched in full: ${gap}`),
    ];
    const tied = byNamePlaces(plan);
    const kept = keptNameNote(edited);
    if (kept !== undefined) lines.push(kept);
    // The same verification as apply's: parse, then the type check (only new errors block).
    const operations: Operation[] = changes.map((c) => ({ type: 'REPLACE_FILE', path: c.path, content: c.after }));
    if (env.progress !== undefined) await env.progress(`verifying the rename in ${count(files.length)} files`);
    const verification = await env.writer.verify({ snapshot, operations, partial: false, verify: 'types' });
    const blocking = blockingProblems(verification, { allowNewErrors: false, allowBrokenReferences: false });
    for (const problem of verification.steps.slice(1).flatMap((report) => report.problems))
      lines.push(`${blocking.includes(problem) ? 'refused' : 'allowed'} ${problem.path}: ${problem.message}`);
    lines.push(...verificationNotes(verification.steps).map((note) => `note: ${note}`));
    const verified = verification.ok && verification.apply.ok && blocking.length === 0;
    const checks = typeCheckLines(verification.steps);
    // A language of the batch the type check has no line for has no checker at all (C#): say so, not "verified".
    const checkedLanguages = new Set(typeCheckSummary(verification.steps)?.checks.map((c) => c.language) ?? []);
    const uncheckedLanguages = [...new Set(files.map((f) => languageFor(f)?.displayName ?? f))].filter(
      (name) => !checkedLanguages.has(name),
    );
    const ran = checks.filter((line) => line.startsWith('types checked with'));
    const unchecked = [
      ...checks.filter((line) => !ran.includes(line)),
      ...uncheckedLanguages.map((name) => `${name} not type-checked: no checker for it`),
    ];
    const partly = [...ran.map((line) => `no new type errors (${line})`), ...unchecked];
    lines.push(
      !verified
        ? 'not verified: the checks above refused the rename'
        : unchecked.length === 0
          ? `verified: no new type errors${checks.length === 0 ? '' : ` (${checks.join('; ')})`}`
          : `verified: it parses; ${partly.join('; ')}`,
    );
    const untouched = await untouchedOccurrences(env, oldName, plan.locations);

    if (!verified || !input.apply) {
      lines.push(...byNameSection(tied));
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
    // The places tied by name and the lines left with the old name, as the written files read them now.
    lines.push(...byNameSection(ok ? untouchedAfter(tied, changes) : tied));
    const after = ok ? { ...untouched, rows: untouchedAfter(untouched.rows, changes) } : untouched;
    lines.push(...untouchedSection(env, budget, after, env.counter.count(lines.join('\n')) + 60));
    return { text: lines.join('\n'), isError: !['written', 'applied', 'preview'].includes(outcome.status) };
  },
};

/** Most by-name places the answer lists; the rest are counted. */
const MAX_BY_NAME_SHOWN = 20;

/** The places only the name ties to the declaration, one a line, for the agent to check. */
function byNameSection(places: readonly ByNamePlace[]): string[] {
  if (places.length === 0) return [];
  return [
    `tied by name only (the syntax does not tell the value's type, or a subclass's base; check each means the renamed declaration, or use apply instead):`,
    ...places.slice(0, MAX_BY_NAME_SHOWN).map((p) => `  ${p.file}:${p.line} ${p.code}`),
    ...(places.length > MAX_BY_NAME_SHOWN ? [`  ${count(places.length - MAX_BY_NAME_SHOWN)} more`] : []),
  ];
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

/** The workspace's whole-word matches of the old name that the rename does not change, with unsaved texts in place. */
async function untouchedOccurrences(
  env: ToolEnv,
  oldName: string,
  locations: RenamePlan['locations'],
): Promise<{ rows: UntouchedRow[]; notes: string[] }> {
  const listing = env.workspace.listing?.('') ?? {
    files: env.workspace.listSourceFiles(),
    skippedLinks: [],
    truncated: false,
    foldersRead: 0,
  };
  const texts = new Map<string, string | undefined>();
  for (const file of env.workspace.unsavedFiles?.() ?? []) texts.set(file, env.workspace.read(file));
  return untouchedMatches(
    {
      root: env.workspace.root,
      files: listing.files,
      texts,
      read: (file) => env.workspace.read(file),
      outlineOf: (file) => env.outlines.get(file),
    },
    oldName,
    new Set(locations.map((l) => `${l.file ?? ''}:${l.start}`)),
  );
}

/** The untouched matches as a table, as many rows as fit after `reserved` tokens and half of what is left. */
function untouchedSection(
  env: ToolEnv,
  budget: AnswerBudget,
  untouched: { rows: UntouchedRow[]; notes: string[] },
  reserved: number,
): string[] {
  const { rows, notes } = untouched;
  const heading = `not changed: ${count(rows.length)} whole-word matches of the old name the rename does not tie to it (strings, comments, other code, other files); change them with apply if they mean it`;
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
