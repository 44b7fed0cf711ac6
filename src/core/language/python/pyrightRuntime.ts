import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { CheckerDescription } from '../../graph/semantics';

/**
 * Which pyright checks Python, found the way the TypeScript check finds its compiler (typescriptRuntime.ts): a folder
 * the user named (`python` in the `scalpel.checkers` setting, the CLI's `--checker python=DIR`), else the workspace's own
 * `node_modules/pyright`, else the copy Scalpel ships (`dist/pyright/` in the extension, the npm dependency for the
 * CLI and the tests). Pyright bundles typeshed and runs offline.
 */

export interface PyrightRuntime {
  /** The language server's entry script (`langserver.index.js`). */
  readonly serverScript: string;
  readonly description: CheckerDescription;
}

const SERVER_SCRIPT = 'langserver.index.js';

/** The runtime for `choice` (a folder, `bundled`, or undefined for the workspace's then the bundled one). */
export function pyrightRuntimeFor(workspaceRoot: string, choice: string | undefined): PyrightRuntime | undefined {
  if (choice !== undefined && choice !== 'bundled') {
    const folder = isAbsolute(choice) ? choice : resolve(workspaceRoot, choice);
    const found = runtimeIn(folder, 'setting', workspaceRoot);
    if (found !== undefined) return found;
    const bundled = bundledRuntime();
    return bundled === undefined
      ? undefined
      : {
          ...bundled,
          description: {
            ...bundled.description,
            fallbackReason: `no pyright in ${choice} (it needs ${SERVER_SCRIPT} and package.json)`,
          },
        };
  }
  if (choice === undefined) {
    const own = runtimeIn(join(workspaceRoot, 'node_modules', 'pyright'), 'workspace', workspaceRoot);
    if (own !== undefined) return own;
  }
  return bundledRuntime();
}

function bundledRuntime(): PyrightRuntime | undefined {
  // Beside the bundle (dist/pyright, as scripts/build.mjs copies it), else the installed npm package.
  const beside = runtimeIn(join(__dirname, 'pyright'), 'bundled', undefined);
  if (beside !== undefined) return beside;
  try {
    return runtimeIn(dirname(require.resolve('pyright/package.json')), 'bundled', undefined);
  } catch {
    return undefined;
  }
}

function runtimeIn(
  folder: string,
  source: CheckerDescription['source'],
  workspaceRoot: string | undefined,
): PyrightRuntime | undefined {
  const serverScript = join(folder, SERVER_SCRIPT);
  if (!existsSync(serverScript)) return undefined;
  let version = 'unknown';
  try {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof manifest.version === 'string') version = manifest.version;
  } catch {
    return undefined;
  }
  const inside = workspaceRoot === undefined ? undefined : relative(workspaceRoot, folder).split('\\').join('/');
  const location = inside !== undefined && !inside.startsWith('..') && !isAbsolute(inside) ? inside : folder;
  return {
    serverScript,
    description: {
      name: 'pyright',
      version,
      source,
      ...(source === 'bundled' ? {} : { location }),
    },
  };
}
