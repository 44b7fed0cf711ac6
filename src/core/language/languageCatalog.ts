import type { LanguageInfo } from './languageSupport';

/**
 * The languages Scalpel ships, as data only: this module imports nothing, so the extension layer may load it at
 * activation (the CodeLens selector, messages) without pulling in a parser. package.json's activationEvents and
 * `editorLangId` when-clauses must agree with it: test/unit/language/packageLanguages.test.ts checks that, and
 * `node scripts/syncLanguages.mjs` rewrites them from this list.
 */

export const TYPESCRIPT_INFO: LanguageInfo = {
  id: 'typescript',
  displayName: 'TypeScript or JavaScript',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  vscodeLanguageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'],
};

export const PYTHON_INFO: LanguageInfo = {
  id: 'python',
  displayName: 'Python',
  extensions: ['.py', '.pyi'],
  vscodeLanguageIds: ['python'],
  grammar: 'tree-sitter-python.wasm',
};

export const GO_INFO: LanguageInfo = {
  id: 'go',
  displayName: 'Go',
  extensions: ['.go'],
  vscodeLanguageIds: ['go'],
  grammar: 'tree-sitter-go.wasm',
};

export const RUST_INFO: LanguageInfo = {
  id: 'rust',
  displayName: 'Rust',
  extensions: ['.rs'],
  vscodeLanguageIds: ['rust'],
  grammar: 'tree-sitter-rust.wasm',
};

export const JAVA_INFO: LanguageInfo = {
  id: 'java',
  displayName: 'Java',
  extensions: ['.java'],
  vscodeLanguageIds: ['java'],
  grammar: 'tree-sitter-java.wasm',
};

export const CSHARP_INFO: LanguageInfo = {
  id: 'csharp',
  displayName: 'C#',
  extensions: ['.cs'],
  vscodeLanguageIds: ['csharp'],
  grammar: 'tree-sitter-c-sharp.wasm',
};

/** Every shipped language, in the order messages list them. */
export const LANGUAGE_CATALOG: readonly LanguageInfo[] = [
  TYPESCRIPT_INFO,
  PYTHON_INFO,
  GO_INFO,
  RUST_INFO,
  JAVA_INFO,
  CSHARP_INFO,
];

/** The VS Code language ids of every shipped language. */
export function supportedVscodeLanguageIds(): string[] {
  return LANGUAGE_CATALOG.flatMap((language) => language.vscodeLanguageIds);
}

/** The `editorLangId =~ /.../` pattern of package.json's when-clauses, e.g. `^(typescript|javascript)$`. */
export function editorLangIdPattern(): string {
  return `^(${supportedVscodeLanguageIds().join('|')})$`;
}

/** "TypeScript or JavaScript, Python, Go, Rust, Java or C#": every shipped language, for messages. */
export function supportedLanguageNamesText(): string {
  const names = LANGUAGE_CATALOG.map((language) => language.displayName);
  const last = names.pop() ?? '';
  return names.length === 0 ? last : `${names.join(', ')} or ${last}`;
}

/** The extensions of every shipped language, for messages: `.ts .tsx .mts ...`. */
export function supportedExtensionsText(): string {
  return LANGUAGE_CATALOG.flatMap((language) => language.extensions).join(' ');
}

/** The file's extension as the catalog writes it (lower case, with the dot), or '' without one. */
export function extensionOf(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/** The language a file's extension names, from this catalog alone (no parser loaded); undefined for none. */
export function languageInfoOf(file: string): LanguageInfo | undefined {
  const extension = extensionOf(file);
  return LANGUAGE_CATALOG.find((language) => language.extensions.includes(extension));
}
