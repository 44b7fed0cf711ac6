import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { outlineSource } from '../../../../src/core/elements/outline';
import { resolveElementPath } from '../../../../src/core/elements/resolve';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import type { Operation } from '../../../../src/core/ops/operation';

/** Element operations on the hand-written hard-case file (fixtures/hard_cases.py), as a model would send them. */

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const TEXT = readFileSync(join(ROOT, 'test/unit/language/python/fixtures/hard_cases.py'), 'utf8');
const FILE = 'pkg/hard_cases.py';
const P = (path: string): string => `${FILE}/${path}`;

function apply(operations: Operation[], text = TEXT) {
  return applyOperations({ read: (path) => (path === FILE ? text : undefined) }, operations);
}

function appliedOrThrow(operations: Operation[], text = TEXT): string {
  const result = apply(operations, text);
  assert.ok(result.ok, JSON.stringify(result.results.map((r) => r.message)));
  const after = result.changes[0]?.after;
  assert.ok(after !== undefined);
  // Whatever the batch did, the file still parses.
  assert.deepEqual(outlineSource(FILE, after).syntaxErrors, []);
  return after;
}

/** The text of an element of a file, as its outline finds it. */
function elementText(text: string, path: string): string {
  const found = resolveElementPath(outlineSource(FILE, text), P(path));
  assert.ok(found.ok, `${path} not found`);
  return text.slice(found.element.range.start, found.element.range.end);
}

