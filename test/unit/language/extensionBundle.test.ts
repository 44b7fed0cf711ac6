import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';

/**
 * What keeps activation fast: dist/extension.js must not reach the engine. The lint rule in eslint.config.mjs
 * refuses value imports from src/core in src/vscode (an allow-list aside); this checks the bundle esbuild actually
 * makes, with the same options as scripts/build.mjs.
 */

const ROOT = join(__dirname, '..', '..', '..', '..');

void test('the extension bundle holds no parser, no tokenizer and only dependency-free core modules', async () => {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { extension: 'src/extension.ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', './engine.js'],
    write: false,
    metafile: true,
    outdir: 'dist',
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const paths = Object.keys(inputs);
  assert.ok(paths.includes('src/extension.ts'));
  const heavy = paths.filter((p) => /node_modules\/(ts-morph|@ts-morph|typescript|gpt-tokenizer)\//.test(p));
  assert.deepEqual(heavy, [], 'the engine stays out of dist/extension.js');
  const core = paths.filter((p) => p.startsWith('src/core/'));
  for (const path of core) {
    assert.deepEqual(
      inputs[path]?.imports.map((i) => i.path),
      [],
      `${path} is bundled into the extension, so it must import nothing`,
    );
  }
  assert.ok(core.includes('src/core/language/languageCatalog.ts'), 'the language list comes from the catalog');
});
