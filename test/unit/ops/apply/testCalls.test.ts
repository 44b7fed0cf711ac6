import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outlineSource } from '../../../../src/core/elements/outline';
import { allElements, resolveElementPath } from '../../../../src/core/elements/resolve';
import { applyOk, fixture } from './applyHarness';

/** Tests, hooks and nested describes as elements: an edit of one test reaches that test and nothing else. */

const SPEC = 'src/calculator.test.ts';
const spec = fixture('calculatorSpec.ts');
const files = { [SPEC]: spec };
const DIVISION = `${SPEC}/statement[describe]/call[describe 'division']`;

function edited(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `the text holds ${JSON.stringify(from)} exactly once`);
  return text.replace(from, to);
}

void describe('calls inside test callbacks', () => {
  void test('the outline lists every describe, hook and test, each path resolving to itself', () => {
    const outline = outlineSource(SPEC, spec);
    const paths = allElements(outline).map((e) => e.path.slice(SPEC.length + 1));
    assert.deepEqual(paths, [
      'import[vitest]',
      'import[./calculator]',
      'statement[describe]',
      'statement[describe]/call[beforeEach]',
      'statement[describe]/call[afterEach]',
      "statement[describe]/call[it 'adds two numbers']",
      "statement[describe]/call[it 'subtracts']#1",
      "statement[describe]/call[describe 'division']",
      "statement[describe]/call[describe 'division']/call[it 'divides']",
      "statement[describe]/call[describe 'division']/call[it.skip 'throws on zero']",
      "statement[describe]/call[describe 'division']/call[test.each 'divides %i by %i']",
      "statement[describe]/call[it 'subtracts']#2",
      'statement[test]',
    ]);
    for (const element of allElements(outline)) {
      const resolved = resolveElementPath(outline, element.path);
      assert.ok(resolved.ok && resolved.element === element, element.path);
    }
  });

  void test('a test is found without its describe, and as a statement', () => {
    const outline = outlineSource(SPEC, spec);
    for (const path of [`${SPEC}/call[it 'divides']`, `${SPEC}/statement[it 'divides']`]) {
      const resolved = resolveElementPath(outline, path);
      assert.ok(resolved.ok, path);
      assert.equal(resolved.path, `${DIVISION}/call[it 'divides']`);
    }
  });

  void test('a PATCH of one test changes only that test, though its search text is in others too', () => {
    const { after } = applyOk(files, [
      {
        type: 'PATCH_ELEMENT',
        path: `${DIVISION}/call[it 'divides']`,
        patches: [{ search: 'calculator.divide(', replace: 'calculator.safeDivide(' }],
      },
    ]);
    assert.equal(after(SPEC), edited(spec, 'expect(calculator.divide(6, 3))', 'expect(calculator.safeDivide(6, 3))'));
  });

  void test('one test is replaced, deleted, or a new one created beside it, at depth', () => {
    const replaced = "it('divides', () => {\n  expect(calculator.divide(8, 2)).toBe(4);\n});";
    const { after } = applyOk(files, [
      { type: 'REPLACE_ELEMENT', path: `${DIVISION}/call[it 'divides']`, content: replaced },
    ]);
    assert.equal(after(SPEC), edited(spec, 'divide(6, 3)).toBe(2)', 'divide(8, 2)).toBe(4)'));

    const deleted = applyOk(files, [
      { type: 'DELETE_ELEMENT', path: `${SPEC}/statement[describe]/call[it 'subtracts']#2` },
    ]);
    assert.equal(
      deleted.after(SPEC),
      edited(
        spec,
        "\n\n  it('subtracts', async () => {\n    await expect(calculator.later()).resolves.toBe(0);\n  });",
        '',
      ),
    );

    const added = "it('divides negatives', () => {\n  expect(calculator.divide(-6, 3)).toBe(-2);\n});";
    const created = applyOk(files, [
      {
        type: 'CREATE_ELEMENT',
        path: DIVISION,
        position: { kind: 'AFTER', sibling: "call[it 'divides']" },
        content: added,
      },
    ]);
    assert.equal(
      created.after(SPEC),
      edited(
        spec,
        'toBe(2);\n    });\n',
        "toBe(2);\n    });\n\n    it('divides negatives', () => {\n      expect(calculator.divide(-6, 3)).toBe(-2);\n    });\n",
      ),
    );
  });

  void test('a test renamed by REPLACE_ELEMENT reports its new path', () => {
    const { result, after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${DIVISION}/call[it 'divides']`,
        content: "it('divides evenly', () => {\n  expect(calculator.divide(6, 3)).toBe(2);\n});",
      },
    ]);
    assert.equal(after(SPEC), edited(spec, "it('divides', () => {", "it('divides evenly', () => {"));
    assert.equal(result.results[0]?.renamedTo, `${DIVISION}/call[it 'divides evenly']`);
  });
});
