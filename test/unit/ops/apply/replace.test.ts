import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFails, applyOk, failure, fixture, lines } from './applyHarness';

const SERVICE = 'src/service.ts';
const CONFIG = 'src/config.ts';
const service = fixture('service.ts');
const config = fixture('config.ts');
const files = { [SERVICE]: service, [CONFIG]: config };

/** The fixture with one exact piece of text replaced; fails if that piece is not there exactly once. */
function edited(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `the fixture holds ${JSON.stringify(from)} exactly once`);
  return text.replace(from, to);
}

void describe('REPLACE_ELEMENT', () => {
  void test('replaces a method written at column 0, re-indented into its class, keeping its JSDoc when the content has none', () => {
    const { after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'validate(input: string): boolean {\n  return input.trim().length > 0;\n}',
      },
    ]);
    assert.equal(
      after(SERVICE),
      edited(
        service,
        '  validate(input: string): boolean {\n    return input.length > 0 && path.isAbsolute(this.root);\n  }',
        '  validate(input: string): boolean {\n    return input.trim().length > 0;\n  }',
      ),
    );
    assert.ok(after(SERVICE).includes('   * Checks the input.\n'), 'the JSDoc stays');
  });

  void test('a plain comment above the element goes with it; only a doc comment is kept when the content has none', () => {
    const text = lines(
      '// Old note.',
      'export function f(): number {',
      '  return 1;',
      '}',
      '',
      '/** Doc. */',
      '// Note.',
      'export function g(): void {}',
    );
    const { after } = applyOk({ 'src/c.ts': text }, [
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/c.ts/function[f]',
        content: 'export function f(): number {\n  return 2;\n}',
      },
      { type: 'REPLACE_ELEMENT', path: 'src/c.ts/function[g]', content: 'export function g(): void {\n  go();\n}' },
    ]);
    assert.equal(
      after('src/c.ts'),
      lines('export function f(): number {', '  return 2;', '}', '', 'export function g(): void {', '  go();', '}'),
    );
  });

  void test('a doc comment in the content replaces the old one', () => {
    const { after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: '/** Rejects blank input. */\nvalidate(input: string): boolean {\n  return input.trim() !== "";\n}',
      },
    ]);
    assert.ok(
      after(SERVICE).includes(
        '  /** Rejects blank input. */\n  validate(input: string): boolean {\n    return input.trim() !== "";\n  }\n',
      ),
    );
    assert.ok(!after(SERVICE).includes('Checks the input'), 'the old doc comment is gone');
  });

  void test('content already indented like the file, or cut from it with its first line at column 0, lands unchanged', () => {
    const original =
      '  find(id: string): number | undefined;\n  find(id: number): number | undefined;\n  find(id: string | number): number | undefined {\n    return this.cache.get(String(id));\n  }';
    for (const content of [original, original.trimStart()]) {
      const { result } = applyOk(files, [
        { type: 'REPLACE_ELEMENT', path: `${SERVICE}/class[UserService]/method[find]`, content },
      ]);
      assert.deepEqual(result.changes, [], 'identical text changes nothing');
    }
  });

  void test('replaces a whole overload set, and one overload signature by #n', () => {
    const whole = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/function[parse]`,
        content: 'export function parse(input: string): number {\n  return Number(input);\n}',
      },
    ]);
    assert.ok(
      whole
        .after(SERVICE)
        .includes(
          "import * as path from 'node:path';\n\nexport function parse(input: string): number {\n  return Number(input);\n}\n\n/** The service. */",
        ),
    );
    const one = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/function[parse]#2`,
        content: 'export function parse(input: bigint): number;',
      },
    ]);
    assert.equal(
      one.after(SERVICE),
      edited(service, 'export function parse(input: number): number;', 'export function parse(input: bigint): number;'),
    );
  });

  void test('replaces a decorated class member, a computed name, a quoted name, a static block, an index signature and the constructor', () => {
    const { after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/property[label]`,
        content: "@Input() label: string = 'people';",
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[[Symbol.iterator]]`,
        content: '[Symbol.iterator](): Iterator<number> {\n  return [1].values();\n}',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/property[quoted-name]`,
        content: "'quoted-name' = false",
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/static[1]`,
        content: 'static {\n  void UserService.instances;\n}',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/index[string]`,
        content: '[key: string]: string | number',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/constructor`,
        content: 'constructor(private readonly root: string) {\n  super();\n  this.label = root;\n}',
      },
    ]);
    let expected = edited(service, "  @Input() label: string = 'users';", "  @Input() label: string = 'people';");
    expected = edited(expected, '    return [].values();', '    return [1].values();');
    // The file ends its members with semicolons: the one the content left out is put back.
    expected = edited(expected, "  'quoted-name' = true;", "  'quoted-name' = false;");
    expected = edited(expected, '    UserService.instances;\n', '    void UserService.instances;\n');
    expected = edited(expected, '  [key: string]: unknown;', '  [key: string]: string | number;');
    expected = edited(expected, '    super();\n  }', '    super();\n    this.label = root;\n  }');
    assert.equal(after(SERVICE), expected);
  });

  void test('lines inside a template literal are left exactly as written', () => {
    const content = 'render(): string {\n    return `<ol>\n  <li>${this.label}</li>\n</ol>`;\n}';
    const { after } = applyOk(files, [
      { type: 'REPLACE_ELEMENT', path: `${SERVICE}/class[UserService]/method[render]`, content },
    ]);
    assert.ok(
      after(SERVICE).includes('  render(): string {\n      return `<ol>\n  <li>${this.label}</li>\n</ol>`;\n  }\n'),
    );
  });

  void test('replaces interface members, adding back the separator the content left out', () => {
    const { after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/interface[Shape]/method[scale]`,
        content: 'scale(factor: number, origin?: number): Shape',
      },
      { type: 'REPLACE_ELEMENT', path: `${SERVICE}/interface[Shape]/call`, content: '(): boolean;' },
    ]);
    let expected = edited(
      service,
      '  scale(factor: number): Shape;',
      '  scale(factor: number, origin?: number): Shape;',
    );
    expected = edited(expected, '  (): void;', '  (): boolean;');
    assert.equal(after(SERVICE), expected);
  });

  void test('object literal members: with or without a trailing comma in the content, the commas stay as they were', () => {
    for (const content of ['port: 9090', 'port: 9090,']) {
      const { after } = applyOk(files, [
        { type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[config]/property[port]`, content },
      ]);
      assert.equal(after(CONFIG), edited(config, '  port: 8080,\n', '  port: 9090,\n'));
    }
    for (const content of ['b: 3', 'b: 3,']) {
      const { after } = applyOk(files, [
        { type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[plain]/property[b]`, content },
      ]);
      assert.equal(after(CONFIG), edited(config, '  a: 1,\n  b: 2\n};', '  a: 1,\n  b: 3\n};'));
    }
    const nested = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${CONFIG}/variable[config]/property[routes]/property[home]`,
        content: "home: '/home',",
      },
    ]);
    assert.equal(nested.after(CONFIG), edited(config, "    home: '/',", "    home: '/home',"));
    const inline = applyOk(files, [
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[inline]/property[b]`, content: 'b: 20,' },
    ]);
    assert.equal(inline.after(CONFIG), edited(config, '{ a: 1, b: 2, c: 3 }', '{ a: 1, b: 20, c: 3 }'));
  });

  void test('enum members keep their commas', () => {
    const { after } = applyOk(files, [
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/enum[Color]/member[Green]`, content: 'Green = 3,' },
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/enum[Size]/member[Large]`, content: "Large = 'L'" },
    ]);
    let expected = edited(config, '  Green,\n}', '  Green = 3,\n}');
    expected = edited(expected, "  Large = 'l'\n}", "  Large = 'L'\n}");
    assert.equal(after(CONFIG), expected);
  });

  void test('one declarator of a multi-declarator statement: a fitting declaration replaces only the declarator', () => {
    for (const content of ["export const second = 'deux';", "const second = 'deux'", "second = 'deux'"]) {
      const { after } = applyOk(files, [{ type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[second]`, content }]);
      assert.equal(after(CONFIG), edited(config, "second = 'two'", "second = 'deux'"), content);
    }
  });

  void test('one declarator replaced by a declaration that does not fit the statement splits it, in place and in order', () => {
    const middle = applyOk(files, [
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[second]`, content: "export let second = 'deux';" },
    ]);
    assert.equal(
      middle.after(CONFIG),
      edited(
        config,
        "export const first = 1, second = 'two', third = [first];",
        "export const first = 1;\nexport let second = 'deux';\nexport const third = [first];",
      ),
    );
    const firstOne = applyOk(files, [
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[counter]`, content: 'export let counter = 5;' },
    ]);
    assert.equal(
      firstOne.after(CONFIG),
      edited(config, 'let counter = 0, limit = 10;', 'export let counter = 5;\nlet limit = 10;'),
    );
    const documented = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${CONFIG}/variable[limit]`,
        content: '/** The most there can be. */\nlet limit = 20;',
      },
    ]);
    assert.equal(
      documented.after(CONFIG),
      edited(
        config,
        'let counter = 0, limit = 10;',
        'let counter = 0;\n/** The most there can be. */\nlet limit = 20;',
      ),
    );
  });

  void test('default exports, `export =`, namespaces, statements and TSX components', () => {
    const defaults = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${CONFIG}/default`,
        content: "export default {\n  name: 'renamed',\n  version: 2,\n};",
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/namespace[Geometry]/function[area]`,
        content: 'export function area(c: Circle): number {\n  return 2 * Math.PI * c.radius;\n}',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/statement[describe]#2`,
        content: "describe('suite two', () => {});",
      },
    ]);
    assert.ok(defaults.after(CONFIG).endsWith("export default {\n  name: 'renamed',\n  version: 2,\n};\n"));
    assert.ok(
      defaults
        .after(SERVICE)
        .includes('  export function area(c: Circle): number {\n    return 2 * Math.PI * c.radius;\n  }\n}'),
    );
    assert.ok(defaults.after(SERVICE).endsWith("describe('suite', () => {});\ndescribe('suite two', () => {});\n"));

    const legacy = fixture('legacy.ts');
    const exported = applyOk({ 'src/legacy.ts': legacy }, [
      { type: 'REPLACE_ELEMENT', path: 'src/legacy.ts/export=', content: 'export = { Legacy };' },
    ]);
    assert.equal(exported.after('src/legacy.ts'), edited(legacy, 'export = Legacy;', 'export = { Legacy };'));

    const component = fixture('component.tsx');
    const tsx = applyOk({ 'src/component.tsx': component }, [
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/component.tsx/function[Counter]',
        content:
          'export function Counter({ label }: ButtonProps): JSX.Element {\n  const [count, setCount] = useState(1);\n  return <button onClick={() => setCount(count * 2)}>{label} doubled: {count}</button>;\n}',
      },
    ]);
    assert.ok(
      tsx.after('src/component.tsx').includes('/** A counter button. */\nexport function Counter('),
      'its doc comment stays',
    );
    assert.ok(tsx.after('src/component.tsx').includes('{label} doubled: {count}</button>;\n}'));
  });

  void test("tabs in the content become the file's spaces; spaces become a tab-indented file's tabs", () => {
    const spaced = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'validate(input: string): boolean {\n\tif (!input) {\n\t\treturn false;\n\t}\n\treturn true;\n}',
      },
    ]);
    assert.ok(
      spaced
        .after(SERVICE)
        .includes(
          '  validate(input: string): boolean {\n    if (!input) {\n      return false;\n    }\n    return true;\n  }',
        ),
    );
    const tabbed = lines('export class Tabs {', '\tsize(): number {', '\t\treturn 1;', '\t}', '}');
    const { after } = applyOk({ 'src/tabs.ts': tabbed }, [
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/tabs.ts/class[Tabs]/method[size]',
        content: 'size(): number {\n    if (this) {\n        return 2;\n    }\n    return 1;\n}',
      },
    ]);
    assert.equal(
      after('src/tabs.ts'),
      lines(
        'export class Tabs {',
        '\tsize(): number {',
        '\t\tif (this) {',
        '\t\t\treturn 2;',
        '\t\t}',
        '\t\treturn 1;',
        '\t}',
        '}',
      ),
    );
  });
});

