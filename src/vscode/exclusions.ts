import ignore from 'ignore';
import * as vscode from 'vscode';

/**
 * Files Scalpel never sends to a model and never edits: what `files.exclude`, the `.gitignore` files or
 * `scalpel.exclude` match. Secrets (`.env`, keys) and generated or vendored code stay out of every request.
 */

export interface Exclusion {
  /** Workspace-relative path that was refused. */
  readonly path: string;
  /** Which rule matched, in words: `scalpel.exclude "**\/.env"`, `.gitignore "dist/"`, ... */
  readonly rule: string;
}

/**
 * A VS Code glob (`**`, `*`, `?`, `{a,b}`, `[a-z]`) as a regular expression over a whole workspace-relative path
 * with forward slashes, the way `files.exclude` and `search.exclude` read them.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${globSource(glob.replace(/^\.\//, '').replace(/\/+$/, ''))}$`);
}

function globSource(glob: string): string {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? '';
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        const followedBySlash = glob[i + 2] === '/';
        if (atSegmentStart && followedBySlash) {
          source += '(?:[^/]*/)*';
          i += 2;
        } else {
          source += '.*';
          i += 1;
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '{') {
      const close = matchingBrace(glob, i);
      if (close === -1) {
        source += '\\{';
        continue;
      }
      const alternatives = splitAlternatives(glob.slice(i + 1, close));
      source += `(?:${alternatives.map(globSource).join('|')})`;
      i = close;
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      const body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
      source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
      i = close;
    } else {
      source += char.replace(/[.+^$()|\\\]]/g, '\\$&');
    }
  }
  return source;
}

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** The path and each folder above it: a glob that matches a folder excludes everything in it. */
function pathAndParents(path: string): string[] {
  const segments = path.split('/');
  return segments.map((_, i) => segments.slice(0, segments.length - i).join('/'));
}

function globRule(setting: string, patterns: readonly string[], path: string): string | undefined {
  const candidates = pathAndParents(path);
  for (const pattern of patterns) {
    const regExp = globToRegExp(pattern);
    if (candidates.some((candidate) => regExp.test(candidate))) return `${setting} "${pattern}"`;
  }
  return undefined;
}

/** `files.exclude` entries that are switched on; entries with a `when` condition depend on siblings and are skipped. */
function enabledPatterns(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, enabled]) => enabled === true)
    .map(([pattern]) => pattern);
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** The `.gitignore` files from the folder root down to the file's folder, each applied relative to its own folder. */
async function gitignoreRule(root: vscode.Uri, path: string): Promise<string | undefined> {
  const segments = path.split('/');
  let verdict: string | undefined;
  for (let depth = 0; depth < segments.length; depth++) {
    const folder = segments.slice(0, depth);
    const text = await readText(vscode.Uri.joinPath(root, ...folder, '.gitignore'));
    if (text === undefined) continue;
    const rules = ignore().add(text);
    const relative = segments.slice(depth).join('/');
    const result = rules.test(relative);
    const where = folder.length === 0 ? '.gitignore' : `${folder.join('/')}/.gitignore`;
    if (result.ignored) verdict = `${where} "${result.rule?.pattern ?? relative}"`;
    else if (result.unignored) verdict = undefined;
  }
  return verdict;
}

/** Why `path` (relative to `root`) must not reach a model, or undefined when it may. */
export async function exclusionOf(
  root: vscode.Uri,
  path: string,
  scalpelExclude: readonly string[],
): Promise<Exclusion | undefined> {
  const filesExclude = enabledPatterns(vscode.workspace.getConfiguration('files', root).get('exclude'));
  const rule =
    globRule('scalpel.exclude', scalpelExclude, path) ??
    globRule('files.exclude', filesExclude, path) ??
    (await gitignoreRule(root, path));
  return rule === undefined ? undefined : { path, rule };
}

/** The first of `paths` that is excluded, checked in order. */
export async function firstExclusion(
  root: vscode.Uri,
  paths: readonly string[],
  scalpelExclude: readonly string[],
): Promise<Exclusion | undefined> {
  for (const path of paths) {
    const exclusion = await exclusionOf(root, path, scalpelExclude);
    if (exclusion !== undefined) return exclusion;
  }
  return undefined;
}

export function exclusionMessage(exclusion: Exclusion, action: string): string {
  return `Scalpel does not ${action} ${exclusion.path}: it is excluded by ${exclusion.rule}. Excluded files are never sent to a model; change the setting or the .gitignore to allow it.`;
}
