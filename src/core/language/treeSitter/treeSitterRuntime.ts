import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

/**
 * Loads web-tree-sitter and the grammars of @vscode/tree-sitter-wasm on first use. Both are WebAssembly, which
 * only loads asynchronously, while the language seam is synchronous (apply and context parse inside one
 * synchronous step); so a surface awaits `loadLanguagesFor` (languages.ts) for the files it is about to read, and a
 * grammar is then at hand for every synchronous parse. Nothing here runs at activation: the first Python file
 * pays for the runtime (about 15 ms) and its grammar (about 15 ms), once per process.
 */

/**
 * Where the .wasm files are: beside the bundle (dist/tree-sitter/, what the vsix ships), else in the nearest
 * node_modules above it (the unit tests, whose bundles sit in out/ and leave packages external).
 */
function wasmDirectories(): { runtime: string; grammars: string } {
  const shipped = join(__dirname, 'tree-sitter');
  if (existsSync(join(shipped, 'web-tree-sitter.wasm'))) return { runtime: shipped, grammars: shipped };
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    const grammarDir = join(modules, '@vscode', 'tree-sitter-wasm', 'wasm');
    if (existsSync(join(modules, 'web-tree-sitter', 'web-tree-sitter.wasm')) && existsSync(grammarDir))
      return { runtime: join(modules, 'web-tree-sitter'), grammars: grammarDir };
    if (dirname(dir) === dir) break;
  }
  throw new Error(`the tree-sitter parsers are missing: neither ${shipped} nor a node_modules above it holds them`);
}

let runtime: Promise<void> | undefined;
const grammars = new Map<string, Promise<Language>>();
const loaded = new Map<string, Language>();

function initRuntime(): Promise<void> {
  runtime ??= (async () => {
    const { runtime: dir } = wasmDirectories();
    // The wasm binary is handed over as bytes: the Emscripten loader would otherwise look for it next to the
    // bundle under its own name, which differs between the shipped and the unbundled layouts.
    const wasmBinary = readFileSync(join(dir, 'web-tree-sitter.wasm'));
    await Parser.init({ wasmBinary });
  })();
  return runtime;
}

/** Loads a grammar (`tree-sitter-python.wasm`) once; later calls return the same promise. */
export function loadGrammar(file: string): Promise<Language> {
  let pending = grammars.get(file);
  if (pending === undefined) {
    pending = (async () => {
      await initRuntime();
      const language = await Language.load(readFileSync(join(wasmDirectories().grammars, file)));
      loaded.set(file, language);
      return language;
    })();
    // A failed load may be retried (a file missing from a broken install is reported each time, not cached).
    pending.catch(() => grammars.delete(file));
    grammars.set(file, pending);
  }
  return pending;
}

/** The grammar if it has been loaded, for the synchronous parse. */
export function loadedGrammar(file: string): Language | undefined {
  return loaded.get(file);
}

const parsers = new Map<Language, Parser>();

/** A parser for a loaded grammar; one per grammar, reused (parsing is synchronous, so nothing interleaves). */
export function parserFor(language: Language): Parser {
  let parser = parsers.get(language);
  if (parser === undefined) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(language, parser);
  }
  return parser;
}
