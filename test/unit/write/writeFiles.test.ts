import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diskSnapshot, writeChanges } from '../../../src/cli/writeChanges';
import { CliError } from '../../../src/cli/cliError';
import { applyOperations } from '../../../src/core/ops/apply';
import { checkWriteTargets, writeFiles } from '../../../src/core/write';

// The core writer and gate in process, where a test can act at the worst moment: between the last check of a file and
// its rename (the `beforeRename` hook), as another program saving would.

function workspace(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'scalpel-writer-')), 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  return root;
}

void describe('writeFiles: no lost updates', () => {
  void test('a file changed after it was read is a conflict, and nothing is written', () => {
    const root = workspace();
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 1;\n');
    const snapshot = diskSnapshot(root);
    const result = applyOperations(snapshot, [
      { type: 'REPLACE_FILE', path: 'src/a.ts', content: 'export const a = 2;\n' },
      { type: 'REPLACE_FILE', path: 'src/b.ts', content: 'export const b = 2;\n' },
    ]);
    assert.ok(result.ok);
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 99; // the user saved\n');
    assert.throws(
      () => writeChanges(root, result.changes, { baselines: snapshot.fingerprints }),
      (error: unknown) => error instanceof CliError && /src\/b\.ts: it changed on disk/.test(error.message),
    );
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n');
    assert.equal(readFileSync(join(root, 'src', 'b.ts'), 'utf8'), 'export const b = 99; // the user saved\n');
  });

  void test('a save in place between the last check and the rename is kept, and the batch rolls back', () => {
    const root = workspace();
    writeFileSync(join(root, 'src', 'a.ts'), 'a1\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'b1\n');
    const seen: string[] = [];
    const result = writeFiles(
      [
        { path: 'src/a.ts', before: 'a1\n', after: 'a2\n' },
        { path: 'src/b.ts', before: 'b1\n', after: 'b2\n' },
      ],
      {
        root,
        beforeRename: (path) => {
          seen.push(path);
          // An editor writing in place into the file the writer is about to replace.
          if (path === 'src/b.ts') writeFileSync(join(root, 'src', 'b.ts'), 'b1 saved by the user\n');
        },
      },
    );
    assert.deepEqual(seen, ['src/a.ts', 'src/b.ts']);
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.kind === 'conflict', JSON.stringify(result));
    assert.match(result.ok ? '' : result.message, /src\/b\.ts: another program saved it.*kept.*restored/);
    assert.equal(readFileSync(join(root, 'src', 'b.ts'), 'utf8'), 'b1 saved by the user\n');
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), 'a1\n');
  });

  void test('a save by renaming between the last check and the rename is kept, and the batch rolls back', () => {
    const root = workspace();
    writeFileSync(join(root, 'src', 'a.ts'), 'a1\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'b1\n');
    const result = writeFiles(
      [
        { path: 'src/a.ts', before: 'a1\n', after: 'a2\n' },
        { path: 'src/b.ts', before: 'b1\n', after: 'b2\n' },
      ],
      {
        root,
        beforeRename: (path) => {
          // An editor's atomic save: a temporary file renamed over the one the writer just checked.
          if (path === 'src/b.ts') {
            writeFileSync(join(root, 'src', 'b.saving'), 'b1 saved by renaming\n');
            renameSync(join(root, 'src', 'b.saving'), join(root, 'src', 'b.ts'));
          }
        },
      },
    );
    assert.ok(!result.ok && result.kind === 'conflict', JSON.stringify(result));
    assert.equal(readFileSync(join(root, 'src', 'b.ts'), 'utf8'), 'b1 saved by renaming\n');
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), 'a1\n');
    assert.deepEqual(readdirSync(join(root, 'src')).sort(), ['a.ts', 'b.ts'], 'nothing left aside');
  });

  void test('rollback restores content and mode', () => {
    const root = workspace();
    const script = join(root, 'run.sh');
    writeFileSync(script, '#!/bin/sh\necho 1\n');
    chmodSync(script, 0o755);
    writeFileSync(join(root, 'src', 'b.ts'), 'b1\n');
    const result = writeFiles(
      [
        { path: 'run.sh', before: '#!/bin/sh\necho 1\n', after: '#!/bin/sh\necho 2\n' },
        { path: 'src/b.ts', before: 'b1\n', after: 'b2\n' },
      ],
      {
        root,
        beforeRename: (path) => {
          if (path === 'run.sh') assert.equal(statSync(script).mode & 0o777, 0o755);
          if (path === 'src/b.ts') writeFileSync(join(root, 'src', 'b.ts'), 'b by someone else\n');
        },
      },
    );
    assert.equal(result.ok, false);
    assert.equal(readFileSync(join(root, 'src', 'b.ts'), 'utf8'), 'b by someone else\n');
    assert.equal(readFileSync(script, 'utf8'), '#!/bin/sh\necho 1\n');
    assert.equal(statSync(script).mode & 0o777, 0o755);
    assert.deepEqual(
      readdirSync(root).filter((n) => n.startsWith('.scalpel')),
      [],
    );
  });

  void test('a file system failure in the middle of a batch rolls back what was written, with one line naming the file', () => {
    const root = workspace();
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'src', 'a.ts'), 'a1\n');
    writeFileSync(join(root, 'lib', 'b.ts'), 'b1\n');
    const result = writeFiles(
      [
        { path: 'src/a.ts', before: 'a1\n', after: 'a2\n' },
        { path: 'lib/b.ts', before: 'b1\n', after: 'b2\n' },
      ],
      {
        root,
        beforeRename: (path) => {
          // The folder vanishes under the writer and a file takes its name: the rename itself fails (ENOTDIR).
          if (path === 'lib/b.ts') {
            rmSync(join(root, 'lib'), { recursive: true });
            writeFileSync(join(root, 'lib'), 'now a file\n');
          }
        },
      },
    );
    assert.ok(!result.ok && result.kind === 'failed', JSON.stringify(result));
    assert.equal(result.ok ? '' : result.message.split('\n').length, 1);
    assert.match(result.ok ? '' : result.message, /^lib\/b\.ts: .+; every file was restored$/);
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), 'a1\n');
  });

  void test('a file another program creates before Scalpel creates it is kept; the batch rolls back', () => {
    const root = workspace();
    writeFileSync(join(root, 'src', 'a.ts'), 'a1\n');
    const result = writeFiles(
      [
        { path: 'src/a.ts', before: 'a1\n', after: 'a2\n' },
        { path: 'src/new/b.ts', before: undefined, after: 'created by Scalpel\n' },
      ],
      {
        root,
        beforeRename: (path) => {
          if (path === 'src/new/b.ts') writeFileSync(join(root, 'src', 'new', 'b.ts'), 'created by the user\n');
        },
      },
    );
    assert.ok(!result.ok && result.kind === 'conflict');
    assert.equal(readFileSync(join(root, 'src', 'new', 'b.ts'), 'utf8'), 'created by the user\n');
    assert.equal(readFileSync(join(root, 'src', 'a.ts'), 'utf8'), 'a1\n');
  });

  void test('a file first named by the answer is fingerprinted when the snapshot first reads it', () => {
    const root = workspace();
    writeFileSync(join(root, 'src', 'late.ts'), 'export const late = 1;\n');
    const snapshot = diskSnapshot(root);
    assert.equal(snapshot.fingerprints.has('src/late.ts'), false);
    snapshot.read('src/late.ts');
    const fingerprint = snapshot.fingerprints.get('src/late.ts');
    assert.equal(fingerprint?.exists, true);
    assert.equal(fingerprint?.size, 'export const late = 1;\n'.length);
    assert.ok((fingerprint?.mtimeMs ?? 0) > 0);
    assert.equal(snapshot.fingerprints.get('src/missing.ts'), undefined);
    snapshot.read('src/missing.ts');
    assert.equal(snapshot.fingerprints.get('src/missing.ts')?.exists, false);
  });
});

