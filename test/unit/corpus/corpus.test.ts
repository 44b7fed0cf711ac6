import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../support/corpus';

/** Lays out a corpus folder the way scripts/corpus.mjs does: a manifest plus two installed package folders. */
function writeCorpus(root: string, releases: { before: Record<string, string>; after: Record<string, string> }): void {
  const packageDirs = { before: 'node_modules/demo-1.0.0', after: 'node_modules/demo-2.0.0' };
  for (const [which, version] of [
    ['before', '1.0.0'],
    ['after', '2.0.0'],
  ] as const) {
    const packageDir = join(root, packageDirs[which]);
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'demo', version }));
    for (const [relPath, text] of Object.entries(releases[which])) {
      mkdirSync(dirname(join(packageDir, relPath)), { recursive: true });
      writeFileSync(join(packageDir, relPath), text);
    }
  }
  const manifest = {
    schema: 1,
    packages: [
      {
        name: 'demo',
        style: 'test layout',
        sourceRoot: 'src',
        before: { version: '1.0.0', dir: packageDirs.before },
        after: { version: '2.0.0', dir: packageDirs.after },
      },
    ],
  };
  writeFileSync(join(root, 'corpus.json'), JSON.stringify(manifest));
}

void describe('loadCorpus on a corpus laid out on disk', () => {
  let root = '';
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'scalpel-corpus-'));
    writeCorpus(root, {
      before: {
        'src/unchanged.ts': 'export const a = 1;\n',
        'src/nested/changed.ts': 'export function f() {\n  return 1;\n}\n',
        'src/removed.ts': 'export const gone = true;\n',
        'src/view.tsx': 'export const View = () => <div />;\n',
      },
      after: {
        'src/unchanged.ts': 'export const a = 1;\n',
        'src/nested/changed.ts': 'export function f() {\n  return 2;\n}\n',
        'src/added.ts': 'export const fresh = true;\n',
        'src/view.tsx': 'export const View = () => <span />;\n',
        'src/types.d.ts': 'export declare const t: number;\n',
        'src/data.json': '{}\n',
        'README.ts': 'outside the source root\n',
      },
    });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  void test('lists the newer release sources in sorted order, without declarations or files outside the source root', () => {
    const files = loadCorpus({ corpusDir: root }).corpusFiles();
    assert.deepEqual(
      files.map((file) => file.relPath),
      ['src/added.ts', 'src/nested/changed.ts', 'src/unchanged.ts', 'src/view.tsx'],
    );
    for (const file of files) {
      assert.equal(file.pkg, 'demo');
      assert.equal(file.version, '2.0.0');
      assert.equal(
        readFileSync(file.absPath, 'utf8'),
        readFileSync(join(root, 'node_modules/demo-2.0.0', file.relPath), 'utf8'),
      );
    }
  });

  void test('pairs only the files present in both releases whose text differs, with both texts', () => {
    const pairs = loadCorpus({ corpusDir: root }).changedFilePairs();
    assert.deepEqual(
      pairs.map((pair) => pair.relPath),
      ['src/nested/changed.ts', 'src/view.tsx'],
    );
    const [changed] = pairs;
    assert.ok(changed);
    assert.equal(changed.beforeText, 'export function f() {\n  return 1;\n}\n');
    assert.equal(changed.afterText, 'export function f() {\n  return 2;\n}\n');
    assert.equal(readFileSync(changed.beforePath, 'utf8'), changed.beforeText);
    assert.equal(readFileSync(changed.afterPath, 'utf8'), changed.afterText);
  });

  void test('reports a release whose installed version is not the pinned one, telling how to reinstall', () => {
    const stale = mkdtempSync(join(tmpdir(), 'scalpel-corpus-stale-'));
    try {
      writeCorpus(stale, { before: { 'src/a.ts': '' }, after: { 'src/a.ts': '' } });
      writeFileSync(
        join(stale, 'node_modules/demo-2.0.0/package.json'),
        JSON.stringify({ name: 'demo', version: '1.9.0' }),
      );
      assert.throws(() => loadCorpus({ corpusDir: stale }), /demo@2\.0\.0 is missing.*node scripts\/corpus\.mjs/);
    } finally {
      rmSync(stale, { recursive: true, force: true });
    }
  });
});

void test('a missing corpus fails with the command that installs it', () => {
  const empty = mkdtempSync(join(tmpdir(), 'scalpel-corpus-empty-'));
  try {
    assert.throws(() => loadCorpus({ corpusDir: empty }), /not installed.*node scripts\/corpus\.mjs/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

const installedCorpus = (() => {
  try {
    return loadCorpus();
  } catch {
    return undefined;
  }
})();

void test(
  'the installed corpus is large and varied enough for the benchmarks',
  { skip: installedCorpus === undefined ? 'corpus not installed; run node scripts/corpus.mjs' : false },
  () => {
    assert.ok(installedCorpus);
    assert.ok(existsSync(join(installedCorpus.dir, 'corpus.json')));
    assert.ok(installedCorpus.packages.length >= 3, 'at least three packages');
    const files = installedCorpus.corpusFiles();
    assert.ok(files.length >= 300, `at least 300 source files, got ${files.length}`);
    assert.ok(
      files.some((file) => file.relPath.endsWith('.tsx')),
      'some TSX sources',
    );
    assert.ok(!files.some((file) => file.relPath.endsWith('.d.ts')), 'no declaration files');
    for (const pkg of installedCorpus.packages) {
      assert.ok(
        files.some((file) => file.pkg === pkg.name),
        `${pkg.name} contributes sources`,
      );
    }
    const pairs = installedCorpus.changedFilePairs();
    assert.ok(pairs.length >= 150, `at least 150 changed file pairs, got ${pairs.length}`);
    assert.ok(pairs.every((pair) => pair.beforeText !== pair.afterText));
  },
);
