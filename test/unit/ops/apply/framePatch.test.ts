import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Operation, SearchReplacePair } from '../../../../src/core/ops/operation';
import { applyFails, applyOk, failure, lines } from './applyHarness';

// A patch of a container that changes only its own text (header, comments between members) composes with
// operations on its members; a patch of the file itself changes only the text between its top-level elements.

const FILE = 'src/subject.ts';
const CLASS = `${FILE}/class[AsyncSubject]`;

const before = lines(
  "import { Subject } from './subject-base';",
  '',
  '/**',
  ' * Emits its last value on completion.',
  ' *',
  ' * @class AsyncSubject<T>',
  ' */',
  'export class AsyncSubject<T> extends Subject<T> {',
  '  private value: T | null = null;',
  '',
  '  next(value: T): void {',
  '    this.value = value;',
  '  }',
  '',
  '  complete(): void {',
  '    super.complete();',
  '  }',
  '}',
  '',
  '/** OPERATOR INTERFACES */',
  '',
  'export interface UnaryFunction<T, R> {',
  '  (source: T): R;',
  '}',
  '',
  '// export function old(): void {}',
  '',
  'export function helper(): number {',
  '  return 1;',
  '}',
  'export const a = 1;',
  'export const b = 2;',
);

const files = { [FILE]: before };

function patch(path: string, ...patches: SearchReplacePair[]): Operation {
  return { type: 'PATCH_ELEMENT', path, patches };
}

function edited(text: string, ...changes: [string, string][]): string {
  let out = text;
  for (const [from, to] of changes) {
    assert.equal(out.split(from).length, 2, `the text holds ${JSON.stringify(from)} exactly once`);
    out = out.replace(from, to);
  }
  return out;
}

const headerPatch = patch(CLASS, {
  search: ' *\n * @class AsyncSubject<T>\n */\nexport class AsyncSubject<T> extends Subject<T> {',
  replace: ' */\nexport class AsyncSubject<T> extends Subject<T> implements Completable {',
});
const headerAfter: [string, string] = [
  ' *\n * @class AsyncSubject<T>\n */\nexport class AsyncSubject<T> extends Subject<T> {',
  ' */\nexport class AsyncSubject<T> extends Subject<T> implements Completable {',
];
const memberPatch = patch(`${CLASS}/method[next]`, {
  search: 'this.value = value;',
  replace: 'this.value = value ?? null;',
});
const memberAfter: [string, string] = ['this.value = value;', 'this.value = value ?? null;'];

