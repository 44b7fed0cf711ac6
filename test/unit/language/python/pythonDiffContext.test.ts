import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { buildContext } from '../../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../../src/core/context/tokens';
import { outlineSource } from '../../../../src/core/elements/outline';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import { diffElementsInDetail } from '../../../../src/core/ops/diff';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const TEXT = readFileSync(join(ROOT, 'test/unit/language/python/fixtures/hard_cases.py'), 'utf8');
const FILE = 'pkg/hard_cases.py';

/**
 * The element diff between two versions, applied back to the first: it must give the second byte for byte. Returns
 * the operations, and the containers the diff replaced whole (where member operations could not say it).
 */
function roundTrip(after: string): { operations: string[]; fallbacks: string[] } {
  const diff = diffElementsInDetail(FILE, TEXT, after);
  assert.ok(diff.verified);
  const result = applyOperations({ read: (path) => (path === FILE ? TEXT : undefined) }, diff.operations);
  assert.ok(result.ok, JSON.stringify(result.results.map((r) => r.message)));
  assert.equal(result.changes[0]?.after, after);
  const local = (path: string): string => path.slice(FILE.length + 1);
  return {
    operations: diff.operations
      .map((o) => {
        const blanks = o.type === 'CREATE_ELEMENT' && o.blankLines !== undefined ? ` BLANK_LINES=${o.blankLines.above},${o.blankLines.below}` : '';
        return `${o.type} ${local(o.path)}${blanks}`;
      })
      .sort(),
    fallbacks: diff.fallbacks.map((f) => `${f.kind} ${local(f.path)}`),
  };
}

void describe('Python element diff and context', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  void test('the diff of edits in nested elements is element operations that reproduce the new text', () => {
    const after = TEXT.replace('return 2', 'return 3')
      .replace('        await tick()\n', '        await tick()\n        await tick()\n')
      .replace('    sides = 4\n\n', '    sides = 4\n    corners = 4\n\n');
    const { operations, fallbacks } = roundTrip(after);
    // The new class attribute is created beside `sides`, flush against it as the author wrote it (the class's own
    // spacing between a property and the method after it is one blank line, which the author kept below it).
    assert.deepEqual(operations, [
      'CREATE_ELEMENT class[Square] BLANK_LINES=0,1',
      'PATCH_ELEMENT class[Shape]/method[fetch]',
      'REPLACE_ELEMENT class[Shape]/class[Meta]/class[Inner]/method[depth]',
    ]);
    // fetch holds a nested function, and the text changed beside it: fetch's own text is patched, no fallback.
    assert.ok(!fallbacks.includes('container class[Shape]/method[fetch]'), fallbacks.join());
  });

  void test('deleted and added definitions, an overload among them, and a changed import round-trip', () => {
    const after = TEXT.replace('@overload\ndef parse(value: str) -> str: ...\n', '')
      .replace('    Any,\n', '    Any,\n    Callable,\n')
      .replace('\n\nif __name__', '\n\ndef main() -> None:\n    print(parse(1))\n\n\nif __name__');
    const { operations, fallbacks } = roundTrip(after);
    assert.deepEqual(fallbacks, []);
    assert.deepEqual(operations, [
      'ADD_IMPORT ',
      'CREATE_ELEMENT ',
      'DELETE_ELEMENT function[parse]#2',
    ]);
  });

  void test('a focused context of a method: its body in full, nearest neighbours as signatures, labels as # comments', () => {
    const outline = outlineSource(FILE, TEXT);
    const context = buildContext([{ outline, focus: [`${FILE}/class[Shape]/method[fetch]`] }], createTokenCounter(), {
      smallFileLines: 0,
    });
    assert.match(context.text, /```python\n/);
    assert.match(context.text, /# @ pkg\/hard_cases\.py\/class\[Shape\]\nclass Shape:\n/);
    // The decorators stand above the signature, one a line, as in the file.
    assert.match(
      context.text,
      /\n {4}@staticmethod\n {4}@ft\.lru_cache\(maxsize=None\)\n {4}def describe\(kind: str\) -> str: … # @ method\[describe\]\n/,
    );
    assert.match(context.text, /\n {4}# @ property\[sides\], property\[unit\], class\[Meta\], method\[__init__\], getter\[name\] \(lines 40-57\)\n/);
    assert.match(context.text, /\n {4}# @ pkg\/hard_cases\.py\/class\[Shape\]\/method\[fetch\]\n {4}async def fetch/);
    assert.match(context.text, /# @ class\[Square\], statement\[if\] \(lines 79-88\)/);
    assert.doesNotMatch(context.text, /\/\/ @|\{ … \}/);
    assert.doesNotMatch(context.text, /self\._name = value/);
    assert.ok(context.tokens < context.wholeFileTokens);
  });
});
