// Takes the README's screenshot of Scalpel's walkthrough from the real workbench (code-server with Scalpel as a
// development extension, a fresh profile with nothing configured, headless chromium): what a new user sees first.
//   npm run build && node scripts/build.mjs --tests && node scripts/vscode-host/screenshot-walkthrough.mjs [out.png]
// Needs scripts/vscode-host/setup.sh to have run. Writes media/screenshot-walkthrough.png by default.
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot, withWorkbench } from './screenshotWorkbench.mjs';

const output = resolve(process.argv[2] ?? join(repoRoot, 'media/screenshot-walkthrough.png'));

const settings = {
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};
const ok = await withWorkbench(
  {
    runPrefix: 'vsh-walk-',
    settings,
    viewport: { width: 1500, height: 860 },
    failureShot: output.replace(/\.png$/, '.failure.png'),
  },
  async (page) => {
    await sleep(3000);
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) input');
    await page.keyboard.type('Welcome: Open Walkthrough');
    await sleep(600);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) input');
    await page.keyboard.type('Get started with Scalpel');
    await sleep(800);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.gettingStartedContainer', { timeout: 20_000 });
    await page.getByText('Choose a language model').first().waitFor({ timeout: 20_000 });
    await sleep(2000);
    await page.screenshot({ path: output });
    console.log(`screenshot: ${output}`);
    return true;
  },
);
process.exit(ok ? 0 : 1);