void describe('REPLACE_ELEMENT keeps what a model leaves out by habit', () => {
  void test('`export` (and `export default`) a top-level declaration had stays when the content omits it', () => {
    const { after } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/variable[handler]`,
        content:
          'const handler = async (request: Request): Promise<Response> => {\n  return new Response(request.method);\n};',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]`,
        content: service
          .slice(service.indexOf('@Injectable()'), service.indexOf('\nexport interface Shape'))
          .replace('export class', 'class'),
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/namespace[Geometry]/function[area]`,
        content: 'function area(c: Circle): number {\n  return c.radius;\n}',
      },
    ]);
    let expected = edited(service, 'return new Response(String(request.url));', 'return new Response(request.method);');
    expected = edited(expected, '    return Math.PI * c.radius ** 2;', '    return c.radius;');
    assert.equal(after(SERVICE), expected);
    const main = lines('export default function main(): number {', '  return 1;', '}');
    const replaced = applyOk({ 'src/main.ts': main }, [
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/main.ts/function[main]',
        content: 'function main(): number {\n  return 2;\n}',
      },
    ]);
    assert.equal(replaced.after('src/main.ts'), lines('export default function main(): number {', '  return 2;', '}'));
  });

  void test('content that adds `export` keeps it', () => {
    const { after } = applyOk(files, [
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[counter]`, content: 'export let counter = 0;' },
    ]);
    assert.ok(after(CONFIG).includes('export let counter = 0;\nlet limit = 10;'));
  });

  void test('content led by a comment: its imports are merged and its `export` is not doubled', () => {
    const main = lines("import { a } from './a';", '', 'export function main(): number {', '  return a;', '}');
    const { after, result } = applyOk({ 'src/main.ts': main }, [
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/main.ts/function[main]',
        content:
          "// uses b now\nimport { b } from './b';\n/** The sum. */\nexport function main(): number {\n  return a + b;\n}",
      },
    ]);
    assert.equal(
      after('src/main.ts'),
      lines(
        "import { a } from './a';",
        "import { b } from './b';",
        '',
        '/** The sum. */',
        'export function main(): number {',
        '  return a + b;',
        '}',
      ),
    );
    assert.match(result.results[0]?.message ?? '', /merged into the imports of the file/);
  });
});

