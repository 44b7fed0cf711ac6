import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { ElementNode } from '../../../../src/core/elements/element';
import { outlineSource } from '../../../../src/core/elements/outline';
import { applyOperations } from '../../../../src/core/ops/apply';
import { insideAny, scanCode } from '../../../../src/core/ops/apply/codeScan';
import type { Operation } from '../../../../src/core/ops/operation';
import { type CorpusFile, loadCorpus } from '../../../support/corpus';

/**
 * A cheap fidelity check on real code: every top-level function and every method of a top-level class, replaced by
 * its own text, must give back the file byte for byte, both as cut from the file and as a model would write it
 * (moved to column 0). Runs when the corpus is installed (`node scripts/corpus.mjs`).
 */

const FILES_PER_PACKAGE = 60;
const FUNCTION_KINDS = new Set(['function', 'method', 'constructor', 'getter', 'setter']);

function corpusSample(): CorpusFile[] | string {
  let corpus;
  try {
    corpus = loadCorpus();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const sample: CorpusFile[] = [];
  for (const pkg of corpus.packages) {
    const files = corpus.corpusFiles().filter((f) => f.pkg === pkg.name);
    const step = Math.max(1, Math.floor(files.length / FILES_PER_PACKAGE));
    for (
      let i = 0;
      i < files.length && sample.filter((f) => f.pkg === pkg.name).length < FILES_PER_PACKAGE;
      i += step
    ) {
      const file = files[i];
      if (file !== undefined) sample.push(file);
    }
  }
  return sample;
}

/** Functions, methods and function-valued variables, none inside another (one batch must not nest its edits). */
function targets(elements: readonly ElementNode[]): ElementNode[] {
  const found: ElementNode[] = [];
  for (const element of elements) {
    const functionValued =
      (element.kind === 'variable' || element.kind === 'property') &&
      element.bodyRange !== undefined &&
      element.children.length === 0;
    if (FUNCTION_KINDS.has(element.kind) || functionValued) found.push(element);
    else found.push(...targets(element.children));
  }
  return found;
}

/** The element's text moved to column 0, lines inside string and template literals left alone. */
function dedented(text: string, element: ElementNode): string {
  const slice = text.slice(element.range.start, element.range.end);
  const lineStart = text.lastIndexOf('\n', element.range.start - 1) + 1;
  const indent = text.slice(lineStart, element.range.start);
  if (!/^[ \t]*$/.test(indent) || indent === '') return slice;
  const { literals } = scanCode(slice);
  let offset = 0;
  return slice
    .split('\n')
    .map((line, i) => {
      const start = offset;
      offset += line.length + 1;
      if (i === 0 || insideAny(literals, start)) return line;
      return line.startsWith(indent) ? line.slice(indent.length) : line;
    })
    .join('\n');
}

/** The element with the indentation of its first line, as a model copying whole lines writes it. */
function withLineIndent(text: string, element: ElementNode): string {
  const lineStart = text.lastIndexOf('\n', element.range.start - 1) + 1;
  const indent = text.slice(lineStart, element.range.start);
  return /^[ \t]*$/.test(indent)
    ? text.slice(lineStart, element.range.end)
    : text.slice(element.range.start, element.range.end);
}

const sample = corpusSample();

void describe('fidelity on the real-world corpus', () => {
  if (typeof sample === 'string') {
    void test('the corpus is not installed', (t) => t.skip(sample));
    return;
  }
  for (const file of sample) {
    const path = `${file.pkg}/${file.relPath}`;
    void test(`${path}: every function and method replaced by its own text is byte-identical`, () => {
      const text = readFileSync(file.absPath, 'utf8');
      const outline = outlineSource(path, text);
      const elements = targets(outline.elements);
      if (elements.length === 0) return;
      for (const form of ['as cut from the file', 'moved to column 0', 'with its whole first line'] as const) {
        const operations: Operation[] = elements.map((element) => ({
          type: 'REPLACE_ELEMENT',
          path: element.path,
          content:
            form === 'as cut from the file'
              ? text.slice(element.range.start, element.range.end)
              : form === 'moved to column 0'
                ? dedented(text, element)
                : withLineIndent(text, element),
        }));
        const result = applyOperations({ read: (p) => (p === path ? text : undefined) }, operations);
        const failed = result.results.filter((r) => r.status === 'failed');
        assert.deepEqual(
          failed.map((r) => `${r.operation.path}: ${r.message ?? ''}`),
          [],
          `${path} (${form})`,
        );
        assert.equal(
          result.changes.length,
          0,
          `${path} (${form}): ${
            result.changes[0]?.edits
              .slice(0, 3)
              .map((e) => JSON.stringify(e))
              .join(' ') ?? ''
          }`,
        );
      }
    });
  }
});
