import { createTwoFilesPatch } from 'diff';
import { buildContext, type ContextFileRequest } from '../src/core/context/buildContext';
import { focusOfOperations } from '../src/core/context/operationFocus';
import type { TokenCounter } from '../src/core/context/tokens';
import type { FileOutline } from '../src/core/elements/element';
import { outlineSource } from '../src/core/elements/outline';
import { elementsInRange, resolveElementPath } from '../src/core/elements/resolve';
import { applyOperations } from '../src/core/ops/apply';
import { diffElementsInDetail } from '../src/core/ops/diff';
import { serializeOperations, serializeOperationsAsJson } from '../src/core/ops/format';
import type { Operation, RenameResolution } from '../src/core/ops/operation';
import type { ChangedFilePair } from '../test/support/corpus';
import {
  applySearchReplaceBlocks,
  changedLineCounts,
  changedRanges,
  formatSearchReplaceBlocks,
  searchReplaceBlocks,
} from './searchReplaceBlocks';
import { workspacePathOf } from './workspacePaths';

/**
 * Every changed file of the corpus taken as one edit, before → after: what the model reads (the focused context of the
 * elements the element diff touched, against the whole file), what it writes in each edit format, and whether
 * Scalpel's operations reproduce the new file exactly.
 */

/** Files longer than this get the diagnostic input measures too (the input target is held for them). */
export const DIAGNOSED_FILE_LINES = 150;

