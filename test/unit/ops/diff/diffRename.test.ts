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
    await loadLanguagesFor(['pkg/config.py', 'src/Shop.java', 'src/Shop.cs']);
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

  void test('two methods and the field one of them sets, renamed in one class: three RENAME_ELEMENTs', () => {
    const after = service
      .replace(/addOrder/g, 'placeOrder')
      .replace("'seeded with placeOrder'", "'seeded with addOrder'")
      .replace(/\bitems\b/g, 'entries')
      .replace(/\brestore\b/g, 'reload');
    const diff = diffChecked('src/orders.ts', service, after);
    assert.deepEqual(
      serializeOperations(diff.operations)
        .split('\n')
        .filter((line) => line !== ''),
      [
        'RENAME_ELEMENT src/orders.ts/class[Orders]/property[items] entries',
        'RENAME_ELEMENT src/orders.ts/class[Orders]/method[addOrder] placeOrder',
        'RENAME_ELEMENT src/orders.ts/class[Orders]/method[restore] reload',
      ],
    );
    const places = [...(diff.renames?.values() ?? [])].map((r) => (r.ok ? r.places.files[0]?.edits.length : 0));
    assert.deepEqual(places, [5, 4, 1]);
  });

  void test('two helper functions renamed beside a changed body: each rename, and the change', () => {
    const before = `export function parseLine(line: string): string[] {
  return line.split(',');
}

export function joinFields(fields: string[]): string {
  return fields.join(',');
}

export function roundTrip(line: string): string {
  return joinFields(parseLine(line));
}

export function first(line: string): string {
  return parseLine(line)[0] ?? '';
}
`;
    const after = before
      .replace(/parseLine/g, 'splitLine')
      .replace(/joinFields/g, 'joinLine')
      .replace("return splitLine(line)[0] ?? '';", "return splitLine(line)[0]?.trim() ?? '';");
    const diff = diffChecked('src/csv.ts', before, after);
    assert.deepEqual(
      diff.operations.map((o) => `${o.type} ${o.path}`),
      [
        'RENAME_ELEMENT src/csv.ts/function[parseLine]',
        'RENAME_ELEMENT src/csv.ts/function[joinFields]',
        'REPLACE_ELEMENT src/csv.ts/function[first]',
      ],
    );
  });

  void test('a rename whose own diff is dearer than the plain one stays out, the cheaper one is kept', () => {
    // restore → reload alone saves tokens; count → size collides on a line the commit also changed.
    const after = service
      .replace(/\brestore\b/g, 'reload')
      .replace(
        'count(): number {\n    return this.items.length;',
        'size(): number {\n    return this.items.length * 1;',
      );
    const diff = diffChecked('src/orders.ts', service, after);
    assert.deepEqual(
      diff.operations.filter((o) => o.type === 'RENAME_ELEMENT').map((o) => o.path),
      ['src/orders.ts/class[Orders]/method[restore]'],
    );
  });

  void test('a → b with b → c, and a swap a ↔ b: no RENAME_ELEMENT (a workspace apply refuses a name taken), still exact', () => {
    const chain = service.replace(/\bcount\b/g, 'size').replace(/\brestore\b/g, 'count');
    const chained = diffChecked('src/orders.ts', service, chain);
    assert.ok(
      chained.operations.every((o) => o.type !== 'RENAME_ELEMENT'),
      serializeOperations(chained.operations),
    );
    const swap = service
      .replace(/\baddMany\b/g, '\u0000')
      .replace(/\brestore\b/g, 'addMany')
      .replace(/\u0000/g, 'restore');
    const swapped = diffChecked('src/orders.ts', service, swap);
    assert.ok(
      swapped.operations.every((o) => o.type !== 'RENAME_ELEMENT'),
      serializeOperations(swapped.operations),
    );
  });

  void test('two declarations renamed to one name: at most one of them is a RENAME_ELEMENT, still exact', () => {
    const before = `export function load(): number {
  return 1;
}

export function fetchAll(): number {
  return 2;
}

export const total = load() + fetchAll();
`;
    const after = before.replace(/\bload\b/g, 'read').replace(/\bfetchAll\b/g, 'read');
    const diff = diffChecked('src/read.ts', before, after);
    assert.ok(diff.operations.filter((o) => o.type === 'RENAME_ELEMENT').length <= 1);
  });

  void test('a name two classes declare, renamed in both: no RENAME_ELEMENT (the rename of one leaves the other)', () => {
    const before = `export class Cart {
  run(): void {
    console.log('cart');
  }
}

export class Till {
  run(): void {
    console.log('till');
  }
}

export function start(cart: Cart, till: Till): void {
  cart.run();
  till.run();
  cart.run();
  till.run();
}
`;
    const after = before.replace(/\brun\b/g, 'execute');
    const diff = diffChecked('src/shop.ts', before, after);
    assert.ok(
      diff.operations.every((o) => o.type !== 'RENAME_ELEMENT'),
      serializeOperations(diff.operations),
    );
  });

  void test('a TypeScript overload set renamed whole is one RENAME_ELEMENT of the set', () => {
    const before = `export function format(value: string): string;
export function format(value: number): string;
export function format(value: string | number): string {
  return String(value);
}

export class Printer {
  print(value: string): void;
  print(value: number): void;
  print(value: string | number): void {
    console.log(format(value));
  }

  printAll(values: string[]): void {
    for (const value of values) this.print(value);
    this.print(values.length);
  }
}

export const shown = [format('a'), format(1)];
`;
    const after = before.replace(/\bformat\b/g, 'render').replace(/\bprint\b/g, 'write');
    const diff = diffChecked('src/printer.ts', before, after);
    assert.deepEqual(
      serializeOperations(diff.operations)
        .split('\n')
        .filter((line) => line !== ''),
      [
        'RENAME_ELEMENT src/printer.ts/function[format] render',
        'RENAME_ELEMENT src/printer.ts/class[Printer]/method[print] write',
      ],
    );
  });

  void test('a TypeScript overload set with one signature renamed is no rename: the plain diff', () => {
    const before = `export function format(value: string): string;
export function format(value: number): string;
export function format(value: string | number): string {
  return String(value);
}
`;
    const after = before.replace('export function format(value: number)', 'export function render(value: number)');
    const diff = diffChecked('src/format.ts', before, after);
    assert.ok(
      diff.operations.every((o) => o.type !== 'RENAME_ELEMENT'),
      serializeOperations(diff.operations),
    );
  });

  void test('Java and C# overloads renamed together stay element operations: the rename of one leaves the others', () => {
    // A workspace RENAME_ELEMENT of method[f]#1 renames that declaration and the calls, not method[f]#2's
    // declaration (the reference search ties calls by name): the diff does not give it as one.
    const java = `class Shop {
  void add(String item) {
    System.out.println(item);
  }

  void add(int count) {
    System.out.println(count);
  }

  void fill() {
    add(1);
    add("x");
  }
}
`;
    const cs = java.replace(/String/g, 'string').replace(/System\.out\.println/g, 'System.Console.WriteLine');
    for (const [file, before] of [
      ['src/Shop.java', java],
      ['src/Shop.cs', cs],
    ] as const) {
      const diff = diffChecked(file, before, before.replace(/\badd\b/g, 'put'));
      assert.ok(
        diff.operations.every((o) => o.type !== 'RENAME_ELEMENT'),
        serializeOperations(diff.operations),
      );
      assert.ok(diff.operations.length > 0);
    }
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
