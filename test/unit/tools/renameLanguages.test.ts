import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/check/toolchain/runProgram';
import {
  GO_PROJECT,
  PYTHON_PROJECT,
  RENAME_PROJECTS,
  RUST_PROJECT,
  type RenameProject,
} from '../../support/renameProjects';
import { tempWorkspace } from '../../support/tempWorkspace';
import { call, toolEnv } from './toolSupport';

// Issue 27: the rename tool for the languages Scalpel reads with tree-sitter, on real projects on disk. The places
// come from the reference search: those only the name ties are renamed and listed as such; the batch is checked by
// the language's checker where it is installed (pyright is bundled; go, cargo and javac are looked up on PATH).

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

/** Why the project's checker cannot run here, or false when it can. */
function checkerMissing(project: RenameProject): string | false {
  if (project.checker === undefined || project.checker === 'pyright') return false;
  return findExecutable(project.checker) === undefined ? `${project.checker} is not on PATH` : false;
}

function unchanged(root: string, project: RenameProject): void {
  for (const [path, text] of Object.entries(project.files)) assert.equal(read(root, path), text, path);
}

for (const project of RENAME_PROJECTS) {
  const { language, method, newName } = project;
  void describe(`the rename tool, ${language}`, () => {
    void test('a dry run counts the resolved and the by-name places, lists both and the string, writes nothing', async () => {
      const root = tempWorkspace(`scalpel-rename-${language}-`, project.files);
      const run = await call(toolEnv(root), 'rename', { path: method, newName });
      assert.equal(run.isError, false, run.text);
      assert.match(run.text, new RegExp(`^rename .* to ${newName}: ${project.places} places in 3 files`, 'm'));
      assert.match(
        run.text,
        new RegExp(`${project.places - project.byName} places resolved, ${project.byName} tied by name only$`, 'm'),
      );
      const listed = run.text.split('\n').flatMap((line) => /^ {2}(\S+:\d+) /.exec(line)?.[1] ?? []);
      assert.deepEqual(listed, project.byNamePlaces, run.text);
      const [stringFile, stringLine] = project.stringAt.split(':');
      assert.match(run.text, new RegExp(`^## ${stringFile}$`, 'm'));
      assert.match(run.text, new RegExp(`^${stringLine} string\\b`, 'm'), run.text);
      assert.match(run.text, /dry run, nothing written/);
      unchanged(root, project);
    });

    void test('apply: true writes every place, leaves the string, and the checker passes', async () => {
      const missing = checkerMissing(project);
      const root = tempWorkspace(`scalpel-rename-${language}-`, project.files);
      const run = await call(toolEnv(root), 'rename', { path: method, newName, apply: true });
      assert.equal(run.isError, false, run.text);
      for (const [path, text] of Object.entries(project.files))
        assert.equal(read(root, path), project.renamed[path] ?? text, path);
      if (project.checker === undefined) assert.match(run.text, /^verified: it parses; .* not type-checked/m);
      else if (missing === false)
        assert.match(
          run.text,
          new RegExp(`^verified: no new type errors \\(types checked with ${project.checker}`, 'm'),
        );
      assert.match(run.text, /^written: /m);
      // The string is listed as the written file reads.
      const [stringFile, stringLine] = project.stringAt.split(':');
      assert.match(run.text, new RegExp(`^## ${stringFile}$`, 'm'));
      assert.match(run.text, new RegExp(`^${stringLine} string\\b.*\\b${project.oldName}\\b`, 'm'), run.text);
    });

    void test('a name declared beside the method, or a keyword of the language, is refused; nothing is written', async () => {
      const root = tempWorkspace(`scalpel-rename-${language}-`, project.files);
      const env = toolEnv(root);
      const taken = await call(env, 'rename', { path: method, newName: project.taken, apply: true });
      assert.equal(taken.isError, true, taken.text);
      assert.match(taken.text, new RegExp(`${project.taken} is already declared where .* is \\(`));
      assert.match(taken.text, /nothing was written/);
      const keyword = await call(env, 'rename', { path: method, newName: project.keyword, apply: true });
      assert.equal(keyword.isError, true, keyword.text);
      assert.match(keyword.text, new RegExp(`"newName" ${project.keyword} is a reserved word in `));
      unchanged(root, project);
    });
  });
}

