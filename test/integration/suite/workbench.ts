// Keys pressed in the real workbench, and questions about what it shows, for the tests that need them: nothing in the
// extension host can press a key or see the DOM. The driver that runs the suite (scripts/vscode-host/drive-workbench
// .mjs) watches the extension host's console for requests marked for it, does them with playwright in the page, and
// writes each answer to a file in the folder it names in the environment.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from './helpers';

const DRIVER_REQUEST = '<driver>';
/**
 * Request ids, one counter for the whole host: each test file is bundled with its own copy of this module, and a
 * counter per copy gave two files the same ids, so a request read the answer the driver had written for another.
 */
const ids = globalThis as { scalpelDriverRequestId?: number };

function nextRequestId(): number {
  ids.scalpelDriverRequestId = (ids.scalpelDriverRequestId ?? 0) + 1;
  return ids.scalpelDriverRequestId;
}

/** Whether the suite runs under a driver that takes requests (the project's code-server host does). */
export function workbenchDriverAvailable(): boolean {
  return (
    process.env['EXTENSION_HOST_DRIVER_DIR'] !== undefined && process.env['EXTENSION_HOST_OUTPUT_MARK'] !== undefined
  );
}

async function request<T>(action: Record<string, unknown>): Promise<T> {
  const dir = process.env['EXTENSION_HOST_DRIVER_DIR'];
  const mark = process.env['EXTENSION_HOST_OUTPUT_MARK'];
  if (dir === undefined || mark === undefined)
    throw new Error('no workbench driver: run the suite through test/integration/run.mjs');
  const id = nextRequestId();
  // The extension host's console reaches the page over the same channel, and in the same order, as its other calls
  // (an input box shown before this line is on screen before the driver reads it).
  console.log(`${mark}${DRIVER_REQUEST}${JSON.stringify({ id, ...action })}`);
  const text = await waitFor(
    async () => {
      try {
        return await readFile(join(dir, `${id}.json`), 'utf8');
      } catch {
        return undefined;
      }
    },
    { timeoutMs: 20_000, intervalMs: 25, description: `the workbench driver to do ${JSON.stringify(action)}` },
  );
  // Read once: a host started again (a reload) counts from 1 and must not find this answer.
  await rm(join(dir, `${id}.json`), { force: true });
  const answer = JSON.parse(text) as { ok: true; value: T } | { ok: false; error: string };
  if (!answer.ok) throw new Error(`the workbench driver could not do ${JSON.stringify(action)}: ${answer.error}`);
  return answer.value;
}

/** One step of the real keyboard: a key or chord pressed (`Enter`, `Alt+ArrowUp`), text typed, or a pause (ms). */
export type KeyStep = { readonly press: string } | { readonly type: string } | { readonly wait: number };

/**
 * Presses and types with the real keyboard into whatever has the focus in the workbench, the steps right after one
 * another (no round trip to the extension host between them), after `delayMs` if given.
 */
export function keyboard(steps: readonly KeyStep[], delayMs = 0): Promise<void> {
  return request({ action: 'keys', steps, delayMs });
}

/** Types text with the real keyboard into whatever has the focus in the workbench. */
export function typeKeys(text: string): Promise<void> {
  return keyboard([{ type: text }]);
}

/** Presses a key or chord with the real keyboard (`Enter`, `Escape`, `Alt+ArrowUp`). */
export function pressKey(key: string): Promise<void> {
  return keyboard([{ press: key }]);
}

/** How many elements of the workbench match a CSS (or playwright) selector now. */
export function countInWorkbench(selector: string): Promise<number> {
  return request({ action: 'count', selector });
}

/** The text of the first element matching the selector, or null. */
export function textInWorkbench(selector: string): Promise<string | null> {
  return request({ action: 'text', selector });
}

/** The value of the first input matching the selector, or null. */
export function inputValueInWorkbench(selector: string): Promise<string | null> {
  return request({ action: 'value', selector });
}

/** A picture of the workbench at this moment, written to `path` (to see what a failing test saw). */
export function screenshotWorkbench(path: string): Promise<void> {
  return request({ action: 'screenshot', path });
}
