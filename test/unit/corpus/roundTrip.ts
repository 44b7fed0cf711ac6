import type { ElementNode, FileOutline } from '../../../src/core/elements/element';
import { resolveElementPath, walkElements } from '../../../src/core/elements/resolve';
import type { LanguageSupport } from '../../../src/core/language/languageSupport';
import { diffElementsInDetail } from '../../../src/core/ops/diff';
import type { Operation } from '../../../src/core/ops/operation';
import { applyToFile } from '../ops/diff/applyToFile';

/**
 * The round-trip harness of the element model, for any language behind the LanguageSupport seam:
 *
 * - outline: every element of a file resolves by its own path back to itself (same range), siblings do not overlap
 *   and lie inside their container;
 * - mutation: seeded random edits of real elements (replace one element by another of its kind, delete one, create a
 *   renamed copy next to one, patch one identifier inside one) make a target text; the element diff of the file to
 *   that target, applied by the apply engine, must give the target byte for byte. A failure names the seed, so it
 *   replays with SCALPEL_ROUNDTRIP_SEED.
 *
 * Nothing here knows a language's syntax: mutations work on element ranges and identifiers only, and a target that
 * does not parse (deleting the only statement of a Python body) is dropped and another mutation drawn.
 */

export const MUTATION_KINDS = ['replace', 'delete', 'create', 'patch'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  readonly kind: MutationKind;
  /** The path of the element mutated, in the original file. */
  readonly path: string;
}

export interface MutatedFile {
  readonly target: string;
  readonly mutations: readonly Mutation[];
  /** Drawn mutations dropped because their target did not parse. */
  readonly unparsable: number;
}

/** The seed of a run: SCALPEL_ROUNDTRIP_SEED when set, else a fixed one so runs compare. */
export function baseSeed(): number {
  const fromEnvironment = process.env['SCALPEL_ROUNDTRIP_SEED'];
  if (fromEnvironment === undefined || fromEnvironment === '') return 13;
  const seed = Number(fromEnvironment);
  if (!Number.isInteger(seed)) throw new Error(`SCALPEL_ROUNDTRIP_SEED must be an integer, not ${fromEnvironment}`);
  return seed;
}

/** The seed of one file: the run's seed mixed with the file's path, so files draw independently of their order. */
export function fileSeed(seed: number, file: string): number {
  let hash = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** mulberry32: small, fast and good enough to draw mutations. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}

// ---- outline checks ---------------------------------------------------------------------------------------------

/** Problems of one outline: ranges that overlap or leave their container, paths that do not resolve to themselves. */
export function outlineProblems(outline: FileOutline): { problems: string[]; elements: number } {
  const problems: string[] = [];
  const tile = (elements: readonly ElementNode[], parent: { start: number; end: number }): void => {
    let previousEnd = parent.start;
    for (const element of elements) {
      if (element.range.start < previousEnd) problems.push(`${element.path} overlaps the element before it`);
      if (element.range.end > parent.end) problems.push(`${element.path} ends outside its container`);
      if (element.range.start >= element.range.end) problems.push(`${element.path} is empty`);
      previousEnd = element.range.end;
      tile(element.children, element.range);
    }
  };
  tile(outline.elements, { start: 0, end: outline.text.length });
  let elements = 0;
  for (const element of walkElements(outline.elements)) {
    elements += 1;
    const resolved = resolveElementPath(outline, element.path);
    if (!resolved.ok) problems.push(`${element.path} does not resolve: ${resolved.message}`);
    else if (resolved.tolerant) problems.push(`${element.path} resolves only tolerantly, to ${resolved.path}`);
    else if (resolved.element.range.start !== element.range.start || resolved.element.range.end !== element.range.end)
      problems.push(`${element.path} resolves to another range (${resolved.path})`);
    for (const overload of element.overloads ?? []) {
      const single = resolveElementPath(outline, overload.path);
      if (!single.ok || single.overload?.range.start !== overload.range.start)
        problems.push(`${overload.path} does not resolve to its signature`);
    }
  }
  return { problems, elements };
}

// ---- mutations --------------------------------------------------------------------------------------------------

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly mutation: Mutation;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEndOf(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end < 0 ? text.length : end;
}

/** The element alone on its lines: only whitespace before it on its first line and after it on its last. */
function ownsItsLines(text: string, element: ElementNode): boolean {
  const before = text.slice(lineStartOf(text, element.range.start), element.range.start);
  const after = text.slice(element.range.end, lineEndOf(text, element.range.end));
  return before.trim() === '' && after.trim() === '';
}

function indentationOf(text: string, element: ElementNode): string {
  return text.slice(lineStartOf(text, element.range.start), element.range.start);
}

