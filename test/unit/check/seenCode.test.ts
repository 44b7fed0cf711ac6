import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seenInContext, unseenTargets, mergeSeenCode, emptySeenCode } from '../../../src/core/check/seenCode';
import { buildContext } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { outlineSource } from '../../../src/core/elements/outline';
import type { Operation } from '../../../src/core/ops/operation';

const fn = (name: string, lines = 6): string =>
  `export function ${name}(a: number): number {\n${Array.from({ length: lines }, (_, i) => `  a += ${i};`).join('\n')}\n  return a;\n}\n`;
const text = `${fn('shown')}\n${fn('stubbed')}\n${fn('other')}\nexport class Box {\n  open(): void {}\n  close(): void {}\n}\n${fn('more', 30)}`;
const outline = outlineSource('src/app.ts', text);
const outlineOf = (file: string) => (file === 'src/app.ts' ? outline : undefined);
const counter = createTokenCounter();

void describe('seen-code rule', () => {
  const context = buildContext([{ outline, focus: ['src/app.ts/function[shown]'] }], counter);
  const seen = seenInContext(context);

  void test('the focused view is recorded: the focus in full, the file not whole', () => {
    assert.equal(context.files[0]?.mode, 'focused');
    assert.ok(seen.fullElements.has('src/app.ts/function[shown]'));
    assert.ok(!seen.wholeFiles.has('src/app.ts'));
  });

  void test('replacing or patching an element seen only as a signature is refused, with the element to show', () => {
    const operations: Operation[] = [
      { type: 'REPLACE_ELEMENT', path: 'src/app.ts/function[shown]', content: fn('shown') },
      { type: 'REPLACE_ELEMENT', path: 'src/app.ts/function[stubbed]', content: fn('stubbed') },
      { type: 'PATCH_ELEMENT', path: 'src/app.ts/method[open]', patches: [{ search: '{}', replace: '{ }' }] },
      { type: 'DELETE_ELEMENT', path: 'src/app.ts/function[other]' },
      { type: 'CREATE_ELEMENT', path: 'src/app.ts', position: { kind: 'LAST_CHILD' }, content: fn('added') },
    ];
    const refused = unseenTargets(operations, seen, outlineOf);
    assert.deepEqual(
      refused.map((r) => r.show),
      [
        { file: 'src/app.ts', path: 'src/app.ts/function[stubbed]' },
        { file: 'src/app.ts', path: 'src/app.ts/class[Box]/method[open]' },
      ],
    );
    assert.match(refused[0]?.reason ?? '', /saw only as a signature or stub/);
  });

  void test('a REPLACE_FILE of a file not seen whole is refused; seen whole, or a new file, it is allowed', () => {
    const replace: Operation = { type: 'REPLACE_FILE', path: './src/app.ts', content: 'export {};\n' };
    assert.deepEqual(
      unseenTargets([replace], seen, outlineOf).map((r) => r.show),
      [{ file: 'src/app.ts' }],
    );
    const whole = seenInContext(buildContext([{ outline, focus: [], whole: true }], counter));
    assert.deepEqual(unseenTargets([replace], whole, outlineOf), []);
    assert.deepEqual(unseenTargets([{ type: 'REPLACE_FILE', path: 'src/new.ts', content: 'x' }], seen, outlineOf), []);
  });

  void test('a patch of the file itself (its comments between elements) is refused unless the file was seen whole', () => {
    const patch: Operation = {
      type: 'PATCH_ELEMENT',
      path: 'src/app.ts',
      patches: [{ search: '// a comment', replace: '// another comment' }],
    };
    const refused = unseenTargets([patch], seen, outlineOf);
    assert.deepEqual(
      refused.map((r) => r.show),
      [{ file: 'src/app.ts' }],
    );
    assert.match(refused[0]?.reason ?? '', /did not see whole/);
    const whole = seenInContext(buildContext([{ outline, focus: [], whole: true }], counter));
    assert.deepEqual(unseenTargets([patch], whole, outlineOf), []);
  });

  void test('what a repair round shows in full is added to what was seen; a container in full covers its members', () => {
    const shownBox = mergeSeenCode(seen, { ...emptySeenCode(), fullElements: new Set(['src/app.ts/class[Box]']) });
    const operations: Operation[] = [
      { type: 'REPLACE_ELEMENT', path: 'src/app.ts/class[Box]/method[close]', content: 'close(): void {}' },
    ];
    assert.equal(unseenTargets(operations, seen, outlineOf).length, 1);
    assert.deepEqual(unseenTargets(operations, shownBox, outlineOf), []);
  });
});
