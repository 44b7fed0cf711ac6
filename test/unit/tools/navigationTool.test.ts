import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { call, tableRows, toolEnv } from './toolSupport';

// Issue 27, item 4: references with relation "declaration" (go to definition from a use) and "implementations",
// through TypeScript's language service on a real workspace; another language is told the truth.

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-navigation-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const FILES: Record<string, string> = {
  'src/shape.ts': [
    'export interface Shape {',
    '  /** The area in square units. */',
    '  area(): number;',
    '  readonly label: string;',
    '}',
    '',
  ].join('\n'),
  'src/square.ts': [
    "import type { Shape } from './shape';",
    '',
    'export class Square implements Shape {',
    "  readonly label = 'square';",
    '  constructor(private readonly side: number) {}',
    '',
    '  area(): number {',
    '    return this.side * this.side;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/circle.ts': [
    "import type { Shape } from './shape';",
    '',
    'export class Circle implements Shape {',
    "  readonly label = 'circle';",
    '  constructor(private readonly radius: number) {}',
    '',
    '  area(): number {',
    '    return Math.PI * this.radius ** 2;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/report.ts': [
    "import type { Shape } from './shape';",
    "import { Square } from './square';",
    '',
    'export function total(shapes: readonly Shape[]): number {',
    '  const extra = new Square(1);',
    '  return shapes.reduce((sum, s) => sum + s.area(), 0) + extra.area();',
    '}',
    '',
  ].join('\n'),
  'tools/geometry.py': [
    'class Square:',
    '    def area(self):',
    '        return 1',
    '',
    '',
    'def total(shapes):',
    '    return sum(s.area() for s in shapes)',
    '',
  ].join('\n'),
};

void describe('references: declaration and implementations', () => {
  const root = workspace(FILES);
  const env = toolEnv(root);

  void test('the declaration of a use in another file is the declaring element, with its signature', async () => {
    const run = await call(env, 'references', {
      path: 'src/report.ts/function[total]',
      relation: 'declaration',
      name: 'area',
    });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^declaration of area as used in src\/report\.ts\/function\[total\]: 2 for 2 uses/m);
    assert.deepEqual(tableRows(run.text), [
      '2-3 interface[Shape]/method[area] 6 area(): number',
      '7-9 class[Square]/method[area] 6 area(): number',
    ]);
    assert.match(run.text, /^## src\/shape\.ts$/m);
    assert.match(run.text, /^## src\/square\.ts$/m);
    const inClasses = await call(env, 'references', {
      path: 'src/report.ts/function[total]',
      relation: 'declaration',
      name: 'area',
      exclude: ['shape.ts'],
    });
    assert.deepEqual(tableRows(inClasses.text), ['7-9 class[Square]/method[area] 6 area(): number']);
    assert.match(inClasses.text, /^only files not matching shape\.ts$/m);
    // A file and a line pick one use: the one on line 5 is the class, through the import.
    const one = await call(env, 'references', {
      path: 'src/report.ts',
      relation: 'declaration',
      name: 'Square',
      line: 5,
    });
    assert.equal(one.isError, false, one.text);
    // `new Square(1)` leads to the class and to its constructor, as in the editor.
    assert.deepEqual(tableRows(one.text), [
      '3-10 class[Square] 5 export class Square implements Shape',
      '5 class[Square]/constructor 5 constructor(private readonly side: number)',
    ]);
  });

  void test('a local is named with the element it is in, a library declaration with its file', async () => {
    const local = await call(env, 'references', {
      path: 'src/report.ts/function[total]',
      relation: 'declaration',
      name: 'sum',
    });
    assert.equal(local.isError, false, local.text);
    assert.deepEqual(tableRows(local.text), [
      '6 "sum in function[total]" 6 return shapes.reduce((sum, s) => sum + s.area(), 0) + extra.area();',
    ]);
    const library = await call(env, 'references', {
      path: 'src/circle.ts/class[Circle]/method[area]',
      relation: 'declaration',
      name: 'PI',
    });
    assert.equal(library.isError, false, library.text);
    assert.match(library.text, /^## .*node_modules\/typescript\/lib\/lib\.es5\.d\.ts$/m);
    assert.match(library.text, /^\d+ "outside the workspace" 8 readonly PI: ?number;$/m);
  });

  void test('a name the path does not use is an error that says so', async () => {
    const run = await call(env, 'references', {
      path: 'src/report.ts/function[total]',
      relation: 'declaration',
      name: 'perimeter',
    });
    assert.equal(run.isError, true);
    assert.match(run.text, /perimeter is not used in src\/report\.ts\/function\[total\]/);
    const noName = await call(env, 'references', { path: 'src/report.ts', relation: 'declaration' });
    assert.equal(noName.isError, true);
    assert.match(
      noName.text,
      /needs "name" \(the identifier as used in "path".*\) or "line" alone \(every name used on it\)/,
    );
  });

  void test('declaration with a line and no name: every name used on the line, each with its declaration', async () => {
    // The agent has a line from search or context and no name to pick: the line's names are looked up one by one.
    const run = await call(env, 'references', { path: 'src/report.ts', relation: 'declaration', line: 6 });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^declarations of the names used on line 6 of src\/report\.ts: 7 for 6 of its 7 words$/m);
    const rows = tableRows(run.text);
    assert.deepEqual(rows.slice(0, 6), [
      'shapes 4 "shapes in function[total]" export function total(shapes: readonly Shape[]): number {',
      'extra 5 "extra in function[total]" const extra = new Square(1);',
      's 6 "s in function[total]" return shapes.reduce((sum, s) => sum + s.area(), 0) + extra.area();',
      'sum 6 "sum in function[total]" return shapes.reduce((sum, s) => sum + s.area(), 0) + extra.area();',
      'area 2-3 interface[Shape]/method[area] area(): number',
      'area 7-9 class[Square]/method[area] area(): number',
    ]);
    // The standard library's reduce comes last, marked as outside; the keyword `return` leads nowhere.
    assert.match(rows[6] ?? '', /^reduce \d+ "outside the workspace" reduce<U>/);
    assert.match(run.text, /^compiler-resolved; words that lead to no declaration \(keywords/m);
    // Outside TypeScript the same question is answered by name, and says so.
    const python = await call(env, 'references', { path: 'tools/geometry.py', relation: 'declaration', line: 7 });
    assert.equal(python.isError, false, python.text);
    assert.match(
      python.text,
      /^declarations of the names used on line 7 of tools\/geometry\.py, by name: 1 for 1 of its 7 words$/m,
    );
    assert.deepEqual(tableRows(python.text), ['area 2-3 class[Square]/method[area] def area(self)']);
    assert.match(python.text, /^by name: Python has no compiler lookup here/m);
  });

  void test('implementations of an interface method are the methods of both classes, in two files', async () => {
    const run = await call(env, 'references', {
      path: 'src/shape.ts/interface[Shape]/method[area]',
      relation: 'implementations',
    });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^implementations of src\/shape\.ts\/interface\[Shape\]\/method\[area\]: 2 in 2 files/m);
    assert.deepEqual(tableRows(run.text), [
      '7-9 class[Circle]/method[area] area(): number',
      '7-9 class[Square]/method[area] area(): number',
    ]);
    const ofInterface = await call(env, 'references', {
      path: 'src/shape.ts/interface[Shape]',
      relation: 'implementations',
    });
    assert.deepEqual(tableRows(ofInterface.text), [
      '3-10 class[Circle] export class Circle implements Shape',
      '3-10 class[Square] export class Square implements Shape',
    ]);
  });

  void test('another language: implementations and the declaration come by name, said so', async () => {
    const impl = await call(env, 'references', {
      path: 'tools/geometry.py/class[Square]/method[area]',
      relation: 'implementations',
    });
    assert.equal(impl.isError, false, impl.text);
    assert.match(
      impl.text,
      /^implementations of tools\/geometry\.py\/class\[Square\]\/method\[area\], by name: 0 in 0 files \(the Python classes whose bases name Square, their members named area, in the 1 Python files that mention it\)$/m,
    );
    assert.match(impl.text, /^searched: tools\/geometry\.py$/m);
    const decl = await call(env, 'references', {
      path: 'tools/geometry.py/function[total]',
      relation: 'declaration',
      name: 'area',
    });
    assert.equal(decl.isError, false, decl.text);
    assert.match(
      decl.text,
      /^declaration of area as used in tools\/geometry\.py\/function\[total\], by name: 1 Python elements named area$/m,
    );
    assert.deepEqual(tableRows(decl.text), ['2-3 class[Square]/method[area] def area(self)']);
    assert.match(decl.text, /^by name: Python has no compiler lookup here/m);
  });
});
