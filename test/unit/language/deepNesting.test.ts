import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scalpel } from '../cli/runScalpel';

/**
 * Issue 25: 1,500 nested Rust modules or Java/C# classes made `outline` exit 70 with "Maximum call stack size
 * exceeded" and `apply` fail with an internal error. The outline is built without recursion now, and past 2,000
 * levels a file is refused with a clear error (exit 1), never a stack overflow.
 */

interface DeepCase {
  readonly file: string;
  /** The text of `depth` nested containers around one function. */
  readonly text: (depth: number) => string;
  /** The path of the function inside `depth` containers. */
  readonly inner: (depth: number) => string;
  readonly replacement: string;
  readonly created: string;
}

const nested = (open: (i: number) => string, inner: string, depth: number): string =>
  Array.from({ length: depth }, (_, i) => `${open(i)}\n`).join('') + `${inner}\n` + '}\n'.repeat(depth);
const pathOf = (file: string, segment: (i: number) => string, leaf: string, depth: number): string =>
  [file, ...Array.from({ length: depth }, (_, i) => segment(i)), leaf].join('/');

const CASES: readonly DeepCase[] = [
  {
    file: 'src/deep.rs',
    text: (depth) => nested((i) => `mod m${i} {`, 'fn f() {}', depth),
    inner: (depth) => pathOf('src/deep.rs', (i) => `namespace[m${i}]`, 'function[f]', depth),
    replacement: 'fn f() -> i32 { 1 }',
    created: 'fn g() {}',
  },
  {
    file: 'src/Deep.java',
    text: (depth) => nested((i) => `class C${i} {`, 'void f() {}', depth),
    inner: (depth) => pathOf('src/Deep.java', (i) => `class[C${i}]`, 'method[f]', depth),
    replacement: 'int f() { return 1; }',
    created: 'void g() {}',
  },
  {
    file: 'src/Deep.cs',
    text: (depth) => nested((i) => `class C${i} {`, 'void F() {}', depth),
    inner: (depth) => pathOf('src/Deep.cs', (i) => `class[C${i}]`, 'method[F]', depth),
    replacement: 'int F() { return 1; }',
    created: 'void G() {}',
  },
];

function setUp(c: DeepCase, depth: number): { root: string; path: string; before: string } {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-deep-'));
  const before = c.text(depth);
  const path = join(root, c.file);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(path, before);
  return { root, path, before };
}

for (const c of CASES) {
  void describe(`1,500 nested containers in ${c.file}`, () => {
    void test('outline and context read them; apply edits inside, beside and above them', async () => {
      const { root, path, before } = setUp(c, 1_500);
      const inner = c.inner(1_500);
      const outline = await scalpel(root, ['outline', c.file]);
      assert.equal(outline.code, 0, outline.stderr.slice(0, 500));
      assert.ok(outline.stdout.includes(`${inner}  `), 'the innermost function is listed');

      const context = await scalpel(root, ['context', c.file, '--focus', inner]);
      assert.equal(context.code, 0, context.stderr.slice(0, 500));
      assert.ok(context.stdout.includes(c.text(0).trim()), 'the innermost function is shown');

      const container = inner.slice(0, inner.lastIndexOf('/'));
      writeFileSync(
        join(root, 'ops.txt'),
        [
          `REPLACE_ELEMENT ${inner}`,
          '```',
          c.replacement,
          '```',
          `CREATE_ELEMENT ${container} LAST_CHILD`,
          '```',
          c.created,
          '```',
        ].join('\n'),
      );
      const applied = await scalpel(root, ['apply', 'ops.txt']);
      assert.equal(applied.code, 0, applied.stdout.slice(-500) + applied.stderr.slice(0, 500));
      const after = readFileSync(path, 'utf8');
      assert.ok(after.includes(`${c.replacement}\n${c.created}\n}`), after.slice(after.indexOf(c.replacement) - 50));
      assert.equal(after.length, before.length - c.text(0).length + `${c.replacement}\n${c.created}\n`.length);
    });
  });
}

void describe('past 2,000 levels', () => {
  for (const c of CASES) {
    void test(`${c.file}: outline, context and apply refuse with a clear error and write nothing`, async () => {
      const { root, path, before } = setUp(c, 2_001);
      const inner = c.inner(2_001);
      const outline = await scalpel(root, ['outline', c.file]);
      assert.equal(outline.code, 1, outline.stderr.slice(0, 500));
      assert.match(outline.stderr, /nests elements more than 2,000 levels deep; .*edit this one by hand/);
      const context = await scalpel(root, ['context', c.file, '--focus', inner]);
      assert.equal(context.code, 1, context.stderr.slice(0, 500));
      assert.doesNotMatch(context.stderr, /internal error|call stack/);
      writeFileSync(join(root, 'ops.txt'), `REPLACE_ELEMENT ${inner}\n\`\`\`\n${c.replacement}\n\`\`\`\n`);
      const applied = await scalpel(root, ['apply', 'ops.txt']);
      assert.equal(applied.code, 1);
      assert.match(applied.stdout, /nests elements more than 2,000 levels deep/);
      assert.doesNotMatch(applied.stdout + applied.stderr, /internal error|call stack/);
      assert.equal(readFileSync(path, 'utf8'), before);
    });
  }

  void test('a TypeScript file too deep for the compiler parser is refused the same way', async () => {
    const root = mkdtempSync(join(tmpdir(), 'scalpel-deep-'));
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'src/deep.ts'), nested((i) => `namespace N${i} {`, 'export function f() {}', 1_500));
    const outline = await scalpel(root, ['outline', 'src/deep.ts']);
    assert.equal(outline.code, 1, outline.stderr.slice(0, 500));
    assert.match(outline.stderr, /src\/deep\.ts is nested too deeply for the TypeScript parser/);
  });
});

void describe('scalpel edit on 1,500 nested Rust modules', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(async () => {
    await server.close();
  });

  void test('the model replaces the innermost function and the edit is written', async () => {
    const c = CASES[0];
    assert.ok(c !== undefined);
    const { root, path, before } = setUp(c, 1_500);
    const inner = c.inner(1_500);
    server.enqueue(scripted.answer(`REPLACE_ELEMENT ${inner}\n\`\`\`rust\n${c.replacement}\n\`\`\`\n`));
    const env = { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: server.openaiBaseUrl, SCALPEL_MODEL: 'gpt-4o-mini' };
    const run = await scalpel(root, ['edit', c.file, '--focus', inner, '-m', 'return one'], { env });
    assert.equal(run.code, 0, run.stderr.slice(0, 1_000));
    assert.equal(readFileSync(path, 'utf8'), before.replace('fn f() {}', c.replacement));
  });
});
