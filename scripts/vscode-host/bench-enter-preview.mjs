// Measures Enter -> preview in the real workbench (issue 29): code-server with Scalpel as a development extension,
// headless chromium pressing the keys, and a model that answers at once (the scripted LLM server), so what is
// measured is Scalpel's own time. Files of 400, 2,000 and 10,000 lines; warm (the same window, after a first edit)
// and right after a window reload; and the type check's share, as the same warm runs with `scalpel.verify: syntax`.
// Wall-clock time of a whole window on a shared machine: compare the rows of one run, not runs of different days.
//   npm run build && node scripts/build.mjs --tests && node scripts/vscode-host/bench-enter-preview.mjs
// Needs scripts/vscode-host/setup.sh to have run. Prints a Markdown table for bench/results.md.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadScriptedLlmServer, withWorkbench } from './screenshotWorkbench.mjs';

const SIZES = [400, 2_000, 10_000];
const WARM_RUNS = Number(process.env['SCALPEL_BENCH_RUNS'] ?? 5);
const RELOADS = Number(process.env['SCALPEL_BENCH_RELOADS'] ?? 3);

const { startScriptedLlmServer, scripted } = loadScriptedLlmServer();

/** A class of small methods, `lines` long; the cursor goes into method1 (line 3). */
function generated(lines) {
  const methods = Math.floor((lines - 2) / 6);
  const body = Array.from(
    { length: methods },
    (_, i) =>
      `  method${i + 1}(value: number): number {\n    const doubled = value * 2;\n    const shifted = doubled + ${i + 1};\n    return shifted - value;\n  }\n`,
  ).join('\n');
  return `export class Ledger${lines} {\n${body}}\n`;
}

/**
 * The answer of edit `n`: a new body each time, so no edit's type check is one the checker has already answered
 * (it keeps the errors of texts it has checked).
 */
function answerFor(lines, n) {
  return `REPLACE_ELEMENT src/gen${lines}.ts/class[Ledger${lines}]/method[method1]\n\`\`\`ts\nmethod1(value: number): number {\n  const tripled = value * 3;\n  return tripled + ${n};\n}\n\`\`\`\n`;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  const model = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
  const settings = {
    'scalpel.provider': 'openai',
    'scalpel.baseUrl': model.openaiBaseUrl,
    'scalpel.model': 'gpt-4o-mini',
    'scalpel.preview': 'always',
    'scalpel.repairRounds': 0,
    'chat.commandCenter.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
  const results = { warm: {}, syntax: {}, reload: [] };
  const loadBefore = loadavg()[0];
  try {
    await withWorkbench(
      {
        runPrefix: 'vsh-bench-',
        settings,
        viewport: { width: 1400, height: 860 },
        failureShot: '/tmp/bench-enter-preview.failure.png',
      },
      (page, { workspace }) => measure(page, workspace),
    );
  } finally {
    await model.close();
  }
  report();

  async function measure(page, workspace) {
    for (const lines of SIZES) writeFileSync(join(workspace, `src/gen${lines}.ts`), generated(lines));
    const writeSettings = (extra) =>
      writeFileSync(
        join(workspace, '.vscode/settings.json'),
        JSON.stringify({ ...settings, 'workbench.startupEditor': 'none', ...extra }, null, 2),
      );
    const palette = async (text, prefix = '>') => {
      await page.keyboard.press(prefix === '>' ? 'F1' : 'Control+P');
      await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) input');
      await page.keyboard.type(text);
      // Enter once the list shows the entry (file search answers a moment later than the typing).
      const entry = text.startsWith(':') ? undefined : text.replace(/^Scalpel: /, '');
      if (entry !== undefined)
        await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${entry}")`, { timeout: 30_000 });
      await sleep(200);
      await page.keyboard.press('Enter');
    };
    const start = async () => {
      await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
      await sleep(3000);
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
    };
    let edits = 0;
    /** One edit: the file opened, the cursor in method1, the instruction typed; ms from Enter to the diff. */
    const edit = async (lines) => {
      await palette(`gen${lines}.ts`, '');
      await page.waitForSelector(`.tab.active:has-text("gen${lines}.ts")`);
      await page.keyboard.press('Control+G');
      await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) input');
      await page.keyboard.type('3');
      await sleep(300);
      await page.keyboard.press('Enter');
      await page.waitForSelector('.statusbar-item:has-text("Ln 3,")');
      await palette('Scalpel: Edit Element at Cursor');
      await page.waitForSelector('.quick-input-widget .quick-input-title:has-text("method[method1]")', {
        timeout: 60_000,
      });
      await page.keyboard.type('triple it');
      model.enqueue(scripted.answer(answerFor(lines, ++edits)));
      const enter = Date.now();
      await page.keyboard.press('Enter');
      await page.waitForSelector('.monaco-diff-editor', { timeout: 120_000 });
      const ms = Date.now() - enter;
      // Reject, with the key of the preview, which has the focus.
      await sleep(300);
      await page.keyboard.press('Control+Alt+Backspace');
      await page.waitForSelector('.monaco-diff-editor', { state: 'detached', timeout: 30_000 });
      await sleep(300);
      return ms;
    };

    await start();
    await edit(400); // the first edit of the window: not counted as warm
    // Each size's runs alternate the two settings, so a load that changes during the run weighs on both alike.
    const setVerify = async (verify) => {
      writeSettings({ 'scalpel.verify': verify });
      await sleep(1000);
    };
    for (const lines of SIZES) {
      await edit(lines); // this file's first edit in the window warms its caches
      results.warm[lines] = [];
      results.syntax[lines] = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        for (const [key, verify] of [
          ['warm', 'types'],
          ['syntax', 'syntax'],
        ]) {
          await setVerify(verify);
          results[key][lines].push(await edit(lines));
        }
      }
      console.log(`warm ${lines} lines: ${results.warm[lines].join(', ')} ms`);
      console.log(`syntax ${lines} lines: ${results.syntax[lines].join(', ')} ms`);
    }
    writeSettings({ 'scalpel.verify': 'types' });
    for (let i = 0; i < RELOADS; i++) {
      await page.reload();
      await start();
      const ms = await edit(400);
      results.reload.push(ms);
      console.log(`after a reload, 400 lines: ${ms} ms`);
    }
  }

  function report() {
    const row = (lines) => {
      const warm = median(results.warm[lines]);
      const syntax = median(results.syntax[lines]);
      const share = Math.max(0, (warm - syntax) / warm);
      return `| ${lines.toLocaleString('en-US')} | ${results.warm[lines].length} | ${(warm / 1000).toFixed(2)} s | ${(syntax / 1000).toFixed(2)} s | ${(share * 100).toFixed(0)}% |`;
    };
    console.log(
      [
        '',
        "| Lines | Runs | Enter → preview, warm (median) | same, `scalpel.verify: syntax` | type check's share |",
        '| ---: | ---: | ---: | ---: | ---: |',
        ...SIZES.map(row),
        '',
        `Load average (1 min) at the start ${loadBefore.toFixed(1)}, at the end ${loadavg()[0].toFixed(1)}, on ${cpus().length} cores.`,
        '',
        `After a window reload (400 lines, ${results.reload.length} reloads): median ${(median(results.reload) / 1000).toFixed(2)} s (${results.reload.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}).`,
      ].join('\n'),
    );
  }
}

await main();
