import { createTokenCounter } from '../../core/context/tokens';
import { renderChanges } from '../../core/sync/renderChanges';
import { changesSinceBaseline } from '../../core/sync/sync';
import type { FileChanges } from '../../core/sync/userChanges';
import { outlineTable, rowsOf, type OutlineRow } from '../../core/tools/definitions/outline';
import { compactTable } from '../../core/tools/table';
import { FileBeingSavedError } from '../../core/workspace/fileFingerprint';
import { resolveInWorkspace } from '../../core/workspace/workspacePaths';
import { readWholeFile } from '../../core/write/readWhole';
import { type CliCommand, parseCommandArgs, parsePositiveInteger } from '../command';
import { UsageError } from '../cliError';
import { conversationIdOrThrow, loadConversation, saveConversation } from '../conversationFile';
import { workspacePathOf, workspaceRoot } from '../workspaceFiles';
import { isOutlinable, outlineSource } from '../../core/elements/outline';

/** The text of a workspace file now, or undefined when it does not exist (a deleted file is a change too). */
function readNow(root: string, path: string): string | undefined {
  try {
    // Never half a save: what sync records is what the model is told it saw.
    return readWholeFile(resolveInWorkspace(root, path), path).bytes.toString('utf8');
  } catch (error) {
    if (error instanceof FileBeingSavedError) throw error;
    return undefined;
  }
}

export const changesCommand: CliCommand = {
  name: 'changes',
  summary: 'what you changed in files since the model last saw them, per element',
  usage: `Usage: scalpel changes <file>... [--conversation ID] [--budget N] [--json] [--root DIR]

Shows, per file, the elements you added, deleted, renamed, moved and modified since the model last saw the file in
the conversation (a \`scalpel edit\` or \`scalpel sync\`), each modified one with a compact +/- diff, and one summary
line. This is what the next \`scalpel edit\` of the conversation sends the model instead of the elements again.

Options:
  --conversation ID  the conversation (default: default)
  --budget N         token budget of the text; big changes collapse to signatures and counts (default: no limit)
  --json             print {conversation, files: [{file, status, changes: [...], summary}], unseen: [...]}
  --root DIR         workspace root (default: the current directory)`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      conversation: { type: 'string' },
      budget: { type: 'string' },
      json: { type: 'boolean' },
      root: { type: 'string' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError(`changes needs at least one file\n\n${this.usage}`);
    const root = workspaceRoot(io, values.root);
    const id = conversationIdOrThrow(values.conversation);
    const budget = parsePositiveInteger('budget', values.budget);
    const conversation = loadConversation(io.env, root, id);
    const files: FileChanges[] = [];
    const unseen: string[] = [];
    for (const input of positionals) {
      const path = workspacePathOf(root, input);
      const changes = changesSinceBaseline(conversation, path, readNow(root, path));
      if (changes === undefined) unseen.push(path);
      else files.push(changes);
    }
    if (values.json === true) {
      io.stdout(`${JSON.stringify({ conversation: id, files, unseen }, null, 2)}\n`);
      return 0;
    }
    const changed = files.filter((f) => f.status !== 'unchanged');
    if (changed.length > 0) {
      const rendered = renderChanges(changed, {
        counter: createTokenCounter(),
        budget: budget ?? Number.MAX_SAFE_INTEGER,
        moreHint: 'run scalpel changes with fewer files or without --budget',
      });
      io.stdout(`${rendered.text}\n`);
    }
    for (const file of files.filter((f) => f.status === 'unchanged'))
      io.stdout(`${file.file}: unchanged since the model last saw it\n`);
    for (const path of unseen)
      io.stderr(
        `scalpel changes: ${path}: the model has not seen it in conversation "${id}" (run scalpel sync ${path} to start from its current text)\n`,
      );
    return 0;
  },
};

export const syncCommand: CliCommand = {
  name: 'sync',
  summary: "take the files' current text as what the model has seen, and print their outline",
  usage: `Usage: scalpel sync <file>... [--conversation ID] [--json] [--root DIR]

Takes the current text of each file as the conversation's baseline: \`scalpel changes\` and the next \`scalpel edit\`
compare with it from now on. Prints a compact outline (element paths, line ranges, signatures; two levels).

Options:
  --conversation ID  the conversation (default: default)
  --json             print {conversation, synced: [...], missing: [...]}
  --root DIR         workspace root (default: the current directory)`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      conversation: { type: 'string' },
      json: { type: 'boolean' },
      root: { type: 'string' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError(`sync needs at least one file\n\n${this.usage}`);
    const root = workspaceRoot(io, values.root);
    const id = conversationIdOrThrow(values.conversation);
    const conversation = loadConversation(io.env, root, id);
    const synced: string[] = [];
    const missing: string[] = [];
    const rows: OutlineRow[] = [];
    for (const input of positionals) {
      const path = workspacePathOf(root, input);
      const text = readNow(root, path);
      if (text === undefined) {
        conversation.forget(path);
        missing.push(path);
        continue;
      }
      conversation.recordShown(path, text);
      synced.push(path);
      if (isOutlinable(path)) rowsOf(path, outlineSource(path, text).elements, 0, 2, true, rows);
    }
    await saveConversation(io.env, root, conversation);
    if (values.json === true) {
      io.stdout(`${JSON.stringify({ conversation: id, synced, missing }, null, 2)}\n`);
    } else {
      io.stdout(`synced ${synced.length} file(s) in conversation "${id}"\n`);
      if (rows.length > 0) io.stdout(`${compactTable(outlineTable(true), rows)}\n`);
    }
    for (const path of missing) io.stderr(`scalpel sync: ${path}: no such file (forgotten)\n`);
    return missing.length > 0 ? 1 : 0;
  },
};
