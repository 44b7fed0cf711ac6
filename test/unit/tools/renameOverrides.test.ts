import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/check/toolchain/runProgram';
import { tempWorkspace } from '../../support/tempWorkspace';
import { call, toolEnv } from './toolSupport';

// The rename tool outside TypeScript, where a class hierarchy is involved (issue 27): a method's overrides in
// subclasses are renamed with it (found through the class bases, resolved through the same imports as the uses), an
// override alone is not renamed away from its base, and a member renamed to a name a subclass already declares is
// refused. Real files in a temp project, real tree-sitter, the real checker where installed.

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

function unchanged(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) assert.equal(read(root, path), text, path);
}

const PY_BASE = `class Shape:
    def area(self) -> int:
        return 0

    def describe(self) -> str:
        return str(self.area())
`;
const PY_SQUARE = `from shop.base import Shape


class Square(Shape):
    def __init__(self, side: int) -> None:
        self.side = side

    def area(self) -> int:
        return self.side * self.side


class Tile(Square):
    def area(self) -> int:
        return 1
`;
const PY_FIELD = `class Field:
    def area(self) -> int:
        return 2
`;
const PY_PLUGIN = `from vendor import *  # type: ignore


class Plugin(Shape):  # type: ignore
    def area(self) -> int:
        return 3
`;
const PYTHON_SHAPES = {
  'shop/__init__.py': '',
  'shop/base.py': PY_BASE,
  'shop/square.py': PY_SQUARE,
  'shop/field.py': PY_FIELD,
};

void describe('the rename tool and class hierarchies, Python', () => {
  void test('a method renamed with its overrides in subclasses (a subclass of a subclass too); an unrelated class keeps its own', async () => {
    // Mid, in a file that never mentions area, is a link of the chain to Leaf.
    const files = {
      ...PYTHON_SHAPES,
      'shop/mid.py': 'from shop.base import Shape\n\n\nclass Mid(Shape):\n    pass\n',
      'shop/leaf.py': 'from shop.mid import Mid\n\n\nclass Leaf(Mid):\n    def area(self) -> int:\n        return 5\n',
    };
    const root = tempWorkspace('scalpel-rename-py-override-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'shop/base.py/class[Shape]/method[area]',
      newName: 'surface',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    assert.equal(
      read(root, 'shop/base.py'),
      PY_BASE.replace('def area(', 'def surface(').replace('self.area()', 'self.surface()'),
    );
    assert.equal(read(root, 'shop/square.py'), PY_SQUARE.replaceAll('def area(', 'def surface('));
    // Field is no Shape: its area is another method.
    assert.equal(read(root, 'shop/field.py'), PY_FIELD);
    assert.equal(read(root, 'shop/leaf.py'), files['shop/leaf.py'].replace('def area(', 'def surface('));
    assert.equal(read(root, 'shop/mid.py'), files['shop/mid.py']);
    assert.match(run.text, /: 5 places in 3 files/);
    assert.match(run.text, /5 places resolved, 0 tied by name only$/m);
    assert.match(run.text, /^verified: no new type errors \(types checked with pyright/m);
  });

  void test('an override whose base only the name ties (a star import) is renamed and listed by name', async () => {
    const files = { ...PYTHON_SHAPES, 'shop/plugin.py': PY_PLUGIN };
    const root = tempWorkspace('scalpel-rename-py-override-byname-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'shop/base.py/class[Shape]/method[area]',
      newName: 'surface',
    });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /: 5 places in 3 files/);
    assert.match(run.text, /4 places resolved, 1 tied by name only$/m);
    assert.match(run.text, /^ {2}shop\/plugin\.py:5 def area\(self\) -> int:$/m);
    unchanged(root, files);
  });

  void test('an override is not renamed apart from the method it overrides', async () => {
    const root = tempWorkspace('scalpel-rename-py-override-alone-', PYTHON_SHAPES);
    const run = await call(toolEnv(root), 'rename', {
      path: 'shop/square.py/class[Square]/method[area]',
      newName: 'surface',
      apply: true,
    });
    assert.equal(run.isError, true, run.text);
    assert.match(
      run.text,
      /Square's area overrides the area of Shape \(shop\/base\.py:2: def area\(self\) -> int:\).*rename shop\/base\.py\/class\[Shape\]\/method\[area\]/,
    );
    assert.match(run.text, /nothing was written/);
    unchanged(root, PYTHON_SHAPES);
  });

  void test('a method under a base only the name ties is renamed alone, the base listed as not changed', async () => {
    // Plugin's Shape comes from `from vendor import *`: it may be another class than shop.base's.
    const files = {
      ...PYTHON_SHAPES,
      'shop/base.py': 'class Shape:\n    def area(self) -> int:\n        return 0\n',
      'shop/plugin.py': PY_PLUGIN,
    };
    const root = tempWorkspace('scalpel-rename-py-override-byname-up-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'shop/plugin.py/class[Plugin]/method[area]',
      newName: 'surface',
    });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /: 1 places in 1 files \(shop\/plugin\.py\)/);
    assert.match(run.text, /^2 code class\[Shape\]\/method\[area\] def area\(self\) -> int:$/m);
    unchanged(root, files);
  });

  void test('a new name a subclass already declares is refused', async () => {
    const files = {
      ...PYTHON_SHAPES,
      'shop/circle.py':
        'from shop.base import Shape\n\n\nclass Circle(Shape):\n    def surface(self) -> int:\n        return 3\n',
    };
    const root = tempWorkspace('scalpel-rename-py-override-taken-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'shop/base.py/class[Shape]/method[area]',
      newName: 'surface',
      apply: true,
    });
    assert.equal(run.isError, true, run.text);
    assert.match(
      run.text,
      /Circle, a subclass of Shape, already declares surface \(shop\/circle\.py:5: def surface\(self\) -> int:\)/,
    );
    unchanged(root, files);
  });
});

