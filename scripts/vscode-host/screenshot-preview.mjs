// Takes the README's screenshot of Scalpel's edit preview from the real workbench: code-server with Scalpel as a
// development extension, a copy of playground/, the scripted LLM server as the model, headless chromium driven like
// a user would (Quick Open, the command palette, the instruction box). Then it presses Ctrl+. and the accept key for
// real and checks what they did, which no extension-host test can do.
//   npm run build && node scripts/build.mjs --tests && node scripts/vscode-host/screenshot-preview.mjs [out.png]
// Needs scripts/vscode-host/setup.sh to have run. Writes media/screenshot-preview.png by default.
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadScriptedLlmServer, openUserTsAlone, repoRoot, runCommand, withWorkbench } from './screenshotWorkbench.mjs';

const output = resolve(process.argv[2] ?? join(repoRoot, 'media/screenshot-preview.png'));

const { startScriptedLlmServer, scripted } = loadScriptedLlmServer();

const fence = (header, code) => `${header}\n\`\`\`ts\n${code}\n\`\`\`\n`;
const ANSWER =
  fence(
    'PATCH_ELEMENT src/user.ts/class[User]/method[validate]',
    "<<<<<<< SEARCH\n    if (!/^[^@\\s]+@[^@\\s]+$/.test(this.email)) problems.push('email is not an address');\n=======\n    if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(this.email)) problems.push('email needs a domain with a dot');\n>>>>>>> REPLACE",
  ) +
  '\n' +
  fence(
    'REPLACE_ELEMENT src/user.ts/class[User]/method[canEdit]',
    "canEdit(): boolean {\n  return this.role !== 'viewer';\n}",
  );

async function main() {
  const model = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
  model.enqueue(scripted.answer(ANSWER, { delayMs: 1200 }));
  const settings = {
    'scalpel.provider': 'openai',
    'scalpel.baseUrl': model.openaiBaseUrl,
    'scalpel.model': 'gpt-4o-mini',
    'scalpel.preview': 'always',
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
        failureShot: output.replace(/\.png$/, '.failure.png'),
      },
      async (page) => {
        // From line 15, select validate() and canEdit(), as a user would.
        await openUserTsAlone(page, 15);
        for (let i = 0; i < 12; i++) await page.keyboard.press('Shift+ArrowDown');

        await runCommand(page, 'Scalpel: Edit Selection');
        await page.waitForSelector('.quick-input-widget .quick-input-title:has-text("Scalpel: edit")');
        await page.keyboard.type('emails need a domain with a dot; every role but viewer may edit');
        await page.keyboard.press('Enter');

        await page.waitForSelector('.monaco-diff-editor', { timeout: 30_000 });
        await sleep(2500);
        // The notification of the finished request would cover the diff.
        await page.keyboard.press('Escape');
        // The review panel under the diff lists each changed element with its buttons (issue 14).
        const review = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
        await review.locator('a.button', { hasText: 'Accept All' }).waitFor({ timeout: 15_000 });
        await sleep(800);
        await page.screenshot({ path: output });
        console.log(`screenshot: ${output}`);

        // Ctrl+. on a change of the proposal, pressed for real: the change's own actions.
        await page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: "!== 'viewer'" }).click();
        await page.keyboard.press('Control+.');
        await page.waitForSelector('.quick-input-widget .monaco-list-row:has-text("Accept this change")', {
          timeout: 15_000,
        });
        console.log('ctrl+. offered "Accept this change"');
        if (process.env['SCALPEL_SHOT_KEYS'] !== undefined) {
          await page.screenshot({ path: output.replace(/\.png$/, '-keys.png') });
        }

        // The accept key, pressed for real, with the focus in the preview.
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+Alt+Enter');
        await page.waitForSelector('.monaco-diff-editor', { state: 'detached', timeout: 15_000 });
        await sleep(1000);
        const text = await page
          .locator('.editor-group-container.active .monaco-editor .view-lines')
          .first()
          .innerText();
        // The editor renders spaces as non-breaking ones.
        const accepted = text.replace(/\u00a0/g, ' ').includes("this.role !== 'viewer'");
        console.log(accepted ? 'ctrl+alt+enter accepted the edit' : 'ctrl+alt+enter did NOT accept the edit');
        return accepted;
      },
    );
  } finally {
    await model.close();
  }
  process.exit(ok ? 0 : 1);
}

await main();
