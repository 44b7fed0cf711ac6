import type { FileOutline } from '../elements/element';
import { normalizeFilePath, parseElementPath } from '../elements/elementPath';
import { extensionOf } from './languageCatalog';
import type { LanguageSupport } from './languageSupport';
import { csharpLanguage } from './csharp/csharpLanguage';
import { goLanguage } from './go/goLanguage';
import { goVetCheckSpec } from './go/goVetCheck';
import { javaLanguage } from './java/javaLanguage';
import { ToolchainChecker } from '../check/toolchain/toolchainChecker';
import { PyrightChecker } from './python/pyrightChecker';
import { cargoCheckSpec } from './rust/cargoCheck';
import { javacCheckSpec } from './java/javacCheck';
import { pythonLanguage } from './python/pythonLanguage';
import { rustLanguage } from './rust/rustLanguage';
import { typescriptLanguage } from './typescript/typescriptLanguage';

/**
 * The registry of languages: the one place context, apply, diff and the surfaces ask which language a file is in.
 * The shipped languages are registered here (their metadata is in languageCatalog.ts); `registerLanguage` adds one
 * at run time (a test language, or a grammar loaded on demand).
 */

const registered: LanguageSupport[] = [
  typescriptLanguage,
  withChecker(pythonLanguage, (fileSystem, options) => new PyrightChecker(fileSystem, options)),
  withChecker(goLanguage, (fileSystem, options) => new ToolchainChecker(goVetCheckSpec, fileSystem, options)),
  withChecker(rustLanguage, (fileSystem, options) => new ToolchainChecker(cargoCheckSpec, fileSystem, options)),
  withChecker(javaLanguage, (fileSystem, options) => new ToolchainChecker(javacCheckSpec, fileSystem, options)),
  csharpLanguage,
];

/**
 * A language with its checker (src/core/check/toolchain/ and the languages' own checker modules): the type check of a
 * batch asks it when the language has no semantics of its own.
 */
function withChecker(language: LanguageSupport, checker: NonNullable<LanguageSupport['checker']>): LanguageSupport {
  return { ...language, checker };
}

/** The language of a file by its extension, or undefined when Scalpel has no element model for it. */
export function languageFor(file: string): LanguageSupport | undefined {
  const extension = extensionOf(normalizeFilePath(file));
  if (extension === '') return undefined;
  // The latest registration wins, so a test can stand in for a shipped language.
  for (let i = registered.length - 1; i >= 0; i--) {
    const language = registered[i];
    if (language?.extensions.includes(extension)) return language;
  }
  return undefined;
}

export function supportedLanguages(): readonly LanguageSupport[] {
  return [...registered];
}

/**
 * Loads the parsers of the languages these files are in, for the ones that load asynchronously (tree-sitter
 * grammars): a surface awaits this before it reads files, so that the synchronous seam finds them ready. Cheap when
 * they are loaded already; files of no language are ignored.
 */
export async function loadLanguagesFor(files: Iterable<string>): Promise<void> {
  const pending = new Set<LanguageSupport>();
  for (const file of files) {
    const language = languageFor(file);
    if (language?.load !== undefined) pending.add(language);
  }
  await Promise.all([...pending].map((language) => language.load?.()));
}

/** Loads the parsers of the files element operations name (their paths' file parts). */
export async function loadLanguagesForPaths(paths: Iterable<string>): Promise<void> {
  const files: string[] = [];
  for (const path of paths) {
    if (typeof path !== 'string') continue;
    try {
      files.push(parseElementPath(path).file);
    } catch {
      // A malformed path (`deep.rs/mod[m0]`, a kind the language does not have) still names its file, which apply
      // outlines to suggest the nearest paths: every prefix a language reads is loaded.
      const parts = path.split('/');
      for (let end = 1; end < parts.length; end++) files.push(parts.slice(0, end).join('/'));
    }
  }
  await loadLanguagesFor(files);
}

/** Loads every registered language's parser (a workspace-wide scan that may meet any of them). */
export async function loadAllLanguages(): Promise<void> {
  await Promise.all(registered.map((language) => language.load?.()));
}

/** Adds a language; returns the function that removes it again. */
export function registerLanguage(language: LanguageSupport): () => void {
  registered.push(language);
  return () => {
    const at = registered.lastIndexOf(language);
    if (at >= 0) registered.splice(at, 1);
  };
}

/** Whether the element model can outline this file (by its extension). */
export function isOutlinable(file: string): boolean {
  return languageFor(file) !== undefined;
}

/** The outline of a file in any registered language; throws for a file no language reads. */
export function outlineSource(file: string, text: string): FileOutline {
  const language = languageFor(file);
  if (language === undefined) {
    throw new Error(`${normalizeFilePath(file)}: no element model for this kind of file (${supportedNames()})`);
  }
  return language.outline(file, text);
}

/** "TypeScript or JavaScript (.ts .tsx ...)" for every registered language, for messages. */
export function supportedNames(): string {
  return registered.map((l) => `${l.displayName} (${l.extensions.join(' ')})`).join('; ');
}

/** "TypeScript or JavaScript" (and the other registered languages), for messages. */
export function languageNames(): string {
  const names = registered.map((l) => l.displayName);
  const last = names.pop() ?? '';
  return names.length === 0 ? last : `${names.join(', ')} or ${last}`;
}
