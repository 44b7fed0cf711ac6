import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { scalpel as runScalpel } from './runScalpel';

const repoRoot = join(__dirname, '..', '..', '..', '..');

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-cli-'));
  mkdirSync(join(root, 'src'));
  copyFileSync(join(repoRoot, 'test', 'unit', 'elements', 'fixtures', 'hardCases.ts'), join(root, 'src', 'hard.ts'));
  writeFileSync(join(root, 'src', 'broken.ts'), 'export function broken( {\n');
  writeFileSync(join(root, 'notes.md'), '# Notes\n\nSome text.\n');
  return root;
}

/** The CLI in-process (see runScalpel.ts); real-process runs are in cliProcess.test.ts. */
function scalpel(cwd: string, ...args: string[]) {
  return runScalpel(cwd, args);
}

void describe('scalpel CLI: outline, context, tokens', () => {
  const root = workspace();

  void test('outline prints element paths with line ranges and kinds', async () => {
    const { code, stdout } = await scalpel(root, 'outline', 'src/hard.ts');
    assert.equal(code, 0);
    assert.match(stdout, /^ {2}src\/hard\.ts\/class\[UserService\]\/method\[validate\] {2}52-54 {2}method$/m);
  });

  void test('outline --json gives the tree', async () => {
    const { code, stdout } = await scalpel(root, 'outline', 'src/hard.ts', '--json');
    assert.equal(code, 0);
    const json = JSON.parse(stdout) as {
      file: string;
      elements: Array<{ path: string; children: Array<{ path: string; startLine: number }> }>;
    };
    assert.equal(json.file, 'src/hard.ts');
    const service = json.elements.find((e) => e.path === 'src/hard.ts/class[UserService]');
    assert.equal(service?.children.find((c) => c.path.endsWith('method[validate]'))?.startLine, 52);
  });

  void test('context --json reports text, tokens, whole-file tokens and the level per element', async () => {
    const { code, stdout } = await scalpel(
      root,
      'context',
      'src/hard.ts',
      '--focus',
      'class[UserService]/method[validate]',
      '--json',
    );
    assert.equal(code, 0, stdout);
    const json = JSON.parse(stdout) as {
      text: string;
      tokens: number;
      wholeFileTokens: number;
      elements: Array<{ path: string; level: string }>;
    };
    assert.ok(json.text.includes('return input.length > 0'));
    assert.ok(json.tokens > 0 && json.tokens < json.wholeFileTokens);
    assert.deepEqual(
      json.elements.find((e) => e.path.endsWith('method[validate]')),
      {
        path: 'src/hard.ts/class[UserService]/method[validate]',
        level: 'full',
      },
    );
  });

  void test('context --full and --budget', async () => {
    const full = await scalpel(root, 'context', 'src/hard.ts', '--focus', 'src/hard.ts/enum[Color]', '--full');
    assert.equal(full.code, 0);
    assert.ok(full.stdout.includes(readFileSync(join(root, 'src', 'hard.ts'), 'utf8')));
    const tight = await scalpel(
      root,
      'context',
      'src/hard.ts',
      '--focus',
      'class[UserService]/method[validate]',
      '--budget',
      '10',
    );
    assert.equal(tight.code, 1);
    assert.match(
      tight.stderr,
      /^scalpel context: the focused elements alone need \d+ tokens but the budget is 10 \(over by \d+\)/,
    );
  });

  void test('tokens counts any file', async () => {
    const { code, stdout } = await scalpel(root, 'tokens', 'notes.md', 'src/hard.ts', '--json');
    assert.equal(code, 0);
    const json = JSON.parse(stdout) as {
      encoding: string;
      files: Array<{ file: string; tokens: number }>;
      total: number;
    };
    assert.equal(json.encoding, 'o200k_base');
    assert.deepEqual(
      json.files.map((f) => f.file),
      ['notes.md', 'src/hard.ts'],
    );
    assert.equal(
      json.total,
      json.files.reduce((sum, f) => sum + f.tokens, 0),
    );
  });

  void test('bad input exits non-zero with a one-line reason', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['outline', 'src/missing.ts'], /^scalpel outline: src\/missing\.ts: no such file\n$/],
      [['outline', 'src/broken.ts'], /^scalpel outline: src\/broken\.ts:2:1: syntax error: .+\n$/],
      [['outline', 'notes.md'], /^scalpel outline: notes\.md: not a file Scalpel reads \(TypeScript or JavaScript \(\.ts/],
      [
        ['context', 'src/hard.ts', '--focus', 'method[nope]'],
        /^scalpel context: no element "src\/hard\.ts\/method\[nope\]" in src\/hard\.ts; nearest: /,
      ],
      [
        ['outline', '../outside.ts'],
        /^scalpel outline: refused path "\.\.\/outside\.ts": it is outside the workspace root/,
      ],
    ];
    for (const [args, expected] of cases) {
      const { code, stderr } = await scalpel(root, ...args);
      assert.equal(code, 1, args.join(' '));
      assert.match(stderr, expected);
      assert.equal(stderr.trimEnd().split('\n').length, 1, `one line for ${args.join(' ')}`);
    }
  });

  void test('a symlink that leads outside the workspace is refused', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'scalpel-outside-'));
    writeFileSync(join(outside, 'secret.ts'), 'export const secret = 1;\n');
    symlinkSync(outside, join(root, 'linked'));
    const { code, stderr } = await scalpel(root, 'outline', 'linked/secret.ts');
    assert.equal(code, 1);
    assert.match(stderr, /outside the workspace/);
  });

  void test('usage errors exit 2; --help exits 0 for every command', async () => {
    assert.equal((await scalpel(root, 'outline')).code, 2);
    assert.equal((await scalpel(root, 'frobnicate')).code, 2);
    assert.equal((await scalpel(root, 'context', 'src/hard.ts', '--budget', 'many')).code, 2);
    assert.equal((await scalpel(root)).code, 2);
    for (const command of ['outline', 'context', 'tokens', 'edit', 'apply', 'diff', 'stats']) {
      const help = await scalpel(root, command, '--help');
      assert.equal(help.code, 0);
      assert.match(help.stdout, new RegExp(`^Usage: scalpel ${command} `));
    }
  });

  void test('--version prints the package version', async () => {
    const { code, stdout } = await scalpel(root, '--version');
    assert.equal(code, 0);
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    assert.equal(stdout, `${version}\n`);
  });
});

