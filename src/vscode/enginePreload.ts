/**
 * When the engine loads. Loading it blocks the extension host for a moment (seconds on a busy 2-core machine), so it
 * never happens during activation; it happens in the background soon after, so that the first command rarely waits,
 * and a command that comes first shows progress at once instead of a silent pause. No `vscode` import: the unit tests
 * drive this with fakes.
 */

/** Long enough for the workbench to finish starting up, short enough to be done before most first commands. */
export const ENGINE_PRELOAD_DELAY_MS = 2_000;

export interface EngineLoading {
  readonly isLoaded: () => boolean;
  /** Loads the engine; synchronous (a require). */
  readonly load: () => void;
}

export interface PreloadOptions extends EngineLoading {
  readonly delayMs?: number;
  readonly onLoaded?: (elapsedMs: number) => void;
  readonly onError?: (error: unknown) => void;
  readonly setTimer?: (run: () => void, ms: number) => { dispose(): void };
}

const defaultTimer = (run: () => void, ms: number): { dispose(): void } => {
  const handle = setTimeout(run, ms);
  // The extension host must not stay alive for a preload.
  handle.unref?.();
  return { dispose: () => clearTimeout(handle) };
};

/** Schedules the background load; disposing the result before it fires cancels it. */
export function scheduleEnginePreload(options: PreloadOptions): { dispose(): void } {
  const setTimer = options.setTimer ?? defaultTimer;
  return setTimer(() => {
    if (options.isLoaded()) return;
    const started = Date.now();
    try {
      options.load();
      options.onLoaded?.(Date.now() - started);
    } catch (error) {
      // The first command loads it again and reports the failure where the user sees it.
      options.onError?.(error);
    }
  }, options.delayMs ?? ENGINE_PRELOAD_DELAY_MS);
}

/**
 * Makes sure the engine is loaded before a command uses it. When it is not, `showProgress` puts up an indicator
 * first and the load runs inside it, after one turn of the event loop so that the indicator reaches the window before
 * the synchronous load holds the extension host.
 */
export async function loadEngineShowingProgress(
  loading: EngineLoading,
  showProgress: (task: () => Promise<void>) => PromiseLike<void>,
): Promise<void> {
  if (loading.isLoaded()) return;
  await showProgress(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (!loading.isLoaded()) loading.load();
  });
}
