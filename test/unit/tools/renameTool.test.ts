import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { call, toolEnv } from './toolSupport';

// Issue 27: the rename tool, with TypeScript's rename locations on a real workspace, verified and written as apply.

const FILES: Record<string, string> = {
  'src/user.ts': [
    'export class User {',
    '  constructor(readonly name: string) {}',
    '',
    '  // validate checks the name before save',
    '  validate(): boolean {',
    '    return this.name.length > 0;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/signup.ts': [
    "import { User } from './user';",
    '',
    'export function signup(name: string): boolean {',
    '  return new User(name).validate();',
    '}',
    '',
  ].join('\n'),
  'src/admin.ts': [
    "import type { User } from './user';",
    '',
    'export function promote(user: User): boolean {',
    '  if (!user.validate()) return false;',
    '  return true;',
    '}',
    '',
  ].join('\n'),
  'src/audit.ts': [
    "import type { User } from './user';",
    '',
    "export const CHECKS = ['validate', 'save'];",
    '',
    'export function audit(users: readonly User[]): number {',
    '  return users.filter((u) => u.validate()).length;',
    '}',
    '',
  ].join('\n'),
  'tool.py': ['def helper():', '    return 1', ''].join('\n'),
};

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-rename-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');
const snapshot = (root: string): string[] => Object.keys(FILES).map((path) => read(root, path));

void describe('the rename tool', () => {
  void test('a dry run of a method used in three files renames the code uses, lists the string, writes nothing', async () => {
    const root = workspace();
    const run = await call(toolEnv(root), 'rename', {
      path: 'src/user.ts/class[User]/method[validate]',
      newName: 'isValid',
    });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^rename src\/user\.ts\/class\[User\]\/method\[validate\] to isValid: 4 places in 4 files/m);
    assert.match(run.text, /^searched: the 4 TypeScript\/JavaScript files of the workspace that mention validate/m);
    assert.match(run.text, /^verified: no new type errors \(types checked with TypeScript /m);
    assert.match(run.text, /dry run, nothing written/);
    for (const line of [
      '+  isValid(): boolean {',
      '+  return new User(name).isValid();',
      '+  if (!user.isValid()) return false;',
    ])
      assert.ok(run.text.includes(line), `${line} in\n${run.text}`);
    assert.ok(run.text.includes('+  return users.filter((u) => u.isValid()).length;'), run.text);
    // The string and the comment are listed with their line and kind, not changed.
    assert.match(run.text, /^## src\/audit\.ts$/m);
    assert.match(run.text, /^3 string\b.*export const CHECKS = \['validate', 'save'\];$/m);
    assert.match(run.text, /^4 comment class\[User\].*\/\/ validate checks the name before save$/m);
    assert.ok(!run.text.includes("+export const CHECKS = ['isValid'"), run.text);
    assert.deepEqual(snapshot(root), Object.values(FILES));
  });

  void test('apply: true writes every use in one batch and leaves the string and the comment', async () => {
    const root = workspace();
    const env = toolEnv(root);
    const path = 'src/user.ts/class[User]/method[validate]';
    const run = await call(env, 'rename', { path, newName: 'isValid', apply: true });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^verified: no new type errors \(types checked with TypeScript /m);
    assert.match(run.text, /^written: wrote src\/admin\.ts, src\/audit\.ts, src\/signup\.ts, src\/user\.ts$/m);
    assert.match(read(root, 'src/user.ts'), /\n {2}isValid\(\): boolean \{/);
    assert.match(read(root, 'src/user.ts'), /\/\/ validate checks the name before save/);
    assert.match(read(root, 'src/signup.ts'), /new User\(name\)\.isValid\(\)/);
    assert.match(read(root, 'src/admin.ts'), /user\.isValid\(\)/);
    assert.match(read(root, 'src/audit.ts'), /u\.isValid\(\)/);
    assert.match(read(root, 'src/audit.ts'), /\['validate', 'save'\]/);
    // The written workspace type-checks: no errors in any of the files.
    const check = await call(env, 'diagnostics', {
      paths: ['src/user.ts', 'src/signup.ts', 'src/admin.ts', 'src/audit.ts'],
    });
    assert.equal(check.isError, false, check.text);
    assert.doesNotMatch(check.text, /\bTS\d+/, check.text);
  });

  void test('an imported constant is renamed in the import; a shorthand property keeps its key', async () => {
    const root = mkdtempSync(join(tmpdir(), 'scalpel-rename-shorthand-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/limits.ts'), 'export const limit = 3;\nexport const defaults = { limit };\n');
    writeFileSync(join(root, 'src/use.ts'), "import { limit } from './limits';\n\nexport const twice = limit * 2;\n");
    const run = await call(toolEnv(root), 'rename', {
      path: 'src/limits.ts/variable[limit]',
      newName: 'max',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    assert.equal(read(root, 'src/limits.ts'), 'export const max = 3;\nexport const defaults = { limit: max };\n');
    assert.equal(read(root, 'src/use.ts'), "import { max } from './limits';\n\nexport const twice = max * 2;\n");
  });

  void test('a rename that would change a protected file is refused, naming it, and nothing is written', async () => {
    const root = workspace();
    chmodSync(join(root, 'src/admin.ts'), 0o444);
    for (const apply of [false, true]) {
      const run = await call(toolEnv(root), 'rename', {
        path: 'src/user.ts/class[User]/method[validate]',
        newName: 'isValid',
        apply,
      });
      assert.equal(run.isError, true, run.text);
      assert.match(run.text, /would write where it may not: .*src\/admin\.ts.*read-only/);
      assert.match(run.text, /nothing was written/);
    }
    chmodSync(join(root, 'src/admin.ts'), 0o644);
    assert.deepEqual(snapshot(root), Object.values(FILES));
  });

  void test('a rename that would change a file outside the workspace is refused, naming it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'scalpel-rename-outside-'));
    const root = join(base, 'app');
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    // A workspace file that calls the method imports a file beside the workspace that calls it too.
    mkdirSync(join(base, 'shared'));
    const helper =
      "import type { User } from '../app/src/user';\n\nexport const ok = (u: User): boolean => u.validate();\n";
    writeFileSync(join(base, 'shared', 'helper.ts'), helper);
    writeFileSync(
      join(root, 'src', 'main.ts'),
      "import { ok } from '../../shared/helper';\nimport type { User } from './user';\n\nexport const check = (u: User): boolean => ok(u) && u.validate();\n",
    );
    for (const apply of [false, true]) {
      const run = await call(toolEnv(root), 'rename', {
        path: 'src/user.ts/class[User]/method[validate]',
        newName: 'isValid',
        apply,
      });
      assert.equal(run.isError, true, run.text);
      assert.match(run.text, /would change files outside the workspace: \S*shared\/helper\.ts/);
      assert.match(run.text, /nothing was written/);
    }
    assert.deepEqual(snapshot(root), Object.values(FILES));
    assert.equal(readFileSync(join(base, 'shared', 'helper.ts'), 'utf8'), helper);
  });

  void test('a name already declared in the same class is refused; a non-identifier is refused', async () => {
    const root = workspace();
    const env = toolEnv(root);
    const taken = await call(env, 'rename', { path: 'src/user.ts/class[User]/method[validate]', newName: 'name' });
    assert.equal(taken.isError, true, taken.text);
    assert.match(taken.text, /name is already declared where .*method\[validate\] is \(src\/user\.ts:2: /);
    const bad = await call(env, 'rename', { path: 'src/user.ts/class[User]/method[validate]', newName: 'is-valid' });
    assert.equal(bad.isError, true, bad.text);
    assert.match(bad.text, /"newName" must be an identifier/);
    assert.deepEqual(snapshot(root), Object.values(FILES));
  });

  void test('a Python function beside the TypeScript is renamed by the reference search, said so', async () => {
    const root = workspace();
    const run = await call(toolEnv(root), 'rename', { path: 'tool.py/function[helper]', newName: 'assist' });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^rename tool\.py\/function\[helper\] to assist: 1 places in 1 files/m);
    assert.match(run.text, /by Scalpel's reference search .*: 1 places resolved, 0 tied by name only$/m);
    assert.deepEqual(snapshot(root), Object.values(FILES));
  });
});

void test('a rename that keeps the old name for a shorthand property says where, in words', async () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-rename-kept-'));
  const files: Record<string, string> = {
    'src/limits.ts': 'export const maxItems = 10;\n',
    'src/config.ts': ["import { maxItems } from './limits';", '', 'export const config = { maxItems };', ''].join('\n'),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = await call(toolEnv(root), 'rename', { path: 'src/limits.ts/variable[maxItems]', newName: 'itemLimit' });
  assert.equal(run.isError ?? false, false, run.text);
  assert.match(
    run.text,
    /^1 place keeps the old name for the code that reads it \(a shorthand property, a re-export\): src\/config\.ts:3 `maxItems: itemLimit`$/m,
  );
});
