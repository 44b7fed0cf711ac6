// Runs an extension test suite the way VS Code's `code --extensionTestsPath=...` does, on a machine without a
// desktop VS Code: code-server hosts the real extension host, headless chromium opens its workbench with the test
// payload, and the suite's exit code comes back through `window.codeAutomationExit`. Started by ./code, which
// @vscode/test-electron's runTests spawns with desktop VS Code's arguments.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { format } from 'node:util';
import { chromium } from 'playwright-core';

const env = process.env;
const nodeBin = requiredEnv('NODE24_BIN');
const codeServerEntry = requiredEnv('CODE_SERVER_ENTRY');
const chromiumBin = requiredEnv('CHROMIUM_BIN');
const hostCache = requiredEnv('VSCODE_HOST_CACHE');
// A limit for a host that hangs, not for a slow suite: every test has its own mocha time limit. The whole suite went
// past 10 minutes on the 2-core machine under a load average of 14.
const timeoutMs = Number(env['VSCODE_HOST_TIMEOUT_MS'] ?? 20 * 60 * 1000);
const verbose = env['VSCODE_HOST_VERBOSE'] === '1';

// Flags runTests always passes for desktop Electron; they have no meaning for code-server.
const desktopOnlyFlags = new Set([
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--disable-updates',
  '--skip-welcome',
  '--skip-release-notes',
  '--no-cached-data',
  '--disable-workspace-trust',
  '--disable-gpu',
]);

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // This machine refuses outside connections; without these chromium keeps retrying them.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

// In test mode the workbench logs the extension host's console through its own log service, indistinguishable
// from its own log lines. The suite's runner (test/integration/suite/index.ts) prefixes what it prints with this
// mark, passed to it in the environment, so only the tests' output reaches stdout.
const OUTPUT_MARK = `<ext-host-output:${process.pid}>`;
// A marked line that starts with this is a request to the driver, not test output: a test in the extension host asks
// for keys pressed in the real workbench (or a question about what it shows) and reads the answer from a file, since
// nothing in the extension host can press a key or see the workbench's DOM (test/integration/suite/workbench.ts).
const DRIVER_REQUEST = '<driver>';

function requiredEnv(name) {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set: start this through scripts/vscode-host/code`);
  return value;
}

function parseArgs(argv) {
  const parsed = {
    developmentPaths: [],
    testsPath: undefined,
    userDataDir: undefined,
    extensionsDir: undefined,
    folder: undefined,
  };
  const valueFlags = {
    '--extensionDevelopmentPath': (v) => parsed.developmentPaths.push(resolve(v)),
    '--extensionTestsPath': (v) => (parsed.testsPath = resolve(v)),
    '--user-data-dir': (v) => (parsed.userDataDir = resolve(v)),
    '--extensions-dir': (v) => (parsed.extensionsDir = resolve(v)),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      parsed.folder = resolve(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const apply = valueFlags[name];
    if (apply) apply(eq === -1 ? argv[++i] : arg.slice(eq + 1));
    else if (!desktopOnlyFlags.has(name)) console.error(`vscode-host: ignoring unsupported argument ${arg}`);
  }
  if (!parsed.testsPath)
    throw new Error('vscode-host: --extensionTestsPath is required; this host only runs test suites');
  if (parsed.developmentPaths.length === 0) throw new Error('vscode-host: --extensionDevelopmentPath is required');
  return parsed;
}

async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

async function waitForHealthy(baseUrl, serverExited) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (serverExited.value) throw new Error('code-server exited during start-up');
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error('code-server did not answer /healthz within 60 s');
}

// The workbench resolves these against the remote authority, which code-server's web build names literally "remote".
function remoteUri(path) {
  return `vscode-remote://remote${path}`;
}

