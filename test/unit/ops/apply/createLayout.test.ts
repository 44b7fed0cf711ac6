import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyOk } from './applyHarness';

/**
 * The layout CREATE_ELEMENT writes around new elements: the blank lines and terminators a person would write there,
 * read from the file. Each case is a change of the release corpus the apply engine did not write that way (issue 10).
 */

const FILE = 'src/layout.ts';

function created(text: string, operations: readonly Operation[]): string {
  return applyOk({ [FILE]: text }, operations).after(FILE);
}

type CreateOperation = Extract<Operation, { type: 'CREATE_ELEMENT' }>;

function createAt(position: CreateOperation['position'], content: string): CreateOperation {
  return { type: 'CREATE_ELEMENT', path: FILE, position, content };
}

void describe('CREATE_ELEMENT writes the layout of its neighbours', () => {
  void test('a file that shows no semicolons, only comments, keeps the content as written', () => {
    const text = '// Type aliases for TypeScript problems.\n// Name them after the issue.\n';
    assert.equal(created(text, [createAt({ kind: 'LAST_CHILD' }, 'export {}')]), `${text}\nexport {}\n`);
    const withSemicolons = `${text}\nexport type A = string;\n`;
    assert.equal(
      created(withSemicolons, [createAt({ kind: 'LAST_CHILD' }, 'export type B = number')]),
      `${withSemicolons}\nexport type B = number;\n`,
    );
  });

  void test('a one-line export after a multi-line one joins the exports; the blank line after them stays', () => {
    const text = [
      'export * from "./schemas.js";',
      'export {',
      '  a,',
      '} from "./a.js";',
      'export * from "./checks.js";',
      'export {',
      '  b,',
      '} from "./b.js";',
      'export * from "./errors.js";',
      'export {',
      '  globalRegistry,',
      '  NEVER,',
      '} from "../core/index.js";',
      '',
      'export * as locales from "../locales/index.js";',
      '',
    ].join('\n');
    const after = created(text, [
      createAt({ kind: 'AFTER', sibling: 'export[../core/index.js]' }, 'export { toJSONSchema } from "./json.js";'),
    ]);
    assert.equal(
      after,
      text.replace(
        '} from "../core/index.js";\n',
        '} from "../core/index.js";\nexport { toJSONSchema } from "./json.js";\n',
      ),
    );
  });

  void test('an interface flush with the constant of its name, as the file writes them, functions set apart', () => {
    const pair = (name: string): string[] => [
      `export interface ${name} {`,
      '  kind: string;',
      '}',
      `export const ${name} = define("${name}", (inst) => {`,
      '  inst.kind = "x";',
      '});',
      '',
      `export function ${name.toLowerCase()}(): ${name} {`,
      `  return new ${name}();`,
      '}',
    ];
    const text = [...pair('Email'), '', ...pair('Url'), ''].join('\n');
    const after = created(text, [
      createAt({ kind: 'AFTER', sibling: 'function[email]' }, pair('Mac').slice(0, 3).join('\n')),
      createAt({ kind: 'AFTER', sibling: 'interface[Mac]' }, pair('Mac').slice(3, 6).join('\n')),
      createAt({ kind: 'AFTER', sibling: 'variable[Mac]' }, pair('Mac').slice(7).join('\n')),
    ]);
    assert.equal(after, [...pair('Email'), '', ...pair('Mac'), '', ...pair('Url'), ''].join('\n'));
  });

  void test('where the file has no habit for a pair of neighbours, the blank lines at the place are kept', () => {
    const text = 'export function run(): void {\n  go();\n}\n\nexport const limit = 1;\n';
    const after = created(text, [
      createAt({ kind: 'AFTER', sibling: 'function[run]' }, 'interface Options {\n  fast: boolean;\n}'),
    ]);
    assert.equal(
      after,
      'export function run(): void {\n  go();\n}\n\ninterface Options {\n  fast: boolean;\n}\n\nexport const limit = 1;\n',
    );
  });
});

