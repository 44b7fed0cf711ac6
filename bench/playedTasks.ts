import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import {
  callWithArgument,
  escapeRegExp,
  type GrepHit,
  type GrepPlayer,
  groupedRows,
  parseSource,
  type ScalpelPlayer,
  type SearchReplace,
  sourceFiles,
  uniqueSpan,
} from './playedPlayers';

/**
 * The tasks of the played-agent bench (bench/playedAgent.ts), as factories so that the unit test can run one on a
 * tiny fixture. Each task scripts both agents: what they call follows from the task's words and from the answers
 * they get, the way an agent reading those answers would go on; the ground truth is only used by the check.
 */

export interface PlayedTask {
  readonly id: string;
  /** The kind of task, for the report ("add a parameter", "find callers", ...). */
  readonly kind: string;
  /** The task as given to the agent. */
  readonly goal: string;
  /** Whether the task changes code (then the result is type checked). */
  readonly edits: boolean;
  scalpel(player: ScalpelPlayer): Promise<readonly string[]>;
  baseline(player: GrepPlayer): Promise<readonly string[]>;
  /** What is wrong with the answer or the result; empty when the task is done. */
  check(pristineRoot: string, resultRoot: string, answer: readonly string[]): string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces.

const SEGMENT = /(\w+)\[([^\]]*)\]/g;

/** `class[Subject]/method[_innerSubscribe]` → `Subject._innerSubscribe`. */
export function displayName(elementPath: string): string {
  return [...elementPath.replace(/^"|"$/g, '').matchAll(SEGMENT)].map((m) => m[2]).join('.');
}

/** The file part of an element path. */
function fileOfPath(path: string): string {
  const file = /^(.+?\.(?:m|c)?[jt]sx?)\//.exec(path)?.[1];
  if (file === undefined) throw new Error(`no file in the element path ${path}`);
  return file;
}

/** `file/element` from a row's file and element cell (quoted when it holds spaces). */
function pathOf(file: string, element: string): string {
  return `${file}/${element.replace(/^"|"$/g, '')}`;
}

const ROW_ELEMENT = '("[^"]*"|\\S+)';

/** The element path of the find_symbols row naming `name` exactly, of one of `kinds`. */
function symbolPath(answer: string, name: string, kinds: readonly string[]): string {
  for (const row of [...groupedRows(answer), ...bodyRows(answer)]) {
    const match = new RegExp(`^[\\d,-]+ ${ROW_ELEMENT}$`).exec(row.cells);
    const element = match?.[1];
    if (element === undefined) continue;
    const last = [...element.matchAll(SEGMENT)].at(-1);
    if (last !== undefined && last[2] === name && kinds.includes(last[1] ?? '')) return pathOf(row.file, element);
  }
  throw new Error(`find_symbols did not list ${kinds.join('/')} ${name}`);
}

/** The heading row of each match in a find_symbols answer with bodies: `435-448 function[f]` under `## file`. */
function bodyRows(answer: string): Array<{ file: string; cells: string }> {
  const rows: Array<{ file: string; cells: string }> = [];
  let file = '';
  let inFence = false;
  for (const line of answer.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    else if (!inFence && line.startsWith('## ')) file = line.slice(3).trim();
    else if (!inFence && /^[\d,]+-[\d,]+ \S/.test(line)) rows.push({ file, cells: line });
  }
  return rows;
}

function patchOperation(path: string, blocks: readonly SearchReplace[]): string {
  const pairs = blocks.map((b) => `<<<<<<< SEARCH\n${b.search}\n=======\n${b.replace}\n>>>>>>> REPLACE`).join('\n');
  return `PATCH_ELEMENT ${path}\n\`\`\`ts\n${pairs}\n\`\`\`\n`;
}

/** Lines 1-based `from`..`to` of a file, joined. */
function linesOf(text: string, from: number, to: number): string {
  return text
    .split('\n')
    .slice(from - 1, to)
    .join('\n');
}

