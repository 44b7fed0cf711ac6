import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SearchReplacePair } from '../../../../src/core/ops/operation';
import { applyFails, applyOk, failure, fixture } from './applyHarness';

const SERVICE = 'src/service.ts';
const service = fixture('service.ts');
const files = { [SERVICE]: service };
const VALIDATE = `${SERVICE}/class[UserService]/method[validate]`;

function edited(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `the text holds ${JSON.stringify(from)} exactly once`);
  return text.replace(from, to);
}

function patch(path: string, ...patches: SearchReplacePair[]) {
  return { type: 'PATCH_ELEMENT' as const, path, patches };
}

void describe('PATCH_ELEMENT', () => {
  void test('an exact search inside the element is replaced', () => {
    const { after } = applyOk(files, [
      patch(VALIDATE, { search: 'input.length > 0', replace: 'input.trim().length > 0' }),
    ]);
    assert.equal(after(SERVICE), edited(service, 'return input.length > 0 &&', 'return input.trim().length > 0 &&'));
  });

  void test('pairs apply one after the other, and two patches of one element compose', () => {
    const { after } = applyOk(files, [
      patch(
        VALIDATE,
        { search: 'input.length > 0', replace: 'input.length > 1' },
        { search: 'input.length > 1', replace: 'input.length > 2' },
      ),
      patch(VALIDATE, { search: 'input.length > 2', replace: 'input.length > 3' }),
    ]);
    assert.equal(after(SERVICE), edited(service, 'input.length > 0 &&', 'input.length > 3 &&'));
  });

  void test('a search that differs in indentation and trailing spaces matches when unique, and the replacement takes the real indentation', () => {
    const { after } = applyOk(files, [
      patch(VALIDATE, {
        search: 'validate(input: string): boolean {   \nreturn input.length > 0 && path.isAbsolute(this.root);\n}',
        replace:
          'validate(input: string): boolean {\n  if (input === "") return false;\n  return path.isAbsolute(this.root);\n}',
      }),
    ]);
    assert.equal(
      after(SERVICE),
      edited(
        service,
        '  validate(input: string): boolean {\n    return input.length > 0 && path.isAbsolute(this.root);\n  }',
        '  validate(input: string): boolean {\n    if (input === "") return false;\n    return path.isAbsolute(this.root);\n  }',
      ),
    );
  });

  void test('CRLF files: the search written with \\n matches, the replacement gets CRLF', () => {
    const crlf = service.replace(/\n/g, '\r\n');
    const { after } = applyOk({ [SERVICE]: crlf }, [
      patch(VALIDATE, {
        search: '  validate(input: string): boolean {\n    return input.length > 0',
        replace: '  validate(input: string): boolean {\n    return input.length > 5',
      }),
    ]);
    assert.equal(after(SERVICE), edited(crlf, 'input.length > 0', 'input.length > 5'));
    assert.ok(!/[^\r]\n/.test(after(SERVICE)), 'every line break is CRLF');
  });

  void test('a search found twice is refused, naming the lines', () => {
    const result = applyFails(files, [
      patch(`${SERVICE}/class[UserService]/method[find]`, { search: 'find(id: ', replace: 'get(id: ' }),
    ]);
    const { message, hint } = failure(result, 0);
    assert.match(message ?? '', /matches 3 places in the element \(lines 44, 45, 46\)/);
    assert.match(hint ?? '', /lines around the change/);
  });

  void test('a search found nowhere shows the closest lines of the element', () => {
    const result = applyFails(files, [
      patch(VALIDATE, { search: 'return input.size > 0 && path.isAbsolute(this.root);', replace: 'return true;' }),
    ]);
    const message = failure(result, 0).message ?? '';
    assert.match(message, /SEARCH block 1 of PATCH_ELEMENT .*method\[validate\] matches nothing in the element/);
    assert.match(message, /55 \|     return input\.length > 0 && path\.isAbsolute\(this\.root\);/);
  });

  void test('a search that is in another element points to it', () => {
    const result = applyFails(files, [
      patch(VALIDATE, { search: 'return this.cache.get(String(id));', replace: 'return 1;' }),
    ]);
    const { hint, suggestions } = failure(result, 0);
    assert.match(hint ?? '', /that text is in .*method\[find\]: patch that element instead/);
    assert.deepEqual(suggestions, [`${SERVICE}/class[UserService]/method[find]`]);
  });

  void test('an empty search, no pairs, a patch that breaks the element or renames it onto a taken name, and a placeholder are refused', () => {
    const empty = applyFails(files, [patch(VALIDATE, { search: '  \n', replace: 'x' })]);
    assert.match(failure(empty, 0).message ?? '', /is empty/);
    const none = applyFails(files, [patch(VALIDATE)]);
    assert.match(failure(none, 0).message ?? '', /no SEARCH\/REPLACE pair/);
    const broken = applyFails(files, [
      patch(VALIDATE, { search: 'path.isAbsolute(this.root);\n  }', replace: 'path.isAbsolute(this.root);' }),
    ]);
    assert.match(failure(broken, 0).message ?? '', /after the patch the element does not parse/);
    const renamed = applyFails(files, [patch(VALIDATE, { search: 'validate(input', replace: 'render(input' })]);
    assert.match(
      failure(renamed, 0).message ?? '',
      /renames method\[validate\] to method\[render\], but .* already exists/,
    );
    const lazy = applyFails(files, [
      patch(VALIDATE, {
        search: '    return input.length > 0 && path.isAbsolute(this.root);',
        replace: '    // ... rest of the checks ...',
      }),
    ]);
    assert.match(failure(lazy, 0).message ?? '', /placeholder/);
  });

  void test('a patch after a replace of the same element works on the replaced text; a replace after a patch is refused', () => {
    const composed = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: VALIDATE,
        content: 'validate(input: string): boolean {\n  return input !== "";\n}',
      },
      patch(VALIDATE, { search: 'input !== ""', replace: 'input.length > 1' }),
    ]);
    assert.ok(
      composed.after(SERVICE).includes('  validate(input: string): boolean {\n    return input.length > 1;\n  }'),
    );
    const refused = applyFails(files, [
      patch(VALIDATE, { search: 'input.length > 0', replace: 'input.length > 1' }),
      { type: 'REPLACE_ELEMENT', path: VALIDATE, content: 'validate(input: string): boolean {\n  return true;\n}' },
    ]);
    assert.match(
      failure(refused, 1).message ?? '',
      /operation #1 patches method\[validate\]; replacing it afterwards would silently drop that patch/,
    );
  });

  void test('a declarator is patched as a declarator', () => {
    const config = fixture('config.ts');
    const { after } = applyOk({ 'src/config.ts': config }, [
      patch('src/config.ts/variable[second]', { search: "'two'", replace: "'zwei'" }),
    ]);
    assert.equal(after('src/config.ts'), edited(config, "second = 'two'", "second = 'zwei'"));
  });
});