void describe('CREATE_ELEMENT next to an element created earlier in the batch', () => {
  void test('the created sibling is found although a member deeper in the file has its name', () => {
    const text = [
      'class Generator {',
      '  process(): void {}',
      '}',
      '',
      'export function initialize(): void {}',
      '',
    ].join('\n');
    const after = created(text, [
      createAt({ kind: 'AFTER', sibling: 'function[initialize]' }, 'export function process(): void {}'),
      createAt({ kind: 'AFTER', sibling: 'function[process]' }, 'export function extract(): void {}'),
    ]);
    assert.equal(after, `${text}\nexport function process(): void {}\n\nexport function extract(): void {}\n`);
  });

  void test('a created type alias is the sibling named type[X], not an interface X the batch deletes', () => {
    const text = [
      'interface Generator {',
      '  target: string;',
      '}',
      '',
      'export function run(): void {}',
      '',
      'interface Params extends Generator {}',
      '',
    ].join('\n');
    const after = created(text, [
      createAt({ kind: 'AFTER', sibling: 'interface[Generator]' }, 'export type Params = Omit<Generator, "target">;'),
      createAt({ kind: 'AFTER', sibling: 'type[Params]' }, 'export interface Registry extends Params {}'),
      { type: 'DELETE_ELEMENT', path: `${FILE}/interface[Params]` },
    ]);
    assert.equal(
      after,
      [
        'interface Generator {',
        '  target: string;',
        '}',
        '',
        'export type Params = Omit<Generator, "target">;',
        '',
        'export interface Registry extends Params {}',
        '',
        'export function run(): void {}',
        '',
      ].join('\n'),
    );
  });

  void test('BLANK_LINES sets the blank lines above and below a new element, whatever the file does elsewhere', () => {
    const text = ['export const a = 1;', '', 'export const b = 2;', '', 'export const c = 3;', ''].join('\n');
    const arrow = 'export const mac = (d?: string): RegExp => {\n  return new RegExp(d ?? ":");\n};';
    assert.equal(
      created(text, [
        { ...createAt({ kind: 'AFTER', sibling: 'variable[a]' }, arrow), blankLines: { above: 0, below: 0 } },
      ]),
      text.replace('export const a = 1;\n\n', `export const a = 1;\n${arrow}\n`),
    );
    // Two new elements in one place: the lower one's count above wins between them.
    assert.equal(
      created(text, [
        {
          ...createAt({ kind: 'AFTER', sibling: 'variable[b]' }, 'function x() {}'),
          blankLines: { above: 2, below: 0 },
        },
        {
          ...createAt({ kind: 'AFTER', sibling: 'function[x]' }, 'function y() {}'),
          blankLines: { above: 1, below: 3 },
        },
      ]),
      text.replace('export const b = 2;\n\n', 'export const b = 2;\n\n\nfunction x() {}\n\nfunction y() {}\n\n\n\n'),
    );
    // Without BLANK_LINES the file's spacing holds.
    assert.equal(
      created(text, [createAt({ kind: 'AFTER', sibling: 'variable[a]' }, arrow)]),
      text.replace('export const a = 1;\n\n', `export const a = 1;\n\n${arrow}\n\n`),
    );
  });

  void test('BLANK_LINES above the first member of a class and below its last', () => {
    const text = ['class A {', '  x = 1;', '}', ''].join('\n');
    assert.equal(
      created(text, [
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/class[A]`,
          position: { kind: 'FIRST_CHILD' },
          content: 'w = 0;',
          blankLines: { above: 0, below: 1 },
        },
        {
          type: 'CREATE_ELEMENT',
          path: `${FILE}/class[A]`,
          position: { kind: 'LAST_CHILD' },
          content: 'y = 2;',
          blankLines: { above: 1, below: 0 },
        },
      ]),
      ['class A {', '  w = 0;', '', '  x = 1;', '', '  y = 2;', '}', ''].join('\n'),
    );
  });
});
