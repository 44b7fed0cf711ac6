import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { renderChanges } from '../../../src/core/sync/renderChanges';
import { userChangesOf } from '../../../src/core/sync/userChanges';

const FILE = 'src/user.ts';
const BASE = `import { a } from './a';

export class User {
  name = '';

  validate(input: string): boolean {
    if (input.length === 0) return false;
    return true;
  }

  save(): void {
    console.log('save');
  }
}

export function helper(x: number): number {
  const doubled = x * 2;
  const tripled = x * 3;
  return doubled + tripled;
}

const legacy = 1;
`;

const counter = createTokenCounter();

void describe('the user changes since a baseline', () => {
  void test('no change is no change', () => {
    const changes = userChangesOf(FILE, BASE, BASE);
    assert.equal(changes.status, 'unchanged');
    assert.deepEqual(changes.changes, []);
  });

  void test('a modified method shows a compact diff scoped to it, with the current line numbers', () => {
    const now = BASE.replace(
      'if (input.length === 0) return false;',
      "if (input.trim() === '') throw new Error('empty');",
    );
    const changes = userChangesOf(FILE, BASE, now);
    assert.equal(changes.status, 'modified');
    assert.equal(changes.changes.length, 1);
    const [change] = changes.changes;
    assert.equal(change?.change, 'modified');
    assert.equal(change?.path, 'src/user.ts/class[User]/method[validate]');
    assert.equal(change?.added, 1);
    assert.equal(change?.removed, 1);
    assert.deepEqual(change?.diff, [
      '@@ 6',
      '   validate(input: string): boolean {',
      '-    if (input.length === 0) return false;',
      "+    if (input.trim() === '') throw new Error('empty');",
      '     return true;',
    ]);
    assert.match(changes.summary, /the user modified class\[User\]\/method\[validate\] \(\+1 -1\)/);
  });

  void test('added, deleted, renamed and moved elements are named as such', () => {
    const now = BASE.replace('const legacy = 1;\n', '')
      .replace('export function helper(x: number)', 'export function compute(x: number)')
      .replace('  save(): void {', '  load(): void {}\n\n  save(): void {');
    const changes = userChangesOf(FILE, BASE, now);
    const kinds = changes.changes.map((c) => `${c.change} ${c.previousPath ?? ''}>${c.path}`);
    assert.deepEqual(kinds.sort(), [
      'added >src/user.ts/class[User]/method[load]',
      'deleted >src/user.ts/variable[legacy]',
      'renamed src/user.ts/function[helper]>src/user.ts/function[compute]',
    ]);
    assert.match(changes.summary, /added class\[User\]\/method\[load\]/);
    assert.match(changes.summary, /deleted variable\[legacy\]/);
    assert.match(changes.summary, /renamed function\[helper\] to function\[compute\]/);
  });

  void test('a method moved to another place in its class is a move, not a delete and an add', () => {
    const save = "  save(): void {\n    console.log('save');\n  }\n";
    const now = BASE.replace(`\n${save}`, '').replace("  name = '';\n", `  name = '';\n\n${save}`);
    const changes = userChangesOf(FILE, BASE, now);
    assert.ok(
      changes.changes.every((c) => c.change === 'moved'),
      JSON.stringify(changes.changes),
    );
  });

  void test('an element rewritten through and through shows its current text once, not old and new lines', () => {
    const rewritten =
      'export function helper(x: number): number {\n  if (x < 0) throw new Error();\n  const y = x ** 2;\n  return Math.sqrt(y) + 1;\n}';
    const old = BASE.slice(BASE.indexOf('export function helper'), BASE.indexOf('\n\nconst legacy'));
    const changes = userChangesOf(FILE, BASE, BASE.replace(old, rewritten));
    const [change] = changes.changes;
    assert.equal(change?.change, 'modified');
    assert.equal(change?.diff[0], `@@ ${change?.startLine} rewritten, now:`);
    assert.deepEqual(
      change?.diff.slice(1),
      rewritten.split('\n').map((l) => `+${l}`),
    );
    assert.ok((change?.removed ?? 0) > 0, 'the counts still say what was removed');
  });

  void test('a file that no longer parses falls back to a line diff of the file', () => {
    const changes = userChangesOf(FILE, BASE, BASE.replace('return true;', 'return true'.concat(' {{')));
    assert.equal(changes.elementLevel, false);
    assert.ok(changes.fileDiff?.some((l) => l.startsWith('+') && l.includes('{{')));
  });

  void test('the rendering stays under its budget: big diffs collapse to signatures and counts, with a note', () => {
    const big = Array.from({ length: 40 }, (_, i) => `  method${i}(): number {\n    return ${i};\n  }\n`).join('\n');
    const base = `export class Big {\n${big}}\n`;
    const now = base.replace(/return (\d+);/g, 'return $1 + 1;');
    const changes = userChangesOf('src/big.ts', base, now);
    assert.equal(changes.changes.length, 40);
    const full = renderChanges([changes], { counter, budget: 100_000, moreHint: 'run scalpel changes' });
    assert.equal(full.collapsed + full.omitted, 0);
    assert.match(full.text, /\+ {4}return 0 \+ 1;/);
    const small = renderChanges([changes], { counter, budget: 400, moreHint: 'run scalpel changes' });
    assert.ok(small.tokens <= 400, `${small.tokens} tokens`);
    assert.ok(small.collapsed + small.omitted > 0);
    assert.match(small.text, /more changed elements \(\d+ modified\)/);
    assert.match(small.text, /run scalpel changes/);
  });
});
