import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ripgrepPath } from './ripgrep';

/**
 * Text search over a list of workspace files: ripgrep when a binary is at hand (src/core/search/ripgrep.ts), else
 * the same search in Node. The files searched are exactly the ones given (the one workspace listing, or a slice of
 * it), never ripgrep's own walk, so a search covers what the listing holds and nothing else; texts that differ from
 * the disk (unsaved editors, a request's proposed text) are searched in place of the file.
 */

export type PatternMode =
  /** The text as written. */
  | 'literal'
  /** A regular expression (ripgrep's syntax; JavaScript's when the search runs in Node). */
  | 'regex'
  /** A whole identifier: the text, with no letter, digit, `_` or `$` directly before or after it. */
  | 'identifier';

export interface TextPattern {
  readonly text: string;
  readonly mode: PatternMode;
  /** Default true. */
  readonly caseSensitive?: boolean;
}

export interface TextSearchScope {
  /** Absolute path of the workspace root; `files` are relative to it. */
  readonly root: string;
  readonly files: readonly string[];
  /** Texts searched instead of the disk; a file mapped to undefined is gone. */
  readonly texts?: ReadonlyMap<string, string | undefined>;
}

export interface FilesMatching {
  /** Files holding at least one match, sorted. */
  readonly files: readonly string[];
  /** The search stopped at its time limit: `files` is partial. */
  readonly cutShort: boolean;
  readonly engine: SearchEngine;
}

export type SearchEngine = 'ripgrep' | 'node';

export interface TextHit {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units. */
  readonly column: number;
  /** Length of the match in UTF-16 code units (within its line). */
  readonly length: number;
  /** The line as written (no line break). */
  readonly lineText: string;
}

export interface TextSearchResult {
  /** In file order (the order of `scope.files`), then line and column. */
  readonly hits: readonly TextHit[];
  /** Files searched. */
  readonly filesSearched: number;
  /** The search stopped at `maxHits`: more matches may follow. */
  readonly limitReached: boolean;
  /** The search stopped at its time limit: the hits are those of the files searched before it. */
  readonly cutShort: boolean;
  readonly engine: SearchEngine;
}

export interface TextSearchOptions {
  /** Stop after this many hits; default {@link DEFAULT_MAX_HITS}. */
  readonly maxHits?: number;
  /** Default {@link DEFAULT_TIME_LIMIT_MS}. */
  readonly timeLimitMs?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_MAX_HITS = 10_000;
export const DEFAULT_TIME_LIMIT_MS = 20_000;

/** A pattern the search cannot run (a regular expression that does not parse), said in the engine's words. */
export class TextSearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TextSearchError';
  }
}

/** Command lines stay well under the system's limit (Windows: 32,767 characters; Linux: 128 KB per argument list page). */
const MAX_COMMAND_CHARS = process.platform === 'win32' ? 24_000 : 100_000;