const JAVA_SHAPES = {
  'src/shop/Shape.java':
    'package shop;\n\npublic abstract class Shape {\n    public abstract int area();\n\n    public String describe() {\n        return String.valueOf(area());\n    }\n}\n',
  'src/shop/Square.java':
    'package shop;\n\npublic class Square extends Shape {\n    private final int side;\n\n    public Square(int side) {\n        this.side = side;\n    }\n\n    @Override\n    public int area() {\n        return side * side;\n    }\n\n    public int area(int scale) {\n        return scale;\n    }\n}\n',
  'src/app/Circle.java':
    'package app;\n\nimport shop.Shape;\n\npublic class Circle extends Shape {\n    @Override\n    public int area() {\n        return 3;\n    }\n}\n',
};

void describe('the rename tool and class hierarchies, Java and C#', () => {
  void test('Java: an abstract method renamed with its @Override implementations in two packages, not an overload', async () => {
    const root = tempWorkspace('scalpel-rename-java-override-', JAVA_SHAPES);
    const run = await call(toolEnv(root), 'rename', {
      path: 'src/shop/Shape.java/class[Shape]/method[area]',
      newName: 'surface',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    for (const [path, text] of Object.entries(JAVA_SHAPES))
      assert.equal(read(root, path), text.replaceAll('area()', 'surface()'), path);
    assert.match(run.text, /: 4 places in 3 files/);
    assert.match(run.text, /4 places resolved, 0 tied by name only$/m);
    if (findExecutable('javac') !== undefined)
      assert.match(run.text, /^verified: no new type errors \(types checked with javac/m);
  });

  void test('Java: an @Override is not renamed apart from the method it overrides', async () => {
    const root = tempWorkspace('scalpel-rename-java-override-alone-', JAVA_SHAPES);
    const run = await call(toolEnv(root), 'rename', {
      path: 'src/app/Circle.java/class[Circle]/method[area]',
      newName: 'surface',
    });
    assert.equal(run.isError, true, run.text);
    assert.match(run.text, /Circle's area overrides the area of Shape \(src\/shop\/Shape\.java:4: /);
    unchanged(root, JAVA_SHAPES);
  });

  void test('C#: an abstract method renamed with its override', async () => {
    const files = {
      'Shop/Shape.cs': 'namespace Shop;\n\npublic abstract class Shape\n{\n    public abstract int Area();\n}\n',
      'Shop/Square.cs': 'namespace Shop;\n\npublic class Square : Shape\n{\n    public override int Area() => 4;\n}\n',
    };
    const root = tempWorkspace('scalpel-rename-cs-override-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'Shop/Shape.cs/class[Shape]/method[Area]',
      newName: 'Surface',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    for (const [path, text] of Object.entries(files))
      assert.equal(read(root, path), text.replace('Area()', 'Surface()'), path);
    assert.match(run.text, /: 2 places in 2 files/);
  });

  void test('C#: a virtual property renamed with its override', async () => {
    const files = {
      'Shop/Shape.cs': 'namespace Shop;\n\npublic class Shape\n{\n    public virtual int Size => 0;\n}\n',
      'Shop/Square.cs': 'namespace Shop;\n\npublic class Square : Shape\n{\n    public override int Size => 4;\n}\n',
    };
    const root = tempWorkspace('scalpel-rename-cs-override-property-', files);
    const run = await call(toolEnv(root), 'rename', {
      path: 'Shop/Shape.cs/class[Shape]/property[Size]',
      newName: 'Extent',
      apply: true,
    });
    assert.equal(run.isError, false, run.text);
    for (const [path, text] of Object.entries(files))
      assert.equal(read(root, path), text.replace('Size', 'Extent'), path);
  });
});
