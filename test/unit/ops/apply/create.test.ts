import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CreatePosition } from '../../../../src/core/ops/operation';
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

function create(path: string, position: CreatePosition, content: string, elementKind?: string) {
  return elementKind === undefined
    ? { type: 'CREATE_ELEMENT' as const, path, position, content }
    : { type: 'CREATE_ELEMENT' as const, path, position, content, elementKind };
}

const RESET = 'reset(): void {\n  this.label = "";\n}';

void describe('CREATE_ELEMENT in a class', () => {
  const klass = `${SERVICE}/class[UserService]`;

  void test('LAST_CHILD: after the last member, one blank line apart as the class separates its methods', () => {
    const { after } = applyOk(files, [create(klass, { kind: 'LAST_CHILD' }, RESET, 'method')]);
    assert.equal(
      after(SERVICE),
      edited(service, '</ul>`;\n  }\n}\n', '</ul>`;\n  }\n\n  reset(): void {\n    this.label = "";\n  }\n}\n'),
    );
  });

  void test('FIRST_CHILD: right after the opening brace', () => {
    const { after } = applyOk(files, [create(klass, { kind: 'FIRST_CHILD' }, 'static readonly version = 2;')]);
    assert.equal(
      after(SERVICE),
      edited(
        service,
        'implements Named {\n  static readonly instances = 0;',
        'implements Named {\n  static readonly version = 2;\n  static readonly instances = 0;',
      ),
    );
  });

  void test('AFTER a property among packed properties: no blank line, and the semicolon the file uses', () => {
    const { after } = applyOk(files, [
      create(klass, { kind: 'AFTER', sibling: 'property[cache]' }, 'private count = 0'),
    ]);
    assert.equal(
      after(SERVICE),
      edited(
        service,
        '  private readonly cache = new Map<string, number>();\n',
        '  private readonly cache = new Map<string, number>();\n  private count = 0;\n',
      ),
    );
  });

  void test('BEFORE a documented method goes above its doc comment; AFTER an overload set goes after the implementation', () => {
    const { after } = applyOk(files, [
      create(klass, { kind: 'BEFORE', sibling: 'method[validate]' }, 'check(): boolean {\n  return true;\n}'),
      create(
        klass,
        { kind: 'AFTER', sibling: `${SERVICE}/class[UserService]/method[find]` },
        'size(): number {\n  return 0;\n}',
      ),
    ]);
    assert.equal(
      after(SERVICE),
      edited(
        service,
        '    return this.cache.get(String(id));\n  }\n\n  /**\n   * Checks the input.',
        '    return this.cache.get(String(id));\n  }\n\n  size(): number {\n    return 0;\n  }\n\n  check(): boolean {\n    return true;\n  }\n\n  /**\n   * Checks the input.',
      ),
    );
  });

  void test('several creations at one place keep batch order; BEFORE/AFTER may name an element created earlier in the batch', () => {
    const { after } = applyOk(files, [
      create(klass, { kind: 'LAST_CHILD' }, 'a(): void {}'),
      create(klass, { kind: 'LAST_CHILD' }, 'c(): void {}'),
      create(klass, { kind: 'AFTER', sibling: 'method[a]' }, 'b(): void {}'),
      create(klass, { kind: 'BEFORE', sibling: 'method[a]' }, 'z(): void {}'),
    ]);
    assert.equal(
      after(SERVICE),
      edited(
        service,
        '</ul>`;\n  }\n}\n',
        '</ul>`;\n  }\n\n  z(): void {}\n\n  a(): void {}\n\n  b(): void {}\n\n  c(): void {}\n}\n',
      ),
    );
  });

  void test('an empty class `{}` opens up', () => {
    const { after } = applyOk(files, [create(`${CONFIG}/class[Empty]`, { kind: 'LAST_CHILD' }, 'size = 0;')]);
    assert.equal(after(CONFIG), edited(config, 'export class Empty {}', 'export class Empty {\n  size = 0;\n}'));
  });

  void test('a getter next to its setter is not a name clash', () => {
    const pair = lines(
      'export class Box {',
      '  set value(v: number) {',
      '    this.v = v;',
      '  }',
      '  private v = 0;',
      '}',
    );
    const { after } = applyOk({ 'src/box.ts': pair }, [
      create(
        'src/box.ts/class[Box]',
        { kind: 'BEFORE', sibling: 'setter[value]' },
        'get value(): number {\n  return this.v;\n}',
      ),
    ]);
    assert.ok(
      after('src/box.ts').startsWith(
        'export class Box {\n  get value(): number {\n    return this.v;\n  }\n  set value',
      ),
    );
  });
});

