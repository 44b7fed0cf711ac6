import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ElementNode, FileOutline } from '../../../src/core/elements/element';
import { outlineSource } from '../../../src/core/elements/outline';
import {
  allElements,
  elementsAtOffset,
  resolveElementPath,
  resolveElementPathOrThrow,
} from '../../../src/core/elements/resolve';

const fixtures = join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'elements', 'fixtures');
const fixture = (name: string): string => readFileSync(join(fixtures, name), 'utf8');

function outline(name: string, as = `src/${name}`): FileOutline {
  return outlineSource(as, fixture(name));
}

function textOf(o: FileOutline, path: string): string {
  const { element } = resolveElementPathOrThrow(o, path);
  return o.text.slice(element.range.start, element.range.end);
}

function assertTiles(elements: readonly ElementNode[], parent: { start: number; end: number }): void {
  let previousEnd = parent.start;
  for (const element of elements) {
    assert.ok(element.range.start >= previousEnd, `${element.path} overlaps the element before it`);
    assert.ok(element.range.end <= parent.end, `${element.path} ends outside its container`);
    assert.ok(element.range.start < element.range.end, `${element.path} is empty`);
    previousEnd = element.range.end;
    assertTiles(element.children, element.range);
  }
}

void describe('outline of the hard cases', () => {
  const o = outline('hardCases.ts');

  void test('lists every element with its canonical path, in file order', () => {
    assert.deepEqual(
      allElements(o).map((e) => e.path.slice('src/hardCases.ts/'.length)),
      [
        'import[./decorators]',
        'import[./base]',
        'import[node:path]',
        'function[parse]',
        'variable[first]',
        'variable[second]',
        'variable[third]',
        'class[UserService]',
        'class[UserService]/property[instances]',
        'class[UserService]/property[cache]',
        'class[UserService]/property[label]',
        'class[UserService]/property[quoted-name]',
        'class[UserService]/method[[Symbol.iterator]]',
        'class[UserService]/index[string]',
        'class[UserService]/static[1]',
        'class[UserService]/constructor',
        'class[UserService]/getter[name]',
        'class[UserService]/setter[name]',
        'class[UserService]/method[find]',
        'class[UserService]/method[validate]',
        'interface[Shape]',
        'interface[Shape]/property[area]',
        'interface[Shape]/method[scale]',
        'interface[Shape]/index[string]',
        'interface[Shape]/call',
        'type[Point]',
        'type[Point]/property[x]',
        'type[Point]/property[y]',
        'type[Id]',
        'enum[Color]',
        'enum[Color]/member[Red]',
        'enum[Color]/member[Light Blue]',
        'enum[Color]/member[Green]',
        'namespace[Geometry]',
        'namespace[Geometry]/class[Circle]',
        'namespace[Geometry]/class[Circle]/property[radius]',
        'namespace[Geometry]/function[area]',
        'namespace[Geometry]/namespace[Inner]',
        'namespace[Geometry]/namespace[Inner]/namespace[Deep]',
        'namespace[Geometry]/namespace[Inner]/namespace[Deep]/variable[depth]',
        'namespace[external-lib]',
        'namespace[external-lib]/function[helper]',
        'variable[handler]',
        'variable[config]',
        'variable[config]/property[port]',
        'variable[config]/property[routes]',
        'variable[config]/property[routes]/property[home]',
        'variable[config]/property[routes]/property[user]',
        'variable[config]/method[start]',
        'variable[config]/getter[url]',
        'default',
        'default/property[name]',
        'default/property[version]',
        'statement[describe]#1',
        'statement[describe]#2',
      ],
    );
    assert.deepEqual(o.syntaxErrors, []);
  });

  void test('ranges never overlap and children stay inside their containers', () => {
    assertTiles(o.elements, { start: 0, end: o.text.length });
  });

  void test('every path resolves back to the same element', () => {
    for (const element of allElements(o)) {
      const resolved = resolveElementPath(o, element.path);
      assert.ok(resolved.ok, element.path);
      assert.equal(resolved.element, element);
      assert.equal(resolved.tolerant, false);
    }
  });

  void test('one path addresses the whole overload set, #n one signature', () => {
    const set = resolveElementPathOrThrow(o, 'src/hardCases.ts/function[parse]');
    assert.equal(set.element.overloads?.length, 3);
    const text = textOf(o, 'src/hardCases.ts/function[parse]');
    assert.ok(text.startsWith('// Leading comment that belongs to the overload set.'));
    assert.ok(text.endsWith("return typeof input === 'string' ? Number(input) : input;\n}"));
    const second = resolveElementPathOrThrow(o, 'src/hardCases.ts/function[parse]#2');
    assert.equal(second.overload?.signature, 'export function parse(input: number): number');
    const method = resolveElementPathOrThrow(o, 'src/hardCases.ts/class[UserService]/method[find]#3');
    assert.equal(method.overload?.signature, 'find(id: string | number): number | undefined');
    assert.equal(resolveElementPath(o, 'src/hardCases.ts/function[parse]#4').ok, false);
  });

  void test('several const declarations in one statement are separate elements', () => {
    assert.equal(textOf(o, 'src/hardCases.ts/variable[first]'), 'first = 1');
    assert.equal(textOf(o, 'src/hardCases.ts/variable[second]'), "second = 'two'");
    assert.equal(
      resolveElementPathOrThrow(o, 'src/hardCases.ts/variable[third]').element.signature,
      'export const third = [first]',
    );
  });

  void test('decorators and the JSDoc directly above belong to the element; a licence above a blank line does not', () => {
    const text = textOf(o, 'src/hardCases.ts/class[UserService]');
    assert.ok(text.startsWith('/** The service. */\n@Injectable()\nexport class UserService'));
    assert.equal(textOf(o, 'src/hardCases.ts/class[UserService]/property[label]'), "@Input() label: string = 'users';");
    assert.ok(!textOf(o, 'src/hardCases.ts/import[./decorators]').includes('Licence'));
    const getter = textOf(o, 'src/hardCases.ts/class[UserService]/getter[name]');
    assert.ok(getter.startsWith('/** The name, upper-cased. */'));
  });

  void test('signatures are declarations without bodies', () => {
    const signature = (path: string): string =>
      resolveElementPathOrThrow(o, `src/hardCases.ts/${path}`).element.signature;
    assert.equal(signature('class[UserService]/method[validate]'), 'validate(input: string): boolean');
    assert.equal(
      signature('class[UserService]'),
      '@Injectable() export class UserService extends Base implements Named',
    );
    assert.equal(signature('class[UserService]/constructor'), 'constructor(private readonly root: string)');
    assert.equal(
      signature('variable[handler]'),
      'export const handler = async (request: Request): Promise<Response> =>',
    );
    assert.equal(signature('interface[Shape]/method[scale]'), 'scale(factor: number): Shape');
    assert.equal(signature('enum[Color]/member[Light Blue]'), "'Light Blue' = 2");
  });

  void test('computed, quoted and getter/setter names are addressable', () => {
    assert.match(
      textOf(o, 'src/hardCases.ts/class[UserService]/method[[Symbol.iterator]]'),
      /^\[Symbol\.iterator\]\(\)/,
    );
    assert.equal(textOf(o, 'src/hardCases.ts/class[UserService]/property[quoted-name]'), "'quoted-name' = true;");
    assert.match(textOf(o, 'src/hardCases.ts/class[UserService]/setter[name]'), /^set name\(value: string\)/);
  });

  void test('members of an exported object literal are elements, nested objects too', () => {
    assert.equal(textOf(o, 'src/hardCases.ts/variable[config]/property[port]'), 'port: 8080');
    assert.equal(
      textOf(o, 'src/hardCases.ts/variable[config]/property[routes]/property[user]'),
      'user: (id: string) => `/users/${id}`',
    );
    assert.equal(textOf(o, 'src/hardCases.ts/default/property[version]'), 'version: 1');
  });

  void test('elementsAtOffset gives the innermost element and its containers', () => {
    const offset = o.text.indexOf('input.length > 0');
    assert.deepEqual(
      elementsAtOffset(o, offset).map((e) => e.path),
      ['src/hardCases.ts/class[UserService]', 'src/hardCases.ts/class[UserService]/method[validate]'],
    );
  });
});

