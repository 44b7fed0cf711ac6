import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatSegment, parseElementPath } from '../../../src/core/elements/elementPath';
import { outlineSource } from '../../../src/core/elements/outline';
import { resolveElementPath } from '../../../src/core/elements/resolve';

const source = `
export class User {
  name = '';
  get label(): string { return this.name; }
  set label(value: string) { this.name = value; }
  validate(input: string): boolean { return input.length > 0; }
}
export class Admin {
  validate(): boolean { return true; }
  promote(): void {}
}
export const handler = () => 1;
export function helper(): void {}
`;
const o = outlineSource('src/user.ts', source);

function resolvedPath(path: string): string {
  const result = resolveElementPath(o, path);
  assert.ok(result.ok, `${path} did not resolve: ${result.ok ? '' : result.message}`);
  return result.path;
}

void describe('element path grammar', () => {
  void test('splits the file part from the segments, with a file: prefix, ./ and backslashes', () => {
    assert.deepEqual(parseElementPath('file:./src\\user.ts/class[User]/method[validate]'), {
      file: 'src/user.ts',
      segments: [
        { kind: 'class', name: 'User' },
        { kind: 'method', name: 'validate' },
      ],
    });
  });

  void test('folders with brackets (Next.js routes) stay in the file part', () => {
    assert.deepEqual(parseElementPath('app/[id]/page.tsx/function[Page]'), {
      file: 'app/[id]/page.tsx',
      segments: [{ kind: 'function', name: 'Page' }],
    });
  });

  void test('computed names, ordinals, nameless kinds and escapes', () => {
    assert.deepEqual(parseElementPath('a.ts/class[A]/method[[Symbol.iterator]]#2/').segments, [
      { kind: 'class', name: 'A' },
      { kind: 'method', name: '[Symbol.iterator]', ordinal: 2 },
    ]);
    assert.deepEqual(parseElementPath('a.ts/class[A]/constructor#1').segments[1], {
      kind: 'constructor',
      name: '',
      ordinal: 1,
    });
    assert.deepEqual(parseElementPath('a.ts/export=').segments, [{ kind: 'export=', name: '' }]);
    const odd = 'a]b\\c';
    const segment = formatSegment('property', odd);
    assert.equal(parseElementPath(`a.ts/${segment}`).segments[0]?.name, odd);
  });

  void test('bad paths fail with a reason', () => {
    assert.throws(() => parseElementPath('a.ts/class[A'), /unclosed "\["/);
    assert.throws(() => parseElementPath('a.ts/class[A]x'), /expected "\/"/);
    assert.throws(() => parseElementPath('a.ts/method[a]#0'), /number from 1/);
    assert.throws(() => parseElementPath(''), /empty/);
  });
});

void describe('resolution', () => {
  void test('an exact path resolves to exactly one element', () => {
    const result = resolveElementPath(o, 'src/user.ts/class[User]/method[validate]');
    assert.ok(result.ok);
    assert.equal(result.tolerant, false);
    assert.equal(result.element.signature, 'validate(input: string): boolean');
  });

  void test('kind synonyms resolve when unique', () => {
    assert.equal(resolvedPath('src/user.ts/function[handler]'), 'src/user.ts/variable[handler]');
    assert.equal(resolvedPath('src/user.ts/fn[helper]'), 'src/user.ts/function[helper]');
    assert.equal(resolvedPath('src/user.ts/class[User]/field[name]'), 'src/user.ts/class[User]/property[name]');
    assert.equal(
      resolvedPath('src/user.ts/class[Admin]/function[promote]'),
      'src/user.ts/class[Admin]/method[promote]',
    );
  });

  void test('a missing container resolves when the name is unique in the file', () => {
    assert.equal(resolvedPath('src/user.ts/method[promote]'), 'src/user.ts/class[Admin]/method[promote]');
  });

  void test('case differences resolve when unique', () => {
    assert.equal(resolvedPath('src/user.ts/CLASS[user]/Method[VALIDATE]'), 'src/user.ts/class[User]/method[validate]');
  });

  void test('an ambiguous tolerant match fails and lists the candidates', () => {
    const result = resolveElementPath(o, 'src/user.ts/method[validate]');
    assert.ok(!result.ok);
    assert.match(result.message, /ambiguous/);
    assert.deepEqual([...result.suggestions].sort(), [
      'src/user.ts/class[Admin]/method[validate]',
      'src/user.ts/class[User]/method[validate]',
    ]);
    const pair = resolveElementPath(o, 'src/user.ts/class[User]/property[label]');
    assert.ok(!pair.ok, 'a getter and a setter of one name make property[label] ambiguous');
  });

  void test('an unknown path fails with the nearest existing paths', () => {
    const result = resolveElementPath(o, 'src/user.ts/class[User]/method[validat]');
    assert.ok(!result.ok);
    assert.match(result.message, /no element "src\/user.ts\/class\[User\]\/method\[validat\]" in src\/user.ts/);
    assert.equal(result.suggestions[0], 'src/user.ts/class[User]/method[validate]');
  });

  void test('a file path alone is not an element', () => {
    const result = resolveElementPath(o, 'src/user.ts');
    assert.ok(!result.ok);
    assert.match(result.message, /names a file, not an element/);
  });
});
