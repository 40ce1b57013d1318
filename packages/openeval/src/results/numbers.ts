// Small numeric helpers the statistics share: mean, nearest-rank quantiles, and the tolerance used
// whenever a computed mean is compared with a threshold (0.7 and 0.1 average to 0.3999…, which must meet 0.4).
import type { Bounded } from "./aggregate.ts";

/** Means of floating-point credits are compared with thresholds up to this tolerance. */
export const THRESHOLD_TOLERANCE = 1e-9;

/**
 * `value` meets `threshold`, allowing for floating-point rounding in means.
 * @example meetsThreshold((0.7 + 0.1) / 2, 0.4) // true
 */
export function meetsThreshold(value: number, threshold: number): boolean {
  return value >= threshold - THRESHOLD_TOLERANCE;
}

/** Arithmetic mean; NaN for an empty list (callers check emptiness first). */
export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Mean of bounded scores: value null when any is unresolved; an empty list is fully unresolved (0 to 1).
 * @example meanBounded([{ value: 1, lower: 1, upper: 1 }, { value: null, lower: 0, upper: 1 }]) // { value: null, lower: 0.5, upper: 1 }
 */
export function meanBounded(items: readonly Bounded[]): Bounded {
  if (items.length === 0) return { value: null, lower: 0, upper: 1 };
  return {
    value: items.some((item) => item.value === null) ? null : mean(items.map((item) => item.value as number)),
    lower: mean(items.map((item) => item.lower)),
    upper: mean(items.map((item) => item.upper)),
  };
}

/**
 * Nearest-rank quantile: the smallest observed value with at least `q` of the values at or below it, so the
 * result is always a real observation (a p95 latency is a latency some run actually had). Null when empty.
 * @example quantile([100, 200, …, 2000], 0.95) // 1900 (the 19th of 20)
 */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return nearestRank(sorted, q);
}

/** `quantile` over values already sorted ascending (the bootstrap sorts once and reads two ranks). */
export function nearestRank(sorted: readonly number[], q: number): number {
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length - THRESHOLD_TOLERANCE)));
  return sorted[rank - 1]!;
}
