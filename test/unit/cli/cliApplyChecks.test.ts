import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadLanguagesFor } from '../../../src/core/language/languages';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from './runScalpel';

// Issue 24 item 9, one check for every way in: `scalpel apply` runs the verification `scalpel edit` runs (types by
// default, --verify syntax and --allow-new-errors the same), and a rename or delete is refused while uses of the old
// name remain outside the batch, with the places listed.

const ACCOUNT = `export class Account {
  private cents = 0;

  deposit(amount: number): void {
    this.cents += amount;
  }

  balance(): number {
    return this.cents / 100;
  }
}
`;
const APP = `import { Account } from './account';

export function report(acc: Account): string {
  return \`balance: \${acc.balance()}\`;
}

export function isEmpty(acc: Account): boolean {
  return acc.balance() === 0;
}
`;
const RENAME = [
  'REPLACE_ELEMENT src/account.ts/class[Account]/method[balance]',
  '```ts',
  'total(): number {',
  '  return this.cents / 100;',
  '}',
  '```',
].join('\n');

function workspace(answer: string, extra: Record<string, string> = {}): string {
  return tempWorkspace('scalpel-apply-checks-', {
    'src/account.ts': ACCOUNT,
    'src/app.ts': APP,
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
    'answer.txt': answer,
    ...extra,
  });
}

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

