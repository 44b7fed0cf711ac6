// Runs the integration suite (out/test/integration/suite/) in a real VS Code extension host against a fresh copy
// of playground/. `npm run test:integration` builds dist/ and out/ first.
//   node test/integration/run.mjs [--grep <pattern>]
// Exits with the suite's exit code.
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: options } = parseArgs({ options: { grep: { type: 'string' } } });
const startedAt = Date.now();

const setup = spawnSync('bash', [join(repoRoot, 'scripts/vscode-host/setup.sh')], { stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);

const extensionTestsPath = join(repoRoot, 'out/test/integration/suite/index.js');
for (const built of [join(repoRoot, 'dist/extension.js'), extensionTestsPath]) {
  if (!existsSync(built)) {
    console.error(`${built} is missing: run \`npm run test:integration\`, which builds before testing.`);
    process.exit(1);
  }
}

// Tests may edit the workspace; each run gets its own copy, and its own profile so no state leaks between runs.
const runDir = mkdtempSync(join(tmpdir(), 'scalpel-it-'));
const workspace = join(runDir, 'workspace');
cpSync(join(repoRoot, 'playground'), workspace, { recursive: true });
// The host saves dirty files a second after an edit (auto-save after a delay); tests leave edits unsaved and put them
// back after each test, so a save landing in between would carry one test's edit into the next.
mkdirSync(join(workspace, '.vscode'), { recursive: true });
writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify({ 'files.autoSave': 'off' }, null, 2)}\n`);

let exitCode;
try {
  exitCode = await runTests({
    vscodeExecutablePath: join(repoRoot, 'scripts/vscode-host/code'),
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath,
    launchArgs: [
      workspace,
      `--user-data-dir=${join(runDir, 'user-data')}`,
      `--extensions-dir=${join(runDir, 'extensions')}`,
    ],
    extensionTestsEnv: options.grep ? { SCALPEL_TEST_GREP: options.grep } : {},
  });
} catch (error) {
  // runTests rejects with the exit code when the suite fails.
  exitCode = typeof error?.code === 'number' && error.code !== 0 ? error.code : 1;
  if (typeof error?.code !== 'number') console.error(error);
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
console.log(
  `integration tests ${exitCode === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
);
process.exit(exitCode);
