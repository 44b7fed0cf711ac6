import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const cli = join(repoRoot, 'dist', 'cli.js');

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-cli-'));
  mkdirSync(join(root, 'src'));
  copyFileSync(join(repoRoot, 'test', 'unit', 'elements', 'fixtures', 'hardCases.ts'), join(root, 'src', 'hard.ts'));
  writeFileSync(join(root, 'src', 'broken.ts'), 'export function broken( {\n');
  writeFileSync(join(root, 'notes.md'), '# Notes\n\nSome text.\n');
  return root;
}

function scalpel(cwd: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

void describe('scalpel CLI: outline, context, tokens', () => {
  const root = workspace();

  void test('outline prints element paths with line ranges and kinds', () => {
    const { code, stdout } = scalpel(root, 'outline', 'src/hard.ts');
    assert.equal(code, 0);
    assert.match(stdout, /^ {2}src\/hard\.ts\/class\[UserService\]\/method\[validate\] {2}52-54 {2}method$/m);
  });

  void test('outline --json gives the tree', () => {
    const { code, stdout } = scalpel(root, 'outline', 'src/hard.ts', '--json');
    assert.equal(code, 0);
    const json = JSON.parse(stdout) as {
      file: string;
      elements: Array<{ path: string; children: Array<{ path: string; startLine: number }> }>;
    };
    assert.equal(json.file, 'src/hard.ts');
    const service = json.elements.find((e) => e.path === 'src/hard.ts/class[UserService]');
    assert.equal(service?.children.find((c) => c.path.endsWith('method[validate]'))?.startLine, 52);
  });

  void test('context --json reports text, tokens, whole-file tokens and the level per element', () => {
    const { code, stdout } = scalpel(
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

  void test('context --full and --budget', () => {
    const full = scalpel(root, 'context', 'src/hard.ts', '--focus', 'src/hard.ts/enum[Color]', '--full');
    assert.equal(full.code, 0);
    assert.ok(full.stdout.includes(readFileSync(join(root, 'src', 'hard.ts'), 'utf8')));
    const tight = scalpel(
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

  void test('tokens counts any file', () => {
    const { code, stdout } = scalpel(root, 'tokens', 'notes.md', 'src/hard.ts', '--json');
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

  void test('bad input exits non-zero with a one-line reason', () => {
    const cases: Array<[string[], RegExp]> = [
      [['outline', 'src/missing.ts'], /^scalpel outline: src\/missing\.ts: no such file\n$/],
      [['outline', 'src/broken.ts'], /^scalpel outline: src\/broken\.ts:2:1: syntax error: .+\n$/],
      [['outline', 'notes.md'], /^scalpel outline: notes\.md: not a TypeScript or JavaScript file/],
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
      const { code, stderr } = scalpel(root, ...args);
      assert.equal(code, 1, args.join(' '));
      assert.match(stderr, expected);
      assert.equal(stderr.trimEnd().split('\n').length, 1, `one line for ${args.join(' ')}`);
    }
  });

  void test('a symlink that leads outside the workspace is refused', () => {
    const outside = mkdtempSync(join(tmpdir(), 'scalpel-outside-'));
    writeFileSync(join(outside, 'secret.ts'), 'export const secret = 1;\n');
    symlinkSync(outside, join(root, 'linked'));
    const { code, stderr } = scalpel(root, 'outline', 'linked/secret.ts');
    assert.equal(code, 1);
    assert.match(stderr, /outside the workspace/);
  });

  void test('usage errors exit 2; --help exits 0 for every command', () => {
    assert.equal(scalpel(root, 'outline').code, 2);
    assert.equal(scalpel(root, 'frobnicate').code, 2);
    assert.equal(scalpel(root, 'context', 'src/hard.ts', '--budget', 'many').code, 2);
    for (const command of ['outline', 'context', 'tokens']) {
      const help = scalpel(root, command, '--help');
      assert.equal(help.code, 0);
      assert.match(help.stdout, new RegExp(`^Usage: scalpel ${command} `));
    }
  });

  void test('--root makes paths relative to another folder', () => {
    const { code, stdout } = scalpel(tmpdir(), 'outline', join(root, 'src', 'hard.ts'), '--root', root, '--json');
    assert.equal(code, 0);
    assert.equal((JSON.parse(stdout) as { file: string }).file, 'src/hard.ts');
  });
});
