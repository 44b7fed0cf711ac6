import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countOccurrences, searchReplacePairs } from '../../../../src/core/ops/diff/patchPairs';

function applyPairs(text: string, pairs: readonly { search: string; replace: string }[]): string {
  let result = text;
  for (const { search, replace } of pairs) {
    assert.equal(countOccurrences(result, search), 1, `search must occur once: ${JSON.stringify(search)}`);
    result = result.replace(search, () => replace);
  }
  return result;
}

const method = `find(id: string) {
  const cached = this.cache.get(id);
  if (cached !== undefined) return cached;
  const user = this.load(id);
  if (user === undefined) return undefined;
  return user;
}`;

void describe('search/replace pairs inside one element', () => {
  void test('a changed line that is unique on its own is the whole search', () => {
    const after = method.replace('const user = this.load(id);', 'const user = this.load(id, true);');
    const pairs = searchReplacePairs(method, after);
    assert.deepEqual(pairs, [
      { search: '  const user = this.load(id);', replace: '  const user = this.load(id, true);' },
    ]);
  });

  void test('a line that occurs twice takes context until it is unique', () => {
    const text = 'a() {\n  x();\n  y();\n  x();\n}';
    const after = 'a() {\n  x();\n  y();\n  z();\n}';
    const pairs = searchReplacePairs(text, after);
    assert.ok(pairs !== undefined);
    assert.equal(applyPairs(text, pairs), after);
    for (const pair of pairs) assert.equal(countOccurrences(text, pair.search), 1);
    assert.equal(pairs[0]?.search, '  y();\n  x();');
  });

  void test('an inserted line gets a line of context, since a search cannot be empty', () => {
    const after = method.replace('  return user;\n', '  this.cache.set(id, user);\n  return user;\n');
    const pairs = searchReplacePairs(method, after);
    assert.ok(pairs !== undefined && pairs.length === 1);
    assert.ok(pairs[0] !== undefined && pairs[0].search.trim() !== '');
    assert.equal(applyPairs(method, pairs), after);
  });

  void test('changes far apart are separate pairs; changes close together share one', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `  step${i}();`);
    const text = ['run() {', ...lines, '}'].join('\n');
    const far = text.replace('step2()', 'stepTwo()').replace('step17()', 'stepSeventeen()');
    assert.equal(searchReplacePairs(text, far)?.length, 2);
    const near = text.replace('step2()', 'stepTwo()').replace('step3()', 'stepThree()');
    assert.equal(searchReplacePairs(text, near)?.length, 1);
    assert.equal(applyPairs(text, searchReplacePairs(text, far) ?? []), far);
  });

  void test('in repetitive text the pairs still apply one by one, each search found once', () => {
    const lines = Array.from({ length: 21 }, () => '  a();');
    const text = ['f() {', ...lines, '}'].join('\n');
    const after = ['f() {', ...lines.slice(0, 10), '  b();', ...lines.slice(11), '}'].join('\n');
    const pairs = searchReplacePairs(text, after);
    assert.ok(pairs !== undefined);
    assert.equal(applyPairs(text, pairs), after);
  });

  void test('CRLF text keeps its line breaks inside the pairs', () => {
    const text = method.replace(/\n/g, '\r\n');
    const after = text.replace('return user;', 'return { ...user };');
    const pairs = searchReplacePairs(text, after);
    assert.ok(pairs !== undefined);
    assert.equal(applyPairs(text, pairs), after);
  });

  void test('removed lines take a line of context, so that their line breaks go with them', () => {
    const documented = `/**\n * @class Box\n */\nexport class Box {\n  a = 1;\n  b = 2;\n}`;
    const withoutDoc = 'export class Box {\n  a = 1;\n  b = 2;\n}';
    const docPairs = searchReplacePairs(documented, withoutDoc);
    assert.ok(docPairs !== undefined);
    assert.equal(applyPairs(documented, docPairs), withoutDoc);
    const withoutLine = documented.replace('  a = 1;\n', '');
    const linePairs = searchReplacePairs(documented, withoutLine);
    assert.ok(linePairs !== undefined);
    assert.equal(applyPairs(documented, linePairs), withoutLine);
    const withoutLast = documented.replace('  b = 2;\n}', '}');
    assert.equal(applyPairs(documented, searchReplacePairs(documented, withoutLast) ?? []), withoutLast);
  });
});
