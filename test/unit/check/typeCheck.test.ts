import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { compareErrors } from '../../../src/core/check/newErrors';
import {
  describeTypeErrors,
  TypeCheckService,
  type NewTypeError,
  type ProposedFileChange,
} from '../../../src/core/check/typeCheck';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';

/** A real workspace on disk (the check reads files through the real file system and the real compiler). */
function workspace(files: Record<string, string>): { root: string; service: TypeCheckService; graph: CodeGraph } {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-typecheck-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const graph = new CodeGraph(nodeSourceFileSystem(root));
  return { root, service: new TypeCheckService(graph), graph };
}

const GREET = `export function greet(name: string, punctuation: string): string {
  return \`Hello, \${name}\${punctuation}\`;
}

export function farewell(name: string): string {
  return \`Bye, \${name}\`;
}
`;

const APP = `import { greet, farewell } from './greet';
import { missingThing } from 'a-package-that-is-not-installed';

export function main(): void {
  console.log(greet('Ada', '!'));
  console.log(farewell('Ada'));
  const broken: number = 'already wrong';
  missingThing();
}
`;

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function change(root: string, file: string, edit: (text: string) => string | undefined): ProposedFileChange {
  const before = readFileSync(join(root, file), 'utf8');
  return { file, before, after: edit(before) };
}

