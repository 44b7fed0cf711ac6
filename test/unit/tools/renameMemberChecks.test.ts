import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempWorkspace } from '../../support/tempWorkspace';
import { call, toolEnv } from './toolSupport';

// The checks a rename of a Java or C# member makes before its batch (issue 27): a local of the new name in a method
// that uses the member bare, and a new name another part of a C# partial class declares. Real files in a temp
// project, real tree-sitter, the rename tool.

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

function unchanged(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) assert.equal(read(root, path), text, path);
}

void describe('the rename tool, a member used bare where a local of the new name is (Java, C#)', () => {
  const java = {
    'src/shop/Counter.java':
      'package shop;\n\npublic class Counter {\n    private int count;\n\n    public int add(int total) {\n        count += total;\n        return count;\n    }\n\n    public int get() {\n        return this.count;\n    }\n}\n',
  };
  void test('Java: a field renamed to the name of a parameter of a method that uses it bare is refused', async () => {
    const root = tempWorkspace('scalpel-rename-java-local-', java);
    const env = toolEnv(root);
    const run = await call(env, 'rename', {
      path: 'src/shop/Counter.java/class[Counter]/property[count]',
      newName: 'total',
    });
    assert.equal(run.isError, true, run.text);
    assert.match(
      run.text,
      /total already means something else where the rename puts it: add declares total \(src\/shop\/Counter\.java:6: public int add\(int total\) \{\) and uses count bare \(line 7\)/,
    );
    unchanged(root, java);
    // Another name is free; the bare uses are renamed.
    const free = await call(env, 'rename', {
      path: 'src/shop/Counter.java/class[Counter]/property[count]',
      newName: 'sum',
      apply: true,
    });
    assert.equal(free.isError, false, free.text);
    assert.equal(read(root, 'src/shop/Counter.java'), java['src/shop/Counter.java'].replaceAll('count', 'sum'));
  });

  void test('C#: a field renamed to the name of a local of a method that uses it bare is refused', async () => {
    const files = {
      'Shop/Counter.cs':
        'namespace Shop;\n\npublic class Counter\n{\n    private int count;\n\n    public int Add(int step)\n    {\n        var total = step * 2;\n        count += total;\n        return count;\n    }\n}\n',
    };
    const root = tempWorkspace('scalpel-rename-cs-local-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'Shop/Counter.cs/class[Counter]/property[count]',
      newName: 'total',
    });
    assert.equal(run.isError, true, run.text);
    assert.match(
      run.text,
      /total already means something else where the rename puts it: Add declares total \(Shop\/Counter\.cs:9: var total = step \* 2;\) and uses count bare \(line 10\)/,
    );
    unchanged(root, files);
  });
});

void describe('the rename tool, C# partial classes', () => {
  const files = {
    'Shop/Cart.cs': 'namespace Shop;\n\npublic partial class Cart\n{\n    public int Total() => 0;\n}\n',
    'Shop/Cart.Report.cs': 'namespace Shop;\n\npublic partial class Cart\n{\n    public string Report() => "";\n}\n',
    'Other/Cart.cs': 'namespace Other;\n\npublic partial class Cart\n{\n    public int Sum() => 0;\n}\n',
  };
  void test("a name another part of the class declares is refused; another namespace's class of that name is no part", async () => {
    const root = tempWorkspace('scalpel-rename-cs-partial-', files);
    const env = toolEnv(root);
    const taken = await call(env, 'rename', { path: 'Shop/Cart.cs/class[Cart]/method[Total]', newName: 'Report' });
    assert.equal(taken.isError, true, taken.text);
    assert.match(
      taken.text,
      /Report is already declared where .* is \(Shop\/Cart\.Report\.cs:5: public string Report\(\) => "";\)/,
    );
    unchanged(root, files);
    const free = await call(env, 'rename', {
      path: 'Shop/Cart.cs/class[Cart]/method[Total]',
      newName: 'Sum',
      apply: true,
    });
    assert.equal(free.isError, false, free.text);
    assert.match(read(root, 'Shop/Cart.cs'), /public int Sum\(\) => 0;/);
  });
});

void describe('the rename tool, one of several declarations of a name (overloads)', () => {
  const files = {
    'src/shop/Calc.java':
      'package shop;\n\npublic class Calc {\n    public int f(int a) {\n        return a + 1;\n    }\n\n    public int f(String s) {\n        return s.length();\n    }\n}\n',
    'src/shop/Use.java':
      'package shop;\n\npublic class Use {\n    public int run(Calc c) {\n        return c.f(1) + c.f("x");\n    }\n}\n',
  };
  void test('Java: one overload is not renamed alone (its calls cannot be told from the others by name)', async () => {
    const root = tempWorkspace('scalpel-rename-java-overload-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'src/shop/Calc.java/class[Calc]/method[f]#1',
      newName: 'g',
      apply: true,
    });
    assert.equal(run.isError, true, run.text);
    assert.match(
      run.text,
      /f is declared 2 times in src\/shop\/Calc\.java\/class\[Calc\] \(lines 4, 8\), and the reference search ties a use to the name, not to one of them: one cannot be renamed alone/,
    );
    unchanged(root, files);
  });
});
