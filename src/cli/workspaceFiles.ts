import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FileOutline } from '../core/elements/element';
import { parseElementPath } from '../core/elements/elementPath';
import { isOutlinable, outlineSource } from '../core/elements/outline';
import { supportedNames } from '../core/language/languages';
import { resolveInWorkspace, toWorkspaceRelative, WorkspacePathError } from '../core/workspace/workspacePaths';
import { CliError } from './cliError';
import type { CliIo } from './command';

export interface WorkspaceFile {
  /** Workspace-relative, forward slashes. */
  readonly path: string;
  readonly absolutePath: string;
  readonly text: string;
}

/**
 * The workspace root of a command: `--root` resolved against the current directory, else the current directory.
 * Relative file arguments are relative to this root, like the paths after `git -C DIR`, so
 * `scalpel outline src/a.ts --root other/` reads `other/src/a.ts`.
 */
export function workspaceRoot(io: Pick<CliIo, 'cwd'>, rootFlag: string | undefined): string {
  return resolve(io.cwd, rootFlag ?? '.');
}

/** The workspace-relative path of a file argument: relative to `root`, or absolute and inside it. */
export function workspacePathOf(root: string, input: string): string {
  let path: string;
  try {
    path = toWorkspaceRelative(root, input, root);
  } catch (error) {
    if (error instanceof WorkspacePathError) throw new CliError(error.message);
    throw error;
  }
  if (path === '') throw new CliError(`${input}: is the workspace root, not a file`);
  return path;
}

/** Reads a file named on the command line (relative to `root`, or absolute) inside `root`. */
export function readWorkspaceFile(root: string, input: string): WorkspaceFile {
  const path = workspacePathOf(root, input);
  let absolutePath: string;
  try {
    absolutePath = resolveInWorkspace(root, path);
  } catch (error) {
    if (error instanceof WorkspacePathError) throw new CliError(error.message);
    throw error;
  }
  try {
    return { path, absolutePath, text: readFileSync(absolutePath, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`${path}: no such file`);
    if (code === 'EISDIR') throw new CliError(`${path}: is a directory, not a file`);
    throw new CliError(`${path}: cannot read (${code ?? String(error)})`);
  }
}

/** Outlines a file, refusing languages the element model does not read and files with syntax errors. */
export function outlineWorkspaceFile(file: WorkspaceFile): FileOutline {
  if (!isOutlinable(file.path)) {
    throw new CliError(`${file.path}: not a file Scalpel reads (${supportedNames()})`);
  }
  const outline = outlineSource(file.path, file.text);
  const first = outline.syntaxErrors[0];
  if (first !== undefined) {
    const more = outline.syntaxErrors.length > 1 ? ` (and ${outline.syntaxErrors.length - 1} more)` : '';
    throw new CliError(`${file.path}:${first.line}:${first.column}: syntax error: ${first.message}${more}`);
  }
  return outline;
}

/** Which file a --focus path belongs to; with one file, a path without a file part is taken as inside it. */
function focusTarget(focus: string, files: readonly string[]): { file: string; path: string } {
  let parsed;
  try {
    parsed = parseElementPath(focus);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  if (files.includes(parsed.file)) return { file: parsed.file, path: focus };
  const only = files.length === 1 ? files[0] : undefined;
  if (only !== undefined) {
    try {
      const inFile = parseElementPath(`${only}/${focus.replace(/^file:/i, '')}`);
      if (inFile.segments.length > 0) return { file: only, path: `${only}/${focus.replace(/^file:/i, '')}` };
    } catch {
      // Not a path inside the file either; report it against the file part it names.
    }
  }
  throw new CliError(`--focus ${focus}: its file "${parsed.file}" is not among the files given (${files.join(', ')})`);
}

/** The --focus paths grouped by the file (among `files`) each belongs to; every file gets an entry. */
export function focusByFileOrThrow(focuses: readonly string[], files: readonly string[]): Map<string, string[]> {
  const byFile = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const focus of focuses) {
    const target = focusTarget(focus, files);
    byFile.get(target.file)?.push(target.path);
  }
  return byFile;
}
