import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { ElementNode } from '../../../../src/core/elements/element';
import { outlineSource } from '../../../../src/core/elements/outline';
import { allElements } from '../../../../src/core/elements/resolve';
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

/** Elements changed between the two releases of each package, a spread sample of them. */
const CHANGED_ELEMENTS = 40;
const CHANGED_FILES = 30;
const CHANGED_KINDS = new Set([...FUNCTION_KINDS, 'property', 'variable', 'interface', 'type', 'class', 'enum']);

interface ChangedElement {
  readonly path: string;
  readonly file: string;
  readonly beforeText: string;
  readonly newText: string;
  readonly newIndent: string;
}

function changedElements(): ChangedElement[] {
  const found: ChangedElement[] = [];
  const pairs = loadCorpus().changedFilePairs();
  const pairStep = Math.max(1, Math.floor(pairs.length / CHANGED_FILES));
  for (const pair of pairs.filter((_, i) => i % pairStep === 0)) {
    const file = `${pair.pkg}/${pair.relPath}`;
    const after = new Map(allElements(outlineSource(file, pair.afterText)).map((e) => [e.path, e] as const));
    for (const element of allElements(outlineSource(file, pair.beforeText))) {
      const other = after.get(element.path);
      if (other === undefined || !CHANGED_KINDS.has(element.kind)) continue;
      const newText = pair.afterText.slice(other.range.start, other.range.end);
      if (pair.beforeText.slice(element.range.start, element.range.end) === newText) continue;
      const lineStart = pair.afterText.lastIndexOf('\n', other.range.start - 1) + 1;
      const newIndent = pair.afterText.slice(lineStart, other.range.start);
      found.push({
        path: element.path,
        file,
        beforeText: pair.beforeText,
        newText,
        newIndent: /^[ \t]*$/.test(newIndent) ? newIndent : '',
      });
    }
  }
  const step = Math.max(1, Math.floor(found.length / CHANGED_ELEMENTS));
  return found.filter((_, i) => i % step === 0).slice(0, CHANGED_ELEMENTS);
}

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

  void test('the new version of changed elements, from the newer release, lands exactly as written there', () => {
    for (const changed of changedElements()) {
      const dedentedText = changed.newText
        .split('\n')
        .map((line, i) =>
          i > 0 && changed.newIndent !== '' && line.startsWith(changed.newIndent)
            ? line.slice(changed.newIndent.length)
            : line,
        )
        .join('\n');
      for (const content of [changed.newText, dedentedText]) {
        const result = applyOperations({ read: (p) => (p === changed.file ? changed.beforeText : undefined) }, [
          { type: 'REPLACE_ELEMENT', path: changed.path, content },
        ]);
        assert.ok(result.ok, `${changed.path}: ${result.results[0]?.message ?? ''}`);
        const text = result.changes[0]?.after ?? changed.beforeText;
        const element = allElements(outlineSource(changed.file, text)).find((e) => e.path === changed.path);
        assert.ok(element !== undefined, changed.path);
        const written = text.slice(element.range.start, element.range.end);
        // A doc comment the new version no longer has is kept by REPLACE_ELEMENT on purpose.
        const kept =
          written.endsWith(changed.newText) && /^\/\*\*[\s\S]*\*\/\s*$/.test(written.slice(0, -changed.newText.length));
        assert.ok(
          written === changed.newText || kept,
          `${changed.path}:\n--- written\n${written}\n--- expected\n${changed.newText}`,
        );
      }
    }
  });
});
