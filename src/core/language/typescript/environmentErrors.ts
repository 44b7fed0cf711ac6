import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * TypeScript errors that only say the environment lacks something (issue 24): no edit can fix them, so the type check
 * sets them aside and reports them apart, never to the model. Each comes with why, in a few words the user can act on.
 *
 * - The project's configuration: compiler-option and project diagnostics (TS5xxx, TS6xxx: `rootDir` (TS6059), a
 *   file outside the project's list, options that clash), save the few of those ranges that judge code (unused
 *   declarations, numeric separators, ...).
 * - A `types` entry that is not installed (TS2688).
 * - A package that is not installed: `Cannot find module 'x'` for a bare specifier (TS2307, TS2792), a package
 *   without types (TS7016), and the compiler's own "install type definitions" errors (TS2580-TS2593 and kin).
 * - A global of a type package that is missing: `expect`, `vi`, `jest`, `beforeEach` without a test runner's types,
 *   `setTimeout`, `process`, `Buffer`, `NodeJS` without `@types/node` (TS2304, TS2552, TS2503), when none of the
 *   packages that declare it is installed where the file can see it. With the package installed the name is the
 *   code's to import or declare, and the error counts.
 * - In a file with such an error, an implicit `any` (TS7005-TS7034): the type that would have typed the value is what
 *   is missing.
 */

/** Option and project diagnostics of TS5xxx/TS6xxx that judge the code itself, not the configuration. */
const CODE_LEVEL_CONFIG_RANGE: ReadonlySet<number> = new Set([
  5075, 5076, 5082, 5087, 5088, 6133, 6137, 6138, 6188, 6189, 6192, 6196, 6198, 6199, 6200, 6205, 6229, 6232, 6233,
  6234, 6236, 6807,
]);

/** Codes whose message says a dependency or its type definitions are missing, not that the code is wrong. */
const MISSING_DEFINITIONS: ReadonlyMap<number, string> = new Map([
  [2580, 'type definitions for node are not installed'],
  [2581, 'type definitions for jQuery are not installed'],
  [2582, "a test runner's type definitions are not installed"],
  [2583, 'the project targets an older library'],
  [2584, "the project's libraries leave out the DOM"],
  [2591, 'type definitions for node are not installed'],
  [2592, 'type definitions for jQuery are not installed'],
  [2593, "a test runner's type definitions are not installed"],
  [7026, "the JSX runtime's types are not installed"],
  [2875, 'the JSX runtime is not installed'],
]);

/** Cannot find module '…' (2307), or with a moduleResolution hint (2792). */
const MISSING_MODULE_CODES: ReadonlySet<number> = new Set([2307, 2792]);

/** Cannot find name (2304), with a suggestion (2552), cannot find namespace (2503). */
const MISSING_NAME_CODES: ReadonlySet<number> = new Set([2304, 2552, 2503]);

/** Implicit `any` of a parameter, binding element or variable. */
const IMPLICIT_ANY_CODES: ReadonlySet<number> = new Set([7005, 7006, 7008, 7019, 7031, 7034]);

interface TypePackages {
  /** What the user would install, as a sentence names it. */
  readonly label: string;
  readonly packages: readonly string[];
}

const NODE_TYPES: TypePackages = { label: '@types/node', packages: ['@types/node', 'bun-types', '@types/bun'] };
const TEST_RUNNERS: TypePackages = {
  label: "a test runner's types (vitest, @types/jest, @types/mocha)",
  packages: ['vitest', '@types/jest', '@jest/globals', '@types/mocha', '@types/jasmine', 'bun-types'],
};
const VITEST: TypePackages = { label: 'vitest', packages: ['vitest'] };
const JEST: TypePackages = { label: '@types/jest', packages: ['@types/jest', '@jest/globals', '@types/jasmine'] };

/** Globals a type package declares, and the packages that declare them. */
const GLOBAL_PACKAGES: ReadonlyMap<string, TypePackages> = new Map([
  ...[
    'process',
    'Buffer',
    'require',
    'module',
    'exports',
    '__dirname',
    '__filename',
    'global',
    'NodeJS',
    'setTimeout',
    'setInterval',
    'setImmediate',
    'clearTimeout',
    'clearInterval',
    'clearImmediate',
    'queueMicrotask',
    'structuredClone',
  ].map((name): [string, TypePackages] => [name, NODE_TYPES]),
  ...[
    'describe',
    'it',
    'test',
    'suite',
    'expect',
    'beforeEach',
    'afterEach',
    'beforeAll',
    'afterAll',
    'before',
    'after',
  ].map((name): [string, TypePackages] => [name, TEST_RUNNERS]),
  ...['vi', 'expectTypeOf', 'assertType', 'bench'].map((name): [string, TypePackages] => [name, VITEST]),
  ...['jest', 'fit', 'fdescribe', 'xit', 'xdescribe', 'xtest'].map((name): [string, TypePackages] => [name, JEST]),
]);

/** Whether a package is installed where a file can see it: in a `node_modules` of its folder or one above. */
export class InstalledPackages {
  private readonly found = new Map<string, boolean>();

  isInstalled(pkg: string, fromDirectory: string): boolean {
    const key = `${fromDirectory}\0${pkg}`;
    let installed = this.found.get(key);
    if (installed === undefined) {
      installed = existsSync(join(fromDirectory, 'node_modules', pkg, 'package.json'));
      if (!installed) {
        const parent = dirname(fromDirectory);
        installed = parent !== fromDirectory && this.isInstalled(pkg, parent);
      }
      this.found.set(key, installed);
    }
    return installed;
  }
}

export interface CheckedError {
  readonly code: number;
  readonly message: string;
}

/**
 * Why an error only reflects the environment, or undefined when it is the code's. `file` is the absolute path of the
 * file the error is in; `fileHasEnvironmentError` says whether another error of the file is an environment one.
 */
export function environmentReason(
  error: CheckedError,
  file: string,
  packages: InstalledPackages,
  fileHasEnvironmentError = false,
): string | undefined {
  const { code, message } = error;
  if ((code >= 5000 && code < 7000) || code === 2688) {
    if (code === 2688) return `a \`types\` entry is not installed (${quoted(message) ?? 'see tsconfig.json'})`;
    if (!CODE_LEVEL_CONFIG_RANGE.has(code)) return "the project's configuration";
  }
  const missing = MISSING_DEFINITIONS.get(code);
  if (missing !== undefined) return missing;
  if (MISSING_MODULE_CODES.has(code) || code === 7016) {
    const module = quoted(message);
    if (module !== undefined && !module.startsWith('.') && !module.startsWith('/'))
      return code === 7016
        ? `${packageOf(module)} has no type definitions installed`
        : `${packageOf(module)} is not installed`;
    return undefined;
  }
  if (MISSING_NAME_CODES.has(code)) {
    const name = quoted(message);
    const providers = name === undefined ? undefined : GLOBAL_PACKAGES.get(name);
    if (name === undefined || providers === undefined) return undefined;
    const directory = dirname(file);
    if (providers.packages.some((pkg) => packages.isInstalled(pkg, directory))) return undefined;
    return `\`${name}\` comes from ${providers.label}, not installed`;
  }
  if (fileHasEnvironmentError && IMPLICIT_ANY_CODES.has(code)) return 'its type would come from what is not installed';
  return undefined;
}

/** The first single-quoted text of a message: the module, the name or the types entry. */
function quoted(message: string): string | undefined {
  return /'([^']+)'/.exec(message)?.[1];
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`, `node:fs` → `node:fs`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
