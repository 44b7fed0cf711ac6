import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { outlineSource } from '../../../src/core/elements/outline';
import { walkElements } from '../../../src/core/elements/resolve';
import { call, cursorOf, largeModule, shopWorkspace, tableRows, toolEnv } from './toolSupport';

const counter = createTokenCounter();

void describe('agent tools on a small project', () => {
  const root = shopWorkspace();
  const env = toolEnv(root);

  void test('outline lists elements with line ranges, members indented under their container', async () => {
    const run = await call(env, 'outline', { paths: ['src/price.ts'] });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^outline of src\/price\.ts: 1 file, 21 lines$/m);
    assert.match(run.text, /^## src\/price\.ts$/m);
    assert.match(
      run.text,
      /^1-4 function\[applyDiscount\] export function applyDiscount\(price: number, rate: number\): number$/m,
    );
    assert.match(run.text, /^ 18-20 method\[total\] total\(\): number$/m);
    assert.match(run.text, /elements, all shown$/m);
  });

  void test('a folder outline lists each file with its top-level elements, no imports', async () => {
    const run = await call(env, 'outline', { paths: ['src'], signatures: false });
    assert.deepEqual(
      run.text.split('\n').filter((l) => l.startsWith('## ')),
      ['## src/broken.ts', '## src/checkout.ts', '## src/price.ts'],
    );
    assert.doesNotMatch(run.text, /import\[/);
    assert.match(run.text, /^10-21 class\[Cart\]$/m);
    const whole = await call(env, 'outline', { paths: ['.'], signatures: false });
    assert.match(whole.text, /^outline of \.: 3 files, \d+ lines$/m);
  });

  void test('find_symbols finds by name and by path pattern', async () => {
    const byName = await call(env, 'find_symbols', { name: 'checkout' });
    assert.deepEqual(tableRows(byName.text), ['3-5 function[checkout]', '11-15 function[quickCheckout]']);
    const byPath = await call(env, 'find_symbols', { path: 'src/*.ts/class[*]/method[*]' });
    assert.deepEqual(tableRows(byPath.text), ['13-16 class[Cart]/method[add]', '18-20 class[Cart]/method[total]']);
  });

  void test('references, callers and callees follow the language service', async () => {
    const refs = await call(env, 'references', { path: 'src/price.ts/function[applyDiscount]' });
    assert.match(refs.text, /^references of src\/price\.ts\/function\[applyDiscount\]: 2 in 2 files$/m);
    assert.match(refs.text, /^6 function\[discounted\] call return applyDiscount\(10\);$/m);
    assert.match(refs.text, /^19 class\[Cart\]\/method\[total\] call return this\.items\.reduce/m);
    const callers = await call(env, 'references', {
      path: 'src/price.ts/class[Cart]/method[total]',
      relation: 'callers',
    });
    assert.deepEqual(tableRows(callers.text), ['4 function[checkout] 1']);
    const callees = await call(env, 'references', {
      path: 'src/checkout.ts/function[quickCheckout]',
      relation: 'callees',
    });
    assert.deepEqual(tableRows(callees.text), [
      '14 function[checkout] 1',
      '12 class[Cart] 1',
      '13 class[Cart]/method[add] 1',
    ]);
  });

  void test('find_path gives the shortest chain of calls, dropping the file of a step in the same file', async () => {
    const run = await call(env, 'find_path', {
      from: 'src/checkout.ts/function[quickCheckout]',
      to: 'src/price.ts/function[applyDiscount]',
    });
    assert.equal(run.isError, false, run.text);
    assert.deepEqual(tableRows(run.text), [
      '3 src/checkout.ts/function[quickCheckout] >14 function[checkout] >4 src/price.ts/class[Cart]/method[total] >19 function[applyDiscount]',
    ]);
    const none = await call(env, 'find_path', {
      from: 'src/price.ts/function[round]',
      to: 'src/checkout.ts/function[checkout]',
    });
    assert.match(none.text, /no chain within 4 hops/);
  });

  void test('diagnostics report type errors with their element', async () => {
    const run = await call(env, 'diagnostics', { paths: ['src/broken.ts'] });
    assert.match(run.text, /^diagnostics of 1 file: 2 errors, 0 others$/m);
    assert.match(run.text, /^3:14 TS2322 variable\[label\] Type 'string' is not assignable to type 'number'\.$/m);
    assert.match(run.text, /^6:10 TS2554 function\[discounted\] Expected 2 arguments, but got 1\.$/m);
  });

  void test('context shows the focused element in full among signatures', async () => {
    const run = await call(env, 'context', { focus: ['src/price.ts/class[Cart]/method[total]'] });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /return this\.items\.reduce/);
  });

  void test('bad input is an error the agent can act on', async () => {
    const unknownArgument = await call(env, 'outline', { paths: ['src'], depht: 2 });
    assert.equal(unknownArgument.isError, true);
    assert.match(unknownArgument.text, /unknown argument "depht"; the arguments are: paths, depth, signatures, cursor/);
    const missing = await call(env, 'references', { path: 'src/price.ts/function[applyDiscont]' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /nearest: src\/price\.ts\/function\[applyDiscount\]/);
    const outside = await call(env, 'outline', { paths: ['../etc/passwd.ts'] });
    assert.equal(outside.isError, true);
  });

  void test('apply writes a verified batch; dry run and a bad batch change nothing', async () => {
    const file = join(root, 'src', 'checkout.ts');
    const before = readFileSync(file, 'utf8');
    const replace = [
      'REPLACE_ELEMENT src/checkout.ts/function[format]',
      '```ts',
      'function format(amount: number): string {',
      '  return `$${amount.toFixed(2)}`;',
      '}',
      '```',
    ].join('\n');
    const dry = await call(env, 'apply', { operations: replace, dryRun: true });
    assert.match(dry.text, /^dry run, nothing written; the diff:$/m);
    assert.match(dry.text, /^\+ {2}return `\$\$\{amount\.toFixed\(2\)\}`;$/m);
    assert.equal(readFileSync(file, 'utf8'), before);

    const bad = await call(env, 'apply', {
      operations: `${replace}\n\nDELETE_ELEMENT src/checkout.ts/function[nothing]\n`,
    });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^2 failed DELETE_ELEMENT src\/checkout\.ts\/function\[nothing\] /m);
    assert.match(bad.text, /nothing was written/);
    assert.equal(readFileSync(file, 'utf8'), before);

    const good = await call(env, 'apply', { operations: replace });
    assert.equal(good.isError, false, good.text);
    assert.match(good.text, /^written: wrote src\/checkout\.ts$/m);
    assert.match(readFileSync(file, 'utf8'), /return `\$\$\{amount\.toFixed\(2\)\}`;/);
  });

  void test('the graph follows edits made on disk between calls', async () => {
    writeFileSync(
      join(root, 'src', 'extra.ts'),
      "import { applyDiscount } from './price';\nexport const twice = (p: number) => applyDiscount(applyDiscount(p, 0.1), 0.1);\n",
    );
    const refs = await call(env, 'references', { path: 'src/price.ts/function[applyDiscount]' });
    assert.match(refs.text, /: 4 in 3 files$/m);
  });
});