void describe("PATCH_ELEMENT of a container's own text beside operations on its members", () => {
  void test('a header patch (doc comment, implements clause) and a patch of a method apply together, in either order', () => {
    const expected = edited(before, headerAfter, memberAfter);
    assert.equal(applyOk(files, [headerPatch, memberPatch]).after(FILE), expected);
    assert.equal(applyOk(files, [memberPatch, headerPatch]).after(FILE), expected);
  });

  void test('a header patch composes with a member created before the first one', () => {
    const { after } = applyOk(files, [
      headerPatch,
      {
        type: 'CREATE_ELEMENT',
        path: CLASS,
        position: { kind: 'BEFORE', sibling: 'property[value]' },
        content: 'readonly kind = "async";',
      },
    ]);
    assert.equal(
      after(FILE),
      edited(before, headerAfter, [
        '  private value: T | null = null;',
        '  readonly kind = "async";\n  private value: T | null = null;',
      ]),
    );
  });

  void test("a patch that adds text at the very end of a function holding a nested one stays that function's", () => {
    const text = lines(
      'export function outer(): number {',
      '  function inner(): number {',
      '    return 1;',
      '  }',
      '  return inner()',
      '}',
    );
    const { after } = applyOk({ [FILE]: text }, [
      patch(`${FILE}/function[outer]`, { search: '  return inner()', replace: '  return inner() + 1' }),
    ]);
    assert.equal(after(FILE), text.replace('return inner()', 'return inner() + 1'));
  });

  void test('a detached comment above a function joined to it by the file patch, beside a replace of the function', () => {
    const text = lines(
      'const a = 1;',
      '/**',
      ' * Old words.',
      ' */',
      '',
      'export function f(): number {',
      '  return 1;',
      '}',
    );
    const { after } = applyOk({ [FILE]: text }, [
      patch(FILE, { search: ' * Old words.\n */\n\n', replace: ' * New words.\n */\n' }),
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/function[f]`,
        content: 'export function f(): number {\n  return 2;\n}',
      },
    ]);
    assert.equal(
      after(FILE),
      lines('const a = 1;', '/**', ' * New words.', ' */', 'export function f(): number {', '  return 2;', '}'),
    );
  });

  void test('commented-out code taken out by a file patch, an element created where it stood: blank lines as asked', () => {
    const { after } = applyOk(files, [
      patch(FILE, { search: '// export function old(): void {}', replace: '' }),
      {
        type: 'CREATE_ELEMENT',
        path: FILE,
        position: { kind: 'AFTER', sibling: 'interface[UnaryFunction]' },
        content: 'export function old(): void {}',
        blankLines: { above: 1, below: 1 },
      },
    ]);
    assert.equal(
      after(FILE),
      edited(before, ['// export function old(): void {}\n', 'export function old(): void {}\n']),
    );
  });

  void test('a header patch composes with a deleted member and a created one', () => {
    const { after } = applyOk(files, [
      headerPatch,
      { type: 'DELETE_ELEMENT', path: `${CLASS}/method[complete]` },
      {
        type: 'CREATE_ELEMENT',
        path: CLASS,
        position: { kind: 'AFTER', sibling: 'method[next]' },
        content: 'error(err: unknown): void {\n  super.error(err);\n}',
      },
    ]);
    assert.equal(
      after(FILE),
      edited(before, headerAfter, [
        '  complete(): void {\n    super.complete();\n  }',
        '  error(err: unknown): void {\n    super.error(err);\n  }',
      ]),
    );
  });

  void test('a patch that renames the class is a patch of the whole class: alone it applies, beside a member edit it is refused', () => {
    const rename = patch(CLASS, {
      search: 'export class AsyncSubject<T>',
      replace: 'export class LastValueSubject<T>',
    });
    const { after, result } = applyOk(files, [rename]);
    assert.equal(after(FILE), edited(before, ['export class AsyncSubject<T>', 'export class LastValueSubject<T>']));
    assert.match(result.results[0]?.message ?? '', /renamed to src\/subject\.ts\/class\[LastValueSubject\]/);
    assert.match(failure(applyFails(files, [rename, memberPatch]), 1).message ?? '', /overlaps/);
  });

  void test('a patch that reaches into a member still conflicts with an operation on that member', () => {
    const result = applyFails(files, [
      patch(CLASS, { search: '  private value: T | null = null;', replace: '  private value: T | undefined;' }),
      { type: 'DELETE_ELEMENT', path: `${CLASS}/property[value]` },
    ]);
    assert.match(failure(result, 1).message ?? '', /overlaps/);
  });

  void test('a replace of the container after a patch of its header is refused, naming the patch', () => {
    const result = applyFails(files, [
      headerPatch,
      { type: 'REPLACE_ELEMENT', path: CLASS, content: 'export class AsyncSubject<T> {}' },
    ]);
    assert.match(failure(result, 1).message ?? '', /outside its members, which operation #1 already patches/);
  });
});

void describe('PATCH_ELEMENT of the file itself: the text between top-level elements', () => {
  void test('a section comment and commented-out code change beside a patch of a function', () => {
    const { after } = applyOk(files, [
      patch(
        FILE,
        { search: '/** OPERATOR INTERFACES */', replace: '/* OPERATOR INTERFACES */' },
        { search: '// export function old(): void {}\n\n', replace: '' },
      ),
      patch(`${FILE}/function[helper]`, { search: 'return 1;', replace: 'return 2;' }),
    ]);
    assert.equal(
      after(FILE),
      edited(
        before,
        ['/** OPERATOR INTERFACES */', '/* OPERATOR INTERFACES */'],
        ['// export function old(): void {}\n\n', ''],
        ['return 1;', 'return 2;'],
      ),
    );
  });

  void test('a blank line added between two declarations', () => {
    const { after } = applyOk(files, [
      patch(FILE, {
        search: 'export const a = 1;\nexport const b = 2;',
        replace: 'export const a = 1;\n\nexport const b = 2;',
      }),
    ]);
    assert.equal(after(FILE), edited(before, ['= 1;\nexport', '= 1;\n\nexport']));
  });

  void test('a search that changes code of an element is refused, naming the element to patch instead', () => {
    const result = applyFails(files, [patch(FILE, { search: 'return 1;', replace: 'return 2;' })]);
    const { message, suggestions } = failure(result, 0);
    assert.match(message ?? '', /changes the code of src\/subject\.ts\/function\[helper\]/);
    assert.deepEqual(suggestions, [`${FILE}/function[helper]`]);
  });

  void test('a search found nowhere is refused and the file stays as it was', () => {
    const result = applyFails(files, [patch(FILE, { search: '// no such comment', replace: '' })]);
    assert.match(failure(result, 0).message ?? '', /matches nothing in the text between the file's top-level elements/);
  });

  void test('a file patch and a replace of a whole element beside the changed comment compose', () => {
    const { after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/interface[UnaryFunction]`,
        content: 'export interface UnaryFunction<T, R> {\n  (source: T, index: number): R;\n}',
      },
      patch(FILE, { search: '/** OPERATOR INTERFACES */', replace: '/** Operators */' }),
    ]);
    assert.equal(
      after(FILE),
      edited(
        before,
        ['/** OPERATOR INTERFACES */', '/** Operators */'],
        ['(source: T): R;', '(source: T, index: number): R;'],
      ),
    );
  });
});
