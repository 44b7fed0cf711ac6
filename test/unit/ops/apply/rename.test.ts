import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outlineSource } from '../../../../src/core/elements/outline';
import { resolveElementPath } from '../../../../src/core/elements/resolve';
import { applyFails, applyOk, failure, fixture } from './applyHarness';

/** REPLACE_ELEMENT and PATCH_ELEMENT rename an element when the new name is free in its container. */

const SERVICE = 'src/service.ts';
const service = fixture('service.ts');
const files = { [SERVICE]: service };
const VALIDATE = `${SERVICE}/class[UserService]/method[validate]`;

function edited(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `the text holds ${JSON.stringify(from)} exactly once`);
  return text.replace(from, to);
}

void describe('renames', () => {
  void test('a method renamed by REPLACE_ELEMENT keeps its place and doc comment, and the result names its new path', () => {
    const { result, after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: VALIDATE,
        content: 'isValid(input: string): boolean {\n  return input.length > 0 && path.isAbsolute(this.root);\n}',
      },
    ]);
    const text = after(SERVICE);
    assert.equal(text, edited(service, '  validate(input: string): boolean {', '  isValid(input: string): boolean {'));
    const renamedTo = `${SERVICE}/class[UserService]/method[isValid]`;
    assert.equal(result.results[0]?.renamedTo, renamedTo);
    assert.match(result.results[0]?.message ?? '', /renamed to .*method\[isValid\]/);
    assert.ok(resolveElementPath(outlineSource(SERVICE, text), renamedTo).ok);
  });

  void test('a top-level class, interface and function rename; a PATCH renames too', () => {
    const { result, after } = applyOk(files, [
      {
        type: 'PATCH_ELEMENT',
        path: `${SERVICE}/interface[Shape]`,
        patches: [{ search: 'export interface Shape {', replace: 'export interface Figure {' }],
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/function[parse]`,
        content:
          'export function parseInput(input: string): number;\nexport function parseInput(input: number): number;\n' +
          'export function parseInput(input: string | number): number {\n  return Number(input);\n}',
      },
    ]);
    assert.equal(result.results[0]?.renamedTo, `${SERVICE}/interface[Figure]`);
    assert.equal(result.results[1]?.renamedTo, `${SERVICE}/function[parseInput]`);
    const text = after(SERVICE);
    assert.ok(text.includes('export interface Figure {'));
    assert.ok(!/function parse\(/.test(text));
  });

  void test('an import replaced by one of another module is a rename in place', () => {
    const { result, after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/import[node:path]`,
        content: "import * as path from 'node:path/posix';",
      },
    ]);
    assert.equal(after(SERVICE), edited(service, "from 'node:path';", "from 'node:path/posix';"));
    assert.equal(result.results[0]?.renamedTo, `${SERVICE}/import[node:path/posix]`);
  });

  void test('a rename onto a taken name fails with the element in the way, and nothing changes', () => {
    const result = applyFails(files, [
      { type: 'REPLACE_ELEMENT', path: `${SERVICE}/class[UserService]`, content: 'export class handler {}' },
    ]);
    assert.match(
      failure(result, 0).message ?? '',
      /renames class\[UserService\] to class\[handler\], but .*variable\[handler\] already exists/,
    );
    assert.equal(result.changes.length, 0);
  });

  void test('one overload signature cannot be renamed on its own', () => {
    const result = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/function[parse]#2`,
        content: 'export function other(input: number): number;',
      },
    ]);
    assert.match(failure(result, 0).message ?? '', /declares function\[other\], not function\[parse\]/);
  });

  void test('a name freed by a rename can be taken by an element created in the same batch', () => {
    const text = 'export type Issue = Base | Custom;\n\nexport type Other = string;\n';
    const { after } = applyOk({ [SERVICE]: text }, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/type[Issue]`,
        content: 'export type InternalIssue = Base | Custom;',
      },
      {
        type: 'CREATE_ELEMENT',
        path: SERVICE,
        position: { kind: 'AFTER', sibling: 'type[Other]' },
        content: 'export type Issue = InternalIssue;',
      },
    ]);
    assert.equal(
      after(SERVICE),
      'export type InternalIssue = Base | Custom;\n\nexport type Other = string;\n\nexport type Issue = InternalIssue;\n',
    );
  });
});
