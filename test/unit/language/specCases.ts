import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElementNode } from '../../../src/core/elements/element';
import { outlineSource } from '../../../src/core/elements/outline';
import { resolveElementPath, walkElements } from '../../../src/core/elements/resolve';
import { applyOperations } from '../../../src/core/ops/apply';
import type { Operation } from '../../../src/core/ops/operation';
import { findRepoRootOrThrow } from '../../support/corpus';

/** Shared steps of the hard-case tests of the tree-sitter languages (go/, rust/, java/, csharp/). */

export function readFixture(relative: string): string {
  return readFileSync(join(findRepoRootOrThrow(), 'test', 'unit', 'language', relative), 'utf8');
}

/** Every element's path without the file part, with its lines: what the outline tests compare. */
export function outlinePaths(file: string, text: string): string[] {
  const outline = outlineSource(file, text);
  assert.deepEqual(outline.syntaxErrors, []);
  return [...walkElements(outline.elements)].map(
    (e: ElementNode) => `${e.path.slice(file.length + 1)} ${e.startLine}-${e.endLine}`,
  );
}

/** The element at `path` (without the file part), or a failed assertion. */
export function elementAt(file: string, text: string, path: string): { element: ElementNode; text: string } {
  const found = resolveElementPath(outlineSource(file, text), `${file}/${path}`);
  assert.ok(found.ok, `${path} resolves`);
  assert.equal(found.tolerant, false, `${path} resolves exactly`);
  return { element: found.element, text: text.slice(found.element.range.start, found.element.range.end) };
}

/**
 * Applies one batch to the file and returns the new text, after checking the batch applied, the result parses and
 * every other element kept its text.
 */
export function applyToFixture(file: string, text: string, operations: readonly Operation[]): string {
  const result = applyOperations({ read: (path) => (path === file ? text : undefined) }, operations);
  const failed = result.results.filter((r) => r.status !== 'ok').map((r) => `${r.operation.type}: ${r.message ?? ''}`);
  assert.ok(result.ok, `the batch applies: ${failed.join('; ')}`);
  const after = result.changes.find((change) => change.path === file)?.after;
  assert.ok(after !== undefined, 'the file changed');
  assert.deepEqual(outlineSource(file, after).syntaxErrors, [], `the result parses:\n${after}`);
  return after;
}
