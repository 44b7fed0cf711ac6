import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { answerBudget, runTool, toolByName } from '../../../src/core/tools';
import { cutToBudget } from '../../../src/core/tools/runTool';
import { call, PATCH_CART_ADD, shopWorkspace, toolEnv } from './toolSupport';

// Issue 27 items 3 and 6 in process: an answer that says nothing was written is an error, the created-file state
// is what the disk says, a cancelled apply writes nothing, arguments are capped and never echoed whole, and cutting
// an answer counts each line once.

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

const createFile = (path: string, body: string): string => [`CREATE_FILE ${path}`, '```ts', body, '```'].join('\n');

void describe('answers that tell the truth', () => {
  void test('an apply whose every operation the conflict policy dropped is an error, and writes nothing', async () => {
    const root = shopWorkspace();
    const env = toolEnv(root);
    await call(env, 'context', { focus: ['src/price.ts/class[Cart]/method[add]'] });
    const edited = read(root, 'src/price.ts').replace(
      'this.items.push(price);',
      'if (price > 0) this.items.push(price);',
    );
    writeFileSync(join(root, 'src/price.ts'), edited);
    const run = await call(env, 'apply', { operations: PATCH_CART_ADD });
    assert.equal(run.isError, true, run.text);
    assert.match(run.text, /#1 dropped, the user's text kept/);
    assert.match(run.text, /nothing was written: every change conflicts with the user's edits/);
    assert.equal(read(root, 'src/price.ts'), edited);
  });

  void test('an apply that leaves every file as it is says nothing was written, as an error', async () => {
    const root = shopWorkspace();
    const same = [
      'REPLACE_ELEMENT src/price.ts/function[round]',
      '```ts',
      'function round(value: number): number {',
      '  return Math.round(value * 100) / 100;',
      '}',
      '```',
    ].join('\n');
    const run = await call(toolEnv(root), 'apply', { operations: same });
    assert.equal(run.isError, true, run.text);
    assert.match(run.text, /nothing was written: the operations leave every file as it is/);
  });

  void test('a file the server created and someone deleted is created again, and its replacement fails aloud', async () => {
    const root = shopWorkspace();
    const env = toolEnv(root);
    const first = await call(env, 'apply', { operations: createFile('src/tax.ts', 'export const RATE = 0.2;') });
    assert.equal(first.isError, false, first.text);
    rmSync(join(root, 'src/tax.ts'));

    const replaced = await call(env, 'apply', {
      operations: ['REPLACE_FILE src/tax.ts', '```ts', 'export const RATE = 0.3;', '```'].join('\n'),
    });
    assert.equal(replaced.isError, true, replaced.text);
    assert.match(replaced.text, /deleted since you last saw it: src\/tax\.ts/);
    assert.equal(existsSync(join(root, 'src/tax.ts')), false);

    const again = await call(env, 'apply', { operations: createFile('src/tax.ts', 'export const RATE = 0.25;') });
    assert.equal(again.isError, false, again.text);
    assert.doesNotMatch(again.text, /already exists/);
    assert.match(read(root, 'src/tax.ts'), /RATE = 0\.25/);
  });

  void test('an apply cancelled while it verifies writes nothing and says so', async () => {
    const root = shopWorkspace();
    const before = read(root, 'src/price.ts');
    const cancel = new AbortController();
    const tool = toolByName('apply');
    assert.ok(tool !== undefined);
    const run = await runTool(tool, { operations: PATCH_CART_ADD }, toolEnv(root), {
      budget: answerBudget(),
      surface: 'test',
      signal: cancel.signal,
      // The client gives up as soon as the server says it is verifying: before the write, after the request.
      progress: async () => cancel.abort(),
    });
    assert.equal(run.isError, true, run.text);
    assert.match(run.text, /cancelled before the write: nothing was written/);
    assert.equal(read(root, 'src/price.ts'), before);

    const uncancelled = await call(toolEnv(root), 'apply', { operations: PATCH_CART_ADD });
    assert.equal(uncancelled.isError, false, uncancelled.text);
    assert.match(read(root, 'src/price.ts'), /Math\.abs\(price\)/);
  });
});

void describe('bounded inputs', () => {
  const root = shopWorkspace();
  const env = toolEnv(root);

  void test('an 80 KB element path is refused by its length, quoted by its first characters only', async () => {
    const path = `src/price.ts/class[${'z'.repeat(80_000)}]`;
    const run = await call(env, 'context', { focus: [path] });
    assert.equal(run.isError, true);
    assert.match(run.text, /is 80,020 characters long; the limit is 4,096/);
    assert.ok(run.text.length < 400, `${run.text.length} characters`);
  });

  void test('no argument comes back whole in an error: unknown names, wrong types and long lists', async () => {
    const long = 'q'.repeat(3_000);
    const unknown = await call(env, 'outline', { paths: ['src'], [long]: 1 });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /unknown argument "q{80}… \(3,000 characters\)"/);
    const wrongType = await call(env, 'outline', { paths: [{ nested: long }] });
    assert.equal(wrongType.isError, true);
    assert.ok(wrongType.text.length < 300, wrongType.text.slice(0, 300));
    const many = await call(env, 'outline', { paths: Array.from({ length: 1_001 }, (_, i) => `f${i}.ts`) });
    assert.match(many.text, /has 1,001 items; the limit is 1,000/);
  });

  void test('an answer over the budget is cut at a line, counting each line once', () => {
    const counter = createTokenCounter();
    let counted = 0;
    const counting = {
      counter: {
        ...counter,
        count: (text: string): number => {
          counted += text.length;
          return counter.count(text);
        },
      },
    };
    const lines = Array.from(
      { length: 20_000 },
      (_, i) => `row ${i} src/some/long/path/file${i}.ts/function[f${i}] 12-40`,
    );
    const text = lines.join('\n');
    const cut = cutToBudget(text, 500, counting);
    assert.ok(cut.tokens <= 500, `${cut.tokens} tokens`);
    assert.equal(counter.count(cut.text), cut.tokens);
    assert.match(cut.text, /answer cut at [\d,]+ of 20,000 lines to fit 500 tokens/);
    assert.ok(cut.text.startsWith(`${lines[0]}\n${lines[1]}\n`));
    // The lines past the budget are never counted: a few times the kept text, not the whole answer again.
    assert.ok(counted < text.length / 20, `${counted} of ${text.length} characters counted`);

    const oneLine = cutToBudget('x'.repeat(200_000), 300, counting);
    assert.ok(oneLine.tokens <= 300 && oneLine.text.length > 100, `${oneLine.tokens} tokens`);
  });
});

void describe('find_path over a JSON import', () => {
  void test('steps over the JSON module (resolveJsonModule) instead of failing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'scalpel-json-'));
    mkdirSync(join(root, 'src'));
    const write = (path: string, text: string): void => writeFileSync(join(root, path), text);
    write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'commonjs',
          target: 'es2020',
          resolveJsonModule: true,
          esModuleInterop: true,
        },
        include: ['src'],
      }),
    );
    write('src/config.json', '{ "rate": 0.2 }\n');
    write(
      'src/price.ts',
      "import config from './config.json';\n\nexport function discount(price: number): number {\n  return price * (1 - config.rate);\n}\n\nexport function label(price: number): string {\n  return `${price}`;\n}\n",
    );
    write(
      'src/main.ts',
      "import { discount } from './price';\n\nexport function run(): number {\n  return discount(10);\n}\n",
    );
    const env = toolEnv(root);
    // No chain reaches label, so every element run reaches is explored, discount (which reads the JSON) included.
    const none = await call(env, 'find_path', {
      from: 'src/main.ts/function[run]',
      to: 'src/price.ts/function[label]',
    });
    assert.equal(none.isError, false, none.text);
    assert.match(none.text, /: 0 \(shortest first, at most 4 hops, 2 elements explored\)/);
    assert.match(none.text, /no chain within 4 hops/);
  });
});