void describe('writeFiles: containment and protection in process', () => {
  void test('a symlink to a file outside is refused by the writer even when the batch names it as existing', () => {
    const root = workspace();
    const outside = join(root, '..', 'outside.ts');
    writeFileSync(outside, 'outside\n');
    symlinkSync(outside, join(root, 'src', 'link.ts'));
    const result = writeFiles([{ path: 'src/link.ts', before: 'outside\n', after: 'pwned\n' }], { root });
    assert.ok(!result.ok && result.kind === 'refused');
    assert.match(result.ok ? '' : result.message, /outside the workspace; nothing was written/);
    assert.equal(readFileSync(outside, 'utf8'), 'outside\n');
  });

  void test('a dangling symlink is refused rather than created through', () => {
    const root = workspace();
    const outside = join(root, '..', 'not-yet.ts');
    symlinkSync(outside, join(root, 'src', 'dangling.ts'));
    const result = writeFiles([{ path: 'src/dangling.ts', before: undefined, after: 'x\n' }], { root });
    assert.ok(!result.ok && result.kind === 'refused', JSON.stringify(result));
    assert.equal(existsSync(outside), false);
  });

  void test('a protected file the user named is allowed; .git never is', () => {
    const root = workspace();
    writeFileSync(join(root, '.env'), 'A=1\n');
    const named = writeFiles([{ path: '.env', before: 'A=1\n', after: 'A=2\n' }], {
      root,
      userNamed: new Set(['.env']),
    });
    assert.ok(named.ok, JSON.stringify(named));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), 'x\n');
    const git = writeFiles([{ path: '.git/config', before: 'x\n', after: 'y\n' }], {
      root,
      userNamed: new Set(['.git/config']),
      allow: ['**'],
    });
    assert.ok(!git.ok && git.kind === 'refused');
    assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), 'x\n');
  });

  void test('the gate says which files to write, ask about, or refuse', () => {
    const root = workspace();
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'tasks.json'), '{}\n');
    writeFileSync(join(root, 'src', 'a.ts'), 'a\n');
    const verdicts = checkWriteTargets(['src/a.ts', '.vscode/tasks.json', '.git/config', 'lib/.env.production'], {
      root,
    });
    assert.deepEqual(
      verdicts.map((v) => [v.path, v.verdict]),
      [
        ['src/a.ts', 'write'],
        ['.vscode/tasks.json', 'ask'],
        ['.git/config', 'refuse'],
        ['lib/.env.production', 'ask'],
      ],
    );
    const allowed = checkWriteTargets(['.vscode/tasks.json'], { root, allow: ['**/.vscode/*.json'] });
    assert.equal(allowed[0]?.verdict, 'write');
    const outside = checkWriteTargets(['src/a.ts'], { root, outsideWorkspace: true });
    assert.deepEqual(
      outside.map((v) => [v.verdict, v.verdict === 'ask' ? v.reason : '']),
      [['ask', 'it is outside every workspace folder']],
    );
    const excluded = checkWriteTargets(['src/a.ts', 'src/b.ts'], {
      root,
      excludedBy: (path) => (path === 'src/a.ts' ? 'files.exclude "src/a.ts"' : undefined),
    });
    assert.deepEqual(
      excluded.map((v) => [v.path, v.verdict, v.verdict === 'ask' ? v.reason : '']),
      [
        ['src/a.ts', 'ask', 'the workspace ignores or excludes it (files.exclude "src/a.ts")'],
        ['src/b.ts', 'write', ''],
      ],
    );
  });
});