/** `code` (whose first line starts at `from` columns) moved to start at `to`: every later line shifted alike. */
function reindent(code: string, from: string, to: string): string {
  const lines = code.split('\n');
  return lines
    .map((line, index) => {
      if (index === 0) return line;
      if (line.startsWith(from)) return to + line.slice(from.length);
      return line;
    })
    .join('\n');
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * The identifier that names an element in its declaration: the name itself, or its last identifier when the name
 * is qualified (`(*Server).Start`, `Display for Point`, `a,b`).
 */
function simpleNameOf(element: ElementNode): string | undefined {
  return /[A-Za-z_][A-Za-z0-9_]*$/.exec(element.name)?.[0];
}

function nameOffsetIn(text: string, element: ElementNode): number | undefined {
  const name = simpleNameOf(element);
  if (name === undefined || element.kind === 'statement') return undefined;
  const declaration = text.slice(element.declarationRange.start, element.declarationRange.end);
  const match = new RegExp(`\\b${name}\\b`).exec(declaration);
  return match === null ? undefined : element.declarationRange.start + match.index;
}

/**
 * Words a patch leaves alone: keywords of the languages the harness runs on, which a patch would turn into an
 * identifier (`importMut "fmt"`) that some grammars recover from without an error node.
 */
const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default defer delete do else enum export ' +
    'extends extern false final finally fn for from func function go if impl implements import in interface internal ' +
    'is let match mod module mut namespace new nil none null override package private protected pub public readonly ' +
    'return sealed self static struct super switch this throw throws trait true try type typeof use using var ' +
    'virtual void where while with yield'
  ).split(' '),
);

function replaceEdit(
  text: string,
  element: ElementNode,
  all: readonly ElementNode[],
  random: () => number,
): Edit | undefined {
  const others = all.filter(
    (other) =>
      other !== element &&
      other.kind === element.kind &&
      other.kind !== 'import' &&
      other.overloads === undefined &&
      other.children.length === 0 &&
      ownsItsLines(text, other) &&
      text.slice(other.range.start, other.range.end) !== text.slice(element.range.start, element.range.end),
  );
  const source = pick(random, others);
  if (source === undefined || element.overloads !== undefined || !ownsItsLines(text, element)) return undefined;
  let code = text.slice(source.range.start, source.range.end);
  // Keep the element's name, so it stays the same element with new content.
  const nameAt = nameOffsetIn(text, source);
  const sourceName = simpleNameOf(source);
  const targetName = simpleNameOf(element);
  if (nameAt !== undefined && sourceName !== undefined && targetName !== undefined) {
    const at = nameAt - source.range.start;
    code = code.slice(0, at) + targetName + code.slice(at + sourceName.length);
  }
  code = reindent(code, indentationOf(text, source), indentationOf(text, element));
  return {
    start: element.range.start,
    end: element.range.end,
    text: code,
    mutation: { kind: 'replace', path: element.path },
  };
}

