// Takes the README's screenshot of `@scalpel` answering in the Chat view of the real workbench: code-server with
// Scalpel as a development extension, a copy of playground/, the scripted LLM server as the model behind Scalpel's
// own language-model provider, headless chromium driven like a user would (Quick Open, Go to Line, typing the
// request in the Chat view). It also checks what a test cannot: that clicking the answer's Apply link writes the
// edit into the editor.
//   npm run build && node scripts/build.mjs --tests && node scripts/vscode-host/screenshot-chat.mjs [out.png]
// Needs scripts/vscode-host/setup.sh to have run. Writes media/screenshot-chat.png by default; with SCREENSHOT_DEBUG=1
// it also leaves a picture of every step beside it.
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadScriptedLlmServer, repoRoot, withWorkbench } from './screenshotWorkbench.mjs';

const output = resolve(process.argv[2] ?? join(repoRoot, 'media/screenshot-chat.png'));
const debug = process.env['SCREENSHOT_DEBUG'] === '1';

const { startScriptedLlmServer, scripted } = loadScriptedLlmServer();

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

async function main() {
  const model = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
  model.enqueue(scripted.answer(ANSWER, { delayMs: 800, chunks: 6, chunkDelayMs: 100 }));
  const settings = {
    // An OpenAI-compatible server on 127.0.0.1 needs no key; Scalpel offers it as the chat model gpt-4o-mini.
    'scalpel.provider': 'openai',
    'scalpel.baseUrl': model.openaiBaseUrl,
    'scalpel.model': 'gpt-4o-mini',
    // The playground's files are short; below 50 lines Scalpel would send them whole.
    'scalpel.smallFileLines': 10,
    // Agent mode lists only models that call tools; Ask mode is where chat participants answer.
    'chat.newSession.defaultMode': 'ask',
  };
  let ok = false;
  try {
    ok = await withWorkbench(
      { runPrefix: 'vsh-chat-', settings, viewport: { width: 1400, height: 860 }, keepRunDir: debug },
      async (page) => {
        let step = 0;
        const snap = async (name) => {
          if (debug) await page.screenshot({ path: join(dirname(output), `debug-chat-${++step}-${name}.png`) });
        };
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
        const applied = await editorText
          .filter({ hasText: 'needs a domain with a dot' })
          .waitFor({ timeout: 10_000 })
          .then(
            () => true,
            () => false,
          );
        await snap('applied');
        console.log(applied ? 'Apply wrote the edit into the editor' : 'Apply did NOT write the edit');
        return applied;
      },
    );
  } finally {
    await model.close();
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
