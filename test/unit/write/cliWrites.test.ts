import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { scalpel, type CliRun } from '../cli/runScalpel';

// Issue 17, write side, through the CLI's entry `runCli` in this process: real files in temp folders, planted
// symlinks, protected paths, modes, odd files and file system errors.

const A_TS = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';

/**
 * Runs `scalpel apply - --root <root> ...` with the answer on stdin. HOME is the temp folder above the workspace, so
 * nothing the CLI keeps for itself lands in the workspace or the real home folder.
 */
function apply(root: string, answer: string, args: readonly string[] = []): Promise<CliRun> {
  return scalpel(root, ['apply', '-', '--root', root, ...args], { stdin: answer, env: { HOME: dirname(root) } });
}

function op(header: string, content: string, lang = 'ts'): string {
  return `${header}\n\`\`\`${lang}\n${content}\`\`\`\n`;
}

function workspace(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'scalpel-writes-'));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'src', 'a.ts'), A_TS);
  writeFileSync(join(outside, 'secret.ts'), 'export const secret = 1;\n');
  return { root, outside };
}

/** A refusal: exit 1, one line on stderr naming the file, no stack trace, nothing written. */
function assertRefused(run: CliRun, file: string, reason: RegExp): void {
  assert.equal(run.code, 1, `exit code, stderr: ${run.stderr}`);
  const lines = run.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line: ${run.stderr}`);
  assert.ok(lines[0]?.includes(file), `names ${file}: ${run.stderr}`);
  assert.match(lines[0] ?? '', reason);
  assert.doesNotMatch(run.stderr, /\n\s+at |internal error/);
}

function noTemporaryFiles(folder: string): void {
  assert.deepEqual(
    readdirSync(folder).filter((name) => name.includes('scalpel') || name.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
}

void describe('scalpel apply: containment at write time', () => {
  void test('a symlink planted at the temporary name is never followed', async () => {
    const { root, outside } = workspace();
    // The name the writer used to take (from the pid of the process that writes); a random name cannot be planted.
    symlinkSync(join(outside, 'secret.ts'), join(root, 'src', `a.ts.scalpel-${process.pid}.tmp`));
    const run = await apply(root, op('REPLACE_FILE src/a.ts', 'export const replaced = true;\n'));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(join(outside, 'secret.ts'), 'utf8'), 'export const secret = 1;\n');
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), 'export const replaced = true;\n');
  });

  void test('a symlinked file that points outside the workspace is refused', async () => {
    const { root, outside } = workspace();
    symlinkSync(join(outside, 'secret.ts'), join(root, 'src', 'linked.ts'));
    const run = await apply(root, op('REPLACE_FILE src/linked.ts', 'export const secret = 2;\n'));
    // The snapshot never reads through the link, so the answer fails as naming no file it may see.
    assert.equal(run.code, 1);
    assert.match(run.stdout, /src\/linked\.ts/);
    assert.equal(readFileSync(join(outside, 'secret.ts'), 'utf8'), 'export const secret = 1;\n');
  });

  void test('a symlinked folder that points outside the workspace is refused, for new files too', async () => {
    const { root, outside } = workspace();
    symlinkSync(outside, join(root, 'lib'));
    const replace = await apply(root, op('REPLACE_FILE lib/secret.ts', 'export const secret = 2;\n'));
    assert.equal(replace.code, 1);
    assert.match(replace.stdout, /lib\/secret\.ts/);
    const create = await apply(root, op('CREATE_FILE lib/planted.ts', 'export const planted = 1;\n'));
    assertRefused(create, 'lib/planted.ts', /outside the workspace/);
    assert.deepEqual(readdirSync(outside), ['secret.ts']);
  });

  void test('a symlinked file inside the workspace is written through; the link stays a link', async () => {
    const { root } = workspace();
    symlinkSync('src/a.ts', join(root, 'alias.ts'));
    const run = await apply(root, op('REPLACE_FILE alias.ts', 'export const through = true;\n'));
    assert.equal(run.code, 0, run.stderr);
    assert.ok(lstatSync(join(root, 'alias.ts')).isSymbolicLink());
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), 'export const through = true;\n');
  });

  void test('one file under two names in one batch is refused, and neither name changes', async () => {
    const { root } = workspace();
    symlinkSync('src', join(root, 'same'));
    const answer =
      op(
        'REPLACE_ELEMENT src/a.ts/function[greet]',
        'export function greet(name: string): string {\n  return name;\n}\n',
      ) +
      '\n' +
      op('REPLACE_FILE same/a.ts', 'export const other = 1;\n');
    const run = await apply(root, answer);
    assertRefused(run, 'same/a.ts', /same file as src\/a\.ts/);
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), A_TS);
    assert.ok(lstatSync(join(root, 'same')).isSymbolicLink());
  });
});

void describe('scalpel apply: protected paths', () => {
  function gitWorkspace(): string {
    const { root } = workspace();
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n\tbare = false\n');
    return root;
  }

  void test('.git/config is never written, not even with --allow', async () => {
    const root = gitWorkspace();
    const answer = op('REPLACE_FILE .git/config', '[core]\n\tfsmonitor = "touch /tmp/pwned"\n', 'ini');
    assertRefused(await apply(root, answer), '.git/config', /version-control/);
    assertRefused(await apply(root, answer, ['--allow', '.git/**']), '.git/config', /version-control/);
    assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
  });

  void test('.git/hooks/x is never created, nor .hg or .svn files at any depth', async () => {
    const root = gitWorkspace();
    assertRefused(
      await apply(root, op('CREATE_FILE .git/hooks/x', '#!/bin/sh\necho pwned\n', 'sh')),
      '.git/hooks/x',
      /version-control/,
    );
    assertRefused(
      await apply(root, op('CREATE_FILE pkg/.hg/hgrc', '[hooks]\n', 'ini')),
      'pkg/.hg/hgrc',
      /version-control/,
    );
    assertRefused(await apply(root, op('CREATE_FILE .svn/entries', 'x\n', 'txt')), '.svn/entries', /version-control/);
    assert.deepEqual(readdirSync(join(root, '.git', 'hooks')), []);
    assert.equal(existsSync(join(root, 'pkg')), false);
  });

  void test('.vscode/tasks.json, .env, node_modules and ignored files need --allow', async () => {
    const { root } = workspace();
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'tasks.json'), '{}\n');
    writeFileSync(join(root, '.gitignore'), 'dist/\n');
    const tasks = op('REPLACE_FILE .vscode/tasks.json', '{ "version": "2.0.0", "tasks": [] }\n', 'json');
    assertRefused(await apply(root, tasks), '.vscode/tasks.json', /protected.*--allow '\.vscode\/tasks\.json'/);
    assert.equal(readFileSync(join(root, '.vscode', 'tasks.json'), 'utf8'), '{}\n');
    assertRefused(await apply(root, op('CREATE_FILE .env.local', 'TOKEN=x\n', 'sh')), '.env.local', /environment file/);
    assertRefused(
      await apply(root, op('CREATE_FILE node_modules/x/index.js', 'module.exports = 1;\n', 'js')),
      'node_modules/x/index.js',
      /node_modules/,
    );
    assertRefused(
      await apply(root, op('CREATE_FILE dist/out.js', 'x;\n', 'js')),
      'dist/out.js',
      /\.gitignore "dist\/"/,
    );

    const allowed = await apply(root, tasks, ['--allow', '.vscode/*.json']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(readFileSync(join(root, '.vscode', 'tasks.json'), 'utf8'), '{ "version": "2.0.0", "tasks": [] }\n');
    const ignored = await apply(root, op('CREATE_FILE dist/out.js', 'x;\n', 'js'), ['--allow', 'dist/**']);
    assert.equal(ignored.code, 0, ignored.stderr);
  });

  void test('a read-only file is refused byte-identical unless allowed, and stays read-only when allowed', async () => {
    const { root } = workspace();
    const path = join(root, 'src', 'frozen.ts');
    writeFileSync(path, 'export const frozen = 1;\n');
    chmodSync(path, 0o444);
    const answer = op('REPLACE_FILE src/frozen.ts', 'export const frozen = 2;\n');
    assertRefused(await apply(root, answer), 'src/frozen.ts', /read-only/);
    assert.equal(readFileSync(path, 'utf8'), 'export const frozen = 1;\n');
    const allowed = await apply(root, answer, ['--allow', 'src/frozen.ts']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(readFileSync(path, 'utf8'), 'export const frozen = 2;\n');
    assert.equal(statSync(path).mode & 0o777, 0o444);
  });
});

void describe('scalpel apply: modes, text integrity and file system errors', () => {
  void test('an executable keeps its mode 755', async () => {
    const { root } = workspace();
    const path = join(root, 'run.sh');
    writeFileSync(path, '#!/bin/sh\necho one\n');
    chmodSync(path, 0o755);
    const run = await apply(root, op('REPLACE_FILE run.sh', '#!/bin/sh\necho two\n', 'sh'));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(statSync(path).mode & 0o777, 0o755);
    assert.equal(readFileSync(path, 'utf8'), '#!/bin/sh\necho two\n');
    noTemporaryFiles(root);
  });

  void test('a file that is not UTF-8 is refused and left byte-identical', async () => {
    const { root } = workspace();
    const path = join(root, 'src', 'latin.ts');
    const bytes = Buffer.concat([
      Buffer.from('// caf'),
      Buffer.from([0xe9]),
      Buffer.from(' au lait\nexport function brew(): number {\n  return 1;\n}\n'),
    ]);
    writeFileSync(path, bytes);
    const run = await apply(
      root,
      op('REPLACE_ELEMENT src/latin.ts/function[brew]', 'export function brew(): number {\n  return 2;\n}\n'),
    );
    assertRefused(run, 'src/latin.ts', /not valid UTF-8/);
    assert.ok(readFileSync(path).equals(bytes));
  });

  void test('a BOM and CRLF line endings are kept', async () => {
    const { root } = workspace();
    const path = join(root, 'src', 'bom.ts');
    writeFileSync(path, '\uFEFFexport function one(): number {\r\n  return 1;\r\n}\r\n\r\nexport const two = 2;\r\n');
    const run = await apply(
      root,
      op('REPLACE_ELEMENT src/bom.ts/function[one]', 'export function one(): number {\n  return 11;\n}\n'),
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.equal(
      readFileSync(path, 'utf8'),
      '\uFEFFexport function one(): number {\r\n  return 11;\r\n}\r\n\r\nexport const two = 2;\r\n',
    );
  });

  void test('CREATE_FILE on a directory is a refusal (EISDIR), not a crash', async () => {
    const { root } = workspace();
    assertRefused(await apply(root, op('CREATE_FILE src', 'export const x = 1;\n')), 'src', /is a directory/);
    assert.deepEqual(readdirSync(join(root, 'src')), ['a.ts']);
  });

  void test('a name too long is a refusal (ENAMETOOLONG), not a crash', async () => {
    const { root } = workspace();
    const name = `src/${'n'.repeat(300)}.ts`;
    assertRefused(await apply(root, op(`CREATE_FILE ${name}`, 'export const x = 1;\n')), name, /name is too long/);
    noTemporaryFiles(join(root, 'src'));
  });

  void test('a folder path through a file is a refusal (ENOTDIR), not a crash', async () => {
    const { root } = workspace();
    const run = await apply(root, op('CREATE_FILE src/a.ts/inner.ts', 'export const x = 1;\n'));
    assertRefused(run, 'src/a.ts/inner.ts', /is a file, not a folder/);
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), A_TS);
  });

  void test('a batch refused by its second file leaves the first untouched', async () => {
    const { root } = workspace();
    const answer = op('REPLACE_FILE src/a.ts', 'export const changed = true;\n') + '\n' + op('CREATE_FILE src', 'x;\n');
    assertRefused(await apply(root, answer), 'src', /is a directory/);
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), A_TS);
  });
});