function payloadUrl(baseUrl, args) {
  const payload = [
    ...args.developmentPaths.map((path) => ['extensionDevelopmentPath', remoteUri(path)]),
    ['extensionTestsPath', remoteUri(args.testsPath)],
  ];
  const folder = args.folder ? `folder=${encodeURIComponent(args.folder)}&` : '';
  return `${baseUrl}/?${folder}payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

async function consoleText(message) {
  try {
    const values = await Promise.all(message.args().map((arg) => arg.jsonValue()));
    return values.length > 0 ? format(...values) : message.text();
  } catch {
    // A handle can die with its page; the preformatted text is the next best thing.
    return message.text();
  }
}

function tail(path, lines, keep = () => true) {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(keep).slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  // Sockets for IPC live in TMPDIR and their paths must stay under 108 characters, so the run dir is short.
  const runDir = mkdtempSync('/tmp/vsh-');
  const dirs = {
    tmp: join(runDir, 't'),
    config: join(runDir, 'config'),
    data: join(runDir, 'data'),
    cache: join(runDir, 'cache'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const userDataDir = args.userDataDir ?? join(runDir, 'user-data');
  const extensionsDir = args.extensionsDir ?? join(runDir, 'extensions');
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const configFile = join(runDir, 'code-server.yaml');
  writeFileSync(configFile, '');
  const serverLog = join(runDir, 'code-server.log');
  const browserLog = join(runDir, 'browser-console.log');
  const browserLogFd = openSync(browserLog, 'a');
  const driverDir = join(runDir, 'driver');
  mkdirSync(driverDir);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Everything code-server, its extension host and chromium would write under ~ goes to this run's folders.
  const hostEnv = Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.startsWith('VSCODE_') && name !== 'ELECTRON_RUN_AS_NODE'),
  );
  Object.assign(hostEnv, {
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    TMPDIR: dirs.tmp,
    EXTENSION_HOST_OUTPUT_MARK: OUTPUT_MARK,
    EXTENSION_HOST_DRIVER_DIR: driverDir,
  });
  const serverLogFd = openSync(serverLog, 'a');
  const server = spawn(
    nodeBin,
    [
      codeServerEntry,
      `--bind-addr=127.0.0.1:${port}`,
      '--auth=none',
      `--config=${configFile}`,
      `--user-data-dir=${userDataDir}`,
      `--extensions-dir=${extensionsDir}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      // Only with the smoke-test driver does the built workbench honour the `payload` query parameter.
      '--vscode-option=enable-smoke-test-driver',
    ],
    // Its own process group: killing code-server's pid alone leaves the extension host and watchers running.
    { detached: true, stdio: ['ignore', serverLogFd, serverLogFd], env: hostEnv },
  );
  closeSync(serverLogFd);
  const serverExited = { value: false };
  server.on('exit', () => (serverExited.value = true));

  let browser;
  let page;
  let finished = false;
  const cleanUp = async () => {
    if (browser) await browser.close().catch(() => {});
    await stopProcessGroup(server, serverExited);
    closeSync(browserLogFd);
  };
  const onSignal = (signal) => {
    if (finished) return;
    finished = true;
    console.error(`vscode-host: ${signal}, stopping`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let exitCode = 1;
  let suiteReported = false;
  let suitePrinted = false;
  try {
    await waitForHealthy(baseUrl, serverExited);
    browser = await chromium.launch({ executablePath: chromiumBin, headless: true, args: CHROMIUM_ARGS, env: hostEnv });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

    let printed = Promise.resolve();
    let driverRequests = Promise.resolve();
    page.on('console', (message) => {
      // Formatting is asynchronous; chaining keeps lines in the order the suite printed them.
      printed = printed
        .then(async () => {
          const text = await consoleText(message);
          const markAt = text.indexOf(OUTPUT_MARK);
          const marked = markAt === -1 ? undefined : text.slice(markAt + OUTPUT_MARK.length);
          if (marked?.startsWith(DRIVER_REQUEST)) {
            // Requests run one after another in their own queue: the next console line does not wait for them, and
            // keys typed then pressed arrive in that order.
            const request = marked.slice(DRIVER_REQUEST.length);
            driverRequests = driverRequests.then(() => answerDriverRequest(page, driverDir, request));
          } else if (marked !== undefined) {
            suitePrinted = true;
            process.stdout.write(marked + '\n');
          } else {
            writeFileSync(browserLogFd, `[${message.type()}] ${text}\n`);
            if (verbose) process.stderr.write(`[workbench ${message.type()}] ${text}\n`);
          }
        })
        .catch(() => {
          // The log file closes with the run; messages still arriving then are dropped.
        });
    });
    page.on('pageerror', (error) => writeFileSync(browserLogFd, `[pageerror] ${error.stack ?? error}\n`));

    let reportExit;
    const exitReported = new Promise((resolveExit) => (reportExit = resolveExit));
    // Registered before navigation: the workbench looks for it when the extension host finishes the tests.
    await page.exposeFunction('codeAutomationExit', (code) => reportExit(Number(code)));
    await page.goto(payloadUrl(baseUrl, args));

    let timer;
    const timedOut = new Promise((resolveTimeout) => (timer = setTimeout(() => resolveTimeout('timeout'), timeoutMs)));
    const serverGone = once(server, 'exit').then(() => 'server-exit');
    const outcome = await Promise.race([exitReported, timedOut, serverGone]);
    clearTimeout(timer);
    await printed;
    if (outcome === 'timeout') {
      console.error(
        `vscode-host: the test run did not finish within ${timeoutMs / 1000} s ` +
          '(the extension host never reported an exit code; set VSCODE_HOST_TIMEOUT_MS to change the limit)',
      );
    } else if (outcome === 'server-exit') {
      console.error('vscode-host: code-server exited before the tests finished');
    } else {
      suiteReported = true;
      exitCode = outcome;
    }
  } catch (error) {
    console.error(`vscode-host: ${error instanceof Error ? error.message : String(error)}`);
  }

  if (finished) return;
  finished = true;
  if (exitCode !== 0) {
    // A suite that failed its tests has said why; otherwise the logs must tell (a stuck host, a suite that did not
    // load). The workbench logs a great deal at info level; its errors and warnings are what explain it.
    const logTails = [];
    if (!suiteReported) logTails.push(tail(serverLog, 15));
    if (!suiteReported || !suitePrinted) {
      logTails.push(tail(browserLog, 15, (line) => /^\[(error|warning|pageerror)\]/.test(line)));
    }
    await reportFailure(page, runDir, logTails);
  }
  await cleanUp();
  if (exitCode === 0) rmSync(runDir, { recursive: true, force: true });
  process.exit(exitCode);
}

/**
 * Does what a test asked of the real workbench and writes the answer to `<driverDir>/<id>.json` (written whole, then
 * renamed, so the test never reads half of it): `{ ok: true, value }` or `{ ok: false, error }`.
 *   { id, action: 'keys', steps }           presses and types with the keyboard, into whatever has the focus, one step
 *                                           after the other: `{ press: 'Control+Alt+E' }`, `{ type: 'some text' }`,
 *                                           `{ wait: 80 }` (milliseconds)
 * Any request may carry `delayMs`: the driver waits that long before doing it.
 *   { id, action: 'count', selector }       how many elements match a CSS or playwright selector now
 *   { id, action: 'text', selector }        the text of the first match, or null
 *   { id, action: 'value', selector }       the value of the first matching input, or null
 *   { id, action: 'screenshot', path }      a picture of the workbench at that moment (for a failing test)
 */
async function answerDriverRequest(page, driverDir, json) {
  let request;
  let answer;
  try {
    request = JSON.parse(json);
    if (Number.isFinite(request.delayMs) && request.delayMs > 0) await sleep(request.delayMs);
    switch (request.action) {
      case 'keys':
        for (const step of request.steps ?? []) {
          if (typeof step.press === 'string') await page.keyboard.press(step.press);
          else if (typeof step.type === 'string') await page.keyboard.type(step.type);
          else if (Number.isFinite(step.wait)) await sleep(step.wait);
          else throw new Error(`a key step is { press }, { type } or { wait }, not ${JSON.stringify(step)}`);
        }
        answer = { ok: true, value: null };
        break;
      case 'count':
        answer = { ok: true, value: await page.locator(String(request.selector)).count() };
        break;
      case 'text': {
        const found = page.locator(String(request.selector)).first();
        answer = { ok: true, value: (await found.count()) === 0 ? null : await found.innerText({ timeout: 5000 }) };
        break;
      }
      case 'value': {
        const found = page.locator(String(request.selector)).first();
        answer = { ok: true, value: (await found.count()) === 0 ? null : await found.inputValue({ timeout: 5000 }) };
        break;
      }
      case 'screenshot':
        await page.screenshot({ path: String(request.path), timeout: 10_000 });
        answer = { ok: true, value: null };
        break;
      default:
        answer = { ok: false, error: `unknown driver action ${JSON.stringify(request.action)}` };
    }
  } catch (error) {
    answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const id = Number.isInteger(request?.id) ? request.id : 'invalid';
  const file = join(driverDir, `${id}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(answer));
  renameSync(`${file}.tmp`, file);
}

/** Leaves what is needed to see why a run failed; the log tails only when the suite itself never reported. */
async function reportFailure(page, runDir, logTails) {
  if (page) {
    const screenshotDir = join(hostCache, 'screenshots');
    mkdirSync(screenshotDir, { recursive: true });
    const screenshot = join(screenshotDir, `failure-${new Date().toISOString().replace(/[:.]/g, '-')}.png`);
    try {
      await page.screenshot({ path: screenshot, timeout: 10_000 });
      console.error(`vscode-host: screenshot of the workbench: ${screenshot}`);
    } catch {
      // The page may be gone; the logs still tell what happened.
    }
  }
  console.error(`vscode-host: code-server and workbench logs kept in ${runDir}`);
  for (const lines of logTails) if (lines.trim()) console.error(`---\n${lines}`);
}

async function stopProcessGroup(child, exited) {
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup('SIGTERM');
  for (let waited = 0; waited < 3000 && !exited.value; waited += 100) await sleep(100);
  // Children such as the extension host may outlive code-server's own pid; the group kill reaches them too.
  signalGroup('SIGKILL');
}

await main();