/**
 * The --root contract of the README: with --root, relative file arguments are relative to the root (like the paths
 * after `git -C`), absolute ones still work and are refused outside it; without --root the root is the current
 * directory. Each case runs from a folder that holds a decoy `src/hard.ts` of its own, so reading the file from the
 * current directory instead of the root shows.
 */
void describe('scalpel --root: file arguments relative to the root', () => {
  const parent = mkdtempSync(join(tmpdir(), 'scalpel-root-'));
  const root = join(parent, 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  copyFileSync(join(repoRoot, 'test', 'unit', 'elements', 'fixtures', 'hardCases.ts'), join(root, 'src', 'hard.ts'));
  mkdirSync(join(parent, 'src'));
  const decoy = 'export function decoy(): number {\n  return 1;\n}\n';
  writeFileSync(join(parent, 'src', 'hard.ts'), decoy);
  writeFileSync(join(parent, 'outside.ts'), decoy);

  void test('outline: relative to --root (a relative root is taken from the current directory)', async () => {
    for (const rootFlag of ['ws', 'ws/', root]) {
      const { code, stdout, stderr } = await scalpel(parent, 'outline', 'src/hard.ts', '--root', rootFlag, '--json');
      assert.equal(code, 0, stderr);
      const json = JSON.parse(stdout) as { file: string; elements: Array<{ path: string }> };
      assert.equal(json.file, 'src/hard.ts');
      assert.ok(
        json.elements.some((e) => e.path === 'src/hard.ts/class[UserService]'),
        rootFlag,
      );
    }
    // Without --root the current directory is the root, as before: the decoy is read.
    const plain = await scalpel(parent, 'outline', 'src/hard.ts');
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, 'src/hard.ts/function[decoy]  1-3  function\n');
  });

  void test('outline: an absolute path inside the root works, outside it is refused; .. cannot leave the root', async () => {
    const inside = await scalpel(parent, 'outline', join(root, 'src', 'hard.ts'), '--root', 'ws', '--json');
    assert.equal(inside.code, 0, inside.stderr);
    assert.equal((JSON.parse(inside.stdout) as { file: string }).file, 'src/hard.ts');
    for (const input of [join(parent, 'outside.ts'), '../outside.ts']) {
      const refused = await scalpel(parent, 'outline', input, '--root', 'ws');
      assert.equal(refused.code, 1, input);
      assert.match(refused.stderr, /^scalpel outline: refused path ".+": it is outside the workspace root .+\n$/);
    }
    const rootItself = await scalpel(parent, 'outline', '.', '--root', 'ws');
    assert.equal(rootItself.code, 1);
    assert.equal(rootItself.stderr, 'scalpel outline: .: is the workspace root, not a file\n');
  });

  void test('context: relative to --root', async () => {
    const { code, stdout, stderr } = await scalpel(
      parent,
      'context',
      'src/hard.ts',
      '--focus',
      'class[UserService]/method[validate]',
      '--root',
      'ws',
      '--json',
    );
    assert.equal(code, 0, stderr);
    const json = JSON.parse(stdout) as { text: string; elements: Array<{ path: string; level: string }> };
    assert.ok(json.text.includes('return input.length > 0'));
    assert.ok(json.elements.some((e) => e.path === 'src/hard.ts/class[UserService]/method[validate]'));
  });

  void test('tokens: relative to --root', async () => {
    const { code, stdout, stderr } = await scalpel(parent, 'tokens', 'src/hard.ts', '--root', 'ws', '--json');
    assert.equal(code, 0, stderr);
    const json = JSON.parse(stdout) as { files: Array<{ file: string; characters: number }> };
    assert.deepEqual(
      json.files.map((f) => [f.file, f.characters]),
      [['src/hard.ts', readFileSync(join(root, 'src', 'hard.ts'), 'utf8').length]],
    );
  });

  void test('apply: the operations file and the files it names are relative to --root', async () => {
    const work = join(mkdtempSync(join(tmpdir(), 'scalpel-root-apply-')), 'ws');
    mkdirSync(join(work, 'src'), { recursive: true });
    writeFileSync(join(work, 'src', 'hard.ts'), 'export function one(): number {\n  return 1;\n}\n');
    writeFileSync(
      join(work, 'answer.txt'),
      'REPLACE_ELEMENT src/hard.ts/function[one]\n```ts\nexport function one(): number {\n  return 2;\n}\n```\n',
    );
    const run = await scalpel(dirname(work), 'apply', 'answer.txt', '--root', 'ws');
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(
      readFileSync(join(work, 'src', 'hard.ts'), 'utf8'),
      'export function one(): number {\n  return 2;\n}\n',
    );
    const missing = await scalpel(work, 'apply', 'answer.txt', '--root', 'src');
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'scalpel apply: answer.txt: cannot read (ENOENT)\n');
  });

  void test('diff: both files and the default --as path are relative to --root', async () => {
    writeFileSync(join(root, 'old.ts'), readFileSync(join(root, 'src', 'hard.ts'), 'utf8').replace('> 0', '> 1'));
    const { code, stdout, stderr } = await scalpel(parent, 'diff', 'old.ts', 'src/hard.ts', '--root', 'ws', '--json');
    assert.equal(code, 0, stderr);
    const operations = JSON.parse(stdout) as Array<{ path: string }>;
    assert.ok(operations.length > 0);
    assert.ok(
      operations.every((o) => o.path.startsWith('src/hard.ts/')),
      stdout,
    );
    const outside = await scalpel(parent, 'diff', 'old.ts', '../outside.ts', '--root', 'ws');
    assert.equal(outside.code, 2);
    assert.match(
      outside.stderr,
      /^scalpel diff: \.\.\/outside\.ts is outside the workspace root .+: name its workspace path with --as\n$/,
    );
  });

  void test('stats reads no workspace: no --root, and --file is relative to the current directory', async () => {
    writeFileSync(join(parent, 'metrics.jsonl'), '');
    const { code, stdout, stderr } = await scalpel(parent, 'stats', '--file', 'metrics.jsonl', '--json');
    assert.equal(code, 0, stderr);
    assert.equal((JSON.parse(stdout) as { file: string; requests: number }).file, join(parent, 'metrics.jsonl'));
    const fromEnv = await runScalpel(parent, ['stats', '--json'], { env: { SCALPEL_METRICS_FILE: 'metrics.jsonl' } });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.equal((JSON.parse(fromEnv.stdout) as { file: string }).file, join(parent, 'metrics.jsonl'));
    // Without either, the default lies under the HOME the CLI was given, not this process's.
    const byDefault = await runScalpel(parent, ['stats', '--json'], { env: { HOME: join(parent, 'home') } });
    assert.equal(
      (JSON.parse(byDefault.stdout) as { file: string }).file,
      join(parent, 'home', '.local', 'state', 'scalpel', 'metrics.jsonl'),
    );
    assert.equal((await scalpel(parent, 'stats', '--root', 'ws')).code, 2);
  });
});