/** The names every call of `name` (as `name(...)` or `x.name(...)`) in a file is made with, per call its arguments. */
function callsOf(source: ts.SourceFile, name: string): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (
        (ts.isIdentifier(callee) && callee.text === name) ||
        (ts.isPropertyAccessExpression(callee) && callee.name.text === name)
      )
        calls.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

/** The top-level declaration or class member a node is in, as `name` or `Class.member`. */
function enclosingName(node: ts.Node): string | undefined {
  let member: ts.Node | undefined;
  let current: ts.Node = node;
  while (current.parent !== undefined && !ts.isSourceFile(current.parent)) {
    if (ts.isClassLike(current.parent)) member = current;
    current = current.parent;
  }
  const top = current;
  const nameOf = (n: ts.Node | undefined): string | undefined => {
    if (n === undefined) return undefined;
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    const named = (n as { name?: ts.Node }).name;
    return named !== undefined && (ts.isIdentifier(named) || ts.isPrivateIdentifier(named)) ? named.text : undefined;
  };
  if (ts.isVariableStatement(top)) return nameOf(top.declarationList.declarations[0]);
  if (ts.isClassLike(top)) {
    const owner = nameOf(top);
    return member === undefined ? owner : `${owner ?? ''}.${nameOf(member) ?? ''}`;
  }
  return nameOf(top);
}

/** The TypeScript sources under src/ a ground truth is computed over (the corpus packages hold no other code). */
function textFiles(root: string, excluded: (relPath: string) => boolean): string[] {
  return sourceFiles(root).filter((f) => !excluded(f));
}

function sameSet(found: readonly string[], truth: readonly string[], what: string): string[] {
  const a = new Set(found);
  const b = new Set(truth);
  const missing = [...b].filter((x) => !a.has(x));
  const extra = [...a].filter((x) => !b.has(x));
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`${what}: missed ${missing.join(', ')}`);
  if (extra.length > 0) problems.push(`${what}: wrongly listed ${extra.join(', ')}`);
  return problems;
}

/**
 * The blocks that add `argument` to each call hit of `name` in `text`, in order, each SEARCH the fewest lines around
 * the call that occur once in the text as the earlier blocks left it. Lines 1-based.
 */