void describe('the rename tool, what only the name ties and what the checker then finds', () => {
  void test('Python: a function renamed in its imports (a package re-export too), a use through an alias keeps the alias', async () => {
    const root = tempWorkspace('scalpel-rename-py-import-', {
      ...PYTHON_PROJECT.files,
      'shop/__init__.py': 'from .cart import make_cart\n',
      'shop/quick.py': 'from shop.cart import make_cart as mk\n\n\ndef quick() -> int:\n    return len(mk().items)\n',
      'app.py': 'from shop import make_cart\n\n\ndef main() -> int:\n    return make_cart().total()\n',
    });
    const run = await call(toolEnv(root), 'rename', {
      path: 'shop/cart.py/function[make_cart]',
      newName: 'new_cart',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /: 7 places in 5 files/);
    assert.match(run.text, /7 places resolved, 0 tied by name only$/m);
    assert.equal(read(root, 'shop/__init__.py'), 'from .cart import new_cart\n');
    assert.equal(
      read(root, 'app.py'),
      'from shop import new_cart\n\n\ndef main() -> int:\n    return new_cart().total()\n',
    );
    assert.match(read(root, 'shop/cart.py'), /^def new_cart\(\) -> Cart:$/m);
    assert.match(read(root, 'shop/checkout.py'), /^from shop\.cart import Cart, new_cart$/m);
    assert.match(read(root, 'shop/checkout.py'), /return new_cart\(\)\.total\(\)/);
    assert.equal(
      read(root, 'shop/quick.py'),
      'from shop.cart import new_cart as mk\n\n\ndef quick() -> int:\n    return len(mk().items)\n',
    );
    assert.match(run.text, /^verified: no new type errors \(types checked with pyright/m);
  });

  void test('Python: a by-name place that means another class fails pyright; nothing is written', async () => {
    const files = {
      ...PYTHON_PROJECT.files,
      'shop/order.py':
        'class Order:\n    def total(self) -> int:\n        return 0\n\n\ndef billed(order: Order) -> int:\n    return order.total()\n',
    };
    const root = tempWorkspace('scalpel-rename-py-broken-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: PYTHON_PROJECT.method,
      newName: 'grand_total',
      apply: true,
    });
    assert.equal(run.isError, true, run.text);
    assert.match(run.text, /^ {2}shop\/order\.py:7 return order\.total\(\)$/m);
    assert.match(run.text, /^refused shop\/order\.py: /m);
    assert.match(run.text, /^nothing was written$/m);
    for (const [path, text] of Object.entries(files)) assert.equal(read(root, path), text, path);
  });

  void test(
    'Go: a by-name place that means another type fails go build; nothing is written',
    { skip: findExecutable('go') === undefined ? 'go is not on PATH' : false },
    async () => {
      const files = {
        ...GO_PROJECT.files,
        'order/order.go':
          'package order\n\n// Order is billed once.\ntype Order struct{}\n\n// Total of an order.\nfunc (o Order) Total() int { return 0 }\n\n// Billed is what the order costs.\nfunc Billed(o Order) int { return o.Total() }\n',
      };
      const root = tempWorkspace('scalpel-rename-go-broken-', files);
      const run = await call(toolEnv(root), 'rename', { path: GO_PROJECT.method, newName: 'Sum', apply: true });
      assert.equal(run.isError, true, run.text);
      assert.match(run.text, /^ {2}order\/order\.go:10 func Billed/m);
      assert.match(run.text, /^nothing was written$/m);
      for (const [path, text] of Object.entries(files)) assert.equal(read(root, path), text, path);
    },
  );

  void test('Python: a new name that already means something where the rename puts it is refused', async () => {
    const root = tempWorkspace('scalpel-rename-py-shadow-', PYTHON_PROJECT.files);
    const env = toolEnv(root);
    // cart.py calls the builtin sum: a function named sum there would take its place.
    const builtin = await call(env, 'rename', { path: 'shop/cart.py/function[make_cart]', newName: 'sum' });
    assert.equal(builtin.isError, true, builtin.text);
    assert.match(
      builtin.text,
      /sum already means something else where the rename puts it \(shop\/cart\.py:6: return sum\(self\.items\)\)/,
    );
    // checkout.py declares checkout at its top level, where make_cart is imported and used.
    const taken = await call(env, 'rename', { path: 'shop/cart.py/function[make_cart]', newName: 'checkout' });
    assert.equal(taken.isError, true, taken.text);
    assert.match(
      taken.text,
      /checkout already means something else where the rename puts it \(shop\/checkout\.py:4: def checkout/,
    );
    // A name only an attribute, a string or a method of a class has is free.
    for (const newName of ['items', 'report']) {
      const free = await call(env, 'rename', { path: 'shop/cart.py/function[make_cart]', newName });
      assert.equal(free.isError, false, free.text);
    }
    for (const [path, text] of Object.entries(PYTHON_PROJECT.files)) assert.equal(read(root, path), text, path);
  });

  void test('Go: an exported name used from other packages is not renamed to an unexported one', async () => {
    const root = tempWorkspace('scalpel-rename-go-export-', GO_PROJECT.files);
    const run = await call(toolEnv(root), 'rename', { path: GO_PROJECT.method, newName: 'sum', apply: true });
    assert.equal(run.isError, true, run.text);
    assert.match(
      run.text,
      /Go exports only names that start with a capital letter, and Total is used from other packages/,
    );
    for (const [path, text] of Object.entries(GO_PROJECT.files)) assert.equal(read(root, path), text, path);
  });

  void test('after an applied rename, the untouched lines read as the files do now', async () => {
    const files = {
      ...PYTHON_PROJECT.files,
      'shop/notes.py':
        'from shop.cart import Cart\n\n\ndef note(cart: Cart) -> str:\n    return "total: " + str(cart.total())\n',
    };
    const root = tempWorkspace('scalpel-rename-py-after-', files);
    writeFileSync(join(root, 'shop/notes.py'), files['shop/notes.py']);
    const run = await call(toolEnv(root), 'rename', {
      path: PYTHON_PROJECT.method,
      newName: 'grand_total',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    // The line holds the string (left) and a by-name call (renamed): it is shown as written, in both lists.
    assert.match(run.text, /^5 string\b.*return "total: " \+ str\(cart\.grand_total\(\)\)$/m);
    assert.match(run.text, /^ {2}shop\/notes\.py:5 return "total: " \+ str\(cart\.grand_total\(\)\)$/m);
    assert.match(run.text, /^ {2}shop\/checkout\.py:5 return cart\.grand_total\(\)$/m);
  });

  void test(
    'Rust: a function renamed in a use list and at its call, cargo check passing',
    { skip: findExecutable('cargo') === undefined ? 'cargo is not on PATH' : false },
    async () => {
      const root = tempWorkspace('scalpel-rename-rs-import-', RUST_PROJECT.files);
      const run = await call(toolEnv(root), 'rename', {
        path: 'src/cart.rs/function[make_cart]',
        newName: 'new_cart',
        apply: true,
      });
      assert.equal(run.isError, false, run.text);
      assert.match(run.text, /: 3 places in 2 files/);
      assert.match(read(root, 'src/checkout.rs'), /^use crate::cart::\{new_cart, Cart\};$/m);
      assert.match(read(root, 'src/checkout.rs'), /^ {4}new_cart\(\)\.total\(\)$/m);
      assert.match(read(root, 'src/cart.rs'), /^pub fn new_cart\(\) -> Cart \{$/m);
      assert.match(run.text, /^verified: no new type errors \(types checked with cargo/m);
    },
  );

  void test(
    'Java: a static method renamed in its static import and its bare call; a public class is not renamed away from its file',
    { skip: findExecutable('javac') === undefined ? 'javac is not on PATH' : false },
    async () => {
      const files = {
        'src/shop/Util.java':
          'package shop;\n\npublic class Util {\n    public static int twice(int x) {\n        return x * 2;\n    }\n}\n',
        'src/app/Main.java':
          'package app;\n\nimport static shop.Util.twice;\n\npublic class Main {\n    public static int run() {\n        return twice(2);\n    }\n}\n',
      };
      const root = tempWorkspace('scalpel-rename-java-import-', files);
      const env = toolEnv(root);
      const run = await call(env, 'rename', {
        path: 'src/shop/Util.java/class[Util]/method[twice]',
        newName: 'doubled',
        apply: true,
      });
      assert.equal(run.isError, false, run.text);
      assert.match(read(root, 'src/app/Main.java'), /^import static shop\.Util\.doubled;$/m);
      assert.match(read(root, 'src/app/Main.java'), /return doubled\(2\);/);
      assert.match(run.text, /^verified: no new type errors \(types checked with javac/m);
      const refused = await call(env, 'rename', { path: 'src/shop/Util.java/class[Util]', newName: 'Helpers' });
      assert.equal(refused.isError, true, refused.text);
      assert.match(
        refused.text,
        /Java wants the public type Util in a file named Util\.java, and a rename moves no file/,
      );
    },
  );

  void test('C#: a class renamed in a using static and its qualified uses', async () => {
    const files = {
      'Shop/Util.cs':
        'namespace Shop;\n\npublic static class Util\n{\n    public static int Twice(int x) => x * 2;\n}\n',
      'App/Main.cs':
        'using static Shop.Util;\n\nnamespace App;\n\npublic class Main\n{\n    public int Run() => Twice(2) + Shop.Util.Twice(3);\n}\n',
    };
    const root = tempWorkspace('scalpel-rename-cs-import-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'Shop/Util.cs/class[Util]',
      newName: 'Helpers',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    assert.equal(
      read(root, 'App/Main.cs'),
      files['App/Main.cs']
        .replace('using static Shop.Util;', 'using static Shop.Helpers;')
        .replace('Shop.Util.Twice', 'Shop.Helpers.Twice'),
    );
    assert.match(read(root, 'Shop/Util.cs'), /^public static class Helpers$/m);
    assert.match(run.text, /^verified: it parses; C# not type-checked: no checker for it$/m);
  });
});