void describe('scalpel apply: the checks of scalpel edit', () => {
  void test('a rename of a method still called elsewhere exits 1 naming the call sites, and writes nothing', async () => {
    const root = workspace(RENAME);
    const run = await scalpel(root, ['apply', 'answer.txt']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /renames it to src\/account\.ts\/class\[Account\]\/method\[total\], but 2 uses of balance remain/,
    );
    assert.ok(
      run.stdout.includes('- src/app.ts:4 in src/app.ts/function[report]: return `balance: ${acc.balance()}`;'),
    );
    assert.ok(run.stdout.includes('- src/app.ts:8 in src/app.ts/function[isEmpty]: return acc.balance() === 0;'));
    assert.match(run.stdout, /nothing was written/);
    assert.equal(read(root, 'src/account.ts'), ACCOUNT);
    assert.equal(read(root, 'src/app.ts'), APP);
  });

  void test('--json lists the uses left behind as data', async () => {
    const root = workspace(RENAME);
    const run = await scalpel(root, ['apply', 'answer.txt', '--json']);
    assert.equal(run.code, 1, run.stderr);
    const json = JSON.parse(run.stdout) as {
      ok: boolean;
      written: boolean;
      problems: Array<{ step: string; brokenReferences?: Array<{ file: string; line: number; elementPath: string }> }>;
    };
    assert.equal(json.ok, false);
    assert.equal(json.written, false);
    const references = json.problems.find((p) => p.step === 'references');
    assert.deepEqual(
      references?.brokenReferences?.map((r) => `${r.file}:${r.line} ${r.elementPath}`),
      ['src/app.ts:4 src/app.ts/function[report]', 'src/app.ts:8 src/app.ts/function[isEmpty]'],
    );
  });

  void test('the same rename with its call sites updated in the batch applies', async () => {
    const callers = [
      'PATCH_ELEMENT src/app.ts/function[report]',
      '```ts',
      '<<<<<<< SEARCH',
      '  return `balance: ${acc.balance()}`;',
      '=======',
      '  return `balance: ${acc.total()}`;',
      '>>>>>>> REPLACE',
      '```',
      '',
      'PATCH_ELEMENT src/app.ts/function[isEmpty]',
      '```ts',
      '<<<<<<< SEARCH',
      '  return acc.balance() === 0;',
      '=======',
      '  return acc.total() === 0;',
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    const root = workspace(`${RENAME}\n\n${callers}`);
    const run = await scalpel(root, ['apply', 'answer.txt']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(read(root, 'src/account.ts'), /total\(\): number/);
    assert.match(read(root, 'src/app.ts'), /acc\.total\(\) === 0/);
  });

  void test('--verify syntax checks the parse alone, as scalpel edit does', async () => {
    const root = workspace(RENAME);
    const run = await scalpel(root, ['apply', 'answer.txt', '--verify', 'syntax']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(read(root, 'src/account.ts'), /total\(\): number/);
  });

  void test('--allow-new-errors writes the batch and lists what it lets through', async () => {
    const root = workspace(RENAME);
    const run = await scalpel(root, ['apply', 'answer.txt', '--allow-new-errors']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stderr, /new type errors allowed in src\/app\.ts: 2 errors the edit adds/);
    assert.match(run.stderr, /uses of renamed or deleted elements allowed: 2/);
    assert.match(read(root, 'src/account.ts'), /total\(\): number/);
  });

  void test('a delete of a function still called is refused with the call site', async () => {
    const root = workspace('DELETE_ELEMENT src/util.ts/function[double]\n', {
      'src/util.ts': 'export function double(n: number): number {\n  return n * 2;\n}\n',
      'src/use.js': "import { double } from './util';\nexport const four = double(2);\n",
      // JavaScript callers are part of the program (and so of the search) when the project lets them in.
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, allowJs: true }, include: ['src'] }),
    });
    const run = await scalpel(root, ['apply', 'answer.txt']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /DELETE_ELEMENT src\/util\.ts\/function\[double\] deletes it, but 1 use of double remains/,
    );
    assert.ok(run.stdout.includes('- src/use.js:2 in src/use.js/variable[four]: export const four = double(2);'));
    assert.match(read(root, 'src/util.ts'), /function double/);
  });

  void test('a signature change that breaks a caller is refused by the type check', async () => {
    const answer = [
      'REPLACE_ELEMENT src/account.ts/class[Account]/method[deposit]',
      '```ts',
      'deposit(amount: number, note: string): void {',
      '  this.cents += amount;',
      '}',
      '```',
    ].join('\n');
    const root = workspace(answer, {
      'src/pay.ts': "import { Account } from './account';\nexport const pay = (a: Account): void => a.deposit(5);\n",
    });
    const run = await scalpel(root, ['apply', 'answer.txt']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /refused src\/pay\.ts \(types\): the batch adds 1 TypeScript error here \(first: TS2554 /);
    assert.equal(read(root, 'src/account.ts'), ACCOUNT);
  });

  void test('a Python delete with a caller left is refused naming it: references beyond TypeScript', async () => {
    const py = 'def double(n):\n    return n * 2\n\n\ndef four():\n    return double(2)\n';
    const root = workspace('DELETE_ELEMENT src/calc.py/function[double]\n', { 'src/calc.py': py });
    await loadLanguagesFor(['src/calc.py']);
    const run = await scalpel(root, ['apply', 'answer.txt']);
    // Python's references (found in code, tied through the module) name the caller; pyright would refuse it too.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /src\/calc\.py:6 in src\/calc\.py\/function\[four\]: return double\(2\)/);
    assert.doesNotMatch(run.stdout, /no reference search/);
    assert.equal(readFileSync(join(root, 'src', 'calc.py'), 'utf8'), py);
  });

  void test('an answer that declines exits 4 with its reason and writes nothing', async () => {
    const root = workspace('The method is used by report and isEmpty.\n\nDECLINE: balance is not dead code.\n');
    const run = await scalpel(root, ['apply', 'answer.txt']);
    assert.equal(run.code, 4, run.stdout + run.stderr);
    assert.equal(run.stdout, 'the answer declines the task: balance is not dead code.\nnothing was written\n');
    writeFileSync(join(root, 'answer.txt'), 'DECLINE: no');
    const json = await scalpel(root, ['apply', 'answer.txt', '--json']);
    assert.equal(json.code, 4);
    assert.equal((JSON.parse(json.stdout) as { declined: string }).declined, 'no');
  });
});

void describe('scalpel edit: the reference check in the repair loop', () => {
  const llm = useScriptedModel();

  void test('a rename with callers outside the batch goes back to the model with the places', async () => {
    const root = workspace('');
    const kept = [
      'REPLACE_ELEMENT src/account.ts/class[Account]/method[balance]',
      '```ts',
      '/** In units, not cents. */',
      'balance(): number {',
      '  return this.cents / 100;',
      '}',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(RENAME), scripted.answer(kept));
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/account.ts', '-m', 'document balance', '--full'], {
      env: llm.cliEnv,
    });
    assert.equal(run.code, 0, run.stderr);
    const repair = llm.userMessageOf(from + 1);
    assert.ok(
      repair.includes(
        '- FAILED REPLACE_ELEMENT src/account.ts/class[Account]/method[balance]: REPLACE_ELEMENT src/account.ts/class[Account]/method[balance] renames it to src/account.ts/class[Account]/method[total], but 2 uses of balance remain',
      ),
      repair,
    );
    assert.ok(repair.includes('- src/app.ts:8 in src/app.ts/function[isEmpty]: return acc.balance() === 0;'), repair);
    assert.match(read(root, 'src/account.ts'), /\/\*\* In units, not cents\. \*\/\n {2}balance\(\): number/);
  });
});