void describe('REPLACE_ELEMENT refusals', () => {
  void test('content that defines another kind of element is refused, naming both', () => {
    const result = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'static {\n  UserService.instances;\n}',
      },
    ]);
    const { message, hint } = failure(result, 0);
    assert.match(message ?? '', /declares static\[1\], not method\[validate\]/);
    assert.match(hint ?? '', /CREATE_ELEMENT/);
  });

  void test('a rename to a name its container already holds is refused, naming the element in the way', () => {
    const result = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'render(input: string): boolean {\n  return true;\n}',
      },
    ]);
    const { message, suggestions } = failure(result, 0);
    assert.match(
      message ?? '',
      /renames method\[validate\] to method\[render\], but src\/service\.ts\/class\[UserService\]\/method\[render\] already exists/,
    );
    assert.deepEqual(suggestions, [`${SERVICE}/class[UserService]/method[render]`]);
    assert.equal(result.changes.length, 0);
  });

  void test('content with more than the one element is refused', () => {
    const result = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'validate(input: string): boolean {\n  return true;\n}\n\ncheck(): void {}',
      },
    ]);
    assert.match(failure(result, 0).message ?? '', /declares 2 elements/);
  });

  void test('an incompatible kind is refused', () => {
    const result = applyFails(files, [
      { type: 'REPLACE_ELEMENT', path: `${SERVICE}/interface[Shape]`, content: 'export class Shape {}' },
    ]);
    assert.match(failure(result, 0).message ?? '', /declares a class, but .* is a interface/);
  });

  void test('empty content is refused with a pointer to DELETE_ELEMENT', () => {
    const result = applyFails(files, [
      { type: 'REPLACE_ELEMENT', path: `${SERVICE}/class[UserService]/method[validate]`, content: '\n  \n' },
    ]);
    assert.match(failure(result, 0).hint ?? '', /DELETE_ELEMENT/);
  });

  void test("content that does not parse is refused with the parser's message", () => {
    const result = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'validate(input: string): boolean {\n  return input.length > 0;\n',
      },
    ]);
    assert.match(failure(result, 0).message ?? '', /does not parse as a class member: '}' expected/);
  });

  void test("'=' instead of ':' in an object literal member is refused (it parses, but does not compile)", () => {
    const result = applyFails(files, [
      { type: 'REPLACE_ELEMENT', path: `${CONFIG}/variable[config]/property[port]`, content: 'port = 9090' },
    ]);
    assert.match(failure(result, 0).message ?? '', /'=' in an object literal/);
  });

  void test('a path read tolerantly says how it was read', () => {
    const { result } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/function[validate]`,
        content: 'validate(input: string): boolean {\n  return true;\n}',
      },
    ]);
    assert.match(
      result.results[0]?.message ?? '',
      /was read as src\/service\.ts\/class\[UserService\]\/method\[validate\]/,
    );
    // The path as read, for a surface to show instead of the model's spelling (issue 29).
    assert.equal(result.results[0]?.readAs, `${SERVICE}/class[UserService]/method[validate]`);
  });

  void test('an exact path carries no path read in its place', () => {
    const { result } = applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'validate(input: string): boolean {\n  return true;\n}',
      },
    ]);
    assert.equal(result.results[0]?.readAs, undefined);
  });

  void test('the whole class sent for one method is refused', () => {
    const result = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'export class UserService {\n  validate(input: string): boolean {\n    return true;\n  }\n}',
      },
    ]);
    assert.match(failure(result, 0).hint ?? '', /only the member itself/);
  });

  void test('an unknown path fails with the nearest paths as suggestions', () => {
    const result = applyFails(files, [
      { type: 'REPLACE_ELEMENT', path: `${SERVICE}/class[UserService]/method[validat]`, content: 'validat() {}' },
    ]);
    const { suggestions, message } = failure(result, 0);
    assert.match(message ?? '', /no element/);
    assert.equal(suggestions?.[0], `${SERVICE}/class[UserService]/method[validate]`);
  });

  void test('a path that names a file, not an element, is refused with its top-level elements', () => {
    const result = applyFails(files, [{ type: 'REPLACE_ELEMENT', path: SERVICE, content: 'export const x = 1;' }]);
    const { suggestions, message } = failure(result, 0);
    assert.match(message ?? '', /names a file, not an element/);
    assert.ok(suggestions?.includes(`${SERVICE}/class[UserService]`));
  });

  void test('lazy placeholders are refused; a placeholder the element already had is not', () => {
    const placeholders = [
      '// ... existing code ...',
      '// rest of the method unchanged',
      '/* ... */',
      '// ...',
      '// (unchanged)',
      '// same as before',
      '// … other checks …',
      '// Rest of implementation remains the same',
    ];
    for (const placeholder of placeholders) {
      const result = applyFails(files, [
        {
          type: 'REPLACE_ELEMENT',
          path: `${SERVICE}/class[UserService]/method[validate]`,
          content: `validate(input: string): boolean {\n  ${placeholder}\n  return true;\n}`,
        },
      ]);
      assert.match(failure(result, 0).message ?? '', /placeholder instead of code/, placeholder);
    }
    const braces = applyFails(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content: 'validate(input: string): boolean { ... }',
      },
    ]);
    assert.match(failure(braces, 0).message ?? '', /placeholder/);
    const had = lines('export function f(): void {', '  // ...', '  g();', '}');
    applyOk({ 'src/had.ts': had }, [
      {
        type: 'REPLACE_ELEMENT',
        path: 'src/had.ts/function[f]',
        content: 'export function f(): void {\n  // ...\n  h();\n}',
      },
    ]);
  });

  void test('ordinary comments are not mistaken for placeholders', () => {
    applyOk(files, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/class[UserService]/method[validate]`,
        content:
          'validate(input: string): boolean {\n  // Other fields are checked by the schema.\n  // Keep existing sessions alive: see #12.\n  const rest = { ...input };\n  return Boolean(rest);\n}',
      },
    ]);
  });
});
