import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildContext } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { outlineSource } from '../../../src/core/elements/outline';
import { resolveElementPath } from '../../../src/core/elements/resolve';
import { isOutlinable, languageFor, registerLanguage, supportedLanguages } from '../../../src/core/language/languages';
import { applyOperations } from '../../../src/core/ops/apply';
import { diffElementsInDetail } from '../../../src/core/ops/diff';
import type { Operation } from '../../../src/core/ops/operation';
import { toyLanguage } from './toyLanguage';

/**
 * A second language goes through apply, context and diff by registering it, nothing else: the toy language in
 * toyLanguage.ts is defined in this test folder only, and none of src/ names it.
 */

const TOY = ['fn greet', '  say hello', 'end', '', 'let port = 8080', '', 'fn main', '  greet', 'end', ''].join('\n');

function apply(files: Record<string, string>, operations: Operation[]) {
  return applyOperations({ read: (path) => files[path] }, operations);
}

void describe('the language seam with a second language', () => {
  let unregister: (() => void) | undefined;
  before(() => {
    unregister = registerLanguage(toyLanguage);
  });
  after(() => unregister?.());

  void test('the registry finds it by extension, and the outline front door uses it', () => {
    assert.equal(languageFor('src/app.toy')?.id, 'toy');
    assert.equal(languageFor('src/app.ts')?.id, 'typescript');
    assert.ok(isOutlinable('a.toy'));
    assert.ok(supportedLanguages().some((l) => l.id === 'toy'));
    const outline = outlineSource('src/app.toy', TOY);
    assert.deepEqual(
      outline.elements.map((e) => [e.path, e.startLine, e.endLine]),
      [
        ['src/app.toy/function[greet]', 1, 3],
        ['src/app.toy/variable[port]', 5, 5],
        ['src/app.toy/function[main]', 7, 9],
      ],
    );
  });

  void test('paths resolve, tolerantly too', () => {
    const outline = outlineSource('src/app.toy', TOY);
    const exact = resolveElementPath(outline, 'src/app.toy/function[main]');
    assert.ok(exact.ok && !exact.tolerant && exact.element.startLine === 7);
    const tolerant = resolveElementPath(outline, 'src/app.toy/fn[Greet]');
    assert.ok(tolerant.ok && tolerant.tolerant && tolerant.path === 'src/app.toy/function[greet]');
    const missing = resolveElementPath(outline, 'src/app.toy/function[grete]');
    assert.ok(!missing.ok && missing.suggestions[0] === 'src/app.toy/function[greet]');
  });

  void test('REPLACE, DELETE and CREATE apply as one verified batch', () => {
    const result = apply({ 'src/app.toy': TOY }, [
      { type: 'REPLACE_ELEMENT', path: 'src/app.toy/function[greet]', content: 'fn greet\n  say hello world\nend' },
      { type: 'DELETE_ELEMENT', path: 'src/app.toy/variable[port]' },
      {
        type: 'CREATE_ELEMENT',
        path: 'src/app.toy',
        position: { kind: 'LAST_CHILD' },
        content: 'fn farewell\n  say bye\nend',
      },
    ]);
    assert.ok(result.ok, JSON.stringify(result.results));
    assert.equal(
      result.changes[0]?.after,
      [
        'fn greet',
        '  say hello world',
        'end',
        '',
        'fn main',
        '  greet',
        'end',
        '',
        'fn farewell',
        '  say bye',
        'end',
        '',
      ].join('\n'),
    );
  });

  void test("the language's syntax check guards the batch: broken content changes nothing", () => {
    const files = { 'src/app.toy': TOY };
    const result = apply(files, [
      { type: 'REPLACE_ELEMENT', path: 'src/app.toy/function[greet]', content: 'fn greet\n  say hello' },
      { type: 'DELETE_ELEMENT', path: 'src/app.toy/variable[port]' },
    ]);
    assert.equal(result.ok, false);
    assert.deepEqual(result.changes, []);
    assert.match(result.results[0]?.message ?? '', /does not parse as top-level code: 'end' expected/);
    assert.equal(result.results[1]?.status, 'skipped');
  });

  void test('a language without imports refuses ADD_IMPORT with a reason', () => {
    const result = apply({ 'src/app.toy': TOY }, [{ type: 'ADD_IMPORT', path: 'src/app.toy', content: 'use strings' }]);
    assert.equal(result.ok, false);
    assert.match(result.results[0]?.message ?? '', /has no import declarations Scalpel can edit/);
  });

  void test('context focuses an element of the language and shows the others as signatures', () => {
    // Long bodies, so that the focused view is worth sending instead of the whole file.
    const long = (name: string): string[] => [
      `fn ${name}`,
      ...Array.from({ length: 30 }, (_, i) => `  say ${name} line ${i}`),
      'end',
    ];
    const text = [...long('greet'), 'let port = 8080', 'fn main', '  greet', 'end', ...long('farewell'), ''].join('\n');
    const outline = outlineSource('src/app.toy', text);
    const context = buildContext([{ outline, focus: ['src/app.toy/function[main]'] }], createTokenCounter(), {
      smallFileLines: 0,
    });
    assert.match(context.text, /```toy\n/);
    assert.match(context.text, /fn main\n {2}greet\nend/);
    assert.match(context.text, /fn greet \/\/ @ function\[greet\]/);
    assert.doesNotMatch(context.text, /say greet line/);
  });

  void test('diff finds the element operations between two versions, and they apply back', () => {
    const next = TOY.replace('say hello', 'say hi').replace('let port = 8080\n\n', '');
    const diff = diffElementsInDetail('src/app.toy', TOY, next);
    assert.deepEqual(diff.fallbacks, []);
    assert.ok(diff.verified);
    assert.deepEqual(diff.operations.map((o) => `${o.type} ${o.path}`).sort(), [
      'DELETE_ELEMENT src/app.toy/variable[port]',
      'REPLACE_ELEMENT src/app.toy/function[greet]',
    ]);
  });

  void test('once unregistered, the file has no elements again', () => {
    const remove = registerLanguage({ ...toyLanguage, id: 'toy2', extensions: ['.toy2'] });
    assert.equal(languageFor('a.toy2')?.id, 'toy2');
    remove();
    assert.equal(languageFor('a.toy2'), undefined);
    const result = apply({ 'a.toy2': 'let a = 1\n' }, [{ type: 'DELETE_ELEMENT', path: 'a.toy2/variable[a]' }]);
    assert.match(result.results[0]?.message ?? '', /a\.toy2 is not .*so it has no elements/);
  });
});
