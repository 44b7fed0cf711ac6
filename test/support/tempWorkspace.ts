import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const HARD_CASES_PATH = join('test', 'unit', 'elements', 'fixtures', 'hardCases.ts');

/** The checkout: each test is bundled into out/ at its own depth, so it is found by walking up. */
function repoRootOrThrow(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, HARD_CASES_PATH))) return dir;
  }
  throw new Error(`no ${HARD_CASES_PATH} above ${__dirname}`);
}

/** The hard-cases fixture (test/unit/elements/fixtures/hardCases.ts), the file most end-to-end suites edit. */
export const HARD_CASES = readFileSync(join(repoRootOrThrow(), HARD_CASES_PATH), 'utf8');

/** A fresh folder under the system's temporary folder holding `files` (workspace path → text). */
export function tempWorkspace(prefix: string, files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
