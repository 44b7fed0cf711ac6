import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ENGINE_PRELOAD_DELAY_MS,
  loadEngineShowingProgress,
  scheduleEnginePreload,
} from '../../../src/vscode/enginePreload';

// The engine loads in the background soon after activation, never during it; a command that comes first shows
// progress before the load holds the extension host (issue 14, item 4).

function fakeTimer(): {
  setTimer: (run: () => void, ms: number) => { dispose(): void };
  fire: () => void;
  delays: number[];
  disposed: () => boolean;
} {
  let pending: (() => void) | undefined;
  let disposed = false;
  const delays: number[] = [];
  return {
    setTimer: (run, ms) => {
      pending = run;
      delays.push(ms);
      return { dispose: () => (disposed = true) };
    },
    fire: () => pending?.(),
    delays,
    disposed: () => disposed,
  };
}

void test('the preload is only scheduled: nothing loads while activation runs, it loads when the timer fires', () => {
  const timer = fakeTimer();
  let loads = 0;
  let loadedAfter: number | undefined;
  scheduleEnginePreload({
    isLoaded: () => loads > 0,
    load: () => loads++,
    onLoaded: (ms) => (loadedAfter = ms),
    setTimer: timer.setTimer,
  });
  assert.equal(loads, 0, 'scheduling loads nothing');
  assert.deepEqual(timer.delays, [ENGINE_PRELOAD_DELAY_MS]);
  assert.ok(ENGINE_PRELOAD_DELAY_MS > 0 && ENGINE_PRELOAD_DELAY_MS <= 5_000, 'soon after activation');
  timer.fire();
  assert.equal(loads, 1);
  assert.equal(typeof loadedAfter, 'number');
});

void test('a command that loaded the engine first leaves the preload nothing to do', () => {
  const timer = fakeTimer();
  let loads = 0;
  scheduleEnginePreload({ isLoaded: () => true, load: () => loads++, setTimer: timer.setTimer });
  timer.fire();
  assert.equal(loads, 0);
});

void test('a failed preload is reported, not thrown: the first command loads again and shows the error', () => {
  const timer = fakeTimer();
  const errors: unknown[] = [];
  scheduleEnginePreload({
    isLoaded: () => false,
    load: () => {
      throw new Error('engine.js missing');
    },
    onError: (error) => errors.push(error),
    setTimer: timer.setTimer,
  });
  assert.doesNotThrow(() => timer.fire());
  assert.equal((errors[0] as Error).message, 'engine.js missing');
});

void test('disposing the extension before the timer fires cancels the preload', () => {
  const timer = fakeTimer();
  scheduleEnginePreload({ isLoaded: () => false, load: () => {}, setTimer: timer.setTimer }).dispose();
  assert.equal(timer.disposed(), true);
});

void test('with the real timer the load waits for the delay', async () => {
  let loads = 0;
  scheduleEnginePreload({ isLoaded: () => loads > 0, load: () => loads++, delayMs: 20 });
  assert.equal(loads, 0);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(loads, 1);
});

void test('a first command shows progress before the synchronous load, and the load happens inside it', async () => {
  const events: string[] = [];
  let loaded = false;
  await loadEngineShowingProgress(
    {
      isLoaded: () => loaded,
      load: () => {
        events.push('load');
        loaded = true;
      },
    },
    async (task) => {
      events.push('progress shown');
      await task();
      events.push('progress closed');
    },
  );
  assert.deepEqual(events, ['progress shown', 'load', 'progress closed']);
});

void test('once the engine is loaded, commands show no progress at all', async () => {
  let shown = false;
  await loadEngineShowingProgress({ isLoaded: () => true, load: () => assert.fail('loaded twice') }, async () => {
    shown = true;
  });
  assert.equal(shown, false);
});
