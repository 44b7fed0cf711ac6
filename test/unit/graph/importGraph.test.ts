import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';

void describe('import graph', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-imports-'));
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'] } } }));
  write('src/core/db.ts', 'export const db = 1;\n');
  write('src/core/index.ts', "export * from './db';\n");
  write('src/feature.ts', "import { db } from './core';\nexport const feature = db;\n");
  write('src/aliased.ts', "import { db } from '@/core/db';\nexport const aliased = db;\n");
  write('src/page.tsx', "import { feature } from './feature';\nexport const page = feature;\n");
  write('node_modules/pkg/index.ts', "import { db } from '../../src/core/db';\n");
  write('dist/out.js', "require('../src/core/db');\n");
  write('.gitignore', 'dist/\n');
  after(() => rmSync(root, { recursive: true, force: true }));
  const graph = new CodeGraph(nodeSourceFileSystem(root)).imports;

  void test('lists the source files; installed dependencies and what .gitignore ignores (the build output) left out', () => {
    assert.deepEqual(graph.files(), [
      'src/aliased.ts',
      'src/core/db.ts',
      'src/core/index.ts',
      'src/feature.ts',
      'src/page.tsx',
    ]);
  });

  void test("resolves specifiers with the file's own tsconfig: folders, index files and path aliases", () => {
    assert.deepEqual(graph.importersOf('src/core/db.ts'), ['src/aliased.ts', 'src/core/index.ts']);
    assert.deepEqual(graph.importsOf('src/feature.ts'), [
      { specifier: './core', target: 'src/core/index.ts', reExport: false },
    ]);
    assert.equal(graph.importsOf('src/core/index.ts')[0]?.reExport, true);
  });

  void test('dependents go through re-exports (a barrel), not through plain importers', () => {
    assert.deepEqual([...graph.dependentsOf(['src/core/db.ts']).files].sort(), [
      'src/aliased.ts',
      'src/core/index.ts',
      'src/feature.ts',
    ]);
    assert.deepEqual(graph.dependentsOf(['src/core/db.ts'], 1), { files: ['src/aliased.ts'], omitted: 2 });
  });

  void test('a refresh sees new, changed and deleted files', () => {
    write('src/late.ts', "import { page } from './page';\nexport const late = page;\n");
    write('src/aliased.ts', 'export const aliased = 2;\n');
    unlinkSync(join(root, 'src/feature.ts'));
    graph.refresh();
    assert.deepEqual(graph.importersOf('src/page.tsx'), ['src/late.ts']);
    assert.deepEqual(graph.importersOf('src/core/db.ts'), ['src/core/index.ts']);
    assert.deepEqual(graph.importersOf('src/core/index.ts'), []);
    assert.ok(!graph.files().includes('src/feature.ts'));
  });

  void test('files mentioning an identifier as a whole word', () => {
    assert.deepEqual(graph.filesMentioning('page').files, ['src/late.ts', 'src/page.tsx']);
    assert.deepEqual(graph.filesMentioning('pag').files, []);
    assert.equal(graph.filesMentioning('page').cutShort, false);
  });
});
