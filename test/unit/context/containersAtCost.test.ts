import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildContext } from '../../../src/core/context/buildContext';
import { focusOfOperations } from '../../../src/core/context/operationFocus';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { seenCodeStep } from '../../../src/core/edit/seenCodeStep';
import { outlineSource } from '../../../src/core/elements/outline';
import { runEdit } from '../../../src/core/llm/pipeline';
import { parseOperations } from '../../../src/core/ops/format';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 28, containers at the cost of the change: a member created at a position, or a patch of a container's own
// text, shows the container's header and own text, the members at the position in full and the others by signature
// or name; every body only when the container itself is replaced.

const counter = createTokenCounter();

const TESTS_FILE = 'src/cart.test.ts';
const testCase = (i: number): string =>
  `  it('adds item ${i}', () => {\n    const cart = new Cart();\n    cart.add({ sku: 'sku-${i}', price: ${i} });\n    expect(cart.total()).toBe(${i});\n  });`;
const CART_TESTS = `import { describe, expect, it } from 'vitest';
import { Cart } from './cart';

describe('Cart', () => {
${Array.from({ length: 40 }, (_, i) => testCase(i + 1)).join('\n\n')}
});
`;
const DESCRIBE = `${TESTS_FILE}/statement[describe]`;

const SHOP_FILE = 'src/shop.ts';
const method = (name: string): string =>
  `  /** ${name} the cart. */\n  ${name}(sku: string): number {\n    const item = this.items.get(sku);\n    if (item === undefined) return 0;\n    this.log.push('${name} ' + sku);\n    return item.price * item.count;\n  }`;
const SHOP = `export interface Item {
  price: number;
  count: number;
}

/** A shopping cart. */
export class Cart {
  private readonly items = new Map<string, Item>();
  private readonly log: string[] = [];

  // --- reading ---

${['price', 'count', 'peek', 'weigh', 'check'].map(method).join('\n\n')}

  // --- writing ---

${['add', 'drop', 'bump', 'trim', 'clear'].map(method).join('\n\n')}
}

export function emptyCart(): Cart {
  return new Cart();
}
`;
const CART = `${SHOP_FILE}/class[Cart]`;

