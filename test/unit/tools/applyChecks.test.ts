import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { call, shopWorkspace, toolEnv } from './toolSupport';

// Issue 24 item 9 through the agent tools' apply (the MCP server's writer): the verification of `scalpel edit`, with
// `verify` and `allowNewErrors` as the CLI's --verify and --allow-new-errors.

const RENAME_TOTAL = [
  'REPLACE_ELEMENT src/price.ts/class[Cart]/method[total]',
  '```ts',
  'sum(): number {',
  '  return this.items.reduce((sum, price) => sum + applyDiscount(price, 0.1), 0);',
  '}',
  '```',
].join('\n');

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

void describe('the apply tool runs the checks of scalpel edit', () => {
  void test('a rename whose old name is still called is refused with the call site', async () => {
    const root = shopWorkspace();
    const before = read(root, 'src/price.ts');
    const run = await call(toolEnv(root), 'apply', { operations: RENAME_TOTAL });
    assert.equal(run.isError, true, run.text);
    assert.match(run.text, /^not verified: 2 checks refused the batch$/m);
    assert.match(run.text, /renames it to src\/price\.ts\/class\[Cart\]\/method\[sum\], but 1 use of total remains/);
    assert.ok(
      run.text.includes('- src/checkout.ts:4 in src/checkout.ts/function[checkout]: return format(cart.total());'),
    );
    assert.match(run.text, /TS2339 Property 'total' does not exist on type 'Cart'/);
    assert.match(run.text, /nothing was written/);
    assert.equal(read(root, 'src/price.ts'), before);
  });

  void test('RENAME_ELEMENT through apply renames the method and its call site in another file, verified', async () => {
    const root = shopWorkspace();
    const run = await call(toolEnv(root), 'apply', {
      operations: 'RENAME_ELEMENT src/price.ts/class[Cart]/method[total] sum',
    });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^written: wrote src\/checkout\.ts, src\/price\.ts$/m);
    assert.match(read(root, 'src/price.ts'), /\bsum\(\): number/);
    assert.ok(read(root, 'src/checkout.ts').includes('return format(cart.sum());'));
  });

  void test('allowNewErrors writes it and says what it let through; verify syntax checks the parse alone', async () => {
    const allowed = shopWorkspace();
    const run = await call(toolEnv(allowed), 'apply', { operations: RENAME_TOTAL, allowNewErrors: true });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^allowed src\/price\.ts: REPLACE_ELEMENT/m);
    assert.match(run.text, /^written: wrote src\/price\.ts$/m);
    assert.match(read(allowed, 'src/price.ts'), /sum\(\): number/);

    const syntax = shopWorkspace();
    const loose = await call(toolEnv(syntax), 'apply', { operations: RENAME_TOTAL, verify: 'syntax' });
    assert.equal(loose.isError, false, loose.text);
    assert.match(loose.text, /the types of src\/price\.ts were not checked \(verify: syntax\)/);
  });

  void test('an error the file already had does not block; one the batch adds does', async () => {
    const root = shopWorkspace();
    const harmless = [
      'REPLACE_ELEMENT src/broken.ts/function[discounted]',
      '```ts',
      'export function discounted(): number {',
      '  return applyDiscount(10, 0.5);',
      '}',
      '```',
    ].join('\n');
    const fixed = await call(toolEnv(root), 'apply', { operations: harmless });
    assert.equal(fixed.isError, false, fixed.text);
    const breaking = harmless.replace('applyDiscount(10, 0.5)', "applyDiscount('10', 0.5)");
    const broken = await call(toolEnv(root), 'apply', { operations: breaking });
    assert.equal(broken.isError, true, broken.text);
    assert.match(broken.text, /TS2345/);
  });

  void test('an answer that declines is named as such', async () => {
    const run = await call(toolEnv(shopWorkspace()), 'apply', { operations: 'DECLINE: total is used by checkout.' });
    assert.equal(run.isError, true);
    assert.equal(run.text, 'the answer declines the task: total is used by checkout.\nnothing was written');
  });
});
