/** The summary every per-file measure is reported with. */
export interface Summary {
  readonly count: number;
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  readonly total: number;
}

const EMPTY: Summary = { count: 0, median: Number.NaN, p10: Number.NaN, p90: Number.NaN, total: 0 };

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return EMPTY;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    median: quantile(sorted, 0.5),
    p10: quantile(sorted, 0.1),
    p90: quantile(sorted, 0.9),
    total: sorted.reduce((sum, v) => sum + v, 0),
  };
}

export function median(values: readonly number[]): number {
  return summarize(values).median;
}

/** Linear interpolation between the closest ranks, as numpy's default. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? Number.NaN;
  return lowValue + (highValue - lowValue) * (at - low);
}

/** `count` items spread evenly over `items` (all of them when there are no more), in their order. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]).filter((x): x is T => x !== undefined);
}
