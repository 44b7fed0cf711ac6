import fc from 'fast-check';

/**
 * Fuzzing as a habit: every unit run tries a few thousand fresh random cases, `npm run fuzz` hundreds of thousands.
 * The seed is random unless SCALPEL_FUZZ_SEED names one, and a failure says how to replay it exactly.
 *
 *   SCALPEL_FUZZ_SEED=<n> [SCALPEL_FUZZ_PATH=<path>]   replay a failure
 *   SCALPEL_FUZZ_<NAME>_RUNS=<n>                        cases per property (npm run fuzz sets them)
 */

export interface FuzzRun {
  readonly seed: number;
  readonly numRuns: number;
}

export function fuzzRun(name: string, defaultRuns: number): FuzzRun {
  const seedText = process.env['SCALPEL_FUZZ_SEED'];
  const seed = seedText === undefined || seedText === '' ? Math.floor(Math.random() * 0x7fffffff) : Number(seedText);
  const runsText = process.env[`SCALPEL_FUZZ_${name.toUpperCase()}_RUNS`];
  const numRuns = runsText === undefined || runsText === '' ? defaultRuns : Number(runsText);
  if (!Number.isInteger(seed) || !Number.isInteger(numRuns) || numRuns <= 0) {
    throw new Error(`SCALPEL_FUZZ_SEED and SCALPEL_FUZZ_${name.toUpperCase()}_RUNS take whole numbers`);
  }
  return { seed, numRuns };
}

/** Runs the property; on failure the error names the seed and path that replay it. */
export function checkProperty<T>(
  name: string,
  run: FuzzRun,
  property: fc.IPropertyWithHooks<T> | fc.IProperty<T>,
): void {
  const started = Date.now();
  try {
    fc.assert(property, assertOptions(run));
  } catch (error) {
    throw replayable(name, run, error);
  }
  report(name, run, started);
}

/** {@link checkProperty} for a property whose cases are asynchronous (a tool call). */
export async function checkAsyncProperty<T>(name: string, run: FuzzRun, property: fc.IAsyncProperty<T>): Promise<void> {
  const started = Date.now();
  try {
    await fc.assert(property, assertOptions(run));
  } catch (error) {
    throw replayable(name, run, error);
  }
  report(name, run, started);
}

function assertOptions(run: FuzzRun): fc.Parameters<unknown> {
  const path = process.env['SCALPEL_FUZZ_PATH'];
  return {
    seed: run.seed,
    numRuns: run.numRuns,
    ...(path === undefined || path === '' ? {} : { path }),
    // Shrinking a failure found among hundreds of thousands of cases can take longer than finding it.
    endOnFailure: false,
  };
}

function replayable(name: string, run: FuzzRun, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const failedPath = /path: ?"?([\d:]+)"?/.exec(message)?.[1];
  return new Error(
    `${name} fuzz failed (seed ${run.seed}). Replay: SCALPEL_FUZZ_SEED=${run.seed}${failedPath === undefined ? '' : ` SCALPEL_FUZZ_PATH=${failedPath}`}\n${message}`,
    { cause: error },
  );
}

function report(name: string, run: FuzzRun, started: number): void {
  if (process.env['SCALPEL_FUZZ_REPORT'] === '1') {
    process.stdout.write(
      `# fuzz ${name}: ${run.numRuns} cases, seed ${run.seed}, ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
}
