import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diffElementsInDetail } from '../../../../src/core/ops/diff';
import { serializeOperations } from '../../../../src/core/ops/format';
import { applyToFile } from './applyToFile';

/**
 * Changes of the release corpus whose element operations, applied, did not give the new text, so that the diff fell
 * back to REPLACE_FILE (issue 10). Each is the smallest text that failed the same way.
 */

const FILE = 'src/issues.ts';

/** The diff of a change, checked to reproduce it without replacing the file. A container may still be patched. */
function elementDiff(before: string, after: string, file = FILE): string {
  const diff = diffElementsInDetail(file, before, after);
  const written = serializeOperations(diff.operations);
  assert.equal(applyToFile(file, before, diff.operations, diff.renames), after, written);
  assert.deepEqual(
    diff.fallbacks.filter((f) => f.kind === 'file'),
    [],
    written,
  );
  assert.ok(!diff.operations.some((o) => o.type === 'REPLACE_FILE'), written);
  return written;
}

void describe('element operations reproduce the new text', () => {
  void test('a new element keeps the comment that follows it on its last line', () => {
    const before = 'export interface Base {\n  path: string;\n}\n\nexport interface Custom {\n  code: string;\n}\n';
    const after = before.replace(
      '\nexport interface Custom',
      '\nexport type Expected = "string" | (string & {}); // class names\n\nexport interface Custom',
    );
    assert.match(elementDiff(before, after), /\(string & \{\}\); \/\/ class names/);
  });

  void test('a new test in a suite keeps the lines of its template literal as they are', () => {
    const before = [
      'describe("refine", () => {',
      '  test("first", () => {',
      '    expect(1).toBe(1);',
      '  });',
      '});',
      '',
    ].join('\n');
    const after = before.replace(
      '  });\n});',
      [
        '  });',
        '',
        '  test("snapshot", () => {',
        '    expect(parse("x")).toMatchInlineSnapshot(`',
        '      {',
        '        "success": false,',
        '      }',
        '    `);',
        '  });',
        '});',
      ].join('\n'),
    );
    assert.match(elementDiff(before, after, 'src/refine.test.ts'), /CREATE_ELEMENT/);
  });

  void test('a doc comment removed from a class is a patch of the class', () => {
    const before = [
      '/**',
      ' * @class Anonymous<T>',
      ' */',
      'export class Anonymous<T> {',
      '  constructor(public destination?: T) {}',
      '',
      '  next(value: T) {',
      '    this.destination = value;',
      '  }',
      '}',
      '',
    ].join('\n');
    const after = before.replace('/**\n * @class Anonymous<T>\n */\n', '');
    assert.match(elementDiff(before, after), /PATCH_ELEMENT src\/issues\.ts\/class\[Anonymous\]/);
  });

  void test('a type renamed and a new one created under its old name', () => {
    const before = [
      'export type Code = string;',
      '',
      'export type RawIssue<T> = T extends any ? Raw<T> : never;',
      'type Raw<T> = { input?: T };',
      '',
      'export interface ErrorMap {',
      '  (issue: RawIssue<unknown>): string;',
      '}',
      '',
    ].join('\n');
    const after = before
      .replace('export type RawIssue<T> =', 'export type InternalIssue<T> =')
      .replace(
        'type Raw<T> = { input?: T };\n',
        'type Raw<T> = { input: T };\n\nexport type RawIssue<T> = InternalIssue<T>;\n',
      );
    elementDiff(before, after);
  });

  void test("'use client' added flush against the only import of a file that sets its statements apart", () => {
    const before = [
      "import * as React from 'react'",
      '',
      '// A dynamic lookup keeps bundlers from resolving it.',
      "const REACT_USE = 'use'",
      '',
      'export const reactUse = (React as any)[REACT_USE]',
      '',
    ].join('\n');
    assert.match(
      elementDiff(before, `'use client'\n${before}`, 'src/utils.tsx'),
      /CREATE_ELEMENT .* BEFORE import\[react\]/,
    );
  });
});
