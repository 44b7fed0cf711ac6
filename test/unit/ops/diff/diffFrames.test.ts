import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diffElementsInDetail } from '../../../../src/core/ops/diff';
import { serializeOperations } from '../../../../src/core/ops/format';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyToFile } from './applyToFile';

// A container's own text (its header, the comments and blank lines between its members) and the file's text between
// top-level elements: changed, they become a PATCH_ELEMENT of the container or of the file beside one operation per
// changed member, instead of a patch of the whole container or REPLACE_FILE.

const FILE = 'src/subject.ts';

const body = (name: string): string =>
  [
    `  ${name}(value: number): number {`,
    `    const doubled = value * 2;`,
    `    const shifted = doubled + ${name.length};`,
    `    return shifted - value;`,
    '  }',
  ].join('\n');

const before = `import { Subject } from './base';

/**
 * Emits its last value on completion.
 *
 * @class AsyncSubject<T>
 */
export class AsyncSubject<T> extends Subject<T> {
  private value: T | null = null;

${body('first')}

${body('second')}
${body('third')}
}

/** OPERATOR INTERFACES */

export interface UnaryFunction<T, R> {
  (source: T): R;
}

// export function old(value: number): number {
//   return value;
// }

/** Doubles a value. */
export function double(value: number): number {
  const doubled = value * 2;
  return doubled;
}

export function triple(value: number): number {
  const tripled = value * 3;
  return tripled;
}
`;

function edited(text: string, ...changes: [string, string][]): string {
  let out = text;
  for (const [from, to] of changes) {
    assert.equal(out.split(from).length, 2, `the text holds ${JSON.stringify(from)} exactly once`);
    out = out.replace(from, to);
  }
  return out;
}

/** The diff, checked: no fallback, no REPLACE_FILE, and applying it gives `after` exactly. */
function diffed(after: string): Operation[] {
  const diff = diffElementsInDetail(FILE, before, after);
  const shown = serializeOperations(diff.operations);
  assert.deepEqual(diff.fallbacks, [], shown);
  assert.equal(applyToFile(FILE, before, diff.operations), after, shown);
  return diff.operations;
}

const summary = (operations: readonly Operation[]): string[] => operations.map((o) => `${o.type} ${o.path}`);

void describe('diffElements: a container header and text between elements', () => {
  void test('a class header and one method changed: a patch of the header and an operation on the method', () => {
    const after = edited(
      before,
      [
        ' *\n * @class AsyncSubject<T>\n */\nexport class AsyncSubject<T> extends Subject<T> {',
        ' */\nexport class AsyncSubject<T> extends Subject<T> implements Completable {',
      ],
      ['    const shifted = doubled + 6;', '    const shifted = doubled + 7;'],
    );
    const operations = diffed(after);
    assert.deepEqual(summary(operations), [
      `PATCH_ELEMENT ${FILE}/class[AsyncSubject]`,
      `PATCH_ELEMENT ${FILE}/class[AsyncSubject]/method[second]`,
    ]);
    const header = operations[0];
    assert.ok(header?.type === 'PATCH_ELEMENT');
    assert.ok(
      header.patches.every((p) => !p.search.includes('shifted')),
      'the class patch leaves the method to its own operation',
    );
  });

  void test('a blank line added between two members: a patch of the class that only adds it', () => {
    const after = edited(before, ['  }\n  third(', '  }\n\n  third(']);
    const operations = diffed(after);
    assert.deepEqual(summary(operations), [`PATCH_ELEMENT ${FILE}/class[AsyncSubject]`]);
  });

  void test('a section comment rewritten and commented-out code removed between functions: a patch of the file', () => {
    const after = edited(
      before,
      ['/** OPERATOR INTERFACES */', '/* OPERATOR INTERFACES */'],
      ['// export function old(value: number): number {\n//   return value;\n// }\n\n', ''],
      ['const tripled = value * 3;', 'const tripled = value * 3 + 0;'],
    );
    const operations = diffed(after);
    assert.deepEqual(summary(operations), [`PATCH_ELEMENT ${FILE}`, `REPLACE_ELEMENT ${FILE}/function[triple]`]);
  });

  void test('a comment block added above a function whose own doc comment it repeats', () => {
    const after = edited(before, [
      '/** Doubles a value. */\nexport function double',
      '/** Doubles a value. */\n\n/** Doubles a value. */\nexport function double',
    ]);
    const operations = diffed(after);
    assert.deepEqual(summary(operations), [`PATCH_ELEMENT ${FILE}`]);
  });
});