void describe('agent tools stay within their budgets on large answers', () => {
  const root = shopWorkspace();
  const big = largeModule(root);
  const env = toolEnv(root);
  const elementCount = [...walkElements(outlineSource(big, readFileSync(join(root, big), 'utf8')).elements)].length;

  async function pageThrough(name: string, input: Record<string, unknown>, maxTokens?: number): Promise<string[]> {
    const rows: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1_000; page++) {
      const run = await call(env, name, cursor === undefined ? input : { ...input, cursor }, maxTokens);
      assert.equal(run.isError, false, run.text);
      assert.ok(run.tokens <= (maxTokens ?? 10_000), `page ${page} has ${run.tokens} tokens`);
      assert.equal(counter.count(run.text), run.tokens);
      const pageRows = tableRows(run.text);
      assert.ok(pageRows.length > 0 && pageRows.length <= 100, `page ${page} has ${pageRows.length} rows`);
      rows.push(...pageRows);
      cursor = cursorOf(run.text);
      if (cursor === undefined) return rows;
    }
    throw new Error('the cursor never ended');
  }

  void test('the outline of a 20,000-line file comes in pages that together hold every element once', async () => {
    const first = await call(env, 'outline', { paths: [big] });
    assert.match(first.text, /^outline of big\.ts: 1 file, 20,000 lines$/m);
    assert.match(first.text, new RegExp(`^elements 1-100 of ${elementCount.toLocaleString('en-US')}; `, 'm'));
    const rows = await pageThrough('outline', { paths: [big] });
    assert.equal(rows.length, elementCount);
    assert.equal(new Set(rows).size, elementCount);
  });

  void test('a search with thousands of hits pages under a small budget too', async () => {
    const rows = await pageThrough('find_symbols', { name: 'fn*' }, 600);
    assert.equal(rows.length, 2_000);
    assert.equal(rows.at(-1), '19992-20000 function[fn1999]');
  });

  void test('references in the thousands page with a working cursor', async () => {
    const first = await call(env, 'references', { path: 'big.ts/function[fn0]', relation: 'references' });
    assert.match(first.text, /: 0 in 0 files/);
    writeFileSync(
      join(root, 'many.ts'),
      `import { fn7 } from './big';\n${Array.from({ length: 3_000 }, (_, i) => `export const v${i} = fn7(${i});`).join('\n')}\n`,
    );
    const rows = await pageThrough('references', { path: 'big.ts/function[fn7]' });
    // 3,000 calls in many.ts (its import names fn7 without using it) and the call in fn6.
    assert.equal(rows.length, 3_001);
  });

  void test('a cursor from another query is refused', async () => {
    const run = await call(env, 'outline', { paths: [big] });
    const cursor = cursorOf(run.text);
    assert.ok(cursor !== undefined);
    const other = await call(env, 'find_symbols', { name: 'fn*', cursor });
    assert.equal(other.isError, true);
    assert.match(other.text, /belongs to another query/);
  });

  void test('an element over 80 lines comes in 80-line slices with a cursor', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `  const v${i} = ${i};`);
    writeFileSync(join(root, 'long.ts'), `export function long(): void {\n${lines.join('\n')}\n}\n`);
    const first = await call(env, 'context', { focus: ['long.ts/function[long]'] });
    assert.match(first.text, /long\.ts\/function\[long\] is 202 lines, over the 80-line snippet limit: lines 1-80$/m);
    assert.match(first.text, /^80\| {3}const v78 = 78;$/m);
    assert.doesNotMatch(first.text, /const v79 = 79/);
    const cursor = cursorOf(first.text);
    const second = await call(env, 'context', { focus: ['long.ts/function[long]'], cursor });
    assert.match(second.text, /lines 81-160$/m);
    assert.match(second.text, /^ 81\| {3}const v79 = 79;$/m);
  });
});
