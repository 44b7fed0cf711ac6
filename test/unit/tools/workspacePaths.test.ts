import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { diskWorkspace } from '../../../src/core/tools/diskWorkspace';
import { listWorkspaceFiles } from '../../../src/core/workspace/workspaceFiles';
import { tempWorkspace } from '../../support/tempWorkspace';
import { call, tableRows, toolEnv } from './toolSupport';

/**
 * Paths as written and walks that stay inside the workspace (issue 27 item 5): leading dots kept, `.gitignore` and
 * the exclusion globs instead of folder names, links followed once and only inside the root, and one exclusion rule
 * for every read tool.
 */

void describe('workspace paths in the agent tools', () => {
  const outside = mkdtempSync(join(tmpdir(), 'scalpel-outside-'));
  writeFileSync(join(outside, 'secret.ts'), 'export const leaked = 1;\n');
  const root = tempWorkspace('scalpel-paths-', {
    '.storybook/main.ts': "export const config = { stories: ['../src/**/*.stories.ts'] };\n",
    'build/plugin.ts': 'export function buildPlugin(): string {\n  return "plugin";\n}\n',
    'src/app.ts': "import { buildPlugin } from '../build/plugin';\n\nexport const app = buildPlugin();\n",
    'generated/out.ts': 'export const generated = buildPlugin;\n',
    'notes/todo.md': 'call buildPlugin from the CLI too\n',
    '.gitignore': 'generated/\n',
  });
  symlinkSync(outside, join(root, 'vendor-link'));
  symlinkSync('.', join(root, 'self-a'));
  symlinkSync('..', join(root, 'src', 'up'));
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const env = toolEnv(root);

  void test('a file in a dot-folder outlines, by its path as written', async () => {
    for (const path of ['.storybook/main.ts', './.storybook/main.ts']) {
      const run = await call(env, 'outline', { paths: [path] });
      assert.equal(run.isError, false, run.text);
      assert.match(run.text, /^1 variable\[config\] export const config = /m);
    }
    const folder = await call(env, 'outline', { paths: ['.storybook'] });
    assert.equal(folder.isError, false, folder.text);
    assert.match(folder.text, /^## \.storybook\/main\.ts$/m);
  });

  void test('a build/ folder of sources is listed and searched; what .gitignore ignores is not', async () => {
    const symbols = await call(env, 'find_symbols', { name: 'buildPlugin' });
    assert.deepEqual(tableRows(symbols.text), ['1-3 function[buildPlugin]']);
    assert.match(symbols.text, /^## build\/plugin\.ts$/m);
    const search = await call(env, 'search', { pattern: 'buildPlugin' });
    assert.equal(search.isError, false, search.text);
    assert.match(search.text, /^## build\/plugin\.ts$/m);
    assert.match(search.text, /^## notes\/todo\.md$/m);
    assert.ok(!search.text.includes('generated/'), search.text);
  });

  void test('a link leading outside is skipped with a note; links to the root add nothing and cannot loop', async () => {
    const run = await call(env, 'outline', { paths: ['.'] });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /^not followed: vendor-link \(a link that leads outside the workspace\)$/m);
    assert.ok(!run.text.includes('leaked'), run.text);
    assert.ok(!run.text.includes('self-a/'), run.text);
    const listing = listWorkspaceFiles(root);
    assert.deepEqual(listing.files, [
      '.gitignore',
      '.storybook/main.ts',
      'build/plugin.ts',
      'notes/todo.md',
      'src/app.ts',
    ]);
    // Each real folder is read once: the root, .storybook, build, notes, src.
    assert.equal(listing.foldersRead, 5);
  });

  void test('a gitignored file is refused by context as find_symbols leaves it out, saying which rule', async () => {
    const context = await call(env, 'context', { focus: ['generated/out.ts/variable[generated]'] });
    assert.equal(context.isError, true);
    assert.match(context.text, /generated\/out\.ts is excluded by \.gitignore "generated\/"/);
    const symbols = await call(env, 'find_symbols', { name: 'generated' });
    assert.match(symbols.text, /: 0 in 0 of \d+ files/);
  });
});

void describe('a workspace with two links to itself', () => {
  const root = tempWorkspace('scalpel-loops-', { 'src/a.ts': 'export function loopy(): number {\n  return 1;\n}\n' });
  symlinkSync('.', join(root, 'again'));
  symlinkSync(root, join(root, 'src', 'root-link'));
  mkdirSync(join(root, 'deep', 'er'), { recursive: true });
  symlinkSync('../..', join(root, 'deep', 'er', 'back'));
  after(() => rmSync(root, { recursive: true, force: true }));

  void test('find_symbols answers, reading each real folder once', async () => {
    const run = await call(toolEnv(root), 'find_symbols', { name: 'loopy' });
    assert.equal(run.isError, false, run.text);
    assert.deepEqual(tableRows(run.text), ['1-3 function[loopy]']);
    assert.match(run.text, /: 1 in 1 of 1 files$/m);
    const listing = listWorkspaceFiles(root);
    assert.deepEqual(listing.files, ['src/a.ts']);
    assert.equal(listing.foldersRead, 4);
    assert.deepEqual(listing.skippedLinks, []);
  });
});

void describe('the disk workspace keeps its .gitignore rules between reads and follows their changes', () => {
  const root = tempWorkspace('scalpel-ignore-edits-', {
    'src/app.ts': 'export const app = 1;\n',
    'src/gen/types.ts': 'export type Generated = string;\n',
    'scratch/try.ts': 'export const tried = true;\n',
    '.gitignore': 'scratch/\n',
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  void test('an edited, added or deleted .gitignore takes effect on the next read', () => {
    // One workspace for every step, as the MCP server keeps one: its rules are cached between reads.
    const workspace = diskWorkspace(root);
    assert.equal(workspace.read('scratch/try.ts'), undefined);
    assert.match(workspace.excludedBy?.('scratch/try.ts') ?? '', /\.gitignore "scratch\/"/);
    assert.equal(workspace.read('src/gen/types.ts'), 'export type Generated = string;\n');

    // Edited in place, the same size: scratch/ is readable, src/gen/ is not.
    writeFileSync(join(root, '.gitignore'), 'src/gen/\n');
    assert.equal(workspace.read('scratch/try.ts'), 'export const tried = true;\n');
    assert.equal(workspace.read('src/gen/types.ts'), undefined);
    assert.match(workspace.excludedBy?.('src/gen/types.ts') ?? '', /\.gitignore "src\/gen\/"/);

    // A deeper .gitignore added: its rule counts at once.
    assert.equal(workspace.read('src/app.ts'), 'export const app = 1;\n');
    writeFileSync(join(root, 'src', '.gitignore'), 'app.ts\n');
    assert.equal(workspace.read('src/app.ts'), undefined);
    assert.match(workspace.excludedBy?.('src/app.ts') ?? '', /src\/\.gitignore "app\.ts"/);

    // Both deleted: every file is read.
    rmSync(join(root, '.gitignore'));
    rmSync(join(root, 'src', '.gitignore'));
    for (const file of ['scratch/try.ts', 'src/gen/types.ts', 'src/app.ts'])
      assert.notEqual(workspace.read(file), undefined, file);
  });
});
