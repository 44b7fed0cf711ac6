import type { ElementNode } from '../../elements/element';
import { elementsAtOffset, walkElements } from '../../elements/resolve';
import type { CodeGraph as SharedCodeGraph } from '../../graph/codeGraph';
import type { NavigationTarget } from '../../graph/semantics';
import { languageFor } from '../../language/languages';
import type { OutlineCache } from '../outlineCache';
import { ToolInputError, type ToolWorkspace } from '../types';
import type { DeclarationLookup, DeclaredSite, ImplementationLookup } from './codeGraph';
import { hasImplementationsByName, implementationsByName } from './implementationsByName';

/**
 * The references tool's `declaration` and `implementations` over the shared code graph (issue 27): the language's
 * go to definition and go to implementation, each target named by the workspace element that declares it. A language
 * whose semantics cannot tell gets the declarations by name, said so, and the implementations by name where its types
 * name their bases (implementationsByName.ts).
 */

/** Files one implementation search reads: those that mention the name, as the reference search. */
const MAX_SEARCHED_FILES = 2_000;

/** What the tools say of implementations in a file of a language with no search for them: true, and what to do instead. */
export function implementationLanguages(file: string, language: string): string {
  return `implementations are found in TypeScript/JavaScript (the compiler) and Java, C#, Python, Rust (by name), and ${file} is ${language}; list the members of that name with find_symbols (by name) or their uses with references`;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * The declaring line's code; in a long line (a minified declaration file, the bundled standard library) the statement
 * around the name, from the `;`, `{` or `}` before it to the `;` after it.
 */
function lineTextAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const line = text.slice(start, end < 0 ? text.length : end).trim();
  if (line.length <= 160) return line;
  const before = Math.max(start, ...[';', '{', '}'].map((c) => text.lastIndexOf(c, offset) + 1));
  const after = text.indexOf(';', offset);
  const statement = text.slice(before, after < 0 || after > offset + 300 ? offset + 160 : after + 1).trim();
  return statement.length > 160 ? `${statement.slice(0, 159)}…` : statement;
}