function deleteEdit(text: string, element: ElementNode): Edit {
  const mutation: Mutation = { kind: 'delete', path: element.path };
  if (!ownsItsLines(text, element)) return { start: element.range.start, end: element.range.end, text: '', mutation };
  // The element's lines go, and with them one blank line beside them when the lines left would have two blank lines
  // in a row, or one right inside a container's edge, as a person deletes a declaration.
  let start = lineStartOf(text, element.range.start);
  let end = Math.min(lineEndOf(text, element.range.end) + 1, text.length);
  const blankAfter = /^[ \t]*\r?\n/.exec(text.slice(end));
  const blankBefore = start > 0 && /\r?\n[ \t]*\r?\n$/.test(text.slice(0, start));
  const closesContainer = /^[ \t]*([)}\]]|$)/.test(text.slice(end + (blankAfter?.[0].length ?? 0)));
  const opensContainer = start === 0 || /(^|[({[:])[ \t]*\r?\n([ \t]*\r?\n)?$/.test(text.slice(0, start));
  if (blankAfter !== null && (blankBefore || opensContainer)) end += blankAfter[0].length;
  else if (blankBefore && closesContainer) start = lineStartOf(text, start - 1);
  return { start, end, text: '', mutation };
}

function createEdit(text: string, element: ElementNode): Edit | undefined {
  const nameAt = nameOffsetIn(text, element);
  // An overload set would need every signature renamed alike.
  if (element.overloads !== undefined) return undefined;
  if (nameAt === undefined || !ownsItsLines(text, element)) return undefined;
  const code = text.slice(element.range.start, element.range.end);
  const at = nameAt - element.range.start;
  const name = simpleNameOf(element) ?? '';
  const copy = `${code.slice(0, at)}${name}Copy${code.slice(at + name.length)}`;
  const lineEnd = lineEndOf(text, element.range.end);
  // The copy is set apart as this element is from its neighbours (PEP 8's two blank lines between top-level
  // definitions, one elsewhere), and not at all when a sibling touches it.
  const lineStart = lineStartOf(text, element.range.start);
  const touchedAfter = /^\r?\n[ \t]*[^\s)}\]]/.test(text.slice(lineEnd));
  const touchedBefore = lineStart > 0 && !/(^|[({[:]|\n[ \t]*)\r?\n$/.test(text.slice(0, lineStart));
  const blankLines = (gap: string): number => Math.max(0, (gap.match(/\n/g) ?? []).length - 1);
  const gapAfter = /^\s*/.exec(text.slice(lineEnd))?.[0] ?? '';
  const gapBefore = /\s*$/.exec(text.slice(0, lineStart))?.[0] ?? '';
  const after = text.slice(lineEnd + gapAfter.length).length > 0 ? blankLines(gapAfter) : 0;
  const spacing = touchedAfter || touchedBefore ? 0 : Math.min(2, Math.max(1, after || blankLines(gapBefore)));
  const eol = text[lineEnd - 1] === '\r' ? '\r\n' : '\n';
  return {
    start: element.range.end,
    end: element.range.end,
    text: `${eol.repeat(1 + spacing)}${indentationOf(text, element)}${copy.replace(/\r?\n/g, eol)}`,
    mutation: { kind: 'create', path: element.path },
  };
}

function patchEdit(text: string, element: ElementNode, random: () => number): Edit | undefined {
  const start = element.bodyRange?.start ?? element.declarationRange.start;
  const end = element.bodyRange?.end ?? element.declarationRange.end;
  const body = text.slice(start, end);
  const nameAt = nameOffsetIn(text, element);
  const candidates = [...body.matchAll(IDENTIFIER)].filter(
    (match) => start + match.index !== nameAt && !KEYWORDS.has(match[0]),
  );
  const chosen = pick(random, candidates);
  if (chosen === undefined) return undefined;
  const at = start + chosen.index + chosen[0].length;
  return { start: at, end: at, text: 'Mut', mutation: { kind: 'patch', path: element.path } };
}

/**
 * Up to `count` mutations of distinct elements, none inside another, drawn with `random`. Returns undefined when
 * the file has no element to mutate or every drawn target failed to parse.
 */
export function mutateFile(
  language: LanguageSupport,
  file: string,
  outline: FileOutline,
  random: () => number,
  count: number,
): MutatedFile | undefined {
  const text = outline.text;
  const all = [...walkElements(outline.elements)];
  if (all.length === 0) return undefined;
  let unparsable = 0;
  for (let attempt = 0; attempt < 12; attempt++) {
    const edits: Edit[] = [];
    for (let tries = 0; edits.length < count && tries < count * 8; tries++) {
      const element = pick(random, all);
      if (element === undefined) break;
      // Disjoint from the edits already drawn, with a line between them, so each edit reads the original text.
      const clash = edits.some(
        (edit) =>
          lineStartOf(text, element.range.start) <= lineEndOf(text, edit.end) + 1 &&
          edit.start <= lineEndOf(text, element.range.end) + 1,
      );
      if (clash) continue;
      // A copy of an import, or one import replaced by another, is no edit anyone makes; imports are deleted and
      // patched (a binding renamed) instead.
      const kinds = element.kind === 'import' ? (['delete', 'patch'] as const) : MUTATION_KINDS;
      const kind = pick(random, kinds);
      const edit =
        kind === 'replace'
          ? replaceEdit(text, element, all, random)
          : kind === 'delete'
            ? deleteEdit(text, element)
            : kind === 'create'
              ? createEdit(text, element)
              : patchEdit(text, element, random);
      if (edit !== undefined && !edits.some((other) => other.start < edit.end && edit.start < other.end))
        edits.push(edit);
    }
    if (edits.length === 0) continue;
    let target = text;
    for (const edit of [...edits].sort((a, b) => b.start - a.start))
      target = target.slice(0, edit.start) + edit.text + target.slice(edit.end);
    // An emptied file is no element edit: REPLACE_FILE refuses empty content, and deleting every element leaves
    // the file's last line break.
    if (target === text || target.trim() === '') continue;
    if (language.outline(file, target).syntaxErrors.length > 0) {
      unparsable += 1;
      continue;
    }
    return { target, mutations: edits.map((edit) => edit.mutation), unparsable };
  }
  return undefined;
}

// ---- the round trip ---------------------------------------------------------------------------------------------

export interface RoundTripResult {
  readonly ok: boolean;
  /** Why it failed, when it did. */
  readonly reason?: string;
  readonly operations: readonly Operation[];
  /** The diff fell back to REPLACE_FILE. */
  readonly replacedWhole: boolean;
  /** The diff's fallbacks to a bigger operation than the change called for: `kind: reason`. */
  readonly fallbacks: readonly string[];
}

/** diff(before, target) applied to before must be target, byte for byte. */
export function roundTrip(file: string, before: string, target: string): RoundTripResult {
  let diff;
  try {
    diff = diffElementsInDetail(file, before, target);
  } catch (error) {
    const reason = `the diff threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    return { ok: false, reason, operations: [], replacedWhole: false, fallbacks: [] };
  }
  const replacedWhole = diff.operations.some((operation) => operation.type === 'REPLACE_FILE');
  const fallbacks = diff.fallbacks.map((fallback) => `${fallback.kind}: ${fallback.reason}`);
  const applied = applyToFile(file, before, diff.operations, diff.renames);
  if (applied === undefined)
    return {
      ok: false,
      reason: 'the apply engine refused the operations',
      operations: diff.operations,
      replacedWhole,
      fallbacks,
    };
  if (applied !== target)
    return {
      ok: false,
      reason: 'the result differs from the target',
      operations: diff.operations,
      replacedWhole,
      fallbacks,
    };
  return { ok: true, operations: diff.operations, replacedWhole, fallbacks };
}