void describe('applyOperations: files the request did not send', () => {
  const hidden = 'export function hiddenSecret(): string {\n  return "s3cr3t-token";\n}\n';
  const snapshot = {
    read: (path: string) =>
      path === 'src/shown.ts'
        ? 'export function shown(): number {\n  return 1;\n}\n'
        : path === 'src/hidden.ts'
          ? hidden
          : path === 'notes.md'
            ? '# Notes\n\ns3cr3t-token\n'
            : undefined,
  };

  void test('an operation on an existing file not sent gets "not part of this request" and none of its content', () => {
    const result = applyOperations(
      snapshot,
      [
        {
          type: 'PATCH_ELEMENT',
          path: 'src/hidden.ts/function[hiddenSecret]',
          patches: [{ search: 'return "nope";', replace: 'return "x";' }],
        },
        { type: 'REPLACE_ELEMENT', path: 'src/hidden.ts/function[hiddenSecre]', content: 'export function a() {}' },
        { type: 'CREATE_FILE', path: 'src/hidden.ts', content: 'x' },
        { type: 'REPLACE_ELEMENT', path: 'notes.md/heading[Intro]', content: 'x' },
      ],
      { visibleFiles: new Set(['src/shown.ts']) },
    );
    assert.equal(result.ok, false);
    for (const r of result.results) {
      assert.equal(r.status, 'failed');
      assert.match(r.message ?? '', /(src\/hidden\.ts|notes\.md) is not part of this request/);
      const everything = JSON.stringify(r);
      assert.doesNotMatch(everything, /s3cr3t|hiddenSecret\(\)|return "/);
      assert.equal(r.suggestions, undefined);
    }
  });

  void test('the files sent and new files are not affected', () => {
    const result = applyOperations(
      snapshot,
      [
        {
          type: 'REPLACE_ELEMENT',
          path: 'src/shown.ts/function[shown]',
          content: 'export function shown(): number {\n  return 2;\n}',
        },
        { type: 'CREATE_FILE', path: 'src/new.ts', content: 'export const n = 1;\n' },
      ],
      { visibleFiles: new Set(['src/shown.ts']) },
    );
    assert.ok(result.ok, JSON.stringify(result.results));
  });
});