void describe('type-aware verification', () => {
  const { root, service } = workspace({
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM'],
      },
      include: ['src'],
    }),
    'src/greet.ts': GREET,
    'src/app.ts': APP,
    'src/index.ts': "export * from './greet';\n",
    'src/viaBarrel.ts': "import { greet } from './index';\n\nexport const hello = greet('Bo', '.');\n",
    'src/unrelated.ts': 'export const answer: number = 42;\n',
  });
  roots.push(root);

  void test('a parameter added to an exported function is caught at its call sites in other files', async () => {
    const result = await service.check([
      change(root, 'src/greet.ts', (t) =>
        t.replace('export function farewell(name: string)', 'export function farewell(name: string, polite: boolean)'),
      ),
    ]);
    assert.equal(result.newErrors.length, 1, describeTypeErrors(result.newErrors));
    const [error] = result.newErrors;
    assert.equal(error?.file, 'src/app.ts');
    assert.equal(error?.code, 2554);
    assert.equal(error?.elementPath, 'src/app.ts/function[main]');
    assert.equal(error?.lineText, "console.log(farewell('Ada'));");
    assert.match(describeTypeErrors(result.newErrors), /src\/app\.ts\/function\[main\]: TS2554 Expected 2 arguments/);
    assert.deepEqual([...result.checkedFiles].sort(), [
      'src/app.ts',
      'src/greet.ts',
      'src/index.ts',
      'src/viaBarrel.ts',
    ]);
  });

  void test('a parameter dropped is caught too, also through a barrel that re-exports the file', async () => {
    const result = await service.check([
      change(root, 'src/greet.ts', (t) =>
        t.replace('greet(name: string, punctuation: string)', 'greet(name: string)').replace('${punctuation}', ''),
      ),
    ]);
    const files = result.newErrors.map((e) => `${e.file} TS${e.code}`).sort();
    assert.deepEqual(files, ['src/app.ts TS2554', 'src/viaBarrel.ts TS2554']);
    assert.equal(
      result.newErrors.find((e) => e.file === 'src/viaBarrel.ts')?.elementPath,
      'src/viaBarrel.ts/variable[hello]',
    );
  });

  void test('deleting an imported export is caught in the importer', async () => {
    const result = await service.check([
      change(root, 'src/greet.ts', (t) => t.slice(0, t.indexOf('export function farewell'))),
    ]);
    assert.equal(result.newErrors.length >= 1, true);
    assert.ok(result.newErrors.every((e) => e.file === 'src/app.ts'));
    assert.ok(
      result.newErrors.some((e) => e.code === 2305),
      describeTypeErrors(result.newErrors),
    );
  });

  void test('deleting a whole imported file is caught', async () => {
    const result = await service.check([
      change(root, 'src/unrelated.ts', () => undefined),
      change(root, 'src/greet.ts', () => undefined),
    ]);
    assert.ok(
      result.newErrors.some((e) => e.file === 'src/app.ts' && e.code === 2307),
      describeTypeErrors(result.newErrors),
    );
  });

  void test('existing errors and missing packages never count; a harmless edit that shifts every line adds none', async () => {
    const result = await service.check([
      change(root, 'src/app.ts', (t) =>
        t.replace('export function main', '// a comment\n\n/** Runs. */\nexport function main'),
      ),
    ]);
    assert.deepEqual(result.newErrors, []);
    const renamed = await service.check([
      change(root, 'src/app.ts', (t) => t.replace('export function main()', 'export function run()')),
    ]);
    assert.deepEqual(renamed.newErrors, [], 'old errors inside a renamed function stay old');
  });

  void test('a new error in the changed file itself is reported with its element', async () => {
    const result = await service.check([
      change(
        root,
        'src/unrelated.ts',
        (t) => `${t}export function half(): number {\n  return answer.toUpperCase();\n}\n`,
      ),
    ]);
    assert.equal(result.newErrors.length, 1);
    assert.equal(result.newErrors[0]?.elementPath, 'src/unrelated.ts/function[half]');
    assert.equal(result.newErrors[0]?.code, 2339);
  });

  void test('a package that is not installed never blocks; a relative import that does not resolve does', async () => {
    const result = await service.check([
      change(
        root,
        'src/unrelated.ts',
        (t) =>
          `import { thing, wrap } from 'not-installed-either';\nimport { gone } from './gone';\n${t}export const x = thing + gone;\nexport const y = wrap((value) => value);\n`,
      ),
    ]);
    assert.deepEqual(
      result.newErrors.map((e) => `${e.code} ${e.lineText}`),
      ["2307 import { gone } from './gone';"],
    );
    assert.deepEqual(
      result.environmentErrors.map((e) => e.code).sort(),
      [2307, 7006],
      'the untyped callback parameter follows from the missing package',
    );
  });

  void test("a type guard from a package that is not installed narrows nothing: what it would narrow to is not the batch's error", async () => {
    const guarded = (body: string): ProposedFileChange =>
      change(
        root,
        'src/unrelated.ts',
        (t) =>
          `import { isNotFound } from 'router-not-installed';\nimport * as guards from 'guards-not-installed';\n${t}` +
          `export function onCatch(error: Error): void {\n${body}\n}\n`,
      );
    const set = await service.check([
      guarded(
        '  if (isNotFound(error)) {\n    error.routeId ??= "root";\n  }\n' +
          '  const id = guards.isTagged(error) ? error.tag : undefined;\n  void id;',
      ),
    ]);
    assert.deepEqual(set.newErrors, []);
    assert.deepEqual(
      set.environmentErrors.filter((e) => e.code === 2339).map((e) => e.reason),
      [
        '`isNotFound` comes from router-not-installed, not installed: it narrows nothing',
        '`guards.isTagged` comes from guards-not-installed, not installed: it narrows nothing',
      ],
    );
    // Outside the guarded branch, or under a local guard, the property error is the code's.
    const counted = await service.check([
      guarded(
        '  if (isNotFound(error)) {\n    return;\n  }\n  error.routeId ??= "root";\n' +
          '  const local = (e: unknown): boolean => e !== null;\n  if (local(error)) error.other = 1;',
      ),
    ]);
    assert.deepEqual(
      counted.newErrors.map((e) => `${e.code} ${e.lineText.trim()}`),
      ['2339 error.routeId ??= "root";', '2339 if (local(error)) error.other = 1;'],
    );
  });

  void test("what changed on disk since the last check is seen: an error the user just made is not the batch's", async () => {
    const harmless = (): ProposedFileChange =>
      change(root, 'src/greet.ts', (t) => t.replace('return `Bye, ${name}`;', 'return `Goodbye, ${name}`;'));
    assert.deepEqual((await service.check([harmless()])).newErrors, []);
    const appBefore = readFileSync(join(root, 'src/app.ts'), 'utf8');
    writeFileSync(
      join(root, 'src/app.ts'),
      appBefore.replace("console.log(farewell('Ada'));", 'console.log(farewell(42));'),
    );
    try {
      assert.deepEqual((await service.check([harmless()])).newErrors, []);
    } finally {
      writeFileSync(join(root, 'src/app.ts'), appBefore);
    }
  });

  void test('a batch that fixes an error adds none, and nothing is written', async () => {
    const before = readFileSync(join(root, 'src/app.ts'), 'utf8');
    const result = await service.check([
      change(root, 'src/app.ts', (t) =>
        t.replace("const broken: number = 'already wrong';", 'const fine: number = 1;'),
      ),
    ]);
    assert.deepEqual(result.newErrors, []);
    assert.deepEqual(result.environmentErrors, []);
    assert.equal(readFileSync(join(root, 'src/app.ts'), 'utf8'), before);
  });

  void test('a file the batch creates is checked against the code it imports', async () => {
    const result = await service.check([
      {
        file: 'src/new.ts',
        before: undefined,
        after: "import { greet } from './greet';\nexport const x = greet(1, '!');\n",
      },
    ]);
    assert.equal(result.newErrors.length, 1);
    assert.equal(result.newErrors[0]?.code, 2345);
    assert.equal(result.newErrors[0]?.file, 'src/new.ts');
  });
});

