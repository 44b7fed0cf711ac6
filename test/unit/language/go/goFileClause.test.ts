import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import type { Operation } from '../../../../src/core/ops/operation';

// Go's compiler refuses a file without its package clause, which tree-sitter-go parses (content sent alone has none).
// Found by the language fuzz with gofmt as its oracle: DELETE_ELEMENT statement[package] was written as ok.

const FILE = 'shapes/area.go';
const TEXT =
  '// Package shapes measures shapes.\npackage shapes\n\ntype Bar struct{ S string }\n\nfunc Area(w, h int) int { return w * h }\n';

function apply(operations: Operation[]) {
  return applyOperations({ read: (path) => (path === FILE ? TEXT : undefined) }, operations);
}

void describe('a Go file keeps its package clause', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  void test('deleting the package clause is refused as the compiler would, and nothing changes', () => {
    const result = apply([{ type: 'DELETE_ELEMENT', path: `${FILE}/statement[package]` }]);
    assert.equal(result.ok, false);
    assert.deepEqual(result.changes, []);
    assert.match(
      result.results[0]?.message ?? '',
      /does not parse: expected 'package', found 'type' at line 1 \(every file needs its statement\[package\]\)/,
    );
  });

  void test('the other elements still delete, and a file with a clause replaced by another keeps one', () => {
    const deleted = apply([{ type: 'DELETE_ELEMENT', path: `${FILE}/type[Bar]` }]);
    assert.equal(deleted.ok, true, JSON.stringify(deleted.results));
    const renamed = apply([
      { type: 'REPLACE_ELEMENT', path: `${FILE}/statement[package]`, content: 'package geometry' },
    ]);
    assert.equal(renamed.ok, true, JSON.stringify(renamed.results));
    assert.match(renamed.changes[0]?.after ?? '', /^package geometry$/m);
  });
});