void describe('diagnostics since', () => {
  void test('since batch shows only what the last written apply added; since seen compares with what you saw', async () => {
    const root = shopWorkspace();
    const env = toolEnv(root);
    const none = await call(env, 'diagnostics', { paths: ['src/broken.ts'], since: 'batch' });
    assert.equal(none.isError, true);
    assert.match(none.text, /no apply has been written in this session; call diagnostics without "since"/);

    const all = await call(env, 'diagnostics', { paths: ['src/broken.ts'] });
    assert.match(all.text, /^diagnostics of 1 file: 2 errors, 0 others$/m);
    const batch = [
      'CREATE_ELEMENT src/broken.ts LAST_CHILD',
      '```ts',
      'export function twice(): number {',
      '  return missingName * 2;',
      '}',
      '```',
    ].join('\n');
    const applied = await call(env, 'apply', { operations: batch, allowNewErrors: true });
    assert.equal(applied.isError, false, applied.text);

    const since = await call(env, 'diagnostics', { paths: ['src'], since: 'batch' });
    assert.equal(since.isError, false, since.text);
    assert.match(
      since.text,
      /^new diagnostics of 3 files since before your last written apply: 1 errors, 0 others \(of 3 in all; the ones already there left out\)$/m,
    );
    assert.match(since.text, /TS2304 function\[twice\] Cannot find name 'missingName'/);
    assert.doesNotMatch(since.text, /TS2322|TS2554/);
    assert.match(since.text, /src\/checkout\.ts, src\/price\.ts: not changed by your last batch, so every diagnostic/);

    // What the agent wrote is what it has seen: nothing is new since then.
    const seen = await call(env, 'diagnostics', { paths: ['src/broken.ts'], since: 'seen' });
    assert.match(seen.text, /^new diagnostics of 1 file since you last saw them: 0 errors, 0 others \(of 3 in all/m);
  });
});

void describe('cheaper references', () => {
  void test('several elements in one call, each with its count; globs leave files out', async () => {
    const env = toolEnv(shopWorkspace());
    const paths = [
      'src/price.ts/function[applyDiscount]',
      'src/price.ts/function[round]',
      'src/checkout.ts/function[quickCheckout]',
      'src/price.ts/class[Cart]/method[add]',
    ];
    const counted = await call(env, 'references', { paths });
    assert.equal(counted.isError, false, counted.text);
    assert.match(counted.text, /^uses of 4 elements: 1 with none found in code/m);
    assert.match(counted.text, /^## src\/checkout\.ts\n0 0 function\[quickCheckout\]$/m);
    assert.match(counted.text, /^2 2 function\[applyDiscount\]$/m);
    assert.match(counted.text, /^1 1 class\[Cart\]\/method\[add\]$/m);

    const withoutBroken = await call(env, 'references', { paths, exclude: ['broken.ts'] });
    assert.match(withoutBroken.text, /^1 1 function\[applyDiscount\]$/m);
    assert.match(withoutBroken.text, /only files not matching broken\.ts/);
    const onlyBroken = await call(env, 'references', {
      path: 'src/price.ts/function[applyDiscount]',
      include: ['src/broken.ts'],
    });
    assert.match(onlyBroken.text, /^references of src\/price\.ts\/function\[applyDiscount\]: 1 in 1 files$/m);
    assert.doesNotMatch(onlyBroken.text, /^## src\/price\.ts$/m);

    const both = await call(env, 'references', { path: paths[0], paths });
    assert.match(both.text, /give either "path" \(one element\) or "paths"/);
  });
});

void describe('a focus over the budget', () => {
  void test('comes in slices that fit, with a cursor, never as an error about a budget the agent did not set', async () => {
    const root = shopWorkspace();
    // 60 lines (under the snippet limit) of long lines: some 9,000 tokens, over the default view of 4,000.
    const lines = Array.from(
      { length: 60 },
      (_, i) => `  const v${i} = [${Array.from({ length: 30 }, (_, j) => `'w${i}x${j}'`).join(', ')}];`,
    );
    writeFileSync(join(root, 'src/wide.ts'), `export function wide(): void {\n${lines.join('\n')}\n}\n`);
    const env = toolEnv(root);
    const first = await call(env, 'context', { focus: ['src/wide.ts/function[wide]'] });
    assert.equal(first.isError, false, first.text);
    assert.match(
      first.text,
      /src\/wide\.ts\/function\[wide\] is over the view's 4,000 tokens \(maxTokens, default 4,000\): shown in slices/,
    );
    assert.match(first.text, /^src\/wide\.ts\/function\[wide\] is 62 lines: lines 1-\d+$/m);
    assert.doesNotMatch(first.text, /answer cut at/);
    assert.ok(first.tokens <= 4_000 + 400, `${first.tokens} tokens`);
    const cursor = /cursor "([^"]+)"/.exec(first.text)?.[1];
    assert.ok(cursor !== undefined, first.text.slice(-300));
    const second = await call(env, 'context', { focus: ['src/wide.ts/function[wide]'], cursor });
    assert.equal(second.isError, false, second.text);
    const from = Number(/is 62 lines: lines (\d+)-/.exec(second.text)?.[1]);
    assert.ok(from > 1, second.text.slice(0, 200));
  });
});
