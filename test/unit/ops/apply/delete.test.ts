import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFails, applyOk, failure, fixture, lines } from './applyHarness';

const SERVICE = 'src/service.ts';
const CONFIG = 'src/config.ts';
const service = fixture('service.ts');
const config = fixture('config.ts');
const files = { [SERVICE]: service, [CONFIG]: config };

function edited(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `the fixture holds ${JSON.stringify(from)} exactly once`);
  return text.replace(from, to);
}

function del(path: string) {
  return { type: 'DELETE_ELEMENT' as const, path };
}

void describe('DELETE_ELEMENT', () => {
  void test('a method between blank lines goes with its doc comment and one of the blank lines', () => {
    const { after } = applyOk(files, [del(`${SERVICE}/class[UserService]/method[validate]`)]);
    assert.equal(
      after(SERVICE),
      edited(
        service,
        '  }\n\n  /**\n   * Checks the input.\n   * @param input what the user typed\n   */\n  validate(input: string): boolean {\n    return input.length > 0 && path.isAbsolute(this.root);\n  }\n\n  render',
        '  }\n\n  render',
      ),
    );
  });

  void test('the last member takes the blank line above it; the first the one below it', () => {
    const last = applyOk(files, [del(`${SERVICE}/class[UserService]/method[render]`)]);
    assert.ok(
      last
        .after(SERVICE)
        .includes('    return input.length > 0 && path.isAbsolute(this.root);\n  }\n}\n\nexport interface Shape'),
    );
    const pair = lines('export class Pair {', '  first(): void {}', '', '  second(): void {}', '}');
    const first = applyOk({ 'src/pair.ts': pair }, [del('src/pair.ts/class[Pair]/method[first]')]);
    assert.equal(first.after('src/pair.ts'), lines('export class Pair {', '  second(): void {}', '}'));
  });

  void test('packed members, an overload set, a static block, a getter of a pair', () => {
    const { after } = applyOk(files, [
      del(`${SERVICE}/class[UserService]/property[cache]`),
      del(`${SERVICE}/class[UserService]/method[find]`),
      del(`${SERVICE}/class[UserService]/static[1]`),
      del(`${SERVICE}/class[UserService]/getter[name]`),
    ]);
    let expected = edited(service, '  private readonly cache = new Map<string, number>();\n', '');
    expected = edited(
      expected,
      '  find(id: string): number | undefined;\n  find(id: number): number | undefined;\n  find(id: string | number): number | undefined {\n    return this.cache.get(String(id));\n  }\n\n',
      '',
    );
    expected = edited(expected, '  static {\n    UserService.instances;\n  }\n\n', '');
    expected = edited(
      expected,
      '  /** The name, upper-cased. */\n  get name(): string {\n    return this.label.toUpperCase();\n  }\n',
      '',
    );
    assert.equal(after(SERVICE), expected);
  });

  void test('one overload signature by #n, but not the implementation alone', () => {
    const { after } = applyOk(files, [del(`${SERVICE}/function[parse]#2`)]);
    assert.equal(after(SERVICE), edited(service, 'export function parse(input: number): number;\n', ''));
    const implementation = applyFails(files, [del(`${SERVICE}/function[parse]#3`)]);
    assert.match(failure(implementation, 0).message ?? '', /without their implementation/);
    assert.deepEqual(failure(implementation, 0).suggestions, [`${SERVICE}/function[parse]`]);
  });

  void test('object literal members: commas stay right in the middle, at the end, with and without a trailing comma, on one line', () => {
    const cases: [string, string, string][] = [
      [`${CONFIG}/variable[config]/property[port]`, '  port: 8080,\n  routes', '  routes'],
      [
        `${CONFIG}/variable[config]/getter[url]`,
        '  },\n  get url(): string {\n    return `http://localhost:${this.port}`;\n  },\n} as const;',
        '  },\n} as const;',
      ],
      [`${CONFIG}/variable[plain]/property[b]`, '  a: 1,\n  b: 2\n};', '  a: 1\n};'],
      [`${CONFIG}/variable[plain]/property[a]`, '  a: 1,\n  b: 2\n};', '  b: 2\n};'],
      [`${CONFIG}/variable[inline]/property[a]`, '{ a: 1, b: 2, c: 3 }', '{ b: 2, c: 3 }'],
      [`${CONFIG}/variable[inline]/property[b]`, '{ a: 1, b: 2, c: 3 }', '{ a: 1, c: 3 }'],
      [`${CONFIG}/variable[inline]/property[c]`, '{ a: 1, b: 2, c: 3 }', '{ a: 1, b: 2 }'],
      [`${CONFIG}/enum[Size]/member[Large]`, "  Small = 's',\n  Large = 'l'\n}", "  Small = 's'\n}"],
      [`${CONFIG}/enum[Color]/member[Green]`, "  'Light Blue' = 2,\n  Green,\n}", "  'Light Blue' = 2,\n}"],
      [`${CONFIG}/enum[Color]/member[Red]`, '  Red = 1,\n', ''],
    ];
    for (const [path, from, to] of cases) {
      const { after } = applyOk(files, [del(path)]);
      assert.equal(after(CONFIG), edited(config, from, to), path);
    }
  });

  void test('type literal and interface members', () => {
    const { after } = applyOk(files, [
      del(`${CONFIG}/type[Point]/property[x]`),
      del(`${SERVICE}/interface[Shape]/index[string]`),
    ]);
    assert.equal(after(CONFIG), edited(config, '{ x: number; y: number }', '{ y: number }'));
    assert.equal(after(SERVICE), edited(service, '  [name: string]: unknown;\n', ''));
  });

  void test('declarators: one of several, and all of them (the statement goes with its blank line)', () => {
    const one = applyOk(files, [del(`${CONFIG}/variable[second]`)]);
    assert.equal(one.after(CONFIG), edited(config, "first = 1, second = 'two', third", 'first = 1, third'));
    const last = applyOk(files, [del(`${CONFIG}/variable[limit]`)]);
    assert.equal(last.after(CONFIG), edited(config, 'let counter = 0, limit = 10;', 'let counter = 0;'));
    const all = applyOk(files, [del(`${CONFIG}/variable[counter]`), del(`${CONFIG}/variable[limit]`)]);
    assert.equal(all.after(CONFIG), edited(config, 'let counter = 0, limit = 10;\n\n', ''));
  });

  void test('top-level elements: a namespace member, a statement, the default export, the first and the last', () => {
    const { after } = applyOk(files, [
      del(`${SERVICE}/namespace[Geometry]/class[Circle]`),
      del(`${SERVICE}/statement[describe]#1`),
      del(`${CONFIG}/default`),
      del(`${CONFIG}/import[./define]`),
    ]);
    let expectedService = edited(service, '  export class Circle {\n    radius = 1;\n  }\n', '');
    expectedService = edited(expectedService, "describe('suite', () => {});\n", '');
    assert.equal(after(SERVICE), expectedService);
    let expectedConfig = edited(config, "\n\nexport default {\n  name: 'default-export',\n  version: 1,\n};\n", '\n');
    expectedConfig = edited(expectedConfig, "import { defineConfig } from './define';\n\n", '');
    assert.equal(after(CONFIG), expectedConfig);
  });

  void test('the last element of a file without a final newline leaves no newline behind', () => {
    const text = 'export const a = 1;\n\nexport const b = 2;';
    const { after } = applyOk({ 'src/n.ts': text }, [del('src/n.ts/variable[b]')]);
    assert.equal(after('src/n.ts'), 'export const a = 1;');
  });

  void test('a TSX component and an anonymous default export', () => {
    const component = fixture('component.tsx');
    const { after } = applyOk({ 'src/component.tsx': component }, [
      del('src/component.tsx/variable[Panel]'),
      del('src/component.tsx/default'),
    ]);
    assert.equal(
      after('src/component.tsx'),
      edited(
        component,
        '\n\nexport const Panel = ({ children }: { children: React.ReactNode }) => (\n  <section className="panel">{children}</section>\n);\n\nexport default function () {\n  return <Panel><Counter label="clicks" /></Panel>;\n}\n',
        '\n',
      ),
    );
  });

  void test('an unknown path fails with suggestions and changes nothing', () => {
    const result = applyFails(files, [
      del(`${SERVICE}/class[UserService]/method[render]`),
      del(`${SERVICE}/class[UserSrvice]`),
    ]);
    assert.equal(result.results[0]?.status, 'skipped');
    assert.ok(failure(result, 1).suggestions?.includes(`${SERVICE}/class[UserService]`));
  });
});