export const OUTPUT_FORMATS = ['scalpel', 'json', 'wholeFile', 'unifiedDiff', 'searchReplace'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface EditMeasure {
  readonly pkg: string;
  /** Workspace path: package folder then the path inside the package. */
  readonly file: string;
  readonly lines: number;
  readonly operationTypes: readonly string[];
  readonly replacedWholeFile: boolean;
  /** Kinds of fallback the diff reported (`file`, `container`, `element`), once each. */
  readonly fallbackKinds: readonly string[];
  readonly fallbackReasons: readonly string[];
  readonly diffMs: number;
  /** Canonical paths shown in full in the focused context. */
  readonly focus: readonly string[];
  /** Operation paths that did not resolve in the old file (elements the batch itself creates or renames). */
  readonly unresolvedFocus: readonly string[];
  readonly input: {
    readonly focused: number;
    readonly wholeFile: number;
    readonly sentWhole: boolean;
    /**
     * The focused context when the focus is the elements whose lines changed, whatever operations the diff chose:
     * what the model must read for this edit, apart from the diff's fallbacks.
     */
    readonly focusedByChangedLines: number;
    /** Tokens of those elements' own text: the floor of any context that shows them in full. */
    readonly changedElementsOnly: number;
    /** The focused context of each of those elements alone, as if each were its own edit (files over 150 lines). */
    readonly singleElement: readonly number[];
    /** The file with nothing in focus: every element as a signature or stub, the cost of showing the rest (files
     * over 150 lines; NaN for the others). */
    readonly nothingInFocus: number;
  };
  readonly output: Readonly<Record<OutputFormat, number>>;
  /** Lines removed and added by the edit, against the old file's line count. */
  readonly changedLines: { readonly removed: number; readonly added: number; readonly lines: number };
  /** The search/replace baseline reproduces the new file when its blocks are applied in order. */
  readonly searchReplaceRoundTrip: boolean;
  /** 'ok', or why apply(before, diff(before, after)) is not after. */
  readonly roundTrip: string;
}

export interface EditRequest {
  readonly pair: ChangedFilePair;
  readonly file: string;
  readonly outline: FileOutline;
  readonly request: ContextFileRequest;
}

export function measureEdit(pair: ChangedFilePair, counter: TokenCounter): { measure: EditMeasure; edit: EditRequest } {
  const file = workspacePathOf(pair.pkg, pair.relPath);
  const started = performance.now();
  const diff = diffElementsInDetail(file, pair.beforeText, pair.afterText, { counter });
  const diffMs = performance.now() - started;
  const operations = diff.operations;

  const outline = outlineSource(file, pair.beforeText);
  // What the operations need (issue 28): a replaced or patched element in full, a container a member is created in
  // at the cost of that change, a container whose own text is patched with its members by signature.
  const { focus, containers, unresolved, whole } = focusOfOperations(outline, operations);
  const request: ContextFileRequest = whole
    ? { outline, focus: [], whole: true }
    : { outline, focus, ...(containers.length === 0 ? {} : { containers }) };
  const context = buildContext([request], counter);
  const lineFocus = focusOfChangedLines(outline, pair.beforeText, pair.afterText);
  const lineContext = buildContext([{ outline, focus: lineFocus }], counter);
  const elementTokens = (path: string): number => {
    const resolved = resolveElementPath(outline, path);
    return resolved.ok
      ? counter.count(outline.text.slice(resolved.element.range.start, resolved.element.range.end))
      : 0;
  };
  // The diagnostic rows are reported for files over 150 lines only; smaller ones are sent whole anyway.
  const diagnose = outline.lineCount > DIAGNOSED_FILE_LINES;
  const singleElement = diagnose
    ? lineFocus.map((path) => buildContext([{ outline, focus: [path] }], counter).tokens)
    : [];

  const blocks = searchReplaceBlocks(pair.beforeText, pair.afterText);
  const measure: EditMeasure = {
    pkg: pair.pkg,
    file,
    lines: outline.lineCount,
    operationTypes: operations.map((o) => o.type),
    replacedWholeFile: operations.some((o) => o.type === 'REPLACE_FILE'),
    fallbackKinds: [...new Set(diff.fallbacks.map((f) => f.kind))],
    fallbackReasons: diff.fallbacks.map((f) => `${f.kind}: ${f.reason}`),
    diffMs,
    focus,
    unresolvedFocus: unresolved,
    input: {
      focused: context.tokens,
      wholeFile: context.wholeFileTokens,
      sentWhole: context.files[0]?.mode === 'whole',
      focusedByChangedLines: lineContext.tokens,
      changedElementsOnly: lineFocus.reduce((sum, path) => sum + elementTokens(path), 0),
      singleElement,
      nothingInFocus: diagnose ? buildContext([{ outline, focus: [] }], counter).tokens : Number.NaN,
    },
    output: {
      scalpel: counter.count(serializeOperations(operations)),
      json: counter.count(serializeOperationsAsJson(operations)),
      wholeFile: counter.count(wholeFileAnswer(file, pair.afterText)),
      unifiedDiff: counter.count(
        createTwoFilesPatch(file, file, pair.beforeText, pair.afterText, undefined, undefined, { context: 3 }),
      ),
      searchReplace: counter.count(formatSearchReplaceBlocks(file, blocks)),
    },
    changedLines: changedLineCounts(pair.beforeText, pair.afterText),
    searchReplaceRoundTrip: applySearchReplaceBlocks(pair.beforeText, blocks) === pair.afterText,
    roundTrip: roundTrip(file, pair.beforeText, pair.afterText, operations, diff.renames),
  };
  return { measure, edit: { pair, file, outline, request } };
}

/** The whole-file answer as Aider's "whole" format writes it: the path, then the new file in a fence. */
function wholeFileAnswer(file: string, text: string): string {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${file}\n${fence}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}\n`;
}

/** The elements holding the changed lines: innermost holding a change, or every element a change covers whole. */
function focusOfChangedLines(outline: FileOutline, before: string, after: string): string[] {
  const focus = new Set<string>();
  for (const range of changedRanges(before, after)) {
    for (const element of elementsInRange(outline, range.start, range.end)) {
      if (element.kind !== 'import') focus.add(element.path);
    }
  }
  // An element inside another focused one is already shown in full.
  return [...focus].filter((path) => ![...focus].some((other) => path.startsWith(`${other}/`)));
}

function roundTrip(
  file: string,
  before: string,
  after: string,
  operations: readonly Operation[],
  renames: ReadonlyMap<Operation, RenameResolution> | undefined,
): string {
  try {
    const result = applyOperations(
      { read: (path) => (path === file ? before : undefined) },
      operations,
      renames === undefined ? {} : { renames },
    );
    if (!result.ok) {
      const failed = result.results.find((r) => r.status === 'failed');
      return `refused: ${failed?.operation.type ?? '?'} ${failed?.operation.path ?? ''}: ${failed?.message ?? 'no message'}`;
    }
    const change = result.changes.find((c) => c.path === file);
    const applied = change?.after ?? before;
    if (applied === after) return 'ok';
    return `differs from the new file at line ${firstDifferentLine(applied, after)}`;
  } catch (error) {
    return `threw: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function firstDifferentLine(a: string, b: string): number {
  let line = 1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return line;
    if (a[i] === '\n') line += 1;
  }
  return line;
}

/** One multi-file edit: the changed files of one group in one focused context, against all of them sent whole. */
export interface GroupMeasure {
  readonly group: string;
  readonly files: number;
  readonly focused: number;
  readonly wholeFiles: number;
}

export function measureGroup(group: string, edits: readonly EditRequest[], counter: TokenCounter): GroupMeasure {
  const context = buildContext(
    edits.map((e) => e.request),
    counter,
  );
  return { group, files: edits.length, focused: context.tokens, wholeFiles: context.wholeFileTokens };
}
