import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import { describeReferences, ReferenceFinder } from '../../../src/core/graph/references';
import { findNamePosition } from '../../../src/core/language/typescript/typescriptSemantics';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { outlineSource } from '../../../src/core/elements/outline';
import { resolveElementPathOrThrow } from '../../../src/core/elements/resolve';

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler' } }),
  'src/user.ts': `export class User {
  @Tracked() name = '';
  constructor(readonly id: string) {}
  validate(input: string): boolean {
    return input.length > 0;
  }
  rename(next: string): void {
    if (this.validate(next)) this.name = next;
  }
}

export function loadUser(id: string): User {
  return new User(id);
}

function Tracked(): PropertyDecorator {
  return () => undefined;
}
`,
  'src/service.ts': `import { loadUser, User } from './user';

export function check(id: string): boolean {
  const user = loadUser(id);
  return user.validate(id);
}

export const service = {
  run(user: User) {
    return user.validate('x') && check(user.id);
  },
};
`,
  'src/index.ts': "export { loadUser } from './user';\n",
  'src/viaIndex.ts': "import { loadUser } from './index';\n\nexport const first = loadUser('1');\n",
  // Mentions the names without using the declarations: the compiler, not the text, decides.
  'src/other.ts': "export function validate(x: string): boolean {\n  return x === 'loadUser';\n}\n",
};

void describe('references', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-references-'));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  after(() => rmSync(root, { recursive: true, force: true }));
  const graph = new CodeGraph(nodeSourceFileSystem(root));
  const finder = new ReferenceFinder(graph);

  void test('a method: its call sites in other files first, each with its element and line', () => {
    const refs = finder.referencesOf('src/user.ts', 'src/user.ts/class[User]/method[validate]');
    assert.deepEqual(
      refs.sites.map((s) => [s.file, s.elementPath, s.lineText]),
      [
        ['src/service.ts', 'src/service.ts/function[check]', 'return user.validate(id);'],
        [
          'src/service.ts',
          'src/service.ts/variable[service]/method[run]',
          "return user.validate('x') && check(user.id);",
        ],
        ['src/user.ts', 'src/user.ts/class[User]/method[rename]', 'if (this.validate(next)) this.name = next;'],
      ],
    );
  });

  void test('an exported function: importers directly and through a re-export; mere mentions are not references', () => {
    const refs = finder.referencesOf('src/user.ts', 'src/user.ts/function[loadUser]');
    const where = refs.sites.map((s) => `${s.file}:${s.line}`);
    assert.ok(where.includes('src/service.ts:4'), where.join(' '));
    assert.ok(where.includes('src/viaIndex.ts:3'), where.join(' '));
    assert.ok(!where.some((w) => w.startsWith('src/other.ts')), where.join(' '));
  });

  void test('a decorated property: the name, not the decorator, and writes are marked', () => {
    const refs = finder.referencesOf('src/user.ts', 'src/user.ts/class[User]/property[name]');
    assert.equal(refs.sites.length, 1);
    assert.equal(refs.sites[0]?.isWrite, true);
    assert.equal(refs.sites[0]?.elementPath, 'src/user.ts/class[User]/method[rename]');
  });

  void test('the description is budgeted and says how many are left out and where', () => {
    const refs = finder.referencesOf('src/user.ts', 'src/user.ts/class[User]/method[validate]');
    const text = describeReferences(refs, { limit: 1 });
    assert.equal(
      text,
      [
        'References to src/user.ts/class[User]/method[validate] (3 in 2 files):',
        '- src/service.ts/function[check]: return user.validate(id);',
        '- … and 2 more in src/service.ts, src/user.ts',
      ].join('\n'),
    );
  });

  void test('unsaved texts are searched instead of the disk', () => {
    const texts = new Map([
      [
        'src/viaIndex.ts',
        "import { loadUser } from './index';\n\nexport const a = loadUser('1');\nexport const b = loadUser('2');\n",
      ],
    ]);
    const refs = finder.referencesOf('src/user.ts', 'src/user.ts/function[loadUser]', { texts });
    assert.equal(refs.sites.filter((s) => s.file === 'src/viaIndex.ts').length, 2);
  });
});

void describe('name position', () => {
  void test('skips decorators and modifiers', () => {
    const text = "class A {\n  @Input('name') @Other.thing name = '';\n  private static readonly count = 1;\n}\n";
    const outline = outlineSource('a.ts', text);
    for (const [path, expected] of [
      ['a.ts/class[A]/property[name]', text.indexOf("name = ''")],
      ['a.ts/class[A]/property[count]', text.indexOf('count')],
      ['a.ts/class[A]', text.indexOf('A')],
    ] as const) {
      assert.equal(findNamePosition(text, resolveElementPathOrThrow(outline, path).element), expected, path);
    }
  });
});