function chunksOf(files: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let length = 0;
  for (const file of files) {
    if (current.length > 0 && length + file.length + 1 > MAX_COMMAND_CHARS) {
      chunks.push(current);
      current = [];
      length = 0;
    }
    current.push(file);
    length += file.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pattern as a JavaScript RegExp (global), for the Node search and the in-memory texts. */
export function patternRegExp(pattern: TextPattern): RegExp {
  const flags = `g${pattern.caseSensitive === false ? 'i' : ''}`;
  switch (pattern.mode) {
    case 'literal':
      return new RegExp(escapeRegExp(pattern.text), flags);
    case 'identifier':
      return new RegExp(`(?<![\\w$])${escapeRegExp(pattern.text)}(?![\\w$])`, flags);
    case 'regex':
      try {
        return new RegExp(pattern.text, `${flags}u`);
      } catch (error) {
        throw new TextSearchError(`the regular expression does not parse: ${(error as Error).message}`);
      }
  }
}

function ripgrepArgs(pattern: TextPattern): string[] {
  const args = ['--no-config', '--no-messages', '--color=never', '--no-ignore', '--hidden'];
  args.push(pattern.caseSensitive === false ? '--ignore-case' : '--case-sensitive');
  if (pattern.mode === 'literal' || pattern.mode === 'identifier') args.push('--fixed-strings');
  if (pattern.mode === 'identifier') args.push('--word-regexp');
  args.push('--regexp', pattern.text);
  return args;
}

/** An identifier hit that ripgrep's word boundary lets through but `$` (a word character in JavaScript) does not. */
function identifierBoundaryHolds(lineText: string, column: number, length: number): boolean {
  const before = lineText[column - 2];
  const after = lineText[column - 1 + length];
  return !(before !== undefined && /[\w$]/.test(before)) && !(after !== undefined && /[\w$]/.test(after));
}

function readText(
  root: string,
  file: string,
  texts: ReadonlyMap<string, string | undefined> | undefined,
): string | undefined {
  if (texts?.has(file) === true) return texts.get(file);
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The files that hold a match, searched with ripgrep's `--files-with-matches` (synchronously: the reference search
 * that asks is synchronous); the files of `texts` are searched in memory.
 */
export function filesMatchingSync(
  pattern: TextPattern,
  scope: TextSearchScope,
  options: Pick<TextSearchOptions, 'timeLimitMs'> = {},
): FilesMatching {
  const regExp = lazyRegExp(pattern);
  const inMemory = scope.files.filter((file) => scope.texts?.has(file) === true);
  const onDisk = scope.files.filter((file) => scope.texts?.has(file) !== true);
  const found = new Set<string>();
  for (const file of inMemory) {
    const text = scope.texts?.get(file);
    if (text !== undefined && matchesIn(regExp(), text)) found.add(file);
  }
  const rg = ripgrepPath();
  const deadline = Date.now() + (options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
  let cutShort = false;
  if (rg === undefined) {
    for (const file of onDisk) {
      if (Date.now() > deadline) {
        cutShort = true;
        break;
      }
      const text = readText(scope.root, file, undefined);
      if (text !== undefined && matchesIn(regExp(), text)) found.add(file);
    }
  } else {
    // `$` is no word character to ripgrep: its hits are checked again below for identifiers that have one nearby.
    const args = [...ripgrepArgs(pattern), '--files-with-matches', '--null'];
    const recheck = pattern.mode === 'identifier';
    for (const chunk of chunksOf(onDisk)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        cutShort = true;
        break;
      }
      const run = spawnSync(rg, [...args, '--', ...chunk], {
        cwd: scope.root,
        encoding: 'utf8',
        timeout: left,
        maxBuffer: 64 * 1024 * 1024,
        windowsHide: true,
      });
      if (run.error !== undefined) {
        if ((run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
          cutShort = true;
          break;
        }
        throw run.error;
      }
      if (run.status === 2 && run.stdout === '' && run.stderr.trim() !== '')
        throw new TextSearchError(firstLine(run.stderr));
      for (const file of run.stdout.split('\0')) {
        if (file === '') continue;
        if (recheck) {
          const text = readText(scope.root, file, undefined);
          if (text === undefined || !matchesIn(regExp(), text)) continue;
        }
        found.add(file);
      }
    }
  }
  return { files: [...found].sort(), cutShort, engine: rg === undefined ? 'node' : 'ripgrep' };
}

/**
 * The JavaScript form of the pattern, compiled on first need: with ripgrep at hand a regular expression is ripgrep's
 * to read (its syntax differs from JavaScript's), and only in-memory texts need the JavaScript one.
 */
function lazyRegExp(pattern: TextPattern): () => RegExp {
  let compiled: RegExp | undefined;
  return () => (compiled ??= patternRegExp(pattern));
}

function matchesIn(regExp: RegExp, text: string): boolean {
  regExp.lastIndex = 0;
  return regExp.test(text);
}

function firstLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines.slice(0, 6).join('\n');
}

/** Every match of the pattern in the files, in file order, bounded by `maxHits` and the time limit. */
export async function searchText(
  pattern: TextPattern,
  scope: TextSearchScope,
  options: TextSearchOptions = {},
): Promise<TextSearchResult> {
  const regExp = lazyRegExp(pattern);
  const maxHits = options.maxHits ?? DEFAULT_MAX_HITS;
  const deadline = Date.now() + (options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
  const rg = ripgrepPath();
  const byFile = new Map<string, TextHit[]>();
  let count = 0;
  let limitReached = false;
  let cutShort = false;
  let searched = 0;
  const add = (hit: TextHit): boolean => {
    if (pattern.mode === 'identifier' && !identifierBoundaryHolds(hit.lineText, hit.column, hit.length)) return true;
    if (count >= maxHits) {
      limitReached = true;
      return false;
    }
    const list = byFile.get(hit.file) ?? [];
    list.push(hit);
    byFile.set(hit.file, list);
    count += 1;
    return true;
  };
  const order = new Map(scope.files.map((file, i) => [file, i]));
  const inMemory = scope.files.filter((file) => scope.texts?.has(file) === true);
  const onDisk = scope.files.filter((file) => scope.texts?.has(file) !== true);

  const searchInNode = async (files: readonly string[], texts: TextSearchScope['texts']): Promise<void> => {
    for (const file of files) {
      options.signal?.throwIfAborted();
      if (Date.now() > deadline) {
        cutShort = true;
        return;
      }
      searched += 1;
      const text = readText(scope.root, file, texts);
      if (text === undefined) continue;
      if (!hitsInText(file, text, regExp(), add)) return;
      if (searched % 200 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  await searchInNode(inMemory, scope.texts);
  if (!limitReached && !cutShort) {
    if (rg === undefined) await searchInNode(onDisk, undefined);
    else {
      const args = [...ripgrepArgs(pattern), '--json', '--sort=path'];
      for (const chunk of chunksOf(onDisk)) {
        if (limitReached || cutShort) break;
        const outcome = await runRipgrepJson(rg, [...args, '--', ...chunk], scope.root, deadline, options.signal, add);
        searched += chunk.length;
        if (outcome === 'time') cutShort = true;
      }
    }
  }
  const files = [...byFile.keys()].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const hits = files.flatMap((file) => (byFile.get(file) ?? []).sort((a, b) => a.line - b.line || a.column - b.column));
  return {
    hits,
    filesSearched: Math.min(searched, scope.files.length),
    limitReached,
    cutShort,
    engine: rg === undefined ? 'node' : 'ripgrep',
  };
}

/** Adds the hits of one text; false when `add` refused one (the limit is reached). */
function hitsInText(file: string, text: string, regExp: RegExp, add: (hit: TextHit) => boolean): boolean {
  let lineStart = 0;
  let line = 1;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const end = newline < 0 ? text.length : newline;
    const lineText = text.slice(lineStart, end).replace(/\r$/, '');
    regExp.lastIndex = 0;
    for (let match = regExp.exec(lineText); match !== null; match = regExp.exec(lineText)) {
      if (match[0].length === 0) {
        regExp.lastIndex += 1;
        continue;
      }
      if (!add({ file, line, column: match.index + 1, length: match[0].length, lineText })) return false;
    }
    if (newline < 0) break;
    lineStart = newline + 1;
    line += 1;
  }
  return true;
}

interface RipgrepMatch {
  readonly type: string;
  readonly data?: {
    readonly path?: { readonly text?: string };
    readonly lines?: { readonly text?: string; readonly bytes?: string };
    readonly line_number?: number;
    readonly submatches?: ReadonlyArray<{ readonly start: number; readonly end: number }>;
  };
}

/** Runs ripgrep with `--json`, feeding each match to `add`; stops it at the limit, the deadline or the signal. */
function runRipgrepJson(
  rg: string,
  args: readonly string[],
  cwd: string,
  deadline: number,
  signal: AbortSignal | undefined,
  add: (hit: TextHit) => boolean,
): Promise<'done' | 'limit' | 'time'> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, windowsHide: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let outcome: 'done' | 'limit' | 'time' = 'done';
    let pending = '';
    let stderr = '';
    const stop = (why: 'limit' | 'time'): void => {
      outcome = why;
      child.kill();
    };
    const timer = setTimeout(() => stop('time'), Math.max(0, deadline - Date.now()));
    const onAbort = (): void => {
      child.kill();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const consume = (line: string): void => {
      if (outcome !== 'done' || line === '') return;
      let message: RipgrepMatch;
      try {
        message = JSON.parse(line) as RipgrepMatch;
      } catch {
        return;
      }
      const data = message.data;
      if (message.type !== 'match' || data === undefined) return;
      const file = data.path?.text;
      const raw =
        data.lines?.text ??
        (data.lines?.bytes === undefined ? '' : Buffer.from(data.lines.bytes, 'base64').toString('utf8'));
      if (file === undefined || data.line_number === undefined) return;
      const lineBytes = Buffer.from(raw, 'utf8');
      const lineText = raw.replace(/\r?\n$/, '');
      for (const sub of data.submatches ?? []) {
        const column = lineBytes.subarray(0, sub.start).toString('utf8').length + 1;
        const length = lineBytes.subarray(sub.start, sub.end).toString('utf8').length;
        if (length === 0) continue;
        if (!add({ file: file.replace(/\\/g, '/'), line: data.line_number, column, length, lineText })) {
          stop('limit');
          return;
        }
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        consume(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4_000) stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      consume(pending);
      if (signal?.aborted === true) {
        reject(signal.reason instanceof Error ? signal.reason : new Error('the search was cancelled'));
        return;
      }
      if (outcome === 'done' && code === 2 && stderr.trim() !== '') {
        reject(new TextSearchError(firstLine(stderr)));
        return;
      }
      resolve(outcome);
    });
  });
}