void describe('outline of other languages and forms', () => {
  void test('TSX components: function, arrow and anonymous default export', () => {
    const o = outline('component.tsx');
    assert.deepEqual(
      o.elements.map((e) => e.path),
      [
        'src/component.tsx/import[react]',
        'src/component.tsx/interface[ButtonProps]',
        'src/component.tsx/function[Counter]',
        'src/component.tsx/variable[Panel]',
        'src/component.tsx/default',
      ],
    );
    assert.equal(o.syntaxErrors.length, 0);
    assert.match(textOf(o, 'src/component.tsx/default'), /^export default function \(\) \{\n  return <Panel>/);
  });

  void test('export = and namespaces', () => {
    const o = outline('exportEquals.ts');
    assert.deepEqual(
      allElements(o).map((e) => e.path),
      [
        'src/exportEquals.ts/namespace[Legacy]',
        'src/exportEquals.ts/namespace[Legacy]/function[run]',
        'src/exportEquals.ts/export=',
      ],
    );
  });

  void test('CommonJS JavaScript', () => {
    const o = outline('legacy.cjs');
    assert.equal(o.language, 'js');
    assert.deepEqual(
      allElements(o).map((e) => e.path.slice('src/legacy.cjs/'.length)),
      [
        'statement[expression]',
        'variable[path]',
        'function[resolveAll]',
        'class[Registry]',
        'class[Registry]/constructor',
        'class[Registry]/method[add]',
        'statement[module.exports=]',
      ],
    );
  });

  void test('syntax errors are reported with their line', () => {
    const o = outlineSource('src/broken.ts', 'export function ok() {}\nexport function broken( {\n');
    assert.ok(o.syntaxErrors.length > 0);
    assert.equal(o.syntaxErrors[0]?.line, 3);
  });

  void test('a BOM and CRLF line ends keep offsets into the text as read', () => {
    const text = '\uFEFF// doc\r\nexport function a(): void {}\r\n\r\nexport const b = 1;\r\n';
    const o = outlineSource('src/crlf.ts', text);
    const a = resolveElementPathOrThrow(o, 'src/crlf.ts/function[a]').element;
    assert.equal(text.slice(a.range.start, a.range.end), '// doc\r\nexport function a(): void {}');
    assert.equal(a.startLine, 1);
    assert.equal(o.lineCount, 4);
  });
});