void describe('Python element operations on the hard-case file', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  void test('REPLACE_ELEMENT of a method written at column 0 is re-indented to its class', () => {
    const after = appliedOrThrow([
      {
        type: 'REPLACE_ELEMENT',
        path: P('class[Square]/method[area]'),
        content: 'def area(self, side: float) -> float:\n    """Side squared."""\n    return side ** 2',
      },
    ]);
    assert.equal(
      elementText(after, 'class[Square]/method[area]'),
      'def area(self, side: float) -> float:\n        """Side squared."""\n        return side ** 2',
    );
    assert.equal(after.replace('        """Side squared."""\n', '').replace('side ** 2', 'side * side'), TEXT);
  });

  void test('a body sent deeper than its target comes back to the target indentation; string lines stay', () => {
    const content = [
      '        @staticmethod',
      '        @ft.lru_cache(maxsize=None)',
      '        def describe(kind: str) -> str:',
      '            text = """multi-line',
      'text keeps',
      '    its indentation"""',
      '            return f"{kind}! {text}"',
    ].join('\n');
    const after = appliedOrThrow([{ type: 'REPLACE_ELEMENT', path: P('class[Shape]/method[describe]'), content }]);
    assert.equal(after, TEXT.replace('return f"{kind}: {text}"', 'return f"{kind}! {text}"'));
  });

  void test('a decorated method cut from the file at its first token (the rest still at class depth) is taken as in place', () => {
    // The form an element's range has: `@staticmethod` at column 0, the lines below it where the file had them.
    const content = [
      '@staticmethod',
      '    @ft.lru_cache(maxsize=None)',
      '    def describe(kind: str) -> str:',
      '        text = """multi-line',
      'text keeps',
      '    its indentation"""',
      '        return f"{kind}! {text}"',
    ].join('\n');
    const after = appliedOrThrow([{ type: 'REPLACE_ELEMENT', path: P('class[Shape]/method[describe]'), content }]);
    assert.equal(after, TEXT.replace('return f"{kind}: {text}"', 'return f"{kind}! {text}"'));
    const created = appliedOrThrow([
      {
        type: 'CREATE_ELEMENT',
        path: P('class[Shape]'),
        position: { kind: 'AFTER', sibling: 'method[describe]' },
        content: '@property\n    def size(self) -> int:\n        return 1',
      },
    ]);
    assert.match(created, /\n {4}@property\n {4}def size\(self\) -> int:\n {8}return 1\n/);
  });

  void test('content whose lines after the first cannot be read as cut from the file is still refused', () => {
    const result = apply([
      {
        type: 'REPLACE_ELEMENT',
        path: P('class[Shape]/method[describe]'),
        content: '@staticmethod\n    def describe(kind: str) -> str:\n  return kind',
      },
    ]);
    assert.equal(result.ok, false);
    assert.match(result.results[0]?.message ?? '', /does not parse as a class member: .*line 2 of the content/);
  });

  void test('a nested function and one overload are addressed and replaced alone', () => {
    const after = appliedOrThrow([
      {
        type: 'REPLACE_ELEMENT',
        path: P('class[Shape]/method[fetch]/function[tick]'),
        content: 'async def tick():\n    await asyncio.sleep(delay * 2)',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: P('function[parse]#2'),
        content: '@overload\ndef parse(value: bytes) -> bytes: ...',
      },
    ]);
    assert.equal(
      after,
      TEXT.replace('asyncio.sleep(delay)', 'asyncio.sleep(delay * 2)').replace(
        'def parse(value: str) -> str: ...',
        'def parse(value: bytes) -> bytes: ...',
      ),
    );
  });

  void test('content that does not parse changes nothing, and names the line', () => {
    const result = apply([
      { type: 'REPLACE_ELEMENT', path: P('class[Square]/method[area]'), content: 'def area(self, side:\n    return 1' },
      { type: 'DELETE_ELEMENT', path: P('variable[registry]') },
    ]);
    assert.equal(result.ok, false);
    assert.deepEqual(result.changes, []);
    assert.match(result.results[0]?.message ?? '', /does not parse/);
  });

  void test('DELETE_ELEMENT takes decorators and the comments above with it', () => {
    const after = appliedOrThrow([
      { type: 'DELETE_ELEMENT', path: P('class[Shape]/setter[name]') },
      { type: 'DELETE_ELEMENT', path: P('class[Shape]/property[unit]') },
    ]);
    assert.doesNotMatch(after, /@name\.setter|The unit lengths|unit = "cm"/);
    assert.match(after, / {4}sides: int = 0\n\n {4}class Meta:/);
    assert.match(after, /return self\._name\n\n {4}@staticmethod/);
  });

  void test('CREATE_ELEMENT puts members after the docstring, at the end of a class, and after a sibling', () => {
    const after = appliedOrThrow([
      { type: 'CREATE_ELEMENT', path: P('class[Shape]'), position: { kind: 'FIRST_CHILD' }, content: 'color = "red"' },
      {
        type: 'CREATE_ELEMENT',
        path: P('class[Square]'),
        position: { kind: 'LAST_CHILD' },
        content: 'def perimeter(self, side: float) -> float:\n    return 4 * side',
      },
      {
        type: 'CREATE_ELEMENT',
        path: P('class[Shape]'),
        position: { kind: 'AFTER', sibling: P('class[Shape]/method[__init__]') },
        content: 'def __repr__(self) -> str:\n    return f"Shape({self._name!r})"',
      },
    ]);
    assert.match(
      after,
      /class Shape:\n {4}"""A shape with nested helpers\."""\n\n {4}color = "red"\n {4}sides: int = 0\n/,
    );
    assert.match(
      after,
      / {8}self\._name = name\n\n {4}def __repr__\(self\) -> str:\n {8}return f"Shape\(\{self\._name!r\}\)"\n\n {4}@property\n/,
    );
    assert.match(
      after,
      / {8}return side \* side\n\n {4}def perimeter\(self, side: float\) -> float:\n {8}return 4 \* side\n\n\nif __name__/,
    );
  });

  void test('CREATE_ELEMENT of a top-level function keeps two blank lines around it', () => {
    const after = appliedOrThrow([
      {
        type: 'CREATE_ELEMENT',
        path: FILE,
        position: { kind: 'AFTER', sibling: P('function[register]') },
        content: 'def unregister(name):\n    registry.pop(name, None)',
      },
    ]);
    assert.match(after, /return decorate\n\n\ndef unregister\(name\):\n {4}registry\.pop\(name, None\)\n\n\n@overload/);
  });

  void test('PATCH_ELEMENT changes lines inside a method', () => {
    const after = appliedOrThrow([
      {
        type: 'PATCH_ELEMENT',
        path: P('class[Shape]/method[fetch]'),
        patches: [{ search: 'return self._name', replace: 'return self._name.upper()' }],
      },
    ]);
    assert.equal(after, TEXT.replace(/return self\._name\n\n\n@register/, 'return self._name.upper()\n\n\n@register'));
  });

  void test('a lazy placeholder comment is refused; an Ellipsis body is code', () => {
    const lazy = apply([
      {
        type: 'REPLACE_ELEMENT',
        path: P('class[Shape]/method[fetch]'),
        content:
          'async def fetch(self, delay: float = 0.1) -> str:\n    # ... existing code ...\n    return self._name',
      },
    ]);
    assert.equal(lazy.ok, false);
    assert.match(lazy.results[0]?.message ?? '', /placeholder/);
    appliedOrThrow([
      {
        type: 'REPLACE_ELEMENT',
        path: P('class[Square]/method[area]'),
        content: 'def area(self, side: float) -> float:\n    ...',
      },
    ]);
  });

  void test('ADD_IMPORT merges into a from-import of the module, or adds a statement after the last import', () => {
    const after = appliedOrThrow([
      { type: 'ADD_IMPORT', path: FILE, content: 'from typing import cast' },
      { type: 'ADD_IMPORT', path: FILE, content: 'import json' },
      { type: 'ADD_IMPORT', path: FILE, content: 'import asyncio' },
    ]);
    // The names were sorted: the new one takes its sorted place.
    assert.match(
      after,
      /from typing import \(\n {4}Any,\n {4}cast,\n {4}overload,\n\)\nimport json\n\nDEFAULT_RETRIES/,
    );
    assert.equal((after.match(/^import asyncio$/gm) ?? []).length, 1);
  });

  void test('REMOVE_IMPORT takes out one name, or the whole statement', () => {
    const after = appliedOrThrow([
      { type: 'REMOVE_IMPORT', path: FILE, content: 'from typing import Any' },
      { type: 'REMOVE_IMPORT', path: FILE, content: 'functools' },
    ]);
    assert.match(after, /import asyncio\nfrom typing import \(\n {4}overload,\n\)\n/);
    assert.doesNotMatch(after, /functools/);
    const missing = apply([{ type: 'REMOVE_IMPORT', path: FILE, content: 'from typing import Dict' }]);
    assert.equal(missing.ok, false);
  });

  void test('a method body left at the level of its def is a syntax error, and changes nothing', () => {
    const result = apply([
      {
        type: 'REPLACE_ELEMENT',
        path: P('class[Square]/method[area]'),
        content: '    def area(self, side: float) -> float:\n    return side',
      },
    ]);
    assert.equal(result.ok, false);
    assert.deepEqual(result.changes, []);
  });

  void test('deleting the only member of a body leaves `pass` at its indentation; a docstring or code left needs none', () => {
    const text = [
      'class Empty:',
      '    def run(self):',
      '        return 1',
      '',
      '',
      'class Documented:',
      '    """Keeps its docstring."""',
      '',
      '    def run(self):',
      '        return 1',
      '',
      '',
      'def outer():',
      '    @cache',
      '    def inner():',
      '        return 2',
      '',
      '',
      'class Two:',
      '    a = 1',
      '    b = 2',
      '',
    ].join('\n');
    const after = appliedOrThrow(
      [
        { type: 'DELETE_ELEMENT', path: P('class[Empty]/method[run]') },
        { type: 'DELETE_ELEMENT', path: P('class[Documented]/method[run]') },
        { type: 'DELETE_ELEMENT', path: P('function[outer]/function[inner]') },
        { type: 'DELETE_ELEMENT', path: P('class[Two]/property[a]') },
        { type: 'DELETE_ELEMENT', path: P('class[Two]/property[b]') },
      ],
      text,
    );
    assert.equal(
      after,
      [
        'class Empty:',
        '    pass',
        '',
        '',
        'class Documented:',
        '    """Keeps its docstring."""',
        '',
        '',
        'def outer():',
        '    pass',
        '',
        '',
        'class Two:',
        '    pass',
        '',
      ].join('\n'),
    );
    // A member created in the same batch fills the body instead.
    const replaced = appliedOrThrow(
      [
        { type: 'DELETE_ELEMENT', path: P('class[Two]/property[a]') },
        { type: 'DELETE_ELEMENT', path: P('class[Two]/property[b]') },
        { type: 'CREATE_ELEMENT', path: P('class[Two]'), position: { kind: 'LAST_CHILD' }, content: 'c = 3' },
      ],
      'class Two:\n    a = 1\n    b = 2\n',
    );
    assert.equal(replaced, 'class Two:\n    c = 3\n');
  });

  void test('a member created into a body that is only `pass` (or `...`) takes its place; a docstring stays', () => {
    const text = 'class A:\n    pass\n\n\nclass B:\n    """Doc."""\n\n    ...\n\n\nclass C:\n    pass\n    x = 1\n';
    const after = appliedOrThrow(
      [
        {
          type: 'CREATE_ELEMENT',
          path: P('class[A]'),
          position: { kind: 'LAST_CHILD' },
          content: 'def run(self):\n    return 1',
        },
        { type: 'CREATE_ELEMENT', path: P('class[B]'), position: { kind: 'FIRST_CHILD' }, content: 'y = 2' },
        { type: 'CREATE_ELEMENT', path: P('class[C]'), position: { kind: 'LAST_CHILD' }, content: 'z = 3' },
      ],
      text,
    );
    assert.equal(
      after,
      'class A:\n    def run(self):\n        return 1\n\n\nclass B:\n    """Doc."""\n\n    y = 2\n\n\nclass C:\n    pass\n    x = 1\n    z = 3\n',
    );
  });

  void test('a class body on one line refuses new members with a reason', () => {
    const text = 'class Empty: pass\n';
    const result = apply(
      [{ type: 'CREATE_ELEMENT', path: P('class[Empty]'), position: { kind: 'LAST_CHILD' }, content: 'x = 1' }],
      text,
    );
    assert.equal(result.ok, false);
    assert.match(result.results[0]?.message ?? '', /on one line/);
  });
});