void describe('CREATE_ELEMENT in other containers', () => {
  void test('interface and namespace members take the indentation and separators of their siblings', () => {
    const { after } = applyOk(files, [
      create(`${SERVICE}/interface[Shape]`, { kind: 'AFTER', sibling: 'method[scale]' }, 'rotate(deg: number): Shape'),
      create(`${SERVICE}/namespace[Geometry]`, { kind: 'LAST_CHILD' }, 'export const unit = 1'),
    ]);
    let expected = edited(
      service,
      '  scale(factor: number): Shape;\n',
      '  scale(factor: number): Shape;\n  rotate(deg: number): Shape;\n',
    );
    expected = edited(
      expected,
      '    return Math.PI * c.radius ** 2;\n  }\n}',
      '    return Math.PI * c.radius ** 2;\n  }\n  export const unit = 1;\n}',
    );
    assert.equal(after(SERVICE), expected);
  });

  void test('enum members: commas added where needed, whatever the content holds', () => {
    const trailing = applyOk(files, [create(`${CONFIG}/enum[Color]`, { kind: 'LAST_CHILD' }, 'Yellow = 4')]);
    assert.equal(trailing.after(CONFIG), edited(config, '  Green,\n}', '  Green,\n  Yellow = 4,\n}'));
    const noTrailing = applyOk(files, [create(`${CONFIG}/enum[Size]`, { kind: 'LAST_CHILD' }, "Medium = 'm',")]);
    assert.equal(noTrailing.after(CONFIG), edited(config, "  Large = 'l'\n}", "  Large = 'l',\n  Medium = 'm'\n}"));
    const first = applyOk(files, [create(`${CONFIG}/enum[Size]`, { kind: 'FIRST_CHILD' }, "Tiny = 't'")]);
    assert.equal(
      first.after(CONFIG),
      edited(config, 'export enum Size {\n  Small', "export enum Size {\n  Tiny = 't',\n  Small"),
    );
  });

  void test('object literal members at every position, in objects with and without a trailing comma and on one line', () => {
    const cases: [string, CreatePosition, string, string][] = [
      [
        `${CONFIG}/variable[config]`,
        { kind: 'FIRST_CHILD' },
        'export const config = {\n  port',
        'export const config = {\n  host: "localhost",\n  port',
      ],
      [
        `${CONFIG}/variable[config]`,
        { kind: 'AFTER', sibling: 'property[port]' },
        '  port: 8080,\n',
        '  port: 8080,\n  host: "localhost",\n',
      ],
      [
        `${CONFIG}/variable[config]`,
        { kind: 'LAST_CHILD' },
        '  },\n} as const;',
        '  },\n  host: "localhost",\n} as const;',
      ],
      [
        `${CONFIG}/variable[plain]`,
        { kind: 'LAST_CHILD' },
        '  a: 1,\n  b: 2\n};',
        '  a: 1,\n  b: 2,\n  host: "localhost"\n};',
      ],
      [
        `${CONFIG}/variable[plain]`,
        { kind: 'BEFORE', sibling: 'property[b]' },
        '  a: 1,\n  b: 2\n};',
        '  a: 1,\n  host: "localhost",\n  b: 2\n};',
      ],
      [
        `${CONFIG}/variable[inline]`,
        { kind: 'LAST_CHILD' },
        '{ a: 1, b: 2, c: 3 }',
        '{ a: 1, b: 2, c: 3, host: "localhost" }',
      ],
      [
        `${CONFIG}/variable[inline]`,
        { kind: 'FIRST_CHILD' },
        '{ a: 1, b: 2, c: 3 }',
        '{ host: "localhost", a: 1, b: 2, c: 3 }',
      ],
      [
        `${CONFIG}/variable[inline]`,
        { kind: 'AFTER', sibling: 'property[a]' },
        '{ a: 1, b: 2, c: 3 }',
        '{ a: 1, host: "localhost", b: 2, c: 3 }',
      ],
      [
        `${CONFIG}/variable[settings]`,
        { kind: 'LAST_CHILD' },
        '  verbose: false,\n});',
        '  verbose: false,\n  host: "localhost",\n});',
      ],
    ];
    for (const [path, position, from, to] of cases) {
      for (const content of ['host: "localhost"', 'host: "localhost",']) {
        const { after } = applyOk(files, [create(path, position, content)]);
        assert.equal(after(CONFIG), edited(config, from, to), `${path} ${position.kind} with ${content}`);
      }
    }
    const nested = applyOk(files, [
      create(`${CONFIG}/variable[config]/property[routes]`, { kind: 'LAST_CHILD' }, 'admin: "/admin"'),
    ]);
    assert.ok(nested.after(CONFIG).includes('    user: (id: string) => `/users/${id}`,\n    admin: "/admin",\n  },'));
  });

  void test('type literal members on one line', () => {
    const last = applyOk(files, [create(`${CONFIG}/type[Point]`, { kind: 'LAST_CHILD' }, 'z: number')]);
    assert.equal(
      last.after(CONFIG),
      edited(config, '{ x: number; y: number }', '{ x: number; y: number; z: number; }'),
    );
    const between = applyOk(files, [
      create(`${CONFIG}/type[Point]`, { kind: 'AFTER', sibling: 'property[x]' }, 'w: number'),
    ]);
    assert.equal(
      between.after(CONFIG),
      edited(config, '{ x: number; y: number }', '{ x: number; w: number; y: number }'),
    );
  });

  void test('a function body is not a container', () => {
    const result = applyFails(files, [create(`${SERVICE}/variable[handler]`, { kind: 'LAST_CHILD' }, 'const x = 1;')]);
    assert.match(failure(result, 0).message ?? '', /code body, not members/);
  });
});