void describe('compiler options', () => {
  const implicitAny = 'export function twice(value) {\n  return value * 2;\n}\n';

  void test("the workspace's tsconfig decides what is an error", async () => {
    const { root, service } = workspace({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: false } }),
      'src/math.ts': 'export const one = 1;\n',
    });
    roots.push(root);
    const result = await service.check([change(root, 'src/math.ts', (t) => t + implicitAny)]);
    assert.deepEqual(result.newErrors, []);
  });

  void test('without a tsconfig the defaults are strict', async () => {
    const { root, service } = workspace({ 'src/math.ts': 'export const one = 1;\n' });
    roots.push(root);
    const result = await service.check([change(root, 'src/math.ts', (t) => t + implicitAny)]);
    assert.deepEqual(
      result.newErrors.map((e) => e.code),
      [7006],
    );
  });
});

void describe('importers are checked again only when what they see changed', () => {
  const { root, service } = workspace({
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler' },
    }),
    'src/lib.ts': [
      'export interface Options {',
      '  depth: number;',
      '}',
      'export function count(options: Options): number {',
      '  return options.depth + 1;',
      '}',
      'export function label() {',
      "  return 'x'.length;",
      '}',
      'export enum Level {',
      '  Low = 1,',
      '}',
      '',
    ].join('\n'),
    'src/use.ts': [
      "import { count, label, Level, type Options } from './lib';",
      'const options: Options = { depth: 2 };',
      'export const total: number = count(options) + label() + Level.Low;',
      '',
    ].join('\n'),
    // Past ten importers, what they see of the changed file decides whether they are checked again.
    ...Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => i + 1).map((i) => [
        `src/more${i}.ts`,
        `import { count } from './lib';\nexport const counter${i} = count;\n`,
      ]),
    ),
  });
  roots.push(root);
  const edit = (from: string, to: string): ProposedFileChange => change(root, 'src/lib.ts', (t) => t.replace(from, to));

  void test('a body changed under an explicit type, or a private helper added: importers keep their diagnostics', async () => {
    const body = await service.check([edit('return options.depth + 1;', 'return options.depth * 2;')]);
    assert.equal(body.importersUnaffected, true);
    assert.deepEqual(body.newErrors, []);
    const helper = await service.check([
      edit('export enum Level', 'function helper(): string {\n  return "h";\n}\nexport enum Level'),
    ]);
    assert.equal(helper.importersUnaffected, true);
  });

  void test('an inferred return type, an interface member or an enum value that changes: importers are checked', async () => {
    const inferred = await service.check([edit("return 'x'.length;", "return 'x';")]);
    assert.equal(inferred.importersUnaffected, false);
    assert.deepEqual(
      inferred.newErrors.map((e) => `${e.file} TS${e.code}`),
      ['src/use.ts TS2322'],
    );
    const member = await service.check([edit('  depth: number;', '  depth: number;\n  name: string;')]);
    assert.equal(member.importersUnaffected, false);
    assert.deepEqual(
      member.newErrors.map((e) => `${e.file} TS${e.code}`),
      ['src/use.ts TS2741'],
    );
    const value = await service.check([edit('Low = 1,', 'Low = 2,')]);
    assert.equal(value.importersUnaffected, false);
  });
});

