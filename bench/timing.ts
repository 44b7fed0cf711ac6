import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median } from './stats';

/** Milliseconds per sample, in round order, by subject name. */
export interface Timings {
  /** Wall-clock time. */
  readonly wall: Record<string, number[]>;
  /**
   * CPU time of the process (user + system, all threads): what the work itself cost. Other processes on a busy
   * machine inflate it far less than wall time, which also counts the time spent waiting for a core.
   */
  readonly cpu: Record<string, number[]>;
}

/**
 * Warm timings, subject against baseline in the same process and the same rounds: each round runs every subject once,
 * in an order that rotates from round to round, so that drift (frequency scaling, a neighbour's load) hits them alike
 * and their ratio, taken round by round, stays meaningful even when the absolute numbers move. The heap is collected
 * before every sample, so that no subject pays for the garbage of the one before it.
 */
export function timeInterleaved(subjects: Readonly<Record<string, () => unknown>>, runs: number, warmup = 2): Timings {
  const names = Object.keys(subjects);
  const wall: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  let sink = 0;
  const collect = garbageCollector();
  for (let round = 0; round < warmup + runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length] ?? '';
      const run = subjects[name];
      if (run === undefined) continue;
      collect();
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      const result = run();
      const elapsed = performance.now() - started;
      const cpuUsed = process.cpuUsage(cpuStarted);
      // Keeps the result alive so that the work cannot be optimised away.
      if (result !== undefined && result !== null) sink += 1;
      if (round >= warmup) {
        wall[name]?.push(elapsed);
        cpu[name]?.push((cpuUsed.user + cpuUsed.system) / 1000);
      }
    }
  }
  if (sink < 0) throw new Error('unreachable');
  return { wall, cpu };
}

export function medians(samples: Readonly<Record<string, readonly number[]>>): Record<string, number> {
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

/** The median of the per-round ratios of two subjects timed by `timeInterleaved`. */
export function medianRatio(subject: readonly number[], baseline: readonly number[]): number {
  return median(subject.map((value, round) => value / (baseline[round] ?? Number.NaN)));
}

/** `gc()` without starting Node with --expose-gc (the bench runs as plain `node out/bench/run.js`). */
function garbageCollector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
