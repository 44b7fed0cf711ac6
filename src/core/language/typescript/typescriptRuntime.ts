import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ts as bundledTs } from 'ts-morph';
import type { CheckerDescription } from '../../graph/semantics';

/**
 * Which TypeScript checks a workspace (issue 24): the workspace's own `node_modules/typescript` when it is there, as
 * VS Code does after "Use Workspace Version", so the check reports what the repository's compiler reports (TypeScript
 * 6 changed defaults such as `rootDir`, and a repository pinned to 5.9 gets 5.9's errors); a folder named by a
 * setting or flag (`scalpel.typescript.tsdk`, `--tsdk`, like VS Code's `typescript.tsdk`); else the copy bundled
 * with Scalpel (ts-morph's). Loading the workspace's compiler runs its code: Scalpel works only in trusted workspaces
 * (docs/security.md), and `bundled` turns it off.
 */

export type TypeScriptModule = typeof bundledTs;

export interface TypeScriptRuntime {
  readonly ts: TypeScriptModule;
  /** The bundled compiler reads its lib files from memory (@ts-morph/common); another one from its own lib folder. */
  readonly bundled: boolean;
  readonly description: CheckerDescription;
}

/** The oldest TypeScript the check drives: its defaults (`moduleResolution: bundler`) and APIs need 5.0. */
export const MIN_TYPESCRIPT_MAJOR = 5;

/** `bundled` forces the copy that ships with Scalpel; empty or absent: the workspace's, else the bundled one. */
export const BUNDLED_TYPESCRIPT = 'bundled';

const loaded = new Map<string, TypeScriptModule>();

function bundledRuntime(fallbackReason?: string): TypeScriptRuntime {
  return {
    ts: bundledTs,
    bundled: true,
    description: {
      name: 'TypeScript',
      version: bundledTs.version,
      source: 'bundled',
      ...(fallbackReason === undefined ? {} : { fallbackReason }),
    },
  };
}

/** The `lib` folder of a TypeScript package, given the package folder or the lib folder itself. */
function libFolderOf(folder: string): string | undefined {
  for (const candidate of [folder, join(folder, 'lib')]) {
    if (existsSync(join(candidate, 'typescript.js'))) return candidate;
  }
  return undefined;
}

function versionAt(libFolder: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(libFolder, '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

function shown(root: string, folder: string): string {
  const inside = relative(root, folder);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside.replace(/\\/g, '/') : folder;
}

/**
 * The TypeScript that checks the workspace at `root`. `sdk`: a folder (absolute, or relative to the root) holding a
 * TypeScript package or its `lib` folder, or {@link BUNDLED_TYPESCRIPT}; absent or empty, the workspace's
 * `node_modules/typescript` when there. A copy that cannot be used (missing, older than 5.0, failing to load) gives
 * way to the bundled one, and the description says why.
 */
export function typescriptRuntimeFor(root: string, sdk?: string): TypeScriptRuntime {
  const setting = sdk?.trim() ?? '';
  if (setting === BUNDLED_TYPESCRIPT) return bundledRuntime();
  const fromSetting = setting !== '';
  const folder = fromSetting ? resolve(root, setting) : join(root, 'node_modules', 'typescript');
  const libFolder = libFolderOf(folder);
  if (libFolder === undefined) {
    return bundledRuntime(
      fromSetting ? `${shown(root, folder)} holds no TypeScript (no typescript.js in it or its lib folder)` : undefined,
    );
  }
  const location = shown(root, libFolder.endsWith('lib') ? join(libFolder, '..') : libFolder);
  const version = versionAt(libFolder);
  const major = Number(version?.split('.')[0] ?? NaN);
  if (version !== undefined && Number.isFinite(major) && major < MIN_TYPESCRIPT_MAJOR) {
    return bundledRuntime(
      `TypeScript ${version} in ${location} is older than ${MIN_TYPESCRIPT_MAJOR}.0, the oldest the check drives`,
    );
  }
  let ts: TypeScriptModule | undefined;
  try {
    const entry = join(libFolder, 'typescript.js');
    const key = `${entry}@${statSync(entry).mtimeMs}`;
    ts = loaded.get(key);
    if (ts === undefined) {
      ts = createRequire(entry)(entry) as TypeScriptModule;
      if (typeof ts.createLanguageService !== 'function' || typeof ts.version !== 'string')
        throw new Error('it does not export the compiler API');
      loaded.set(key, ts);
    }
  } catch (error) {
    return bundledRuntime(
      `TypeScript in ${location} failed to load (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  return {
    ts,
    bundled: false,
    description: { name: 'TypeScript', version: ts.version, source: fromSetting ? 'setting' : 'workspace', location },
  };
}
