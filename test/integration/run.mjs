// Runs the integration suite (out/test/integration/suite/) in a real VS Code extension host against a fresh copy
// of playground/. `npm run test:integration` builds dist/ and out/ first.
//   node test/integration/run.mjs [--grep <regular expression over "suite test" titles>]
// Exits with the suite's exit code. Suites that read state VS Code keeps per profile and never resets (a walkthrough
// step stays checked once done) run in a host of their own, with a fresh profile, after the others.
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

/** Suites (mocha's top-level describe titles) that need a profile no other suite has touched. */
const OWN_PROFILE = ['walkthrough'];
const ownProfilePattern = `^(?:${OWN_PROFILE.join('|')})\\b`;

/** One host run over a fresh copy of playground/ with a fresh profile; resolves to its exit code. */
async function runHost(testEnv) {
  // Tests may edit the workspace; each run gets its own copy, and its own profile so no state leaks between runs.
  const runDir = mkdtempSync(join(tmpdir(), 'scalpel-it-'));
  const workspace = join(runDir, 'workspace');
  cpSync(join(repoRoot, 'playground'), workspace, { recursive: true });
  // The host saves dirty files a second after an edit (auto-save after a delay); tests leave edits unsaved and put
  // them back after each test, so a save landing in between would carry one test's edit into the next.
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'settings.json'),
    `${JSON.stringify({ 'files.autoSave': 'off' }, null, 2)}\n`,
  );
  try {
    return await runTests({
      vscodeExecutablePath: join(repoRoot, 'scripts/vscode-host/code'),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath,
      launchArgs: [
        workspace,
        `--user-data-dir=${join(runDir, 'user-data')}`,
        `--extensions-dir=${join(runDir, 'extensions')}`,
      ],
      extensionTestsEnv: testEnv,
    });
  } catch (error) {
    // runTests rejects with the exit code when the suite fails.
    if (typeof error?.code !== 'number') console.error(error);
    return typeof error?.code === 'number' && error.code !== 0 ? error.code : 1;
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}

// With --grep, one host runs what matches. Without, the shared host runs every suite but the ones that need their
// own profile, and each of those then gets a host of its own.
const runs = options.grep
  ? [{ SCALPEL_TEST_GREP: options.grep }]
  : [
      { SCALPEL_TEST_GREP: ownProfilePattern, SCALPEL_TEST_GREP_INVERT: '1' },
      ...OWN_PROFILE.map((title) => ({ SCALPEL_TEST_GREP: `^${title}\\b` })),
    ];
let exitCode = 0;
for (const testEnv of runs) {
  const code = await runHost(testEnv);
  if (exitCode === 0) exitCode = code;
}
console.log(
  `integration tests ${exitCode === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
);
process.exit(exitCode);
