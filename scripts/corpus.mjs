// Installs the real-world TypeScript corpora used by tests and benchmarks: pinned npm releases that publish their
// TypeScript sources, side by side under .cache/ (git-ignored).
//   node scripts/corpus.mjs            the release corpus: two releases per package, in .cache/corpus/
//   node scripts/corpus.mjs --commits  the commit-sized corpus: consecutive patch releases, in .cache/commit-corpus/
//   node scripts/corpus.mjs --languages[=python,go]  the corpora of the other languages, in .cache/lang-corpus/
//                                      (scripts/languageCorpus.mjs: Debian and npm packages that ship sources)
//   ... --force                        reinstall even when the pinned releases are already present
// test/support/corpus.ts reads the manifest this script writes (corpus.json in each folder), so the pins live here
// only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installLanguageCorpora } from './languageCorpus.mjs';

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

/**
 * The commit-sized corpus: consecutive patch releases (x.y.z -> x.y.z+1) of packages that ship their sources and
 * release often. A patch release changes a few lines in a few files, like the commits people ask an assistant for;
 * the release corpus above rewrites a third of a file. Each run of versions gives one pair per consecutive two.
 */
const COMMIT_PACKAGES = [
  {
    name: 'zod',
    versions: ['4.6.0', '4.6.1', '4.6.2', '4.6.3', '4.6.4', '4.6.5', '4.6.6', '4.6.7'],
    sourceRoot: 'src',
    style: 'functional schema builders',
  },
  {
    name: '@tanstack/query-core',
    versions: ['5.104.2', '5.104.3', '5.104.4', '5.104.5', '5.105.0', '5.105.1', '5.105.2', '5.105.3'],
    sourceRoot: 'src',
    style: 'classes, observers and their tests',
  },
  {
    name: 'effect',
    versions: ['3.22.1', '3.22.2', '3.22.3', '3.22.4'],
    sourceRoot: 'src',
    style: 'functional library with dual APIs and long modules',
  },
];

/** Pairs of consecutive versions that are patch releases of each other (x.y.z -> x.y.z+1). */
function commitPairs() {
  return COMMIT_PACKAGES.flatMap((pkg) =>
    pkg.versions.slice(1).flatMap((after, i) => {
      const before = pkg.versions[i];
      const [a, b] = [before, after].map((v) => v.split('.').map(Number));
      const isPatch = a[0] === b[0] && a[1] === b[1] && b[2] === a[2] + 1;
      return isPatch ? [{ name: pkg.name, before, after, sourceRoot: pkg.sourceRoot, style: pkg.style }] : [];
    }),
  );
}

const languagesArgument = process.argv.find((arg) => arg === '--languages' || arg.startsWith('--languages='));
const commits = process.argv.includes('--commits');
const SELECTED = commits ? commitPairs() : PINNED_PACKAGES;

const MANIFEST_SCHEMA = 1;
const SOURCE_FILE = /\.(m|c)?tsx?$/;
const DECLARATION_FILE = /\.d\.(m|c)?ts$/;

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const corpusDir = join(repoRoot, '.cache', commits ? 'commit-corpus' : 'corpus');

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
  for (const pkg of SELECTED) {
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
if (languagesArgument !== undefined) {
  const list = languagesArgument.includes('=') ? languagesArgument.slice(languagesArgument.indexOf('=') + 1) : '';
  installLanguageCorpora(repoRoot, list === '' ? undefined : list.split(','), force);
} else {
  installTypeScriptCorpus();
}

function installTypeScriptCorpus() {
  const missing = SELECTED.flatMap((pkg) => releasesOf(pkg).filter((release) => !isInstalled(release, pkg.sourceRoot)));
  if (force || missing.length > 0) {
    const started = Date.now();
    console.log(
      `corpus: installing ${force ? 'all pinned releases' : [...new Set(missing.map((r) => `${r.name}@${r.version}`))].join(', ')} into ${relative(repoRoot, corpusDir)}/`,
    );
    install();
    const stillMissing = SELECTED.flatMap((pkg) =>
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
    packages: SELECTED.map((pkg) => {
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
  for (const pkg of SELECTED) {
    const { files, shared, changed } = summarize(pkg);
    totalFiles += files;
    totalChanged += changed;
    if (!commits || changed > 0)
      console.log(
        `  ${pkg.name} ${pkg.before} -> ${pkg.after}: ${files} source files, ${shared} in both releases, ${changed} changed`,
      );
  }
  console.log(`  total: ${totalFiles} source files in the newer releases, ${totalChanged} changed file pairs`);
}
