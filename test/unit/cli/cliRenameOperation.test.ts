import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from './runScalpel';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 27's RENAME_ELEMENT through `scalpel edit` in-process: the scripted model answers over real HTTP, TypeScript's
// language service finds the places in real files, the type check runs on the result. The model is sent only
// src/store.ts; the calls in the three other files are the rename's, not the model's.

const STORE = `export class Store {
  private readonly items = new Map<string, number>();

  save(key: string, value: number): void {
    this.items.set(key, value);
  }

  size(): number {
    return this.items.size;
  }
}
`;
const A = `import { Store } from './store';

export function first(store: Store): void {
  store.save('a', 1);
}
`;
const B = `import type { Store } from './store';

export function second(store: Store): void {
  store.save('b', 2);
  store.save('c', 3);
}
`;
const C = `import { Store } from './store';

/** The action names the menu shows. */
export const ACTIONS = ['save', 'size'];

export function third(): Store {
  const store = new Store();
  store.save('d', 4);
  return store;
}
`;
const FILES = { 'src/store.ts': STORE, 'src/a.ts': A, 'src/b.ts': B, 'src/c.ts': C };

function workspace(): string {
  return tempWorkspace('scalpel-rename-op-', {
    ...FILES,
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, lib: ['ES2022'] }, include: ['src'] }),
  });
}

