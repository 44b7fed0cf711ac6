import { count } from './table';
import type { ToolEnv } from './types';

/**
 * Turns of the event loop for the tool calls that walk the workspace (issue 27: "a slow call never blocks the
 * others"). The MCP server and the VS Code tools run every call on one thread; a walk that outlines a thousand files
 * holds it for seconds, and a `ping` or a small `outline` sent meanwhile would wait for the whole walk. A walk calls
 * {@link takeTurn} between files: once the thread has been held for a slice, the call steps aside for whatever else is
 * waiting (a message read, another call's answer written) and goes on after it. The same point is where a cancelled
 * call stops.
 */

/** How long a call may hold the thread before it lets the others have a turn. */
export const SLICE_MS = 20;

/** When the thread was last handed back: every walk of the process shares it, so nested walks do not over-yield. */
let sliceStarted = performance.now();

/** The caller cancelled the call (MCP `notifications/cancelled`, VS Code's token): a walk stops at its next turn. */
export class CallCancelledError extends Error {
  constructor(readonly where: string) {
    super(`the call was cancelled ${where}`);
    this.name = 'CallCancelledError';
  }
}

/** Gives the other calls a turn when this one has held the thread for a slice; throws once the call is cancelled. */
export async function takeTurn(
  env: Pick<ToolEnv, 'signal'>,
  where: string | (() => string) = 'during its walk',
): Promise<void> {
  throwIfCancelled(env, where);
  if (performance.now() - sliceStarted < SLICE_MS) return;
  await new Promise<void>((resume) => setImmediate(resume));
  sliceStarted = performance.now();
  // The cancellation arrives during the turn: the walk stops before it does any more work.
  throwIfCancelled(env, where);
}

/** `where` is worded only when the call stops: a walk asks once per file. */
function throwIfCancelled(env: Pick<ToolEnv, 'signal'>, where: string | (() => string)): void {
  if (env.signal?.aborted === true) throw new CallCancelledError(typeof where === 'string' ? where : where());
}

/** A walk reports its progress first after this long, then at most once a second. */
const FIRST_PROGRESS_MS = 200;
const PROGRESS_EVERY_MS = 1_000;

/**
 * Visits `items` in order with a turn between each (see {@link takeTurn}); a walk that runs past a fifth of a second
 * tells the caller how far it is (then once a second) (`outlining files: 400 of 1,130`), so a client waiting on it sees it is alive.
 */
export async function eachWithTurns<T>(
  env: Pick<ToolEnv, 'signal' | 'progress'>,
  items: readonly T[],
  what: string,
  visit: (item: T, index: number) => void,
): Promise<void> {
  let nextReport = performance.now() + FIRST_PROGRESS_MS;
  for (let index = 0; index < items.length; index++) {
    await takeTurn(env, () => `after ${count(index)} of ${count(items.length)} ${what}`);
    const now = performance.now();
    if (env.progress !== undefined && now >= nextReport) {
      nextReport = now + PROGRESS_EVERY_MS;
      await env.progress(`${what}: ${count(index)} of ${count(items.length)}`);
    }
    visit(items[index] as T, index);
  }
}
