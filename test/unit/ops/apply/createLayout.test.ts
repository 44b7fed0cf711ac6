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

function createAt(position: Extract<Operation, { type: 'CREATE_ELEMENT' }>['position'], content: string): Operation {
  return { type: 'CREATE_ELEMENT', path: FILE, position, content };
}

void describe('CREATE_ELEMENT writes the layout of its neighbours', () => {
  void test('a file that shows no semicolons, only comments, keeps the content as written', () => {
    const text = '// Type aliases for TypeScript problems.\n// Name them after the issue.\n';
    assert.equal(
      created(text, [createAt({ kind: 'LAST_CHILD' }, 'export {}')]),
      `${text}\nexport {}\n`,
    );
    const withSemicolons = `${text}\nexport type A = string;\n`;
    assert.equal(
      created(withSemicolons, [createAt({ kind: 'LAST_CHILD' }, 'export type B = number')]),
      `${withSemicolons}\nexport type B = number;\n`,
    );
  });
});