function read(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

interface RenameJson {
  readonly ok: boolean;
  readonly results: readonly {
    readonly type: string;
    readonly status: string;
    readonly message?: string;
    readonly rename?: {
      readonly renamedTo: string;
      readonly places: number;
      readonly files: readonly string[];
      readonly untouched: readonly { file: string; line: number; in: string; code: string }[];
    };
  }[];
  readonly typeCheck?: { readonly checker?: unknown };
  readonly newTypeErrors?: unknown;
}

const RENAME = 'RENAME_ELEMENT src/store.ts/class[Store]/method[save] persist';

void describe('scalpel edit: RENAME_ELEMENT', () => {
  const llm = useScriptedModel();
  const args = ['edit', 'src/store.ts', '-m', 'call save persist', '--repair-rounds', '0'];

  void test('renames a method used in three files the model never saw, lists the string it left, type-checks', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(RENAME));
    const from = llm.server.requests.length;
    const run = await scalpel(root, [...args, '--json'], { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - from, 1, 'no repair round: the seen-code rule let the calls through');
    const sent = JSON.stringify(llm.server.requests[from]?.body?.messages ?? []);
    assert.doesNotMatch(sent, /export function second/, 'src/b.ts was never shown to the model');
    assert.equal(read(root, 'src/store.ts'), STORE.replace('  save(key', '  persist(key'));
    assert.equal(read(root, 'src/a.ts'), A.replace("store.save('a'", "store.persist('a'"));
    assert.equal(read(root, 'src/b.ts'), B.replaceAll('store.save(', 'store.persist('));
    assert.equal(read(root, 'src/c.ts'), C.replace("store.save('d'", "store.persist('d'"));
    assert.match(read(root, 'src/c.ts'), /\['save', 'size'\]/, 'the string is not changed');

    const json = JSON.parse(run.stdout) as RenameJson;
    assert.equal(json.ok, true);
    const [result] = json.results;
    assert.equal(result?.type, 'RENAME_ELEMENT');
    assert.equal(result?.status, 'ok');
    assert.equal(result?.message?.startsWith('renamed in 5 places in 4 files'), true, result?.message);
    assert.equal(result?.rename?.renamedTo, 'src/store.ts/class[Store]/method[persist]');
    assert.equal(result?.rename?.places, 5);
    assert.deepEqual(result?.rename?.files, ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/store.ts']);
    assert.deepEqual(
      result?.rename?.untouched.map((u) => [u.file, u.line, u.in]),
      [['src/c.ts', 4, 'string']],
    );
    assert.notEqual(json.typeCheck, undefined, 'the type check ran');
    assert.equal(json.newTypeErrors, undefined, 'and found no new error');
  });

  void test('beside a REPLACE_ELEMENT of another method of the same file, both apply in one batch', async () => {
    const root = workspace();
    const answer = [
      RENAME,
      'REPLACE_ELEMENT src/store.ts/class[Store]/method[size]',
      '```ts',
      'size(): number {',
      '  return this.items.size + 0;',
      '}',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(answer));
    const run = await scalpel(root, args, { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      read(root, 'src/store.ts'),
      STORE.replace('  save(key', '  persist(key').replace('return this.items.size;', 'return this.items.size + 0;'),
    );
    assert.equal(read(root, 'src/a.ts'), A.replace("store.save('a'", "store.persist('a'"));
    assert.match(run.stderr, /src\/c\.ts:4 \(string\) export const ACTIONS = \['save', 'size'\];/);
  });

  void test('kept through a repair round: shown to the model with what it left, applied once', async () => {
    const root = workspace();
    const replaceSize = (path: string): string =>
      [`REPLACE_ELEMENT ${path}`, '```ts', 'size(): number {', '  return this.items.size + 0;', '}', '```'].join('\n');
    llm.server.enqueue(
      scripted.answer([RENAME, replaceSize('src/store.ts/class[Store]/method[sizes]')].join('\n')),
      scripted.answer(replaceSize('src/store.ts/class[Store]/method[size]')),
    );
    const from = llm.server.requests.length;
    const run = await scalpel(root, [...args.slice(0, -1), '1', '--json'], { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    const users = (llm.server.requests[from + 1]?.body?.messages ?? []).filter((m) => m.role === 'user');
    const repair = String(users.at(-1)?.content ?? '');
    assert.match(
      repair,
      /- ok RENAME_ELEMENT src\/store\.ts\/class\[Store\]\/method\[save\] persist: renamed in 5 places in 4 files/,
    );
    assert.match(repair, /left as is: src\/c\.ts:4 \(string\) export const ACTIONS = \['save', 'size'\];/);
    const json = JSON.parse(run.stdout) as RenameJson;
    assert.deepEqual(
      json.results.map((r) => [r.type, r.status]),
      [
        ['RENAME_ELEMENT', 'ok'],
        ['REPLACE_ELEMENT', 'ok'],
      ],
    );
    assert.equal(read(root, 'src/b.ts'), B.replaceAll('store.save(', 'store.persist('));
  });

  void test('a rename of an unknown path fails and leaves every file byte for byte', async () => {
    const root = workspace();
    const answer = [
      'RENAME_ELEMENT src/store.ts/class[Store]/method[sav] persist',
      'PATCH_ELEMENT src/store.ts/class[Store]/method[size]',
      '```ts',
      '<<<<<<< SEARCH',
      '    return this.items.size;',
      '=======',
      '    return this.items.size + 0;',
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(answer));
    const run = await scalpel(root, args, { env: llm.cliEnv });

    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /failed +RENAME_ELEMENT src\/store\.ts\/class\[Store\]\/method\[sav\]/);
    assert.match(run.stderr, /nearest: .*method\[save\]/);
    for (const [path, text] of Object.entries(FILES)) assert.equal(read(root, path), text, path);
  });

  void test('a rename whose place another operation also changes fails as a conflict, nothing written', async () => {
    const root = workspace();
    // The model renames the declaration by hand as well: both would change the name on line 4.
    const answer = [
      RENAME,
      'REPLACE_ELEMENT src/store.ts/class[Store]/method[save]',
      '```ts',
      'persist(key: string, value: number): void {',
      '  this.items.set(key, value);',
      '}',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(answer));
    const run = await scalpel(root, args, { env: llm.cliEnv });

    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /line 4 of src\/store\.ts, a place it renames, is also changed by operation #2/);
    for (const [path, text] of Object.entries(FILES)) assert.equal(read(root, path), text, path);
  });

  void test('two renames of one declaration: the second fails as a conflict with the first', async () => {
    const root = workspace();
    llm.server.enqueue(
      scripted.answer([RENAME, 'RENAME_ELEMENT src/store.ts/class[Store]/method[save] keep'].join('\n')),
    );
    const run = await scalpel(root, args, { env: llm.cliEnv });

    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /a place it renames, is also changed by operation #1/);
    for (const [path, text] of Object.entries(FILES)) assert.equal(read(root, path), text, path);
  });

  void test('a call site in a file the write policy protects fails the rename, saying which and why', async () => {
    const root = workspace();
    chmodSync(join(root, 'src', 'b.ts'), 0o444);
    llm.server.enqueue(scripted.answer(RENAME));
    const run = await scalpel(root, args, { env: llm.cliEnv });

    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /the rename would change src\/b\.ts, which may not be written: it is protected: it is read-only/,
    );
    for (const [path, text] of Object.entries(FILES)) assert.equal(read(root, path), text, path);
  });
});
