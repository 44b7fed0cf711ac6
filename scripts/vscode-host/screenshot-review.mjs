// Takes the README's screenshots of an edit in progress and of the Scalpel Review panel with the new type errors the
// edit brings (issue 29), from the real workbench: code-server with Scalpel as a development extension, a copy of
// playground/, the scripted LLM server as the model (a slow, streamed answer), headless chromium driven like a user
// would (the command palette, the instruction box).
//   npm run build && node scripts/build.mjs --tests && node scripts/vscode-host/screenshot-review.mjs [out-dir]
// Needs scripts/vscode-host/setup.sh to have run. Writes media/screenshot-progress.png and
// media/screenshot-review-errors.png by default.
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadScriptedLlmServer, openUserTsAlone, repoRoot, runCommand, withWorkbench } from './screenshotWorkbench.mjs';

const outDir = resolve(process.argv[2] ?? join(repoRoot, 'media'));
const progressShot = join(outDir, 'screenshot-progress.png');
const reviewShot = join(outDir, 'screenshot-review-errors.png');

const { startScriptedLlmServer, scripted } = loadScriptedLlmServer();

const fence = (header, code) => `${header}\n\`\`\`ts\n${code}\n\`\`\`\n`;
// Two changes that bring two new type errors: a misspelt property inside canEdit, and a third parameter of
// findByEmail that its caller in src/index.ts does not pass (the same answer as the host test reviewErrors.test.ts).
const ANSWER =
  fence(
    'REPLACE_ELEMENT src/user.ts/class[User]/method[canEdit]',
    "canEdit(): boolean {\n  return this.rol === 'admin';\n}",
  ) +
  '\n' +
  fence(
    'REPLACE_ELEMENT src/user.ts/function[findByEmail]',
    'export function findByEmail(users: readonly User[], email: string, exact: boolean): User | undefined {\n' +
      '  const wanted = exact ? email : email.toLowerCase();\n' +
      '  return users.find((user) => (exact ? user.email : user.email.toLowerCase()) === wanted);\n' +
      '}',
  );

async function main() {
  const model = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
  // A model that thinks for a while, then streams its answer slowly: the progress shows the seconds, then the tokens.
  model.enqueue(scripted.answer(ANSWER, { delayMs: 2500, chunks: 60, chunkDelayMs: 120 }));
  const settings = {
    'scalpel.provider': 'openai',
    'scalpel.baseUrl': model.openaiBaseUrl,
    'scalpel.model': 'gpt-4o-mini',
    'scalpel.preview': 'always',
    // The whole file goes to the model, so it saw both elements it replaces.
    'scalpel.smallFileLines': 1000,
    // No repair round: the errors stay, for the review to show.
    'scalpel.repairRounds': 0,
    'chat.commandCenter.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
  let ok = false;
  try {
    ok = await withWorkbench(
      {
        runPrefix: 'vsh-shot-',
        settings,
        viewport: { width: 1500, height: 860 },
        failureShot: join(outDir, 'screenshot-review.failure.png'),
      },
      async (page) => {
        // Into canEdit().
        await openUserTsAlone(page, 24);

        await runCommand(page, 'Scalpel: Edit Element at Cursor');
        await page.waitForSelector('.quick-input-widget .quick-input-title:has-text("Scalpel: edit")');
        await page.keyboard.type('only admins may edit; findByEmail matches exactly on demand');
        await page.keyboard.press('Enter');

        // The progress while the answer streams in: the phase, the seconds since Enter, the tokens received. This
        // headless workbench shows no toasts, so the picture is of the notification centre, which holds the same.
        await sleep(1500);
        await page.locator('#status\\.notifications').click();
        await page.waitForSelector('.notifications-center .notification-list-item:has-text("receiving")', {
          timeout: 30_000,
        });
        // The bell's tooltip would sit on the picture.
        await page.mouse.move(700, 200);
        await sleep(1500);
        // The bottom of the window: the code being edited, the progress and the status bar.
        await page.screenshot({ path: progressShot, clip: { x: 0, y: 540, width: 1500, height: 320 } });
        console.log(`screenshot: ${progressShot}`);
        await page.locator('#status\\.notifications').click();

        await page.waitForSelector('.monaco-diff-editor', { timeout: 60_000 });
        await sleep(2500);
        // The notification of the finished request would cover the diff.
        await page.keyboard.press('Escape');
        const review = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
        await review.locator('.count-errors').first().waitFor({ timeout: 30_000 });
        // Unfold the caller's error, to show the link to a file that is not open.
        await review.locator('details.errors summary').last().click();
        await sleep(800);
        await page.screenshot({ path: reviewShot });
        console.log(`screenshot: ${reviewShot}`);
        return true;
      },
    );
  } finally {
    await model.close();
  }
  process.exit(ok ? 0 : 1);
}

await main();
