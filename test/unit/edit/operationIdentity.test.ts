import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { identityReader } from '../../../src/core/edit/operationIdentity';
import { RepairBatch } from '../../../src/core/edit/repairMerge';
import { parseOperations } from '../../../src/core/ops/format';

// Issue 24: what the repair merge treats as "the same operation". Two operations with one identity: the later replaces
// the earlier; two identities: both stay.

const FILE = 'src/shop.ts';
const SHOP = `import { a } from './a';

export class Cart {
  items: number[] = [];

  total(): number {
    return this.items.length;
  }
}

export function checkout(): void {}
`;

const identity = identityReader({ read: (path) => (path === FILE ? SHOP : undefined) });
const of = (answer: string): string => {
  const [operation] = parseOperations(answer).operations;
  assert.ok(operation !== undefined, answer);
  return identity(operation);
};
const block = (header: string, ...code: string[]): string => [header, '```ts', ...code, '```'].join('\n');

void describe('operation identity', () => {
  void test('a replace and a delete of one element are one identity, however the path is written', () => {
    const replace = of(block(`REPLACE_ELEMENT ${FILE}/class[Cart]/method[total]`, 'total(): number { return 0; }'));
    assert.equal(of(`DELETE_ELEMENT ${FILE}/class[Cart]/method[total]`), replace);
    assert.equal(of(`DELETE_ELEMENT file:${FILE}/method[total]`), replace, 'the container left out');
    assert.equal(of(`DELETE_ELEMENT ${FILE}/fn[checkout]`), of(`DELETE_ELEMENT ${FILE}/function[checkout]`));
    assert.notEqual(of(`DELETE_ELEMENT ${FILE}/function[checkout]`), replace);
  });

  void test('elements created in one container differ by kind and name, not by body', () => {
    const create = (code: string): string => of(block(`CREATE_ELEMENT ${FILE}/class[Cart] LAST_CHILD`, code));
    assert.equal(create('clear(): void {}'), create('clear(): void {\n  this.items = [];\n}'));
    assert.notEqual(create('clear(): void {}'), create('reset(): void {}'));
    assert.notEqual(create('clear(): void {}'), create('clear = 1;'), 'a property is not the method');
    const top = (code: string): string => of(block(`CREATE_ELEMENT ${FILE} LAST_CHILD`, code));
    assert.notEqual(top('export function h(): void {}'), top('export function k(): void {}'));
    assert.equal(top('export function h(): void {}'), top('export function h(): number {\n  return 1;\n}'));
    assert.notEqual(top('not ) code'), top('not ( code'), 'content that does not parse is its own identity');
  });

  void test('imports differ by module and bindings, not by spacing, quotes or order', () => {
    const add = (code: string): string => of(block(`ADD_IMPORT ${FILE}`, code));
    assert.equal(add("import { b, c } from './b';"), add('import {c,b} from "./b"'));
    assert.notEqual(add("import { b } from './b';"), add("import { c } from './b';"));
    assert.notEqual(add("import { b } from './b';"), add("import { b } from './c';"));
    assert.notEqual(add("import { b } from './b';"), of(block(`REMOVE_IMPORT ${FILE}`, "import { b } from './b';")));
  });

  void test('patches differ by their SEARCH texts; files by their path', () => {
    const patch = (search: string, replace: string): string =>
      of(
        block(
          `PATCH_ELEMENT ${FILE}/class[Cart]/method[total]`,
          '<<<<<<< SEARCH',
          search,
          '=======',
          replace,
          '>>>>>>> REPLACE',
        ),
      );
    assert.equal(
      patch('    return this.items.length;', '    return 1;'),
      patch('return this.items.length;', '    return 2;'),
    );
    assert.notEqual(patch('    return this.items.length;', 'x'), patch('  total(): number {', 'x'));
    assert.equal(of(block('CREATE_FILE src/new.ts', 'a')), of(block('REPLACE_FILE src/new.ts', 'b')));
  });

  void test('a rename is its element and its new name', () => {
    const rename = of(`RENAME_ELEMENT ${FILE}/class[Cart]/method[total] sum`);
    assert.equal(of(`RENAME_ELEMENT file:${FILE}/method[total] sum`), rename, 'the container left out');
    assert.notEqual(of(`RENAME_ELEMENT ${FILE}/class[Cart]/method[total] count`), rename, 'another new name');
    assert.notEqual(of(`DELETE_ELEMENT ${FILE}/class[Cart]/method[total]`), rename);
    assert.notEqual(of(`RENAME_ELEMENT ${FILE}/function[checkout] sum`), rename);
  });
});

void describe('repair merge of a rename', () => {
  const RENAME = `RENAME_ELEMENT ${FILE}/class[Cart]/method[total] sum`;
  const REPLACE = block(`REPLACE_ELEMENT ${FILE}/function[checkout]`, 'export function checkout(): void { return; }');
  const parsed = (...answers: string[]) => parseOperations(answers.join('\n')).operations;

  void test('a kept rename stays once when the repair answer leaves it out or sends it again', () => {
    for (const repair of [[REPLACE], [`RENAME_ELEMENT ${FILE}/method[total] sum`, REPLACE]]) {
      const batch = new RepairBatch(identity);
      batch.add(0, parsed(RENAME, REPLACE));
      // The replace failed; the rename was kept.
      batch.add(1, parsed(...repair), new Map([[1, 'REPLACE_ELEMENT failed']]));
      assert.deepEqual(
        batch.operations.map((o) => o.type),
        ['RENAME_ELEMENT', 'REPLACE_ELEMENT'],
        repair.join('\n'),
      );
    }
  });

  void test('a rename to another name is another operation: both stay in the batch', () => {
    const batch = new RepairBatch(identity);
    batch.add(0, parsed(RENAME));
    batch.add(1, parsed(`RENAME_ELEMENT ${FILE}/class[Cart]/method[total] count`));
    assert.deepEqual(
      batch.operations.map((o) => (o.type === 'RENAME_ELEMENT' ? o.newName : o.type)),
      ['sum', 'count'],
    );
  });
});