function signatureOf(element: ElementNode): string {
  const flat = element.signature.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

/** The workspace element a target's name declares, or the line with what it is (a local, a file outside). */
function siteOf(graph: SharedCodeGraph, root: string, target: NavigationTarget): DeclaredSite {
  const line = lineOf(target.text, target.start);
  if (target.file === undefined) {
    const outside = target.outside ?? '';
    return {
      file: outside.startsWith(`${root}/`) ? outside.slice(root.length + 1) : outside,
      startLine: line,
      endLine: line,
      signature: lineTextAt(target.text, target.start),
      note: 'outside the workspace',
    };
  }
  const chain = elementsAtOffset(graph.outlineOf(target.file, target.text), target.start);
  const innermost = chain.at(-1);
  const declares =
    innermost !== undefined &&
    // A nameless element (a constructor: `new C()` leads to the class and to it) is found by where it starts.
    (innermost.name === target.name
      ? target.start >= innermost.declarationRange.start &&
        (innermost.bodyRange === undefined || target.start < innermost.bodyRange.start)
      : innermost.name === '' && target.start === innermost.declarationRange.start);
  if (declares) {
    return {
      file: target.file,
      element: innermost.path,
      startLine: innermost.startLine,
      endLine: innermost.endLine,
      signature: signatureOf(innermost),
    };
  }
  return {
    file: target.file,
    startLine: line,
    endLine: line,
    signature: lineTextAt(target.text, target.start),
    note: `${target.name} in ${innermost === undefined ? 'the file' : innermost.path.slice(target.file.length + 1)}`,
  };
}

function sortSites(sites: DeclaredSite[]): DeclaredSite[] {
  return sites.sort((a, b) => (a.file === b.file ? a.startLine - b.startLine : a.file < b.file ? -1 : 1));
}

/** The range of `scope` (an element, or the whole file) on `line` when given; undefined when the line is outside. */
function rangeOf(
  text: string,
  element: ElementNode | undefined,
  line: number | undefined,
): [number, number] | undefined {
  let start = element?.range.start ?? 0;
  let end = element?.range.end ?? text.length;
  if (line !== undefined) {
    let lineStart = 0;
    for (let n = 1; n < line; n++) {
      const next = text.indexOf('\n', lineStart);
      if (next < 0) return undefined;
      lineStart = next + 1;
    }
    const lineEnd = text.indexOf('\n', lineStart);
    start = Math.max(start, lineStart);
    end = Math.min(end, lineEnd < 0 ? text.length : lineEnd);
  }
  return start <= end ? [start, end] : undefined;
}

export function declarationLookup(
  graph: SharedCodeGraph,
  workspace: ToolWorkspace,
  outlines: OutlineCache,
  file: string,
  element: ElementNode | undefined,
  name: string,
  line: number | undefined,
): DeclarationLookup {
  const where = `${element?.path ?? file}${line === undefined ? '' : ` on line ${line}`}`;
  const text = outlines.getOrThrow(file).text;
  const range = rangeOf(text, element, line);
  if (range === undefined) throw new ToolInputError(`line ${line ?? 0} is not in ${element?.path ?? file}`);
  const semantics = graph.semanticsFor(file);
  if (semantics?.declarationsOf !== undefined) {
    const answer = semantics.declarationsOf(file, range[0], range[1], name, new Map());
    if (answer.uses.length === 0)
      throw new ToolInputError(`${name} is not used in ${where} (as an identifier in code); check the name and line`);
    const byKey = new Map<string, DeclaredSite & { useLines: number[] }>();
    let unresolved = 0;
    for (const use of answer.uses) {
      if (use.targets.length === 0) unresolved += 1;
      const useLine = lineOf(answer.text, use.start);
      for (const target of use.targets) {
        const site = siteOf(graph, workspace.root, target);
        const key = `${site.file}\0${site.element ?? site.startLine}`;
        const known = byKey.get(key);
        if (known === undefined) byKey.set(key, { ...site, useLines: [useLine] });
        else if (!known.useLines.includes(useLine)) known.useLines.push(useLine);
      }
    }
    return { sites: sortSites([...byKey.values()]), resolution: 'compiler', uses: answer.uses.length, unresolved };
  }
  // No compiler lookup in this language: the elements of that name in its files, said to be by name.
  const used = text.slice(range[0], range[1]);
  const word = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`, 'g');
  const uses = [...used.matchAll(word)].length;
  if (uses === 0) throw new ToolInputError(`${name} does not occur in ${where}; check the name and line`);
  const language = languageFor(file);
  const sites: DeclaredSite[] = [];
  for (const other of workspace.listSourceFiles()) {
    if (languageFor(other) !== language) continue;
    const outline = outlines.get(other);
    if (outline === undefined) continue;
    for (const candidate of walkElements(outline.elements)) {
      if (candidate.name !== name || ['import', 'export', 'statement'].includes(candidate.kind)) continue;
      sites.push({
        file: other,
        element: candidate.path,
        startLine: candidate.startLine,
        endLine: candidate.endLine,
        signature: signatureOf(candidate),
      });
    }
  }
  return { sites: sortSites(sites), resolution: 'name', uses, unresolved: 0 };
}

export function implementationLookup(
  graph: SharedCodeGraph,
  outlines: OutlineCache,
  file: string,
  element: ElementNode,
): ImplementationLookup {
  const semantics = graph.semanticsFor(file);
  if (semantics?.implementationsOf === undefined && hasImplementationsByName(file))
    return implementationsByName(graph, outlines, file, element);
  if (semantics?.implementationsOf === undefined)
    throw new ToolInputError(
      implementationLanguages(file, languageFor(file)?.displayName ?? 'not a language Scalpel reads'),
    );
  const { imports } = graph;
  imports.refresh();
  const mentions = imports.filesMentioning(element.name);
  const candidates = mentions.files.filter((f) => f !== file && graph.semanticsFor(f) === semantics);
  const searched = candidates.slice(0, MAX_SEARCHED_FILES);
  const targets = semantics.implementationsOf(file, element, searched, new Map());
  const sites = sortSites(targets.map((target) => siteOf(graph, graph.fileSystem.root, target)));
  const gaps = [
    ...(candidates.length > searched.length
      ? [`${candidates.length - searched.length} more files that mention the name not searched`]
      : []),
    ...(mentions.cutShort ? [`the name search stopped at its time limit after ${mentions.searched} files`] : []),
    ...(mentions.truncated ? ['the workspace listing stopped at its limit'] : []),
  ];
  return { sites, searched: searched.length + 1, gaps };
}
