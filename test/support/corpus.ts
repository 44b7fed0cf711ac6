// Loads the real-world TypeScript corpus that scripts/corpus.mjs installs under .cache/corpus/: pinned npm releases
// that ship their TypeScript sources, two releases per package. The pins live in the script; this module reads the
// manifest the script writes, so the two never disagree about versions or folders.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const MANIFEST_FILE = 'corpus.json';
const SUPPORTED_MANIFEST_SCHEMA = 1;
const SOURCE_FILE = /\.(m|c)?tsx?$/;
const DECLARATION_FILE = /\.d\.(m|c)?ts$/;
const INSTALL_HINT = 'Run `node scripts/corpus.mjs` from the repository root to install it.';

export interface CorpusRelease {
  readonly version: string;
  /** Absolute path of the installed package folder (the one holding its package.json). */
  readonly packageDir: string;
}

export interface CorpusPackage {
  readonly name: string;
  /** The coding style this package stands for in the corpus, e.g. "React TSX components and hooks". */
  readonly style: string;
  /** Folder inside the package that holds its TypeScript sources, relative to the package folder ("src"). */
  readonly sourceRoot: string;
  readonly before: CorpusRelease;
  readonly after: CorpusRelease;
}

export interface CorpusFile {
  readonly pkg: string;
  readonly version: string;
  /** Path inside the package, '/'-separated, including the source root: "src/internal/Observable.ts". */
  readonly relPath: string;
  readonly absPath: string;
}

export interface ChangedFilePair {
  readonly pkg: string;
  readonly relPath: string;
  readonly beforePath: string;
  readonly afterPath: string;
  readonly beforeText: string;
  readonly afterText: string;
}

export interface Corpus {
  /** Absolute path of the corpus folder (.cache/corpus by default). */
  readonly dir: string;
  readonly packages: readonly CorpusPackage[];
  /** Every TypeScript source file (no .d.ts) of the newer release of each package, sorted by package then path. */
  corpusFiles(): CorpusFile[];
  /** Files present in both releases whose text differs, sorted by package then path. */
  changedFilePairs(): ChangedFilePair[];
}

export interface LoadCorpusOptions {
  /** Folder holding corpus.json; defaults to .cache/corpus under the scalpel repository root. */
  readonly corpusDir?: string;
}

export function loadCorpus(options: LoadCorpusOptions = {}): Corpus {
  const dir = resolve(options.corpusDir ?? join(findRepoRootOrThrow(), '.cache', 'corpus'));
  const packages = readManifestOrThrow(dir);
  return {
    dir,
    packages,
    corpusFiles: () => packages.flatMap((pkg) => listReleaseFiles(pkg, pkg.after)),
    changedFilePairs: () => packages.flatMap(changedPairsOf),
  };
}

/** The test bundles run from out/, at various depths, so the root is found by name rather than by a fixed '../..'. */
export function findRepoRootOrThrow(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      if (isScalpelPackageDir(dir)) return dir;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(`Cannot find the scalpel repository root above ${__dirname} or ${process.cwd()}; pass corpusDir.`);
}

function isScalpelPackageDir(dir: string): boolean {
  const manifestPath = join(dir, 'package.json');
  if (!existsSync(manifestPath)) return false;
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
    return isRecord(parsed) && parsed['name'] === 'scalpel';
  } catch {
    return false;
  }
}

function readManifestOrThrow(dir: string): CorpusPackage[] {
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath))
    throw new Error(`The TypeScript corpus is not installed (no ${manifestPath}). ${INSTALL_HINT}`);
  const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (!isRecord(manifest) || manifest['schema'] !== SUPPORTED_MANIFEST_SCHEMA || !Array.isArray(manifest['packages'])) {
    throw new Error(`${manifestPath} is not a corpus manifest this loader understands. ${INSTALL_HINT}`);
  }
  const packages = manifest['packages'].map((entry: unknown) => toCorpusPackageOrThrow(entry, dir, manifestPath));
  for (const pkg of packages) {
    for (const release of [pkg.before, pkg.after]) {
      if (
        installedVersionOf(release.packageDir) !== release.version ||
        !existsSync(join(release.packageDir, pkg.sourceRoot))
      ) {
        throw new Error(
          `The corpus release ${pkg.name}@${release.version} is missing from ${release.packageDir}. ${INSTALL_HINT}`,
        );
      }
    }
  }
  return packages.sort((a, b) => compareStrings(a.name, b.name));
}

function installedVersionOf(packageDir: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    return isRecord(parsed) && typeof parsed['version'] === 'string' ? parsed['version'] : undefined;
  } catch {
    return undefined;
  }
}

function toCorpusPackageOrThrow(entry: unknown, dir: string, manifestPath: string): CorpusPackage {
  const invalid = (): Error => new Error(`${manifestPath} has a malformed package entry. ${INSTALL_HINT}`);
  if (!isRecord(entry)) throw invalid();
  const { name, style, sourceRoot, before, after } = entry;
  if (typeof name !== 'string' || typeof style !== 'string' || typeof sourceRoot !== 'string') throw invalid();
  const toRelease = (release: unknown): CorpusRelease => {
    if (!isRecord(release) || typeof release['version'] !== 'string' || typeof release['dir'] !== 'string')
      throw invalid();
    return { version: release['version'], packageDir: resolve(dir, release['dir']) };
  };
  return { name, style, sourceRoot, before: toRelease(before), after: toRelease(after) };
}

function listReleaseFiles(pkg: CorpusPackage, release: CorpusRelease): CorpusFile[] {
  return listSourcePaths(join(release.packageDir, pkg.sourceRoot)).map((absPath) => ({
    pkg: pkg.name,
    version: release.version,
    relPath: relative(release.packageDir, absPath).split(sep).join('/'),
    absPath,
  }));
}

function changedPairsOf(pkg: CorpusPackage): ChangedFilePair[] {
  const beforeByPath = new Map(listReleaseFiles(pkg, pkg.before).map((file) => [file.relPath, file.absPath]));
  const pairs: ChangedFilePair[] = [];
  for (const after of listReleaseFiles(pkg, pkg.after)) {
    const beforePath = beforeByPath.get(after.relPath);
    if (beforePath === undefined) continue;
    const beforeText = readFileSync(beforePath, 'utf8');
    const afterText = readFileSync(after.absPath, 'utf8');
    if (beforeText === afterText) continue;
    pairs.push({ pkg: pkg.name, relPath: after.relPath, beforePath, afterPath: after.absPath, beforeText, afterText });
  }
  return pairs;
}

function listSourcePaths(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE_FILE.test(name) && !DECLARATION_FILE.test(name)) found.push(full);
    }
  };
  walk(root);
  // Sorted on the '/'-separated form so the order is the same on every platform and in every locale.
  const key = (path: string): string => relative(root, path).split(sep).join('/');
  return found.sort((a, b) => compareStrings(key(a), key(b)));
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