void describe('module augmentations', () => {
  const { root, service } = workspace({
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler' },
    }),
    'src/types.ts': 'export interface Options {\n  depth: number;\n}\n',
    'src/augment.ts': "export {};\ndeclare module './types' {\n  interface Options {\n    extra: string;\n  }\n}\n",
    'src/lib.ts':
      "import type { Options } from './types';\nexport function extraOf(options: Options): string {\n  return options.extra;\n}\n",
    'src/use.ts':
      "import './augment';\nimport { extraOf } from './lib';\nexport const value: string = extraOf({ depth: 1, extra: 'x' });\n",
    ...Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => i + 1).map((i) => [
        `src/more${i}.ts`,
        `import { extraOf } from './lib';\nexport const extra${i} = extraOf;\n`,
      ]),
    ),
  });
  roots.push(root);

  void test('an augmentation in a file the changed file never imports is seen on both sides', async () => {
    const result = await service.check([
      change(root, 'src/lib.ts', (t) => t.replace('return options.extra;', 'return options.extra.trim();')),
    ]);
    assert.deepEqual(result.newErrors, []);
    assert.equal(result.importersUnaffected, true);
  });
});

void describe('matching errors before and after an edit', () => {
  const error = (message: string, lineText = '<Asset {...tag} nonce={nonce} />'): NewTypeError => ({
    file: 'src/HeadContent.tsx',
    line: 25,
    column: 9,
    code: 2322,
    message,
    elementPath: 'src/HeadContent.tsx/function[HeadContent]',
    lineText,
  });

  void test("an old error whose union prints in another order is not new (react-router's HeadContent)", () => {
    const before = error(`Type '{ tag: "meta" | "link"; key: string; }' is not assignable to type 'RouterManagedTag'.`);
    const after = error(`Type '{ tag: "link" | "meta"; key: string; }' is not assignable to type 'RouterManagedTag'.`);
    assert.deepEqual(compareErrors([before], [after]).added, []);
  });

  void test('another type on the same line is new', () => {
    const before = error(`Type '{ tag: "meta" | "link"; }' is not assignable to type 'RouterManagedTag'.`);
    const changed = error(`Type '{ tag: "meta" | "script"; }' is not assignable to type 'RouterManagedTag'.`);
    assert.deepEqual(compareErrors([before], [changed]).added, [changed]);
  });

  void test('an error whose code and message the file already had is old, however many copies the batch adds (issue 24)', () => {
    const expectMissing = (line: number, lineText: string): NewTypeError => ({
      file: 'src/sum.test.ts',
      line,
      column: 3,
      code: 2304,
      message: "Cannot find name 'expect'.",
      elementPath: undefined,
      lineText,
    });
    const before = Array.from({ length: 114 }, (_, i) => expectMissing(i + 2, `expect(sum(${i}, 1)).toBe(${i + 1});`));
    const after = [
      ...before,
      expectMissing(200, 'expect(sum(2, 2)).toBe(4);'),
      expectMissing(201, 'expect(sum(0, 0)).toBe(0);'),
    ];
    assert.deepEqual(compareErrors(before, after), { added: [], removed: 0 });
    const vi = { ...expectMissing(202, 'vi.fn();'), message: "Cannot find name 'vi'." };
    assert.deepEqual(compareErrors(before, [...after, vi]).added, [vi], 'another name is another message');
    const elsewhere = { ...expectMissing(3, 'expect(1);'), file: 'src/other.test.ts' };
    assert.deepEqual(compareErrors(before, [elsewhere]).added, [elsewhere], 'another file is not the same file');
    assert.equal(compareErrors(before, before.slice(0, 100)).removed, 14);
  });
});
