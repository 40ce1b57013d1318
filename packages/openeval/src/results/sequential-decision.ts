// Deciding a paired comparison while repetitions are still being added, with an error rate that stays honest however
// often it is looked at: a Hoeffding confidence interval for the mean paired difference, at a level that spends the
// error budget over the looks (look k gets α·6/(π²k²), which sums to at most α over every look). Under no true
// difference, the chance that any look ever calls the arms different is at most α. docs/guide/adaptive-repetitions.md.

/** What a look concluded: the arms differ (the interval excludes 0), they are within ±margin, or nothing yet. */
export type ComparisonDecision = "different" | "equivalent" | null;

export interface SequentialLook {
  decision: ComparisonDecision;
  /** Mean paired difference (a − b), credit in −1…1; null without a pair. */
  mean: number | null;
  /** The interval at this look's level; null without a pair. */
  lower: number | null;
  upper: number | null;
  /** Paired differences looked at. */
  pairs: number;
}

export interface SequentialOptions {
  /** The error budget over every look (default 0.05). */
  alpha?: number;
  /** Decide "equivalent" once the interval lies inside ±margin; null: only "different" is decided. */
  margin?: number | null;
}

/** The share of the error budget look `look` (1, 2, …) may spend. */
export function lookAlpha(alpha: number, look: number): number {
  return (alpha * 6) / (Math.PI ** 2 * look ** 2);
}

/**
 * One look at paired differences, each in −1…1 (the range Hoeffding's bound takes: 2).
 * @example decideLook([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2) // { decision: "different", mean: 1, … }
 */
export function decideLook(
  differences: readonly number[],
  look: number,
  options: SequentialOptions = {},
): SequentialLook {
  const pairs = differences.length;
  if (pairs === 0) return { decision: null, mean: null, lower: null, upper: null, pairs };
  const mean = differences.reduce((sum, value) => sum + value, 0) / pairs;
  // Hoeffding: P(|mean − μ| ≥ t) ≤ 2·exp(−2·n·t² / range²), range 2.
  const halfWidth = Math.sqrt((2 * Math.log(2 / lookAlpha(options.alpha ?? 0.05, look))) / pairs);
  const lower = mean - halfWidth;
  const upper = mean + halfWidth;
  const margin = options.margin ?? null;
  const decision: ComparisonDecision =
    lower > 0 || upper < 0 ? "different" : margin !== null && lower > -margin && upper < margin ? "equivalent" : null;
  return { decision, mean, lower, upper, pairs };
}
