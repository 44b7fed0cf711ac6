import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyOk, lines } from './applyHarness';

/** Layouts the fixtures do not have: one-line containers, class expressions, trailing comments, empty bodies. */

const FILE = 'src/a.ts';

function check(before: string, operations: readonly Operation[], expected: string, file = FILE): void {
  assert.equal(applyOk({ [file]: before }, operations).after(file), expected);
}

void describe('edge layouts', () => {
  void test('a class on one line', () => {
    const one = 'export class A { a = 1; b = 2; }\n';
    check(
      one,
      [{ type: 'CREATE_ELEMENT', path: `${FILE}/class[A]`, position: { kind: 'LAST_CHILD' }, content: 'c = 3' }],
      'export class A { a = 1; b = 2; c = 3; }\n',
    );
    check(
      one,
      [
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/class[A]`,
          position: { kind: 'FIRST_CHILD' },
          content: 'c(): void {}',
        },
      ],
      'export class A { c(): void {} a = 1; b = 2; }\n',
    );
    check(one, [{ type: 'DELETE_ELEMENT', path: `${FILE}/class[A]/property[a]` }], 'export class A { b = 2; }\n');
    check(one, [{ type: 'DELETE_ELEMENT', path: `${FILE}/class[A]/property[b]` }], 'export class A { a = 1; }\n');
  });

  void test('class expressions and anonymous default classes are containers', () => {
    check(
      lines('export const Foo = class {', '  x = 1;', '};'),
      [
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/variable[Foo]`,
          position: { kind: 'LAST_CHILD' },
          content: 'y(): number {\n  return this.x;\n}',
        },
      ],
      lines('export const Foo = class {', '  x = 1;', '', '  y(): number {', '    return this.x;', '  }', '};'),
    );
    check(
      lines('export default class {', '  x = 1;', '}'),
      [
        { type: 'CREATE_ELEMENT', path: `${FILE}/default`, position: { kind: 'LAST_CHILD' }, content: 'y = 2;' },
        { type: 'DELETE_ELEMENT', path: `${FILE}/default/property[x]` },
      ],
      lines('export default class {', '  y = 2;', '}'),
    );
  });

  void test('object members with trailing comments keep their comments and get their commas before them', () => {
    const withComments = lines('const o = {', '  a: 1, // first', '  b: 2 // second', '};');
    check(
      withComments,
      [
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/variable[o]`,
          position: { kind: 'AFTER', sibling: 'property[b]' },
          content: 'c: 3',
        },
      ],
      lines('const o = {', '  a: 1, // first', '  b: 2, // second', '  c: 3', '};'),
    );
    check(
      withComments,
      [{ type: 'DELETE_ELEMENT', path: `${FILE}/variable[o]/property[b]` }],
      lines('const o = {', '  a: 1 // first', '};'),
    );
    check(
      withComments,
      [{ type: 'DELETE_ELEMENT', path: `${FILE}/variable[o]/property[a]` }],
      lines('const o = {', '  b: 2 // second', '};'),
    );
  });

  void test('one-line enums and objects', () => {
    check(
      'enum E { A, B }\n',
      [
        { type: 'CREATE_ELEMENT', path: `${FILE}/enum[E]`, position: { kind: 'LAST_CHILD' }, content: 'C' },
        { type: 'DELETE_ELEMENT', path: `${FILE}/enum[E]/member[A]` },
      ],
      'enum E { B, C }\n',
    );
    check(
      'const x = { a: 1 };\n',
      [{ type: 'CREATE_ELEMENT', path: `${FILE}/variable[x]`, position: { kind: 'LAST_CHILD' }, content: 'b: 2' }],
      'const x = { a: 1, b: 2 };\n',
    );
  });

  void test('empty containers open up, with the trailing comma for comma-separated members', () => {
    check(
      lines('interface I {}', 'enum E {}', 'const x = {};', 'namespace N {}'),
      [
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/interface[I]`,
          position: { kind: 'LAST_CHILD' },
          content: 'a: string',
        },
        { type: 'CREATE_ELEMENT', path: `${FILE}/enum[E]`, position: { kind: 'LAST_CHILD' }, content: 'A = 1' },
        { type: 'CREATE_ELEMENT', path: `${FILE}/variable[x]`, position: { kind: 'LAST_CHILD' }, content: 'a: 1' },
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/namespace[N]`,
          position: { kind: 'LAST_CHILD' },
          content: 'export const a = 1;',
        },
      ],
      lines(
        'interface I {',
        '  a: string;',
        '}',
        'enum E {',
        '  A = 1,',
        '}',
        'const x = {',
        '  a: 1,',
        '};',
        'namespace N {',
        '  export const a = 1;',
        '}',
      ),
    );
  });

  void test('bodiless declarations in `declare module` stay packed', () => {
    check(
      lines("declare module 'lib' {", '  export function f(): void;', '}'),
      [
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/namespace[lib]`,
          position: { kind: 'LAST_CHILD' },
          content: 'export function g(): void;',
        },
      ],
      lines("declare module 'lib' {", '  export function f(): void;', '  export function g(): void;', '}'),
    );
  });

  void test('a trailing comment goes with its element; a detached comment stays', () => {
    check(
      lines('class A {', '  a(): void {} // note', '  b(): void {}', '}'),
      [{ type: 'DELETE_ELEMENT', path: `${FILE}/class[A]/method[a]` }],
      lines('class A {', '  b(): void {}', '}'),
    );
    check(
      lines('class A {', '  a = 1;', '', '  // helpers', '', '  b(): void {}', '}'),
      [
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/class[A]`,
          position: { kind: 'BEFORE', sibling: 'method[b]' },
          content: 'c(): void {}',
        },
      ],
      lines('class A {', '  a = 1;', '', '  // helpers', '', '  c(): void {}', '', '  b(): void {}', '}'),
    );
  });

  void test('a new import goes below a file pragma but above a comment meant for the first statement', () => {
    check(
      lines('// eslint-disable-next-line no-console', 'console.log(1);'),
      [{ type: 'ADD_IMPORT', path: FILE, content: "import { a } from './a';" }],
      lines("import { a } from './a';", '', '// eslint-disable-next-line no-console', 'console.log(1);'),
    );
    check(
      lines('// @ts-nocheck', 'console.log(1);'),
      [{ type: 'ADD_IMPORT', path: FILE, content: "import { a } from './a';" }],
      lines('// @ts-nocheck', "import { a } from './a';", '', 'console.log(1);'),
    );
  });

  void test('JavaScript files, and statements addressed by their ordinal', () => {
    check(
      lines('export function f() {', '  return 1;', '}'),
      [
        {
          type: 'CREATE_ELEMENT',
          path: 'src/a.js',
          position: { kind: 'LAST_CHILD' },
          content: 'export function g() {\n  return 2;\n}',
        },
      ],
      lines('export function f() {', '  return 1;', '}', '', 'export function g() {', '  return 2;', '}'),
      'src/a.js',
    );
    check(
      lines("app.get('/', handler);", "app.get('/x', other);"),
      [{ type: 'DELETE_ELEMENT', path: `${FILE}/statement[app.get]#1` }],
      lines("app.get('/x', other);"),
    );
  });

  void test('a nested tab-indented class takes tabs at its depth', () => {
    check(
      lines('namespace N {', '\texport class C {', '\t\tm(): void {}', '\t}', '}'),
      [
        {
          type: 'REPLACE_ELEMENT',
          path: `${FILE}/namespace[N]/class[C]/method[m]`,
          content: 'm(): void {\n  if (x) {\n    y();\n  }\n}',
        },
      ],
      lines(
        'namespace N {',
        '\texport class C {',
        '\t\tm(): void {',
        '\t\t\tif (x) {',
        '\t\t\t\ty();',
        '\t\t\t}',
        '\t\t}',
        '\t}',
        '}',
      ),
    );
  });
});
