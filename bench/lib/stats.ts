// Timing and summary statistics for the benchmark script: a monotonic stopwatch, medians and sample summaries.

/** Milliseconds since an arbitrary origin; monotonic. */
export const now = (): number => performance.now();

/** Runs `fn` and returns its result with the wall time it took, in ms. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = now();
  const value = await fn();
  return { value, ms: now() - start };
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return { n: samples.length, median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

/** Rounds for the JSON file: raw samples keep 0.1 ms, which is below what these measurements can resolve. */
export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
