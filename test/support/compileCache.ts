import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { constants as vmConstants, Script } from 'node:vm';

/**
 * A compile cache shared by the unit test processes. `node --test` starts one process per test file, and each one
 * compiles TypeScript's 9 MB compiler (through ts-morph) again: about 230 ms of CPU per file on the 2-core machine,
 * 45 ms with V8's cached code. Node 22 has this built in (`module.enableCompileCache()`); Node 20, which the project
 * supports, does not, so large CommonJS modules are compiled here through `vm.Script` with V8's cached data, kept in
 * `out/.compile-cache/` and keyed by path, size and modification time. V8 itself checks that cached data belongs to
 * the source and rejects it otherwise, so a stale entry costs a compile, never a wrong result. The build injects
 * this file first into every unit test bundle (scripts/build.mjs --tests), never into the integration suites, which
 * run inside VS Code's extension host, nor the bench, which measures first use; DISABLE_TEST_COMPILE_CACHE=1 turns
 * it off.
 */

interface LoadedModule {
  exports: unknown;
  require(id: string): unknown;
}

interface ModuleInternals {
  prototype: { _compile(this: LoadedModule, content: string, filename: string): unknown };
  wrap(script: string): string;
  _resolveFilename(request: string, parent: LoadedModule, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: LoadedModule): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}

/** Small modules compile faster than their cache file reads. */
const MIN_CACHED_SIZE = 64 * 1024;

function cacheFolder(): string | undefined {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'out', '.compile-cache');
  }
  return undefined;
}

/** The `require` a module's code receives, as Node's own loader builds it. */
function requireFor(internals: ModuleInternals, module: LoadedModule): NodeJS.Require {
  const require = ((id: string) => module.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) =>
    internals._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => internals._resolveLookupPaths(request, module);
  require.resolve = resolve;
  // process.mainModule is deprecated for users, but it is exactly what Node's loader gives require.main.
  require.main = process.mainModule;
  require.extensions = internals._extensions as NodeJS.Require['extensions'];
  require.cache = internals._cache as NodeJS.Require['cache'];
  return require;
}

function install(folder: string): void {
  // Node's loader internals are not in its typings; these are the ones Module.createRequire and the loader use.
  const internals = Module as unknown as ModuleInternals;
  const compile = internals.prototype._compile;
  const produced: Array<{ file: string; script: Script }> = [];
  mkdirSync(folder, { recursive: true });

  internals.prototype._compile = function (this: LoadedModule, content: string, filename: string) {
    if (content.length < MIN_CACHED_SIZE || !filename.endsWith('.js')) return compile.call(this, content, filename);
    const stat = statSync(filename);
    const key = createHash('sha1').update(`${filename}\0${stat.size}\0${stat.mtimeMs}`).digest('hex');
    const file = join(folder, `${key}.bin`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    // A hashbang is valid only at the very start of a script, which the wrapper moves it from.
    const source = content.startsWith('#!') ? `//${content.slice(2)}` : content;
    const script = new Script(internals.wrap(source), {
      filename,
      ...(cachedData === undefined ? {} : { cachedData }),
      importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData === undefined || script.cachedDataRejected === true) produced.push({ file, script });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(internals, this), this, filename, dirname(filename));
  };

  // At exit the cache also holds the functions compiled lazily while the tests ran.
  process.once('exit', () => {
    for (const { file, script } of produced) {
      try {
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, file);
      } catch {
        // A cache that cannot be written only costs the next run a compile.
      }
    }
  });
}

const folder = cacheFolder();
// Never inside Electron (a VS Code host): its loader is VS Code's business.
if (
  folder !== undefined &&
  process.versions['electron'] === undefined &&
  process.env['DISABLE_TEST_COMPILE_CACHE'] !== '1'
)
  install(folder);
