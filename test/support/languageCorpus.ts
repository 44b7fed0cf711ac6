// Loads the real-code corpus of one language beyond TypeScript, which `node scripts/corpus.mjs --languages` installs
// under .cache/lang-corpus/<language>/ (scripts/languageCorpus.mjs holds the pins). Like test/support/corpus.ts,
// this module reads the manifest the script writes, so the two never disagree about versions or folders.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { findRepoRootOrThrow } from './corpus';

const MANIFEST_FILE = 'corpus.json';
const SUPPORTED_MANIFEST_SCHEMA = 1;

export interface LanguageCorpusSource {
  readonly from: 'debian' | 'npm';
  readonly name: string;
  readonly version: string;
  readonly style: string;
  /** Absolute path of the folder holding this source's files. */
  readonly dir: string;
}

export interface LanguageCorpusFile {
  /** `name version` of the package the file comes from. */
  readonly source: string;
  /** Path inside the package, '/'-separated: "rich/console.py". */
  readonly relPath: string;
  readonly absPath: string;
}

export interface LanguageCorpus {
  readonly language: string;
  readonly dir: string;
  readonly extensions: readonly string[];
  readonly sources: readonly LanguageCorpusSource[];
  /** Every source file of the language, sorted by source then path. */
  files(): LanguageCorpusFile[];
}

export function installHint(language: string): string {
  return `Run \`node scripts/corpus.mjs --languages=${language}\` from the repository root to install it.`;
}

/** Folder of the language corpora; .cache/lang-corpus under the scalpel repository root by default. */
export function languageCorpusDir(): string {
  return join(findRepoRootOrThrow(), '.cache', 'lang-corpus');
}

export function loadLanguageCorpus(language: string, baseDir: string = languageCorpusDir()): LanguageCorpus {
  const dir = resolve(baseDir, language);
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) {
    throw new Error(`The ${language} corpus is not installed (no ${manifestPath}). ${installHint(language)}`);
  }
  const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const invalid = (): Error =>
    new Error(`${manifestPath} is not a corpus manifest this loader understands. ${installHint(language)}`);
  if (
    !isRecord(manifest) ||
    manifest['schema'] !== SUPPORTED_MANIFEST_SCHEMA ||
    manifest['language'] !== language ||
    !Array.isArray(manifest['sources']) ||
    !Array.isArray(manifest['extensions'])
  ) {
    throw invalid();
  }
  const extensions = manifest['extensions'].map((extension: unknown) => {
    if (typeof extension !== 'string') throw invalid();
    return extension;
  });
  const sources = manifest['sources'].map((entry: unknown): LanguageCorpusSource => {
    if (!isRecord(entry)) throw invalid();
    const { from, name, version, style, dir: folder } = entry;
    if (
      (from !== 'debian' && from !== 'npm') ||
      typeof name !== 'string' ||
      typeof version !== 'string' ||
      typeof style !== 'string' ||
      typeof folder !== 'string'
    ) {
      throw invalid();
    }
    const sourceDir = resolve(dir, folder);
    if (!existsSync(sourceDir)) {
      throw new Error(
        `The ${language} corpus source ${name} ${version} is missing from ${sourceDir}. ${installHint(language)}`,
      );
    }
    return { from, name, version, style, dir: sourceDir };
  });
  return {
    language,
    dir,
    extensions,
    sources,
    files: () => sources.flatMap((source) => listFiles(source, extensions)),
  };
}

function listFiles(source: LanguageCorpusSource, extensions: readonly string[]): LanguageCorpusFile[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (extensions.some((extension) => name.endsWith(extension))) found.push(full);
    }
  };
  walk(source.dir);
  const key = (path: string): string => relative(source.dir, path).split(sep).join('/');
  // Sorted on the '/'-separated form so the order, and so the seeded mutations, are the same on every platform.
  return found
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    .map((absPath) => ({ source: `${source.name} ${source.version}`, relPath: key(absPath), absPath }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One real file of a language corpus, by the end of its path inside its package (`regex-syntax-0.6.27/src/hir/literal/mod.rs`),
 * for a test that holds a view of real code: its text and a short path to outline it under. Undefined when the
 * corpus is not installed, except in CI, where the test command installs it and a missing file is a failure.
 */
export function corpusFileText(language: string, pathEnd: string): { path: string; text: string } | undefined {
  try {
    const file = loadLanguageCorpus(language)
      .files()
      .find((f) => f.relPath.endsWith(pathEnd));
    if (file === undefined) throw new Error(`no ${language} corpus file ends with ${pathEnd}. ${installHint(language)}`);
    return { path: pathEnd.split('/').slice(-2).join('/'), text: readFileSync(file.absPath, 'utf8') };
  } catch (error) {
    if (process.env['CI'] !== undefined) throw error;
    return undefined;
  }
}
