// Builds the extension, the CLI and the lazily loaded core engine with esbuild.
//   node scripts/build.mjs               development build of dist/
//   node scripts/build.mjs --production  minified build of dist/ for packaging
//   node scripts/build.mjs --watch       rebuild dist/ on change
//   node scripts/build.mjs --tests       compile test/ and bench/ TypeScript to out/ (dependencies stay external)
import * as esbuild from 'esbuild';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

function listTs(dir) {
  const found = [];
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') continue;
    if (statSync(full).isDirectory()) found.push(...listTs(full));
    else if (/\.(m|c)?tsx?$/.test(name) && !name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

/** @type {esbuild.BuildOptions} */
const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // web-tree-sitter's ESM build reads import.meta.url, which a CommonJS bundle does not have: bundle its CJS build.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
};

const testBuild = {
  ...shared,
  outdir: 'out',
  outbase: '.',
  sourcemap: true,
  // Tests run against the real installed packages; only the project's own code is bundled in.
  packages: 'external',
  external: ['vscode'],
};

const builds = args.has('--tests')
  ? [
      {
        ...testBuild,
        entryPoints: listTs('test/unit'),
        // First in every unit test bundle: the compile cache that spares each test process compiling TypeScript
        // again. Not in the integration suites (they run inside VS Code's extension host) nor in the bench (it
        // measures first use).
        inject: ['test/support/compileCache.ts'],
      },
      {
        ...testBuild,
        entryPoints: [...listTs('test').filter((file) => !file.startsWith(join('test', 'unit'))), ...listTs('bench')],
      },
    ]
  : [
      // The extension entry point stays small: the heavy engine (ts-morph, tokenizer) lives in engine.js
      // and is required on first use, never during activation.
      {
        ...shared,
        entryPoints: { extension: 'src/extension.ts' },
        outdir: 'dist',
        external: ['vscode', './engine.js'],
      },
      { ...shared, entryPoints: { engine: 'src/engine.ts' }, outdir: 'dist' },
      { ...shared, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
    ];

// A test whose source was deleted or renamed must not keep running from an old build: node --test runs every
// *.test.js it finds. out/.compile-cache (test/support/compileCache.ts) stays.
if (args.has('--tests')) {
  for (const dir of ['test', 'bench']) rmSync(join('out', dir), { recursive: true, force: true });
}

/**
 * The tree-sitter runtime and the grammars the language catalog names go beside the bundles, in dist/tree-sitter/,
 * where src/core/language/treeSitter/treeSitterRuntime.ts looks first (the vsix has no node_modules).
 */
async function copyTreeSitterWasm() {
  const require = createRequire(import.meta.url);
  const catalogBundle = await esbuild.build({
    entryPoints: ['src/core/language/languageCatalog.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
  });
  const catalog = await import(`data:text/javascript,${encodeURIComponent(catalogBundle.outputFiles[0].text)}`);
  const grammars = catalog.LANGUAGE_CATALOG.flatMap((language) => (language.grammar ? [language.grammar] : []));
  const target = join('dist', 'tree-sitter');
  mkdirSync(target, { recursive: true });
  copyFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'), join(target, 'web-tree-sitter.wasm'));
  const grammarDir = join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  for (const grammar of grammars) copyFileSync(join(grammarDir, grammar), join(target, grammar));
}

/**
 * pyright (the npm dependency) goes beside the bundles, in dist/pyright/, where
 * src/core/language/python/pyrightRuntime.ts looks first: the extension checks Python with it, offline (it bundles
 * typeshed). Its language server entry, its own bundles and typeshed; no source maps. Copied again only when the
 * installed version changes.
 */
function copyPyright() {
  const require = createRequire(import.meta.url);
  const source = dirname(require.resolve('pyright/package.json'));
  const target = join('dist', 'pyright');
  const versionOf = (folder) => {
    try {
      return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  if (versionOf(target) !== undefined && versionOf(target) === versionOf(source)) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of ['langserver.index.js', 'LICENSE.txt']) copyFileSync(join(source, file), join(target, file));
  cpSync(join(source, 'dist'), join(target, 'dist'), { recursive: true, filter: (file) => !file.endsWith('.map') });
  // Last: a copy cut short has no package.json, so the next build copies again.
  copyFileSync(join(source, 'package.json'), join(target, 'package.json'));
}

if (!args.has('--tests')) {
  await copyTreeSitterWasm();
  copyPyright();
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] build started');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
