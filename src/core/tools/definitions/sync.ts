import { changesSinceBaseline } from '../../sync/sync';
import { renderChanges } from '../../sync/renderChanges';
import type { FileChanges } from '../../sync/userChanges';
import { count } from '../table';
import { ToolInputError, type ToolEnv, type ToolSpec } from '../types';
import { stringsArg } from '../validateInput';
import { outlineTable, rowsOf, type OutlineRow } from './outline';
import { pagedAnswer } from './common';
import { normalizeWorkspacePath } from '../../workspace/workspaceFiles';

/**
 * The sync tools (issue 11): `get_changes`, what the user changed in files since the agent last saw them (through
 * the context tool, sync_state or its own apply), element by element with compact diffs; `sync_state`, the current
 * text becomes the baseline, answered with a compact outline of what is there now.
 */

interface PathsInput {
  readonly paths: readonly string[];
}

function filesOf(raw: readonly string[], env: ToolEnv): string[] {
  const files: string[] = [];
  for (const entry of raw) {
    const path = normalizeWorkspacePath(entry);
    if (env.workspace.isFolder(path)) files.push(...env.workspace.listSourceFiles(path));
    else files.push(path);
  }
  const unique = [...new Set(files)];
  for (const file of unique) {
    const exclusion = env.workspace.excludedBy?.(file);
    if (exclusion !== undefined)
      throw new ToolInputError(`${file} is excluded by ${exclusion}; Scalpel does not show it`);
  }
  return unique;
}

const PATHS_SCHEMA = {
  type: 'array',
  items: { type: 'string' },
  minItems: 1,
} as const;

export const getChangesTool: ToolSpec<PathsInput> = {
  name: 'get_changes',
  title: "User's changes",
  description: "The user's edits since you last saw the files, per element, as diffs.",
  inputSchema: {
    type: 'object',
    properties: { paths: PATHS_SCHEMA },
    required: ['paths'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => ({ paths: stringsArg(input, 'paths') ?? [] }),
  describe: (input) => `changes in ${input.paths.join(', ')}`,
  handle(input, env, budget) {
    const files = filesOf(input.paths, env);
    const changed: FileChanges[] = [];
    const unseen: string[] = [];
    const same: string[] = [];
    for (const file of files) {
      const changes = changesSinceBaseline(env.conversation, file, env.workspace.read(file));
      if (changes === undefined) unseen.push(file);
      else if (changes.status === 'unchanged') same.push(file);
      else changed.push(changes);
    }
    const notes: string[] = [];
    if (same.length > 0) notes.push(`unchanged since you saw them: ${listed(same)}`);
    if (unseen.length > 0)
      notes.push(`not seen in this session, so no baseline: ${listed(unseen)} (call context or sync_state first)`);
    const noteText = notes.join('\n');
    if (changed.length === 0) return { text: noteText === '' ? 'no files' : noteText };
    const rendered = renderChanges(changed, {
      counter: env.counter,
      budget: Math.max(100, budget.maxTokens - env.counter.count(noteText) - 20),
      moreHint: 'call get_changes with fewer paths, or context on an element to read it whole',
    });
    return { text: [rendered.text, ...notes].join('\n') };
  },
};

function listed(paths: readonly string[]): string {
  return paths.length <= 10
    ? paths.join(', ')
    : `${paths.slice(0, 10).join(', ')} and ${count(paths.length - 10)} more`;
}

export const syncStateTool: ToolSpec<PathsInput> = {
  name: 'sync_state',
  title: 'Sync state',
  description: "Take the files' current text as seen (for get_changes and apply's merge); answers their outline.",
  inputSchema: {
    type: 'object',
    properties: { paths: PATHS_SCHEMA },
    required: ['paths'],
    additionalProperties: false,
  },
  writes: false,
  parse: (input) => ({ paths: stringsArg(input, 'paths') ?? [] }),
  readOnly: false,
  describe: (input) => `sync ${input.paths.join(', ')}`,
  handle(input, env, budget) {
    const files = filesOf(input.paths, env);
    const rows: OutlineRow[] = [];
    const missing: string[] = [];
    let synced = 0;
    for (const file of files) {
      const text = env.workspace.read(file);
      if (text === undefined) {
        env.conversation.forget(file);
        missing.push(file);
        continue;
      }
      env.conversation.recordShown(file, text);
      synced += 1;
      const outline = env.outlines.get(file);
      // Two levels: classes with their members; deeper nesting is one outline call away.
      if (outline !== undefined) rowsOf(file, outline.elements, 0, 2, true, rows);
    }
    const heading = `synced ${count(synced)} file${synced === 1 ? '' : 's'}: their current text is your baseline now`;
    const notes = missing.length === 0 ? [] : [`no such file (forgotten): ${listed(missing)}`];
    return pagedAnswer(env, budget, { ...input }, heading, outlineTable(true), rows, 'elements', notes);
  },
};