void describe('CREATE_ELEMENT at the top level', () => {
  void test('FIRST_CHILD goes after the imports, LAST_CHILD at the end', () => {
    const { after } = applyOk(files, [
      create(SERVICE, { kind: 'FIRST_CHILD' }, 'export const VERSION = 1;'),
      create(SERVICE, { kind: 'LAST_CHILD' }, 'export function last(): number {\n  return 1;\n}'),
    ]);
    let expected = edited(
      service,
      "import * as path from 'node:path';\n\n// Leading",
      "import * as path from 'node:path';\n\nexport const VERSION = 1;\n\n// Leading",
    );
    expected += '\nexport function last(): number {\n  return 1;\n}\n';
    assert.equal(after(SERVICE), expected);
  });

  void test('FIRST_CHILD without imports goes after a shebang, directives and a licence header', () => {
    const legacy = fixture('legacy.ts');
    const { after } = applyOk({ 'src/legacy.ts': legacy }, [
      create('src/legacy.ts', { kind: 'FIRST_CHILD' }, 'const started = Date.now();'),
    ]);
    assert.equal(
      after('src/legacy.ts'),
      edited(legacy, "'use strict';\n\nnamespace", "'use strict';\n\nconst started = Date.now();\n\nnamespace"),
    );
  });

  void test('a directive at FIRST_CHILD goes into the prologue: the top of the file, a blank line after it', () => {
    const { after } = applyOk(files, [create(SERVICE, { kind: 'FIRST_CHILD' }, "'use client'")]);
    assert.equal(after(SERVICE), `'use client';\n\n${service}`);
    const legacy = fixture('legacy.ts');
    const withStrict = applyOk({ 'src/legacy.ts': legacy }, [
      create('src/legacy.ts', { kind: 'FIRST_CHILD' }, "'use server';"),
    ]);
    assert.equal(
      withStrict.after('src/legacy.ts'),
      edited(legacy, "'use strict';\n", "'use strict';\n'use server';\n"),
      'after the directives already there',
    );
  });

  void test('LAST_CHILD in a file without a final newline keeps it without one', () => {
    const text = 'export const a = 1;\n\nexport function b(): void {}';
    const { after } = applyOk({ 'src/n.ts': text }, [
      create('src/n.ts', { kind: 'LAST_CHILD' }, 'export function c(): void {}'),
    ]);
    assert.equal(
      after('src/n.ts'),
      'export const a = 1;\n\nexport function b(): void {}\n\nexport function c(): void {}',
    );
  });

  void test('into an empty file', () => {
    const { after } = applyOk({ 'src/e.ts': '' }, [create('src/e.ts', { kind: 'LAST_CHILD' }, 'export const a = 1;')]);
    assert.equal(after('src/e.ts'), 'export const a = 1;\n');
  });
});

