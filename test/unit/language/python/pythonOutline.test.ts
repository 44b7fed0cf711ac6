import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { ElementNode } from '../../../../src/core/elements/element';
import { outlineSource } from '../../../../src/core/elements/outline';
import { resolveElementPath, walkElements } from '../../../../src/core/elements/resolve';
import { languageFor, loadLanguagesFor } from '../../../../src/core/language/languages';

const FIXTURE = 'test/unit/language/python/fixtures/hard_cases.py';
const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const TEXT = readFileSync(join(ROOT, FIXTURE), 'utf8');
const FILE = 'pkg/hard_cases.py';

function paths(elements: readonly ElementNode[]): string[] {
  return [...walkElements(elements)].map((e) => `${e.path.slice(FILE.length + 1)} ${e.startLine}-${e.endLine}`);
}

void describe('Python outline', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  void test('.py files are Python', () => {
    assert.equal(languageFor('a/b.py')?.id, 'python');
    assert.equal(languageFor('a/b.pyi')?.id, 'python');
  });

  void test('every element of the hard-case file, with its lines', () => {
    const outline = outlineSource(FILE, TEXT);
    assert.deepEqual(outline.syntaxErrors, []);
    assert.equal(outline.language, 'python');
    assert.deepEqual(paths(outline.elements), [
      'import[__future__] 5-5',
      'import[asyncio] 7-7',
      'import[functools] 8-8',
      'import[typing] 9-12',
      'variable[DEFAULT_RETRIES] 14-14',
      'variable[registry] 15-15',
      'function[register] 18-25',
      'function[register]/function[decorate] 21-23',
      'function[parse]#1 28-29',
      'function[parse]#2 30-31',
      'function[parse]#3 32-34',
      'class[Shape] 37-76',
      'class[Shape]/property[sides] 40-40',
      'class[Shape]/property[unit] 41-42',
      'class[Shape]/class[Meta] 44-49',
      'class[Shape]/class[Meta]/property[ordering] 45-45',
      'class[Shape]/class[Meta]/class[Inner] 47-49',
      'class[Shape]/class[Meta]/class[Inner]/method[depth] 48-49',
      'class[Shape]/method[__init__] 51-52',
      'class[Shape]/getter[name] 54-57',
      'class[Shape]/setter[name] 59-61',
      'class[Shape]/method[describe] 63-69',
      'class[Shape]/method[fetch] 71-76',
      'class[Shape]/method[fetch]/function[tick] 72-73',
      'class[Square] 79-84',
      'class[Square]/property[sides] 81-81',
      'class[Square]/method[area] 83-84',
      'statement[if] 87-88',
    ]);
  });

  void test('ranges hold decorators, comments above and docstrings; signatures stop at the body', () => {
    const outline = outlineSource(FILE, TEXT);
    const at = (path: string): ElementNode => {
      const found = resolveElementPath(outline, `${FILE}/${path}`);
      assert.ok(found.ok, path);
      return found.element;
    };
    const describeMethod = at('class[Shape]/method[describe]');
    assert.match(TEXT.slice(describeMethod.range.start, describeMethod.range.end), /^@staticmethod\n {4}@ft\.lru_cache/);
    assert.equal(describeMethod.signature, 'def describe(kind: str) -> str');
    const getter = at('class[Shape]/getter[name]');
    assert.match(TEXT.slice(getter.range.start, getter.range.end), /"""The shape's name\."""/);
    assert.match(TEXT.slice(at('class[Shape]/property[unit]').range.start), /^# The unit lengths/);
    assert.equal(at('class[Square]').signature, 'class Square(Shape)');
    assert.equal(at('class[Shape]/method[fetch]').signature, 'async def fetch(self, delay: float = 0.1) -> str');
  });

  void test('an attribute docstring belongs to the assignment above it, not one after a blank line', () => {
    const text = [
      'TIMEOUT = 30',
      '"""Seconds before a request gives up."""',
      '',
      'RETRIES = 3',
      '',
      '"""A section header, not a docstring of RETRIES."""',
      '',
      '',
      'class Config:',
      '    port: int = 80',
      '    """The port to listen on."""',
      '    host = "localhost"',
      '',
    ].join('\n');
    const outline = outlineSource('a.py', text);
    const textOf = (path: string): string => {
      const found = resolveElementPath(outline, `a.py/${path}`);
      assert.ok(found.ok, path);
      return text.slice(found.element.range.start, found.element.range.end);
    };
    assert.equal(textOf('variable[TIMEOUT]'), 'TIMEOUT = 30\n"""Seconds before a request gives up."""');
    assert.equal(textOf('variable[RETRIES]'), 'RETRIES = 3');
    assert.equal(textOf('class[Config]/property[port]'), 'port: int = 80\n    """The port to listen on."""');
    assert.equal(textOf('class[Config]/property[host]'), 'host = "localhost"');
    assert.deepEqual(
      [...walkElements(outline.elements)].map((e) => e.path.slice('a.py/'.length)),
      ['variable[TIMEOUT]', 'variable[RETRIES]', 'class[Config]', 'class[Config]/property[port]', 'class[Config]/property[host]'],
    );
  });

  void test('decorators are kept apart from the signature, one short line each, comments dropped', () => {
    const outline = outlineSource(FILE, TEXT);
    const at = (path: string): ElementNode => {
      const found = resolveElementPath(outline, `${FILE}/${path}`);
      assert.ok(found.ok, path);
      return found.element;
    };
    assert.deepEqual(at('class[Shape]/method[describe]').decorators, ['@staticmethod', '@ft.lru_cache(maxsize=None)']);
    assert.deepEqual(at('class[Shape]/getter[name]').decorators, ['@property']);
    assert.deepEqual(at('class[Square]').decorators, ['@register("square")']);
    assert.equal(at('class[Shape]/method[__init__]').decorators, undefined);
    const long = outlineSource(
      'b.py',
      `@app.route(\n    "/x",  # the old path\n    methods=[${'"GET", '.repeat(30)}],\n)\ndef handler():\n    pass\n`,
    ).elements[0];
    const [decorator] = long?.decorators ?? [];
    assert.ok(decorator !== undefined && decorator.length <= 100 && decorator.endsWith('…'), decorator);
    assert.match(decorator, /^@app\.route\( "\/x", methods=\["GET", /);
  });

  void test('syntax errors are reported with their line', () => {
    const outline = outlineSource('a.py', 'def ok():\n    return 1\n\ndef bad(:\n    pass\n');
    assert.ok(outline.syntaxErrors.length > 0);
    assert.equal(outline.syntaxErrors[0]?.line, 4);
  });
});
