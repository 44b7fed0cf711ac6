import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where the ripgrep binary is. VS Code ships one with itself (under its `appRoot`), which the extension hands over
 * with {@link useRipgrep} so the vsix need not carry one per platform; the CLI and the tests use the copy of the
 * `@vscode/ripgrep` package, whose platform package (an optionalDependency) holds the binary. Without either, the
 * searches run in Node (src/core/search/textSearch.ts), slower but with the same answers.
 */

const binaryName = process.platform === 'win32' ? 'rg.exe' : 'rg';
const platformFolder = `${process.platform}-${process.arch}`;

/** undefined: not decided yet (discover on first use); null: no binary, search in Node. */
let chosen: string | null | undefined;

/** Uses this binary from now on; `null` turns ripgrep off (the Node search answers). */
export function useRipgrep(path: string | null): void {
  chosen = path;
}

/** The binary the searches run, discovered on first use; undefined when there is none. */
export function ripgrepPath(): string | undefined {
  if (chosen === undefined) chosen = discoverRipgrep() ?? null;
  return chosen ?? undefined;
}

/** The places VS Code (and code-server) keep their own ripgrep, under the application root. */
export function ripgrepUnderAppRoot(appRoot: string): string | undefined {
  const candidates = [
    join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', binaryName),
    join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', binaryName),
    join(appRoot, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', platformFolder, binaryName),
    join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep-universal', 'bin', platformFolder, binaryName),
    join(appRoot, 'node_modules', '@vscode', `ripgrep-${platformFolder}`, 'bin', binaryName),
  ];
  return candidates.find((candidate) => existsSync(candidate));
}

/** The `@vscode/ripgrep` platform package in the nearest node_modules above this module (the CLI, the tests). */
function discoverRipgrep(): string | undefined {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules', '@vscode');
    const found = [
      join(modules, `ripgrep-${platformFolder}`, 'bin', binaryName),
      join(modules, 'ripgrep', 'bin', binaryName),
    ].find((candidate) => existsSync(candidate));
    if (found !== undefined) return found;
    if (dirname(dir) === dir) return undefined;
  }
}