void describe('imports written at the head of top-level content', () => {
  void test("are merged into the file's imports, for CREATE_ELEMENT and REPLACE_ELEMENT", () => {
    const { after, result } = applyOk(files, [
      create(SERVICE, { kind: 'LAST_CHILD' }, "import { z } from 'zod';\n\nexport const schema = z.string();"),
      {
        type: 'REPLACE_ELEMENT',
        path: `${SERVICE}/variable[handler]`,
        content:
          "import { Injectable, Output } from './decorators';\nexport const handler = async (request: Request): Promise<Response> => {\n  return new Response(String(request.url));\n};",
      },
    ]);
    let expected = edited(
      service,
      "import { Injectable, Input } from './decorators';",
      "import { Injectable, Input, Output } from './decorators';",
    );
    expected = edited(
      expected,
      "import * as path from 'node:path';\n",
      "import * as path from 'node:path';\nimport { z } from 'zod';\n",
    );
    // One-line statements at the end of this file sit together, so the new one joins them without a blank line.
    assert.equal(after(SERVICE), `${expected}export const schema = z.string();\n`);
    assert.match(result.results[0]?.message ?? '', /merged into the imports of the file/);
  });
});

void describe('CREATE_ELEMENT refusals', () => {
  void test('a name the container already has is refused with the path to replace', () => {
    const result = applyFails(files, [
      create(`${SERVICE}/class[UserService]`, { kind: 'LAST_CHILD' }, 'validate(): boolean {\n  return false;\n}'),
    ]);
    const { message, hint, suggestions } = failure(result, 0);
    assert.match(message ?? '', /method\[validate\] already exists/);
    assert.match(hint ?? '', /REPLACE_ELEMENT/);
    assert.deepEqual(suggestions, [`${SERVICE}/class[UserService]/method[validate]`]);
  });

  void test('the same element created twice is refused', () => {
    const result = applyFails(files, [
      create(`${SERVICE}/class[UserService]`, { kind: 'LAST_CHILD' }, RESET),
      create(`${SERVICE}/class[UserService]`, { kind: 'FIRST_CHILD' }, RESET),
    ]);
    assert.match(failure(result, 1).message ?? '', /operation #1 already creates method\[reset\]/);
    assert.equal(result.results[0]?.status, 'skipped');
  });

  void test('a KIND that the content contradicts is refused', () => {
    const result = applyFails(files, [
      create(`${SERVICE}/class[UserService]`, { kind: 'LAST_CHILD' }, 'count = 0;', 'method'),
    ]);
    assert.match(failure(result, 0).message ?? '', /KIND=method was given, but the content declares property\[count\]/);
  });

  void test('an unknown sibling fails with suggestions; a sibling from another container is refused', () => {
    const unknown = applyFails(files, [
      create(`${SERVICE}/class[UserService]`, { kind: 'AFTER', sibling: 'method[validat]' }, RESET),
    ]);
    assert.ok(failure(unknown, 0).suggestions?.includes(`${SERVICE}/class[UserService]/method[validate]`));
    const foreign = applyFails(files, [
      create(
        `${SERVICE}/class[UserService]`,
        { kind: 'AFTER', sibling: `${SERVICE}/interface[Shape]/method[scale]` },
        RESET,
      ),
    ]);
    assert.match(failure(foreign, 0).message ?? '', /is not a direct child of/);
  });

  void test('imports after code inside CREATE_ELEMENT content are refused with a pointer to ADD_IMPORT', () => {
    const result = applyFails(files, [
      create(SERVICE, { kind: 'LAST_CHILD' }, "export const schema = z.string();\nimport { z } from 'zod';"),
    ]);
    assert.match(failure(result, 0).hint ?? '', /ADD_IMPORT/);
  });

  void test('a placeholder or an empty body is refused', () => {
    const lazy = applyFails(files, [
      create(
        `${SERVICE}/class[UserService]`,
        { kind: 'LAST_CHILD' },
        'reset(): void {\n  // ... same as validate ...\n}',
      ),
    ]);
    assert.match(failure(lazy, 0).message ?? '', /placeholder/);
    const empty = applyFails(files, [create(`${SERVICE}/class[UserService]`, { kind: 'LAST_CHILD' }, '')]);
    assert.match(failure(empty, 0).message ?? '', /has no content/);
  });
});
