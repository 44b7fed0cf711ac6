import { median } from './stats';

/**
 * Warm timings, subject against baseline in the same process and the same rounds: each round runs every subject once,
 * in an order that rotates from round to round, so that drift (GC, frequency scaling, a neighbour's load) hits them
 * alike and their ratio stays meaningful even when the absolute numbers move.
 */
export function timeInterleaved(
  subjects: Readonly<Record<string, () => unknown>>,
  runs: number,
  warmup = 2,
): Record<string, number[]> {
  const names = Object.keys(subjects);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  let sink = 0;
  for (let round = 0; round < warmup + runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length] ?? '';
      const run = subjects[name];
      if (run === undefined) continue;
      const started = performance.now();
      const result = run();
      const elapsed = performance.now() - started;
      // Keeps the result alive so that the work cannot be optimised away.
      if (result !== undefined && result !== null) sink += 1;
      if (round >= warmup) samples[name]?.push(elapsed);
    }
  }
  if (sink < 0) throw new Error('unreachable');
  return samples;
}

export function medians(samples: Readonly<Record<string, readonly number[]>>): Record<string, number> {
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}
