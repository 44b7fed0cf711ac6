import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The bench runs from out/bench/; the repository root is found by its package.json rather than a fixed '../..'. */
export function findRepoRootOrThrow(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      if (isScalpelRoot(dir)) return dir;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(`Cannot find the scalpel repository root above ${__dirname} or ${process.cwd()}.`);
}

function isScalpelRoot(dir: string): boolean {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
    return parsed.name === 'scalpel';
  } catch {
    return false;
  }
}

/**
 * The workspace path a corpus file gets in the bench: its package folder then its path in the package, so that files of
 * different packages (each has a src/index.ts) never share a path in a multi-file context.
 */
export function workspacePathOf(pkg: string, relPath: string): string {
  return `${pkg.replace(/^@/, '').replace(/\//g, '-')}/${relPath}`;
}
