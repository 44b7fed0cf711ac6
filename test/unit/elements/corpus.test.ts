import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { ElementNode, FileOutline } from '../../../src/core/elements/element';
import { outlineSource } from '../../../src/core/elements/outline';
import { resolveElementPath, walkElements } from '../../../src/core/elements/resolve';
import { buildContext } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { loadCorpus, type Corpus } from '../../support/corpus';

/**
 * The element model over real TypeScript: every file of the pinned corpus outlines, every element's path resolves
 * back to that same element, and the ranges tile the file without overlap.
 */

function tryLoadCorpus(): Corpus | undefined {
  try {
    return loadCorpus();
  } catch (error) {
    // In CI the test command installs the corpus first; a missing corpus there is a failure, not a skip.
    if (process.env['CI'] !== undefined) throw error;
    return undefined;
  }
}

const corpus = tryLoadCorpus();

function problemsInTiling(
  elements: readonly ElementNode[],
  parent: { start: number; end: number },
  problems: string[],
): void {
  let previousEnd = parent.start;
  for (const element of elements) {
    if (element.range.start < previousEnd) problems.push(`${element.path} overlaps the element before it`);
    if (element.range.end > parent.end) problems.push(`${element.path} ends outside its container`);
    if (element.range.start >= element.range.end) problems.push(`${element.path} is empty`);
    previousEnd = element.range.end;
    problemsInTiling(element.children, element.range, problems);
  }
}

function problemsInResolution(outline: FileOutline, problems: string[]): number {
  let count = 0;
  for (const element of walkElements(outline.elements)) {
    count += 1;
    const resolved = resolveElementPath(outline, element.path);
    if (!resolved.ok) problems.push(`${element.path} does not resolve: ${resolved.message}`);
    else if (resolved.element !== element || resolved.tolerant)
      problems.push(`${element.path} resolves to ${resolved.path}`);
    for (const overload of element.overloads ?? []) {
      const single = resolveElementPath(outline, overload.path);
      if (!single.ok || single.overload?.range.start !== overload.range.start)
        problems.push(`${overload.path} does not resolve to its signature`);
    }
  }
  return count;
}

void describe(
  'element model over the real-code corpus',
  { skip: corpus === undefined ? 'corpus not installed (node scripts/corpus.mjs)' : false },
  () => {
    const files = corpus?.corpusFiles() ?? [];

    void test(`every element of every file outlines, resolves back to itself, and the ranges tile the file`, () => {
      assert.ok(files.length >= 300, `the corpus has ${files.length} files`);
      const problems: string[] = [];
      let elements = 0;
      for (const file of files) {
        const text = readFileSync(file.absPath, 'utf8');
        const outline = outlineSource(`${file.pkg}/${file.relPath}`, text);
        if (outline.syntaxErrors.length > 0)
          problems.push(`${outline.file}: syntax errors ${JSON.stringify(outline.syntaxErrors[0])}`);
        problemsInTiling(outline.elements, { start: 0, end: text.length }, problems);
        elements += problemsInResolution(outline, problems);
      }
      assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems in ${files.length} files`);
      assert.ok(elements > 5000, `only ${elements} elements in the corpus`);
    });

    void test('a focused context can be built for an element of every file, and is smaller than large files', () => {
      const counter = createTokenCounter();
      let larger = 0;
      for (const file of files.filter((_, index) => index % 5 === 0)) {
        const outline = outlineSource(`${file.pkg}/${file.relPath}`, readFileSync(file.absPath, 'utf8'));
        const target = [...walkElements(outline.elements)].find((e) => e.kind === 'method' || e.kind === 'function');
        if (target === undefined) continue;
        const result = buildContext([{ outline, focus: [target.path] }], counter);
        assert.ok(
          result.text.includes(outline.text.slice(target.range.start, target.range.end)),
          `${target.path} is in full`,
        );
        if (outline.lineCount > 150) {
          larger += 1;
          assert.ok(
            result.tokens < result.wholeFileTokens,
            `${target.path}: ${result.tokens} >= ${result.wholeFileTokens}`,
          );
        }
      }
      assert.ok(larger > 0);
    });
  },
);
