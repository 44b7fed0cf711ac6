import assert from 'node:assert/strict';
import { before as beforeAll, describe, test } from 'node:test';
import { createTokenCounter } from '../../../../src/core/context/tokens';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { diffElementsInDetail, type ElementDiff } from '../../../../src/core/ops/diff';
import { serializeOperations } from '../../../../src/core/ops/format';
import { applyToFile } from './applyToFile';

const counter = createTokenCounter();

/** The diff, after checking that applying it (with the rename's places it gives) to `before` gives `after`. */
function diffChecked(file: string, before: string, after: string): ElementDiff {
  const diff = diffElementsInDetail(file, before, after);
  assert.equal(diff.verified, true);
  assert.equal(
    applyToFile(file, before, diff.operations, diff.renames),
    after,
    `applying\n${serializeOperations(diff.operations)}`,
  );
  return diff;
}

const service = `export class Orders {
  private readonly items: string[] = [];

  /** Adds an order, once. */
  addOrder(id: string): void {
    if (!this.items.includes(id)) this.items.push(id);
  }

  addMany(ids: string[]): void {
    for (const id of ids) this.addOrder(id);
  }

  restore(saved: string[]): void {
    this.items.length = 0;
    saved.forEach((id) => this.addOrder(id));
  }

  count(): number {
    return this.items.length;
  }
}

export function seed(orders: Orders): void {
  orders.addOrder('first');
  console.log('seeded with addOrder');
}
`;

void describe('diffElements: a declaration renamed within the file', () => {
  beforeAll(async () => {
    await loadLanguagesFor(['pkg/config.py']);
  });

  void test('a method and its 3 uses renamed, with one other change: RENAME_ELEMENT and one small operation', () => {
    const after = service
      .replace(/addOrder/g, 'placeOrder')
      .replace("'seeded with placeOrder'", "'seeded with addOrder'")
      .replace('return this.items.length;', 'return this.items.length + 0;');
    const diff = diffChecked('src/orders.ts', service, after);
    // The one body change is its own small operation (the method is short enough that replacing it costs least).
    assert.deepEqual(
      diff.operations.map((o) => `${o.type} ${o.path}`),
      [
        'RENAME_ELEMENT src/orders.ts/class[Orders]/method[addOrder]',
        'REPLACE_ELEMENT src/orders.ts/class[Orders]/method[count]',
      ],
    );
    assert.equal(diff.operations[0]?.type === 'RENAME_ELEMENT' ? diff.operations[0].newName : '', 'placeOrder');
    const places = [...(diff.renames?.values() ?? [])].flatMap((r) => (r.ok ? r.places.files : []));
    assert.deepEqual(
      places.map((f) => [f.path, f.edits.length]),
      [['src/orders.ts', 4]],
    );
    // Cheaper than the element replacements the plain diff needs.
    const plain = diffElementsInDetail('src/orders.ts', service, after.replace("'seeded with addOrder'", "'x'"));
    assert.ok(
      counter.count(serializeOperations(diff.operations)) < counter.count(serializeOperations(plain.operations)),
    );
  });

  void test('a rename whose string occurrence also changed: the string is an operation of its own, still exact', () => {
    // Renaming the code occurrences leaves the string's old name; the new text changed it too.
    const after = service.replace(/addOrder/g, 'placeOrder');
    const diff = diffChecked('src/orders.ts', service, after);
    assert.deepEqual(
      diff.operations.map((o) => `${o.type} ${o.path}`),
      ['RENAME_ELEMENT src/orders.ts/class[Orders]/method[addOrder]', 'PATCH_ELEMENT src/orders.ts/function[seed]'],
    );
    const patch = diff.operations[1];
    assert.ok(patch?.type === 'PATCH_ELEMENT');
    assert.deepEqual(
      patch.patches.map((p) => [p.search.trim(), p.replace.trim()]),
      [["console.log('seeded with addOrder');", "console.log('seeded with placeOrder');"]],
    );
  });

  void test('a use of the new name the commit added is written by the other operations', () => {
    const after = service
      .replace(/addOrder/g, 'placeOrder')
      .replace("'seeded with placeOrder'", "'seeded with addOrder'")
      .replace('return this.items.length;', "this.placeOrder('x');\n    return this.items.length;");
    const diff = diffChecked('src/orders.ts', service, after);
    assert.deepEqual(
      diff.operations.map((o) => o.type),
      ['RENAME_ELEMENT', 'REPLACE_ELEMENT'],
    );
  });

  void test('a renamed use on a line the commit also changed is left to the other operations', () => {
    const after = service
      .replace(/addOrder/g, 'placeOrder')
      .replace("'seeded with placeOrder'", "'seeded with addOrder'")
      .replace("orders.placeOrder('first');", "orders.placeOrder('first') ;");
    const diff = diffChecked('src/orders.ts', service, after);
    assert.deepEqual(
      diff.operations.map((o) => `${o.type} ${o.path}`),
      ['RENAME_ELEMENT src/orders.ts/class[Orders]/method[addOrder]', 'PATCH_ELEMENT src/orders.ts/function[seed]'],
    );
  });

  void test('a rename the other operations cannot leave alone falls back to the plain diff, still exact', () => {
    // A use added on the line of a renamed one: the edit of that line meets the rename's place in it.
    const after = service
      .replace(/addOrder/g, 'placeOrder')
      .replace("'seeded with placeOrder'", "'seeded with addOrder'")
      .replace("orders.placeOrder('first');", "orders.placeOrder('first'); orders.placeOrder('second');");
    const diff = diffChecked('src/orders.ts', service, after);
    assert.ok(diff.operations.every((o) => o.type !== 'RENAME_ELEMENT'));
    assert.equal(diff.renames, undefined);
  });

  void test('a name kept somewhere in code is no rename: the plain diff', () => {
    const after = service
      .replace('  addOrder(id: string): void {', '  placeOrder(id: string): void {')
      .replace('this.addOrder(id));', 'this.placeOrder(id));');
    const diff = diffChecked('src/orders.ts', service, after);
    assert.ok(diff.operations.every((o) => o.type !== 'RENAME_ELEMENT'));
    assert.equal(diff.renames, undefined);
  });

  void test('Python: a function renamed with its uses', () => {
    const before = `import os


def load_config(path):
    """Reads the config at path."""
    with open(path) as handle:
        return handle.read()


def main():
    text = load_config(os.environ["CONFIG"])
    print(text)


def reload():
    # load_config again, from the same place
    return load_config(os.environ["CONFIG"])
`;
    const after = before.replace(/load_config\(/g, 'read_config(').replace('print(text)', 'print(text.strip())');
    const diff = diffChecked('pkg/config.py', before, after);
    assert.deepEqual(
      diff.operations.map((o) => `${o.type} ${o.path}`),
      ['RENAME_ELEMENT pkg/config.py/function[load_config]', 'PATCH_ELEMENT pkg/config.py/function[main]'],
    );
    // The comment's old name is not a code occurrence: it stays as it was.
    assert.match(applyToFile('pkg/config.py', before, diff.operations, diff.renames) ?? '', /# load_config again/);
  });
});
