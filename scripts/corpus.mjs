// Installs the real-world TypeScript corpus used by tests and benchmarks: pinned npm releases that publish their
// TypeScript sources, two releases per package, side by side under .cache/corpus/ (git-ignored).
//   node scripts/corpus.mjs          install if missing, then print a summary
//   node scripts/corpus.mjs --force  reinstall even when the pinned releases are already present
// test/support/corpus.ts reads the manifest this script writes (.cache/corpus/corpus.json), so the pins live here only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Why these: together they mix coding styles (classes plus pipeable operators, functional schema builders, React
 * TSX components) and the release pairs are far enough apart that many files changed, yet close enough that most
 * changes are edits of existing elements rather than rewrites. See docs/corpus.md.
 */
const PINNED_PACKAGES = [
  { name: 'rxjs', before: '7.5.0', after: '7.8.2', sourceRoot: 'src', style: 'classes and pipeable operators' },
  { name: 'zod', before: '4.0.0', after: '4.3.6', sourceRoot: 'src', style: 'functional schema builders' },
  {
    name: '@tanstack/react-router',
    before: '1.160.0',
    after: '1.170.0',
    sourceRoot: 'src',
    style: 'React TSX components and hooks',
  },
];

const MANIFEST_SCHEMA = 1;
const SOURCE_FILE = /\.(m|c)?tsx?$/;
const DECLARATION_FILE = /\.d\.(m|c)?ts$/;

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const corpusDir = join(repoRoot, '.cache', 'corpus');

/** Both releases of a package sit in node_modules under an alias, e.g. tanstack-react-router-1.170.0. */
function aliasFor(name, version) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}`;
}

function releasesOf(pkg) {
  return [pkg.before, pkg.after].map((version) => ({
    name: pkg.name,
    version,
    alias: aliasFor(pkg.name, version),
    dir: join('node_modules', aliasFor(pkg.name, version)),
  }));
}

function isInstalled(release, sourceRoot) {
  const manifestPath = join(corpusDir, release.dir, 'package.json');
  if (!existsSync(manifestPath)) return false;
  try {
    const installed = JSON.parse(readFileSync(manifestPath, 'utf8'));
    return (
      installed.name === release.name &&
      installed.version === release.version &&
      existsSync(join(corpusDir, release.dir, sourceRoot))
    );
  } catch {
    return false;
  }
}

function install() {
  mkdirSync(corpusDir, { recursive: true });
  const dependencies = {};
  for (const pkg of PINNED_PACKAGES) {
    for (const release of releasesOf(pkg)) dependencies[release.alias] = `npm:${release.name}@${release.version}`;
  }
  writeFileSync(
    join(corpusDir, 'package.json'),
    `${JSON.stringify({ name: 'scalpel-corpus', private: true, description: 'Written by scripts/corpus.mjs.', dependencies }, null, 2)}\n`,
  );
  // --legacy-peer-deps keeps npm from pulling in React for the router: only the sources are read, nothing is run.
  const args = [
    'install',
    '--prefix',
    corpusDir,
    '--no-save',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--legacy-peer-deps',
    '--loglevel=error',
  ];
  const result = spawnSync('npm', args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error) fail(`could not start npm (${result.error.message}). Is npm on PATH?`);
  if (result.status !== 0) fail(`npm install exited with status ${result.status}; see npm's output above.`);
}

function listSourceFiles(root) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE_FILE.test(name) && !DECLARATION_FILE.test(name))
        found.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

function summarize(pkg) {
  const [before, after] = releasesOf(pkg);
  const beforeDir = join(corpusDir, before.dir);
  const afterDir = join(corpusDir, after.dir);
  const beforeFiles = new Set(listSourceFiles(join(beforeDir, pkg.sourceRoot)));
  const afterFiles = listSourceFiles(join(afterDir, pkg.sourceRoot));
  const shared = afterFiles.filter((file) => beforeFiles.has(file));
  const changed = shared.filter(
    (file) =>
      readFileSync(join(beforeDir, pkg.sourceRoot, file), 'utf8') !==
      readFileSync(join(afterDir, pkg.sourceRoot, file), 'utf8'),
  );
  return { files: afterFiles.length, shared: shared.length, changed: changed.length };
}

function fail(message) {
  console.error(`corpus: ${message}`);
  process.exit(1);
}

const force = process.argv.includes('--force');
const missing = PINNED_PACKAGES.flatMap((pkg) =>
  releasesOf(pkg).filter((release) => !isInstalled(release, pkg.sourceRoot)),
);
if (force || missing.length > 0) {
  const started = Date.now();
  console.log(
    `corpus: installing ${force ? 'all pinned releases' : missing.map((r) => `${r.name}@${r.version}`).join(', ')} into ${relative(repoRoot, corpusDir)}/`,
  );
  install();
  const stillMissing = PINNED_PACKAGES.flatMap((pkg) =>
    releasesOf(pkg).filter((release) => !isInstalled(release, pkg.sourceRoot)),
  );
  if (stillMissing.length > 0) {
    fail(
      `npm finished but these releases are missing or have no sources: ${stillMissing.map((r) => `${r.name}@${r.version}`).join(', ')}`,
    );
  }
  console.log(`corpus: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} else {
  console.log(`corpus: pinned releases already present in ${relative(repoRoot, corpusDir)}/`);
}

const manifest = {
  schema: MANIFEST_SCHEMA,
  packages: PINNED_PACKAGES.map((pkg) => {
    const [before, after] = releasesOf(pkg);
    return {
      name: pkg.name,
      style: pkg.style,
      sourceRoot: pkg.sourceRoot,
      before: { version: before.version, dir: before.dir.split(sep).join('/') },
      after: { version: after.version, dir: after.dir.split(sep).join('/') },
    };
  }),
};
writeFileSync(join(corpusDir, 'corpus.json'), `${JSON.stringify(manifest, null, 2)}\n`);

let totalFiles = 0;
let totalChanged = 0;
for (const pkg of PINNED_PACKAGES) {
  const { files, shared, changed } = summarize(pkg);
  totalFiles += files;
  totalChanged += changed;
  console.log(
    `  ${pkg.name} ${pkg.before} -> ${pkg.after}: ${files} source files, ${shared} in both releases, ${changed} changed`,
  );
}
console.log(`  total: ${totalFiles} source files in the newer releases, ${totalChanged} changed file pairs`);
