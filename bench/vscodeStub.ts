/**
 * A stand-in for the `vscode` module, for timing activation outside VS Code. It is permissive on purpose: every
 * property is another stub, every call returns a stub that is also a disposable and a Thenable, every `new` gives a stub, so that
 * registrations added later need no change here. A few values that code branches on are real (no editor, no folder)
 * and `get(key, default)` answers the default, as an empty configuration does. Every call is recorded by its path.
 */

const PLAIN_VALUES: Readonly<Record<string, unknown>> = {
  'vscode.window.activeTextEditor': undefined,
  'vscode.window.visibleTextEditors': [],
  'vscode.window.terminals': [],
  'vscode.workspace.workspaceFolders': undefined,
  'vscode.workspace.textDocuments': [],
  'vscode.workspace.isTrusted': true,
  'vscode.workspace.name': undefined,
  'vscode.env.language': 'en',
  'vscode.env.appName': 'Visual Studio Code',
  'vscode.version': '1.104.0',
  'vscode.extensions.all': [],
};

export interface VscodeStub {
  readonly module: unknown;
  /** Every stub function called, in call order: its path and its first argument when that is a string. */
  readonly calls: string[];
  /** A stub at any path, for objects outside the module (the extension context's less used members). */
  stubAt(path: string): unknown;
}

/**
 * `exportNames`: the module's value exports (namespaces, classes, enums, functions). A bundle that imports the module
 * as a namespace copies its own properties (esbuild's `__toESM`), so the module stub must list them.
 */
export function createVscodeStub(exportNames: readonly string[]): VscodeStub {
  const calls: string[] = [];
  const cache = new Map<string, unknown>();

  /**
   * `awaitable`: the stub is what a call returned, so it also acts as the Thenable most of the API returns, resolving
   * to a plain stub (one that is not itself a thenable, or awaiting it would never end).
   */
  const stub = (path: string, ownNames: readonly string[] = [], awaitable = false): unknown => {
    const cached = cache.get(path);
    if (cached !== undefined) return cached;
    const target = function stubFunction(): void {};
    const children = new Map<PropertyKey, unknown>();
    const proxy: object = new Proxy(target, {
      ownKeys: () => [...new Set([...Reflect.ownKeys(target), ...ownNames])],
      getOwnPropertyDescriptor(_target, property) {
        if (typeof property === 'string' && ownNames.includes(property) && !Object.hasOwn(target, property)) {
          return { value: Reflect.get(proxy, property), enumerable: true, configurable: true, writable: true };
        }
        return Reflect.getOwnPropertyDescriptor(target, property);
      },
      get(_target, property) {
        if (property === 'then') {
          if (!awaitable) return undefined;
          return (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) =>
            Promise.resolve(stub(`${path}.resolved`)).then(onFulfilled, onRejected);
        }
        if (property === 'prototype') return target.prototype;
        if (property === Symbol.toPrimitive) return () => `[${path}]`;
        if (property === Symbol.iterator) return function* empty(): Generator<never> {};
        if (property === Symbol.hasInstance) {
          // `instanceof` a stubbed class is false; a subclass of one keeps the ordinary check.
          return function hasInstance(this: unknown, value: unknown): boolean {
            return (
              typeof this === 'function' && this !== proxy && Function.prototype[Symbol.hasInstance].call(this, value)
            );
          };
        }
        if (property === 'dispose') return () => undefined;
        if (typeof property === 'symbol') return undefined;
        const childPath = `${path}.${property}`;
        if (childPath in PLAIN_VALUES) return PLAIN_VALUES[childPath];
        if (!children.has(property)) children.set(property, stub(childPath));
        return children.get(property);
      },
      set(_target, property, value) {
        children.set(property, value);
        return true;
      },
      apply(_target, _this, args: unknown[]) {
        calls.push(typeof args[0] === 'string' ? `${path} ${args[0]}` : path);
        // `configuration.get(key, default)`, `memento.get(key, default)`: an empty store answers the default.
        if (path.endsWith('.get')) return args[1];
        return stub(`${path}()`, [], true);
      },
      construct(_target, _args, newTarget) {
        calls.push(`new ${path}`);
        return newTarget === proxy ? (stub(`new ${path}`) as object) : Reflect.construct(Object, [], newTarget);
      },
    });
    cache.set(path, proxy);
    return proxy;
  };

  return { module: stub('vscode', exportNames), calls, stubAt: (path) => stub(path) };
}

/** The extension context activation receives: real subscriptions and manifest, a stub for everything else. */
export function createExtensionContext(
  stubFor: (path: string) => unknown,
  packageJSON: unknown,
  extensionPath: string,
): { context: object; subscriptions: Array<{ dispose(): unknown }> } {
  const subscriptions: Array<{ dispose(): unknown }> = [];
  const memento = {
    get: (_key: string, fallback?: unknown) => fallback,
    update: () => Promise.resolve(),
    keys: () => [],
    setKeysForSync: () => undefined,
  };
  const base: Record<string, unknown> = {
    subscriptions,
    extensionPath,
    extension: { id: 'scalpel-dev.scalpel', packageJSON, extensionPath, isActive: true },
    globalState: memento,
    workspaceState: memento,
    secrets: {
      get: () => Promise.resolve(undefined),
      store: () => Promise.resolve(),
      delete: () => Promise.resolve(),
      onDidChange: () => ({ dispose: () => undefined }),
    },
    extensionMode: 1,
    globalStoragePath: extensionPath,
    logPath: extensionPath,
  };
  const context = new Proxy(base, {
    get: (target, property) =>
      typeof property === 'string' && !(property in target)
        ? stubFor(`context.${property}`)
        : target[property as string],
  });
  return { context, subscriptions };
}

/** The value exports of the `vscode` module, read from its type declarations (a tab-indented `export` each). */
export function vscodeExportNames(declarations: string): string[] {
  const names = [
    ...declarations.matchAll(/^\t(?:export )(?:declare )?(?:class|enum|namespace|function|const|let) (\w+)/gm),
  ];
  return [...new Set(names.map((m) => m[1] ?? ''))].filter((name) => name !== '');
}