function callBlocks(
  text: string,
  lines: readonly number[],
  name: string,
  argumentFor: (callLine: string) => string,
): SearchReplace[] {
  let current = text.split('\n');
  const blocks: SearchReplace[] = [];
  for (const line of lines) {
    const call = callWithArgument(current, line - 1, name, argumentFor(current[line - 1] ?? ''));
    if (call === undefined) throw new Error(`no call of ${name} closes after line ${line}`);
    const span = uniqueSpan(current, call.start, call.end);
    if (span === undefined) throw new Error(`no unique SEARCH for the call of ${name} at line ${line}`);
    const next = [...current.slice(0, call.start), ...call.after, ...current.slice(call.end + 1)];
    blocks.push({
      search: current.slice(span.start, span.end + 1).join('\n'),
      replace: next.slice(span.start, span.end + 1 + call.after.length - call.before.length).join('\n'),
    });
    current = next;
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------------------------
// Find the callers of a function.

export function callersTask(spec: {
  readonly id: string;
  readonly name: string;
  readonly excluded: (relPath: string) => boolean;
}): PlayedTask {
  const { name } = spec;
  return {
    id: spec.id,
    kind: 'find callers',
    goal: `Which functions and methods call ${name}? (each as file and Class.method or function name)`,
    edits: false,
    async scalpel(p) {
      const path = symbolPath(await p.call('find_symbols', { name }), name, ['function']);
      const answer = await p.callAllPages('references', { path, relation: 'callers' });
      return groupedRows(answer).flatMap((row) => {
        const match = new RegExp(`^\\d+ ${ROW_ELEMENT} \\d+$`).exec(row.cells);
        return match?.[1] === undefined ? [] : [`${row.file}::${displayName(match[1])}`];
      });
    },
    async baseline(p) {
      const hits = p.grep(`\\b${escapeRegExp(name)}\\(`);
      const found: string[] = [];
      for (const hit of hits) {
        if (new RegExp(`function\\*?\\s+${escapeRegExp(name)}\\b`).test(hit.text)) continue;
        const caller = enclosingByReading(p, hit);
        if (caller !== undefined) found.push(`${hit.file}::${caller}`);
      }
      return found;
    },
    check(pristineRoot, _resultRoot, answer) {
      const truth: string[] = [];
      for (const file of textFiles(pristineRoot, spec.excluded)) {
        if (!/\.tsx?$/.test(file)) continue;
        for (const call of callsOf(parseSource(pristineRoot, file), name))
          truth.push(`${file}::${enclosingName(call) ?? '?'}`);
      }
      return sameSet(answer, truth, 'callers');
    },
  };
}

const TOP_DECLARATION =
  /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|const|let|var|interface|type|enum)\s+([\w$]+)/;
const CLASS_MEMBER =
  /^ {2}(?:(?:public|private|protected|static|override|readonly|async|get|set|abstract)\s+)*(#?[\w$]+|constructor)\s*[(<=:?!]/;

/**
 * What an agent reads to name the function or method a grep hit is in: the hit ±30 lines, then further up 60 lines
 * at a time, until it sees the top-level declaration (and, for a class, the member) the hit is in, by indentation.
 */
function enclosingByReading(p: GrepPlayer, hit: GrepHit): string | undefined {
  p.readAround(hit.file, hit.line);
  const lines = p.fileText(hit.file).split('\n');
  let member: string | undefined;
  for (let n = hit.line - 1; n >= 1; n--) {
    if (!p.hasRead(hit.file, n)) p.readAbove(hit.file, n + 1);
    const line = lines[n - 1] ?? '';
    const memberMatch = member === undefined ? CLASS_MEMBER.exec(line) : null;
    if (memberMatch !== null && !/^ {2}(if|for|while|switch|return)\b/.test(line)) member = memberMatch[1];
    const top = TOP_DECLARATION.exec(line);
    if (top !== null) {
      if (top[1] === 'class') return member === undefined ? top[2] : `${top[2] ?? ''}.${member}`;
      return top[2];
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Add a parameter to a function and update its callers.

export function addParameterTask(spec: {
  readonly id: string;
  readonly goal: string;
  readonly name: string;
  /** The declaration's change, written after reading it. */
  readonly declaration: readonly SearchReplace[];
  /** The argument each call passes, from the call's first line (what the agent sees at the call). */
  readonly argumentFor: (callLine: string) => string;
  /** Arguments every call has afterwards. */
  readonly argumentCount: number;
}): PlayedTask {
  const { name } = spec;
  return {
    id: spec.id,
    kind: 'add a parameter, update the callers',
    goal: spec.goal,
    edits: true,
    async scalpel(p) {
      // The declaration found and read in one call.
      const path = symbolPath(await p.call('find_symbols', { name, kinds: ['function'], includeBody: true }), name, [
        'function',
      ]);
      const uses = await p.callAllPages('references', { path });
      const callers = new Map<string, { file: string; rows: Array<{ line: number; code: string }> }>();
      for (const row of groupedRows(uses)) {
        const match = new RegExp(`^(\\d+) ${ROW_ELEMENT} call (.*)$`).exec(row.cells);
        if (match?.[2] === undefined) continue;
        const caller = pathOf(row.file, match[2]);
        const entry = callers.get(caller) ?? { file: row.file, rows: [] };
        entry.rows.push({ line: Number(match[1]), code: match[3] ?? '' });
        callers.set(caller, entry);
      }
      // A call the row shows whole, whose line the element has once (every line naming the function is a row), is
      // patched from the row; any other caller is read first (all its pages), and its blocks are the fewest lines
      // unique in the element.
      const operations: Array<{ path: string; file: string; blocks: SearchReplace[] }> = [
        { path, file: fileOfPath(path), blocks: [...spec.declaration] },
      ];
      const toRead: string[] = [];
      for (const [caller, { rows }] of callers) {
        const codes = rows.map((r) => r.code);
        const whole = rows.map((r) => callWithArgument([r.code], 0, name, spec.argumentFor(r.code)));
        if (whole.every((c) => c !== undefined) && new Set(codes).size === codes.length)
          operations.push({
            path: caller,
            file: callers.get(caller)?.file ?? '',
            blocks: rows.map((r, i) => ({ search: r.code, replace: whole[i]?.after[0] ?? r.code })),
          });
        else toRead.push(caller);
      }
      if (toRead.length > 0) await p.callAllPages('context', { focus: toRead });
      for (const caller of toRead) {
        const { file, rows } = callers.get(caller) ?? { file: '', rows: [] };
        const { lines, startLine } = p.elementLines(file, caller);
        const blocks = callBlocks(
          lines.join('\n'),
          rows.map((r) => r.line - startLine + 1),
          name,
          spec.argumentFor,
        );
        operations.push({ path: caller, file, blocks });
      }
      if (!operations.every((o) => o.blocks.every((b) => p.hasSeen(b.search, o.file))))
        throw new Error('a SEARCH copies lines the agent has not read');
      await p.call('apply', { operations: operations.map((o) => patchOperation(o.path, o.blocks)).join('') });
      return [];
    },
    async baseline(p) {
      // Generic functions are declared `name<T>(`.
      const hits = p.grep(`\\b${escapeRegExp(name)}\\s*[(<]`);
      const declaration = hits.find((h) => new RegExp(`function\\s+${escapeRegExp(name)}\\b`).test(h.text));
      if (declaration === undefined) throw new Error(`grep found no declaration of ${name}`);
      p.readDeclaration(declaration.file, declaration.line);
      const files = [...new Set(hits.map((h) => h.file))];
      for (const file of files) {
        const calls = hits
          .filter((h) => h.file === file && !new RegExp(`function\\s+${escapeRegExp(name)}\\b`).test(h.text))
          .map((h) => h.line);
        const before = file === declaration.file ? [...spec.declaration] : [];
        let text = p.fileText(file);
        for (const block of before) text = text.replace(block.search, block.replace);
        const blocks = [...before, ...callBlocks(text, calls, name, spec.argumentFor)];
        for (const [i, block] of blocks.entries())
          if (!p.hasSeen(block.search, file)) p.readDeclaration(file, calls[i - before.length] ?? declaration.line);
        if (!blocks.every((b) => p.hasSeen(b.search, file)))
          throw new Error('a SEARCH copies lines the agent has not read');
        p.edit(file, blocks);
      }
      return [];
    },
    check(pristineRoot, resultRoot) {
      const problems: string[] = [];
      const all = (root: string): number =>
        sourceFiles(root).reduce((sum, f) => sum + callsOf(parseSource(root, f), name).length, 0);
      for (const file of sourceFiles(resultRoot))
        for (const call of callsOf(parseSource(resultRoot, file), name))
          if (call.arguments.length !== spec.argumentCount)
            problems.push(`${file}: a call of ${name} with ${call.arguments.length} arguments`);
      if (all(resultRoot) !== all(pristineRoot))
        problems.push(`calls of ${name}: ${all(pristineRoot)} before, ${all(resultRoot)} after`);
      return problems;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Rename a declaration across files, in strings and in comments.

export function renameTask(spec: {
  readonly id: string;
  readonly oldName: string;
  readonly newName: string;
  /** The element kind find_symbols lists the declaration as. */
  readonly kind: string;
}): PlayedTask {
  const { oldName, newName } = spec;
  // Not inside a module path ('./util/ArgumentOutOfRangeError'): the file keeps its name.
  const oldWord = new RegExp(`(?<![/\\w$])${escapeRegExp(oldName)}\\b`, 'g');
  const renamed = (line: string): string =>
    line
      .replace(new RegExp(`\\b${escapeRegExp(newName)} as ${escapeRegExp(oldName)}\\b`, 'g'), newName)
      .replace(oldWord, newName);
  return {
    id: spec.id,
    kind: 'rename across files and strings',
    goal: `Rename ${oldName} to ${newName} everywhere: declaration, imports, exports, uses, the name string and comments (module paths stay).`,
    edits: true,
    async scalpel(p) {
      const path = symbolPath(await p.call('find_symbols', { name: oldName }), oldName, [spec.kind]);
      // The dry run shows the diff (what the lines the rename changes will read); the applied rename says only which
      // files it wrote, and lists the names it left (strings, comments) as the lines were before.
      const dryRun = await p.call('rename', { path, newName });
      const answer = await p.call('rename', { path, newName, apply: true });
      const now = new Map<string, string>();
      let file = '';
      let line = 0;
      for (const text of dryRun.split('\n')) {
        const header = /^\+\+\+ b\/(.+)$/.exec(text);
        const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(text);
        if (header !== null) file = header[1] ?? '';
        else if (hunk !== null) line = Number(hunk[1]);
        else if (text.startsWith('+') && !text.startsWith('+++')) now.set(`${file}:${line++}`, text.slice(1));
        else if (text.startsWith(' ')) line++;
      }
      const byElement = new Map<string, SearchReplace[]>();
      const notChanged = answer.slice(answer.indexOf('not changed:'));
      for (const row of groupedRows(notChanged)) {
        const match = new RegExp(`^(\\d+) (\\w+) ${ROW_ELEMENT} (.*)$`).exec(row.cells);
        if (match === null) continue;
        const current = now.get(`${row.file}:${match[1] ?? ''}`) ?? match[4] ?? '';
        const wanted = renamed(current);
        if (wanted === current) continue;
        // An element the rename renamed goes by its new name now.
        const element = pathOf(row.file, renamed(match[3] ?? ''));
        byElement.set(element, [...(byElement.get(element) ?? []), { search: current, replace: wanted }]);
      }
      if (byElement.size > 0)
        await p.call('apply', {
          operations: [...byElement].map(([element, blocks]) => patchOperation(element, blocks)).join(''),
        });
      return [];
    },
    async baseline(p) {
      const hits = p.grep(`\\b${escapeRegExp(oldName)}\\b`);
      for (const file of [...new Set(hits.map((h) => h.file))]) {
        let lines = p.fileText(file).split('\n');
        const blocks: SearchReplace[] = [];
        for (const hit of hits.filter((h) => h.file === file)) {
          const wanted = renamed(lines[hit.line - 1] ?? '');
          if (wanted === lines[hit.line - 1]) continue;
          const span = uniqueSpan(lines, hit.line - 1, hit.line - 1);
          if (span === undefined) throw new Error(`no unique SEARCH at ${file}:${hit.line}`);
          const next = [...lines];
          next[hit.line - 1] = wanted;
          const block = {
            search: lines.slice(span.start, span.end + 1).join('\n'),
            replace: next.slice(span.start, span.end + 1).join('\n'),
          };
          if (!p.hasSeen(block.search, file)) p.readAround(file, hit.line);
          blocks.push(block);
          lines = next;
        }
        if (blocks.length > 0) p.edit(file, blocks);
      }
      return [];
    },
    check(_pristineRoot, resultRoot) {
      const problems: string[] = [];
      for (const file of sourceFiles(resultRoot)) {
        const text = readFileSync(join(resultRoot, file), 'utf8');
        text.split('\n').forEach((line, i) => {
          if (new RegExp(oldWord.source).test(line))
            problems.push(`${file}:${i + 1} still says ${oldName}: ${line.trim()}`);
        });
      }
      return problems;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Find and delete the exports of a folder that nothing uses.

export function unusedExportsTask(spec: { readonly id: string; readonly folder: string }): PlayedTask {
  const { folder } = spec;
  return {
    id: spec.id,
    kind: 'safe delete of unused exports',
    goal: `Find the exported declarations of ${folder} that nothing uses (not even their own file) and delete them.`,
    edits: true,
    async scalpel(p) {
      const outline = await p.callAllPages('outline', { paths: [folder], depth: 1 });
      const exported: Array<{ path: string; file: string; element: string }> = [];
      for (const row of groupedRows(outline)) {
        const match = new RegExp(`^[\\d,-]+ ${ROW_ELEMENT} (export .*)$`).exec(row.cells);
        if (match?.[1] !== undefined)
          exported.push({ path: pathOf(row.file, match[1]), file: row.file, element: match[1] });
      }
      const unusedInCode: typeof exported = [];
      for (let i = 0; i < exported.length; i += 100) {
        const chunk = exported.slice(i, i + 100);
        const answer = await p.call('references', { paths: chunk.map((e) => e.path) });
        for (const row of groupedRows(answer)) {
          const match = new RegExp(`^0 0 ${ROW_ELEMENT}`).exec(row.cells);
          const found = chunk.find((e) => e.file === row.file && e.element === match?.[1]);
          if (found !== undefined) unusedInCode.push(found);
        }
      }
      if (unusedInCode.length === 0) return [];
      // references covers code only: a name in a string or a dynamic use is search's, so the agent looks once.
      const names = [...new Set(unusedInCode.map((e) => displayName(e.element)))];
      const search = await p.callAllPages('search', {
        pattern: `\\b(${names.map(escapeRegExp).join('|')})\\b`,
        regex: true,
        case: 'sensitive',
      });
      const hits = groupedRows(search).flatMap((row) => {
        const match = new RegExp(`^(\\d+) ${ROW_ELEMENT} (.*)$`).exec(row.cells);
        return match === null ? [] : [{ file: row.file, element: match[2] ?? '', code: match[3] ?? '' }];
      });
      const unused = unusedInCode.filter((e) =>
        hits
          .filter((h) => new RegExp(`\\b${escapeRegExp(displayName(e.element))}\\b`).test(h.code))
          .every((h) => h.file === e.file && h.element === e.element),
      );
      if (unused.length > 0)
        await p.call('apply', { operations: unused.map((e) => `DELETE_ELEMENT ${e.path}\n`).join('') });
      return unused.map((e) => `${e.file}::${displayName(e.element)}`);
    },
    async baseline(p) {
      const declarations = p.grep(
        '^export (default )?(declare )?(abstract )?(async )?(function\\*?|class|interface|type|enum|const|let|var) ',
        { path: folder },
      );
      const byName = new Map<string, GrepHit[]>();
      for (const hit of declarations) {
        const name = TOP_DECLARATION.exec(hit.text)?.[2];
        if (name !== undefined)
          byName.set(`${hit.file}::${name}`, [...(byName.get(`${hit.file}::${name}`) ?? []), hit]);
      }
      const unused: Array<{ key: string; hits: GrepHit[] }> = [];
      const counted = new Map<string, Map<string, number>>();
      for (const [key, hits] of byName) {
        const name = key.slice(key.indexOf('::') + 2);
        const counts = counted.get(name) ?? p.grepCount(`\\b${escapeRegExp(name)}\\b`);
        counted.set(name, counts);
        const file = hits[0]?.file ?? '';
        const onlyHere = counts.size === 1 && counts.get(file) === hits.length;
        if (onlyHere) unused.push({ key, hits });
      }
      const byFile = new Map<string, SearchReplace[]>();
      for (const { hits } of unused) {
        const first = hits[0];
        if (first === undefined) continue;
        const end = p.readDeclaration(first.file, first.line);
        const lines = p.fileText(first.file).split('\n');
        let start = first.line;
        if (/^\s*\*\/\s*$/.test(lines[start - 2] ?? '')) {
          while (start > 1 && !/^\s*\/\*\*/.test(lines[start - 2] ?? '')) start--;
          start--;
        }
        // The declaration with the blank line after it (or before it, at the end of the file).
        const after = (lines[end] ?? '').trim() === '' && end < lines.length - 1;
        const search = `${linesOf(lines.join('\n'), start, end)}\n${after ? '\n' : ''}`;
        const block = after || start === 1 ? { search, replace: '' } : { search: `\n${search}`, replace: '\n' };
        byFile.set(first.file, [...(byFile.get(first.file) ?? []), block]);
      }
      for (const [file, blocks] of byFile) p.edit(file, blocks);
      return unused.map((u) => u.key);
    },
    check(pristineRoot, resultRoot, answer) {
      const truth = unusedExportsTruth(pristineRoot, folder);
      const problems = sameSet(answer, truth, 'unused exports');
      for (const file of sourceFiles(pristineRoot).filter((f) => f.startsWith(`${folder}/`))) {
        const left = new Set(exportedNames(parseSource(resultRoot, file)).map((d) => d.name));
        for (const { name } of exportedNames(parseSource(pristineRoot, file))) {
          const unused = truth.includes(`${file}::${name}`);
          if (unused && left.has(name)) problems.push(`${file}: ${name} not deleted`);
          if (!unused && !left.has(name)) problems.push(`${file}: ${name} deleted though used`);
        }
      }
      return problems;
    },
  };
}

function exportedNames(source: ts.SourceFile): Array<{ name: string; node: ts.Node }> {
  const out: Array<{ name: string; node: ts.Node }> = [];
  for (const statement of source.statements) {
    const exported =
      ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported !== true) continue;
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name)) out.push({ name: d.name.text, node: d });
    } else {
      const name = (statement as { name?: ts.Node }).name;
      if (name !== undefined && ts.isIdentifier(name)) out.push({ name: name.text, node: statement });
    }
  }
  return out;
}

/**
 * The ground truth by grep: an exported declaration of the folder whose name, as a whole word, occurs in no other
 * file and in its own file only as often as it is declared (overloads).
 */
export function unusedExportsTruth(root: string, folder: string): string[] {
  const texts = new Map(sourceFiles(root).map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const truth: string[] = [];
  for (const file of [...texts.keys()].filter((f) => f.startsWith(`${folder}/`))) {
    const declared = new Map<string, number>();
    for (const { name } of exportedNames(parseSource(root, file))) declared.set(name, (declared.get(name) ?? 0) + 1);
    for (const [name, declarations] of declared) {
      const word = new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`, 'g');
      let elsewhere = 0;
      let here = 0;
      for (const [other, text] of texts) {
        const count = text.match(word)?.length ?? 0;
        if (other === file) here = count;
        else elsewhere += count;
      }
      if (elsewhere === 0 && here === declarations) truth.push(`${file}::${name}`);
    }
  }
  return truth;
}

// ---------------------------------------------------------------------------------------------------------------
// Find every place a pattern occurs (every place a key is set).

export function findAllTask(spec: {
  readonly id: string;
  readonly goal: string;
  /** A regular expression both ripgrep and JavaScript read the same way. */
  readonly pattern: string;
  /** A glob of files to leave out, and the same as a test of a workspace-relative path. */
  readonly excludeGlob: string;
  readonly excluded: (relPath: string) => boolean;
}): PlayedTask {
  return {
    id: spec.id,
    kind: 'find every place',
    goal: spec.goal,
    edits: false,
    async scalpel(p) {
      const answer = await p.callAllPages('search', {
        pattern: spec.pattern,
        regex: true,
        case: 'sensitive',
        exclude: [spec.excludeGlob],
      });
      return groupedRows(answer).flatMap((row) => {
        const line = /^(\d+) /.exec(row.cells)?.[1];
        return line === undefined ? [] : [`${row.file}:${line}`];
      });
    },
    async baseline(p) {
      return p.grep(spec.pattern, { flags: ['--glob', `!${spec.excludeGlob}`] }).map((h) => `${h.file}:${h.line}`);
    },
    check(pristineRoot, _resultRoot, answer) {
      const truth: string[] = [];
      const pattern = new RegExp(spec.pattern);
      for (const file of textFiles(pristineRoot, spec.excluded))
        readFileSync(join(pristineRoot, file), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (pattern.test(line)) truth.push(`${file}:${i + 1}`);
          });
      return sameSet(answer, truth, 'places');
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Read an element to answer a question about it.

export function readAnswerTask(spec: {
  readonly id: string;
  readonly goal: string;
  readonly symbol: string;
  readonly kind: string;
  /** Finds the answer (its first group) in the element's text. */
  readonly answerPattern: RegExp;
  readonly expected: string;
}): PlayedTask {
  return {
    id: spec.id,
    kind: 'read an element to answer',
    goal: spec.goal,
    edits: false,
    async scalpel(p) {
      // The element's own text, found and read in one call.
      const answer = await p.call('find_symbols', { name: spec.symbol, kinds: [spec.kind], includeBody: true });
      const found = spec.answerPattern.exec(answer)?.[1];
      return found === undefined ? [] : [found];
    },
    async baseline(p) {
      const hits = p.grep(spec.symbol, { flags: ['-F'] });
      const declaration = hits.find(
        (h) => TOP_DECLARATION.exec(h.text)?.[2] === spec.symbol && !/\binterface\b|\btype\b/.test(h.text),
      );
      if (declaration === undefined) return [];
      const end = p.readDeclaration(declaration.file, declaration.line);
      const found = spec.answerPattern.exec(linesOf(p.fileText(declaration.file), declaration.line, end))?.[1];
      return found === undefined ? [] : [found];
    },
    check(_pristineRoot, _resultRoot, answer) {
      return answer.length === 1 && answer[0] === spec.expected
        ? []
        : [`answered ${JSON.stringify(answer)}, expected ${spec.expected}`];
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Change one declaration (an option added).

export function changeDeclarationTask(spec: {
  readonly id: string;
  readonly kind: string;
  readonly goal: string;
  readonly name: string;
  readonly blocks: readonly SearchReplace[];
  /** What is wrong with the changed declaration, from the result file's AST. */
  readonly verify: (declaration: ts.FunctionDeclaration) => string[];
}): PlayedTask {
  const { name } = spec;
  const declarationIn = (root: string, file: string): ts.FunctionDeclaration | undefined =>
    parseSource(root, file).statements.find(
      (s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name && s.body !== undefined,
    );
  let declaredIn: string | undefined;
  return {
    id: spec.id,
    kind: spec.kind,
    goal: spec.goal,
    edits: true,
    async scalpel(p) {
      const path = symbolPath(await p.call('find_symbols', { name, kinds: ['function'], includeBody: true }), name, [
        'function',
      ]);
      if (!spec.blocks.every((b) => p.hasSeen(b.search, fileOfPath(path))))
        throw new Error('a SEARCH copies lines the agent has not read');
      await p.call('apply', { operations: patchOperation(path, spec.blocks) });
      return [];
    },
    async baseline(p) {
      const hits = p.grep(`\\b${escapeRegExp(name)}\\b`);
      const declaration = hits.find((h) => new RegExp(`function\\s+${escapeRegExp(name)}\\b`).test(h.text));
      if (declaration === undefined) throw new Error(`grep found no declaration of ${name}`);
      p.readDeclaration(declaration.file, declaration.line);
      if (!spec.blocks.every((b) => p.hasSeen(b.search, declaration.file)))
        throw new Error('a SEARCH copies lines the agent has not read');
      p.edit(declaration.file, spec.blocks);
      return [];
    },
    check(pristineRoot, resultRoot) {
      declaredIn ??= sourceFiles(pristineRoot).find((f) => declarationIn(pristineRoot, f) !== undefined);
      if (declaredIn === undefined) return [`no declaration of ${name}`];
      const changed = declarationIn(resultRoot, declaredIn);
      return changed === undefined ? [`${name} is gone from ${declaredIn}`] : spec.verify(changed);
    },
  };
}
