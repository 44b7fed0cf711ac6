import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyFails, applyOk, applyPartial, failure, fixture } from './applyHarness';

const SERVICE = 'src/service.ts';
const CONFIG = 'src/config.ts';
const service = fixture('service.ts');
const config = fixture('config.ts');
const files = { [SERVICE]: service, [CONFIG]: config };
const CLASS = `${SERVICE}/class[UserService]`;
const VALIDATE = `${CLASS}/method[validate]`;

function edited(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `the text holds ${JSON.stringify(from)} exactly once`);
  return text.replace(from, to);
}

const goodPatch: Operation = {
  type: 'PATCH_ELEMENT',
  path: VALIDATE,
  patches: [{ search: 'input.length > 0', replace: 'input.length > 1' }],
};
const badReplace: Operation = { type: 'REPLACE_ELEMENT', path: `${CLASS}/method[validat]`, content: 'validat() {}' };

void describe('a batch resolves every path against the snapshot', () => {
  void test('many operations in one file land where their elements were, whatever the others did to the offsets', () => {
    const { after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/function[parse]`,
        content: 'export function parse(input: string): number {\n  return Number(input);\n}',
      },
      goodPatch,
      { type: 'DELETE_ELEMENT', path: `${CLASS}/property[cache]` },
      {
        type: 'CREATE_ELEMENT',
        path: `${SERVICE}/interface[Shape]`,
        position: { kind: 'FIRST_CHILD' },
        content: 'readonly id: string;',
      },
      { type: 'ADD_IMPORT', path: SERVICE, content: "import { z } from 'zod';" },
      { type: 'DELETE_ELEMENT', path: `${SERVICE}/statement[describe]#1` },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/statement[describe]#2`,
        content: "describe('suite 2', () => {\n  it('works', () => {});\n});",
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${SERVICE}/namespace[Geometry]/class[Circle]`,
        position: { kind: 'LAST_CHILD' },
        content: 'diameter(): number {\n  return this.radius * 2;\n}',
      },
    ]);
    let expected = edited(
      service,
      "// Leading comment that belongs to the overload set.\nexport function parse(input: string): number;\nexport function parse(input: number): number;\nexport function parse(input: string | number): number {\n  return typeof input === 'string' ? Number(input) : input;\n}",
      'export function parse(input: string): number {\n  return Number(input);\n}',
    );
    expected = edited(expected, 'input.length > 0', 'input.length > 1');
    expected = edited(expected, '  private readonly cache = new Map<string, number>();\n', '');
    expected = edited(expected, 'export interface Shape {\n', 'export interface Shape {\n  readonly id: string;\n');
    expected = edited(
      expected,
      "import * as path from 'node:path';\n",
      "import * as path from 'node:path';\nimport { z } from 'zod';\n",
    );
    expected = edited(
      expected,
      "describe('suite', () => {});\ndescribe('suite 2', () => {});\n",
      "describe('suite 2', () => {\n  it('works', () => {});\n});\n",
    );
    expected = edited(
      expected,
      '    radius = 1;\n  }\n',
      '    radius = 1;\n\n    diameter(): number {\n      return this.radius * 2;\n    }\n  }\n',
    );
    assert.equal(after(SERVICE), expected);
  });

  void test('a delete and a create of the same name compose, in either order, and the new element goes where it is put', () => {
    const content = 'validate(input: string): boolean {\n  return input !== "";\n}';
    for (const operations of [
      [
        { type: 'DELETE_ELEMENT', path: VALIDATE },
        { type: 'CREATE_ELEMENT', path: CLASS, position: { kind: 'FIRST_CHILD' }, content },
      ],
      [
        { type: 'CREATE_ELEMENT', path: CLASS, position: { kind: 'FIRST_CHILD' }, content },
        { type: 'DELETE_ELEMENT', path: VALIDATE },
      ],
    ] as Operation[][]) {
      const { after } = applyOk(files, operations);
      assert.ok(
        after(SERVICE).includes(
          'implements Named {\n  validate(input: string): boolean {\n    return input !== "";\n  }\n\n  static readonly instances',
        ),
      );
      assert.ok(!after(SERVICE).includes('Checks the input'), 'the old element is gone with its doc comment');
    }
  });

  void test('a create next to an element the batch deletes takes its place', () => {
    const { after } = applyOk(files, [
      { type: 'DELETE_ELEMENT', path: VALIDATE },
      {
        type: 'CREATE_ELEMENT',
        path: CLASS,
        position: { kind: 'AFTER', sibling: 'method[validate]' },
        content: 'check(): boolean {\n  return true;\n}',
      },
    ]);
    assert.ok(
      after(SERVICE).includes(
        '    return this.cache.get(String(id));\n  }\n\n  check(): boolean {\n    return true;\n  }\n\n  render(): string {',
      ),
    );
  });
});

void describe('operations that collide are refused with the reason', () => {
  void test('an edit of an element and of something inside it, in either order', () => {
    const parentFirst = applyFails(files, [
      {
        type: 'PATCH_ELEMENT',
        path: CLASS,
        patches: [{ search: 'static readonly instances = 0;', replace: 'static readonly instances = 1;' }],
      },
      goodPatch,
    ]);
    assert.match(
      failure(parentFirst, 1).message ?? '',
      /overlaps class\[UserService\], which operation #1 already edits \(it contains this element\)/,
    );
    const childFirst = applyFails(files, [goodPatch, { type: 'DELETE_ELEMENT', path: CLASS }]);
    assert.match(failure(childFirst, 1).message ?? '', /overlaps method\[validate\], which operation #1 already edits/);
    const createInReplaced = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/interface[Shape]`,
        content: 'export interface Shape {\n  readonly area: number;\n}',
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${SERVICE}/interface[Shape]`,
        position: { kind: 'LAST_CHILD' },
        content: 'id: string;',
      },
    ]);
    assert.match(
      failure(createInReplaced, 1).message ?? '',
      /conflicts with operation #1, which rewrites .*interface\[Shape\]/,
    );
    const replaceAfterCreate = applyFails(files, [
      {
        type: 'CREATE_ELEMENT',
        path: `${SERVICE}/interface[Shape]`,
        position: { kind: 'LAST_CHILD' },
        content: 'id: string;',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/interface[Shape]`,
        content: 'export interface Shape {\n  readonly area: number;\n}',
      },
    ]);
    assert.match(failure(replaceAfterCreate, 1).message ?? '', /where operation #1 creates an element/);
  });

  void test('duplicated operations', () => {
    const replace: Operation = {
      type: 'REPLACE_ELEMENT',
      path: VALIDATE,
      content: 'validate(input: string): boolean {\n  return true;\n}',
    };
    assert.match(
      failure(applyFails(files, [replace, replace]), 1).message ?? '',
      /operation #1 already replaces method\[validate\]/,
    );
    const del: Operation = { type: 'DELETE_ELEMENT', path: VALIDATE };
    assert.match(failure(applyFails(files, [del, del]), 1).message ?? '', /repeats operation #1/);
    assert.match(failure(applyFails(files, [goodPatch, del]), 1).message ?? '', /deleting it would discard that edit/);
    assert.match(failure(applyFails(files, [del, goodPatch]), 1).message ?? '', /which deletes that element/);
  });

  void test('content that parses alone but breaks what follows it is caught when the edited file is verified', () => {
    const result = applyFails(files, [
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/type[Point]/property[x]`, content: 'x: number // the first axis' },
    ]);
    assert.match(failure(result, 0).message ?? '', /the edited src\/config\.ts does not parse/);
  });
});

void describe('all or nothing, or partial', () => {
  void test('one failing operation: nothing changes, the others are reported skipped', () => {
    const result = applyFails(files, [
      goodPatch,
      badReplace,
      { type: 'CREATE_ELEMENT', path: CONFIG, position: { kind: 'LAST_CHILD' }, content: 'export const z = 1;' },
    ]);
    assert.deepEqual(result.changes, []);
    assert.equal(result.results[0]?.status, 'skipped');
    assert.match(result.results[0]?.message ?? '', /all or nothing, and operation #2 failed/);
    assert.equal(failure(result, 1).suggestions?.[0], VALIDATE);
    assert.equal(result.results[2]?.status, 'skipped');
  });

  void test('every failing operation reports its own problem at once', () => {
    const result = applyFails(files, [
      badReplace,
      { type: 'PATCH_ELEMENT', path: VALIDATE, patches: [{ search: 'not there', replace: 'x' }] },
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/type[Point]/property[x]`, content: 'x: number // the first axis' },
    ]);
    assert.match(failure(result, 0).message ?? '', /no element/);
    assert.match(failure(result, 1).message ?? '', /matches nothing/);
    assert.match(failure(result, 2).message ?? '', /does not parse/);
  });

  void test('partial applies what verified, in every file, and reports the rest', () => {
    const result = applyPartial(files, [
      goodPatch,
      badReplace,
      { type: 'CREATE_ELEMENT', path: CONFIG, position: { kind: 'LAST_CHILD' }, content: 'export const z = 1;' },
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/type[Point]/property[x]`, content: 'x: number // the first axis' },
    ]);
    assert.equal(result.ok, false);
    assert.deepEqual(
      result.results.map((r) => r.status),
      ['ok', 'failed', 'ok', 'failed'],
    );
    const serviceChange = result.changes.find((c) => c.path === SERVICE);
    const configChange = result.changes.find((c) => c.path === CONFIG);
    assert.equal(serviceChange?.after, edited(service, 'input.length > 0', 'input.length > 1'));
    assert.equal(configChange?.after, `${config}\nexport const z = 1;\n`);
  });

  void test('partial with two patches of one element where the second fails keeps the first', () => {
    const result = applyPartial(files, [
      goodPatch,
      { type: 'PATCH_ELEMENT', path: VALIDATE, patches: [{ search: 'nowhere', replace: 'x' }] },
    ]);
    assert.deepEqual(
      result.results.map((r) => r.status),
      ['ok', 'failed'],
    );
    assert.equal(result.changes[0]?.after, edited(service, 'input.length > 0', 'input.length > 1'));
  });

  void test('a failure in one file cancels the changes of every file', () => {
    const result = applyFails(files, [goodPatch, { type: 'DELETE_ELEMENT', path: `${CONFIG}/enum[Colour]` }]);
    assert.equal(result.results[0]?.status, 'skipped');
    assert.ok(failure(result, 1).suggestions?.includes(`${CONFIG}/enum[Color]`));
  });

  void test('an empty batch is ok and changes nothing', () => {
    const { result } = applyOk(files, []);
    assert.deepEqual(result.changes, []);
  });
});
