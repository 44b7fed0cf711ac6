import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { call, cursorOf, tableRows, toolEnv } from './toolSupport';

// Issue 27, item 7: find_symbols by name path, with members `depth` levels down and with the elements' bodies.

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-find-symbols-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const USER = [
  'export class User {',
  '  constructor(readonly name: string) {}',
  '',
  '  /** A name is valid when it is not blank. */',
  '  validate(): boolean {',
  '    return this.name.trim().length > 0;',
  '  }',
  '',
  '  rename(to: string): User {',
  '    return new User(to);',
  '  }',
  '}',
  '',
].join('\n');

const ORDER = [
  'export class Order {',
  '  validate(): boolean {',
  '    return true;',
  '  }',
  '}',
  '',
  'export function validateAll(orders: Order[]): boolean {',
  '  return orders.every((o) => o.validate());',
  '}',
  '',
].join('\n');

void describe('find_symbols', () => {
  const root = workspace({ 'src/user.ts': USER, 'src/order.ts': ORDER });
  const env = toolEnv(root);

  void test('a name path names the container: User/validate is not Order/validate', async () => {
    const plain = await call(env, 'find_symbols', { name: 'validate' });
    assert.deepEqual(tableRows(plain.text), [
      '2-4 class[Order]/method[validate]',
      '7-9 function[validateAll]',
      '4-7 class[User]/method[validate]',
    ]);
    const inUser = await call(env, 'find_symbols', { name: 'User/validate' });
    assert.equal(inUser.isError, false, inUser.text);
    assert.deepEqual(tableRows(inUser.text), ['4-7 class[User]/method[validate]']);
    const everyMethod = await call(env, 'find_symbols', { name: 'class[User]/method[*]' });
    assert.deepEqual(tableRows(everyMethod.text), [
      '4-7 class[User]/method[validate]',
      '9-11 class[User]/method[rename]',
    ]);
    // A leading slash anchors at the top of the file: validate is never a top-level element.
    const anchored = await call(env, 'find_symbols', { name: '/validate' });
    assert.deepEqual(tableRows(anchored.text), ['7-9 function[validateAll]']);
    const badKind = await call(env, 'find_symbols', { name: 'klass[User]/validate' });
    assert.equal(badKind.isError, true);
    assert.match(badKind.text, /no element kind "klass"/);
  });

  void test('depth lists the members under each match, indented', async () => {
    const run = await call(env, 'find_symbols', { name: 'User', kinds: ['class'], depth: 1 });
    assert.equal(run.isError, false, run.text);
    assert.deepEqual(tableRows(run.text), [
      '1-12 class[User]',
      ' 2 class[User]/constructor',
      ' 4-7 class[User]/method[validate]',
      ' 9-11 class[User]/method[rename]',
    ]);
    const none = await call(env, 'find_symbols', { name: 'User', kinds: ['class'] });
    assert.deepEqual(tableRows(none.text), ['1-12 class[User]']);
  });

  void test('includeBody answers each match with its full text, doc comment included', async () => {
    const run = await call(env, 'find_symbols', { name: 'User/validate', includeBody: true });
    assert.equal(run.isError, false, run.text);
    assert.equal(
      run.text,
      [
        'symbols matching name User/validate: 1 in 1 of 2 files',
        '## src/user.ts',
        '4-7 class[User]/method[validate]',
        '```ts',
        '  /** A name is valid when it is not blank. */',
        '  validate(): boolean {',
        '    return this.name.trim().length > 0;',
        '  }',
        '```',
        '1 symbols, all shown',
      ].join('\n'),
    );
    const withMembers = await call(env, 'find_symbols', {
      name: 'Order',
      kinds: ['class'],
      includeBody: true,
      depth: 1,
    });
    assert.match(
      withMembers.text,
      /^1-5 class\[Order\]\n 2-4 class\[Order\]\/method\[validate\]\n```ts\nexport class Order \{$/m,
    );
  });

  void test('a body read with includeBody is the baseline get_changes reports the user edits against', async () => {
    const own = workspace({ 'src/user.ts': USER });
    const ownEnv = toolEnv(own);
    const unseen = await call(ownEnv, 'get_changes', { paths: ['src/user.ts'] });
    assert.match(unseen.text, /not seen in this session/);
    await call(ownEnv, 'find_symbols', { name: 'User/validate', includeBody: true });
    writeFileSync(join(own, 'src/user.ts'), USER.replace('this.name.trim()', 'this.name'));
    const changes = await call(ownEnv, 'get_changes', { paths: ['src/user.ts'] });
    assert.match(changes.text, /the user modified class\[User\]\/method\[validate\] \(\+1 -1\)/);
  });

  void test('a body over the answer budget comes as its head, with a cursor to the rest', async () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) => `  const value${i} = compute(${i}, 'a string that costs some tokens');`,
    );
    const big = workspace({
      'src/big.ts': ['export function huge(): void {', ...lines, '}', 'export function after(): void {}', ''].join(
        '\n',
      ),
    });
    const bigEnv = toolEnv(big);
    const first = await call(bigEnv, 'find_symbols', { name: '*', includeBody: true }, 2_000);
    assert.equal(first.isError, false, first.text);
    assert.ok(first.tokens <= 2_000, `${first.tokens} tokens`);
    assert.match(first.text, /^1-402 function\[huge\]$/m);
    assert.match(first.text, /^  const value0 = /m);
    assert.doesNotMatch(first.text, /value399/);
    assert.match(
      first.text,
      /^src\/big\.ts\/function\[huge\]: lines 1-\d+ of its 402 shown, to fit the answer's 2,000 tokens; the rest and 1 more symbols: call again with the same arguments and cursor "0-\d+\.[\w-]+"$/m,
    );
    assert.doesNotMatch(first.text, /setting|error/i);
    // Paging on reaches the end of the body, then the next symbol.
    let cursor = cursorOf(first.text);
    const seen = [first.text];
    for (let i = 0; cursor !== undefined && i < 20; i++) {
      const next = await call(bigEnv, 'find_symbols', { name: '*', includeBody: true, cursor }, 2_000);
      assert.equal(next.isError, false, next.text);
      seen.push(next.text);
      cursor = cursorOf(next.text);
    }
    const all = seen.join('\n');
    for (let i = 0; i < 400; i++) assert.match(all, new RegExp(`const value${i} = `), `line ${i}`);
    assert.match(all, /^export function after\(\): void \{\}$/m);
    assert.match(seen.at(-1) ?? '', /the last page|all shown/);
  });
});