void describe('containers at the cost of the change', () => {
  const llm = useScriptedModel();
  /** One planned edit of `file` (no focus given) through the scripted model, judged by the seen-code rule. */
  const plannedEdit = (file: string, text: string, instruction: string, repairRounds = 0): ReturnType<typeof runEdit> =>
    runEdit({
      instruction,
      files: [{ path: file, focus: [] }],
      snapshot: { read: (path: string) => (path === file ? text : undefined) },
      provider: llm.provider(),
      counter,
      options: { planning: 'always', repairRounds },
      verificationSteps: [seenCodeStep()],
    });

  void test('creating an `it` in a 40-test describe sends its header, the tests at the position and the rest as labels', async () => {
    llm.server.enqueue(
      scripted.answer(`NEED ${DESCRIBE} LAST_CHILD`),
      scripted.answer(
        [
          `CREATE_ELEMENT ${DESCRIBE} LAST_CHILD`,
          '```ts',
          "it('adds item 41', () => {",
          '  const cart = new Cart();',
          "  cart.add({ sku: 'sku-41', price: 41 });",
          '  expect(cart.total()).toBe(41);',
          '});',
          '```',
        ].join('\n'),
      ),
    );
    const before = llm.server.requests.length;
    const outcome = await plannedEdit(TESTS_FILE, CART_TESTS, 'add a test for item 41');
    assert.equal(outcome.ok, true, outcome.failure);
    const sent = llm.userMessageOf(before + 1);
    assert.ok(sent.includes("describe('Cart', () => {"), 'the describe header');
    assert.ok(sent.includes(testCase(40)), 'the test at the position, in full');
    assert.ok(sent.includes("  it('adds item 38', () => { … } // @ call[it 'adds item 38']"), sent);
    assert.match(sent, /\/\/ @ call\[it 'adds item 1'\], call\[it 'adds item 2'\], /);
    assert.ok(!sent.includes("sku: 'sku-12'"), 'no other test body');
    assert.ok(counter.count(sent) < counter.count(CART_TESTS) * 0.4, `${counter.count(sent)} tokens`);
    assert.ok(outcome.apply.changes[0]?.after.includes("it('adds item 41'"));
  });

  void test('a class header patch sends no member bodies, and applies', async () => {
    llm.server.enqueue(
      scripted.answer(`NEED ${CART}`),
      scripted.answer(
        [
          `PATCH_ELEMENT ${CART}`,
          '```ts',
          '<<<<<<< SEARCH',
          '/** A shopping cart. */',
          'export class Cart {',
          '=======',
          '/** A shopping cart, one line per item. */',
          'export class Cart {',
          '>>>>>>> REPLACE',
          '<<<<<<< SEARCH',
          '  // --- writing ---',
          '=======',
          '  // --- writing (logged) ---',
          '>>>>>>> REPLACE',
          '```',
        ].join('\n'),
      ),
    );
    const before = llm.server.requests.length;
    const outcome = await plannedEdit(SHOP_FILE, SHOP, 'say in the doc comment that the cart keeps one line per item');
    assert.equal(outcome.ok, true, outcome.failure);
    const sent = llm.userMessageOf(before + 1);
    assert.ok(sent.includes('/** A shopping cart. */\nexport class Cart {'), sent);
    assert.ok(sent.includes('  // --- writing ---'), 'the comments between members are shown');
    assert.ok(!sent.includes('this.items.get(sku)'), `no member body:\n${sent}`);
    assert.ok(sent.includes('add(sku: string): number { … } // @ method[add]'), 'members by signature');
    const after = outcome.apply.changes[0]?.after ?? '';
    assert.ok(after.includes('/** A shopping cart, one line per item. */\nexport class Cart {'));
    assert.ok(after.includes('// --- writing (logged) ---'));
  });

  void test("a container patch that reaches into a member's body is refused and those lines are shown", async () => {
    const patch = [
      `PATCH_ELEMENT ${CART}`,
      '```ts',
      '<<<<<<< SEARCH',
      "    this.log.push('bump ' + sku);",
      '=======',
      "    this.log.push('bumped ' + sku);",
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(`NEED ${CART}`), scripted.answer(patch), scripted.answer(patch));
    const before = llm.server.requests.length;
    const outcome = await plannedEdit(SHOP_FILE, SHOP, 'log bumps as bumped', 1);
    const repair = llm.messagesOf(before + 2).at(-1)?.content ?? '';
    assert.match(repair, /PATCH_ELEMENT of src\/shop\.ts\/class\[Cart\] changes line \d+, which you were not shown/);
    assert.ok(repair.includes("    this.log.push('bump ' + sku);"), repair);
    assert.ok(!repair.includes("this.log.push('price ' + sku)"), 'only the lines around the patch');
    // Shown now, the same patch stands.
    assert.equal(outcome.ok, true, outcome.failure);
  });

  void test('the operation targets: a create at a position or an own-text patch makes a container at cost', () => {
    const outline = outlineSource(SHOP_FILE, SHOP);
    const { operations } = parseOperations(
      [
        `CREATE_ELEMENT ${CART} AFTER method[peek]`,
        '```ts',
        'size(): number {',
        '  return this.items.size;',
        '}',
        '```',
        `PATCH_ELEMENT ${CART}`,
        '```ts',
        '<<<<<<< SEARCH',
        'export class Cart {',
        '=======',
        'export class Cart implements Iterable<Item> {',
        '>>>>>>> REPLACE',
        '```',
      ].join('\n'),
    );
    const focus = focusOfOperations(outline, operations);
    assert.deepEqual(focus.focus, []);
    assert.deepEqual(focus.containers, [{ path: CART, near: [`${CART}/method[peek]`, `${CART}/method[weigh]`] }]);
    const context = buildContext([{ outline, focus: focus.focus, containers: focus.containers }], counter);
    assert.ok(context.text.includes('  peek(sku: string): number {\n'), 'the member at the position in full');
    assert.ok(!context.text.includes("this.log.push('add ' + sku)"), 'not the others');
    assert.ok(context.tokens < context.wholeFileTokens * 0.6, `${context.tokens} of ${context.wholeFileTokens}`);
    // Replacing the container itself needs all of it.
    const replace = focusOfOperations(outline, [{ type: 'REPLACE_ELEMENT', path: CART, content: 'class Cart {}' }]);
    assert.deepEqual(replace.focus, [CART]);
    assert.deepEqual(replace.containers, []);
  });
});
