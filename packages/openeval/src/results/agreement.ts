// Krippendorff's α: how far judges that graded the same recordings agree beyond chance, for any number of judges
// and units with missing judgments. Nominal for pass/fail criteria, interval for graded ones. Its 95% interval is a
// seeded bootstrap over the units (recordings). See docs/guide/judge-agreement.md.
import { bootstrapInterval, pick, type BootstrapOptions, type Interval } from "./bootstrap.ts";

export type AgreementLevel = "nominal" | "interval";

/** A criterion's agreement over the recordings its judges graded. */
export interface AgreementMeasure {
  /** Null with no unit graded twice: there is nothing to compare. */
  alpha: number | null;
  interval: Interval | null;
  /** Recordings with two or more resolved judgments (the only ones α counts). */
  units: number;
  /** The judgments those units hold. */
  values: number;
  level: AgreementLevel;
}

/**
 * α = 1 − D_o / D_e: observed disagreement within units over the disagreement expected from every pairable value.
 * Units with fewer than two values are left out. All values equal is perfect agreement (1).
 * @example krippendorffAlpha([[1, 1], [0, 0], [1, 0]], "nominal") // 0.444…
 */
export function krippendorffAlpha(units: readonly (readonly number[])[], level: AgreementLevel): number | null {
  const pairable = units.filter((unit) => unit.length >= 2);
  const all = pairable.flat();
  const n = all.length;
  if (n === 0) return null;
  // Pairs within a unit each weigh 1/(m_u − 1) (Krippendorff's coincidence matrix).
  const observed = pairable.reduce((sum, unit) => sum + pairDisagreement(unit, level) / (unit.length - 1), 0) / n;
  const expected = pairDisagreement(all, level) / (n * (n - 1));
  if (expected === 0) return 1;
  return 1 - observed / expected;
}

/** Σ over ordered pairs i ≠ j of δ(v_i, v_j): δ is 0/1 for nominal, the squared difference for interval. */
function pairDisagreement(values: readonly number[], level: AgreementLevel): number {
  const n = values.length;
  if (level === "interval") {
    const sum = values.reduce((total, value) => total + value, 0);
    const squares = values.reduce((total, value) => total + value * value, 0);
    return 2 * n * squares - 2 * sum * sum;
  }
  const counts = Map.groupBy(values, (value) => value);
  return n * n - [...counts.values()].reduce((total, group) => total + group.length * group.length, 0);
}

/**
 * The level a criterion's values call for: nominal when every judgment is pass (1) or fail (0), else interval.
 * @example levelOf([[1, 0], [1, 1]]) // "nominal"
 */
export function levelOf(units: readonly (readonly number[])[]): AgreementLevel {
  return units.every((unit) => unit.every((value) => value === 0 || value === 1)) ? "nominal" : "interval";
}

/**
 * α with its bootstrap interval (units resampled with replacement, seeded per subject).
 * @example measureAgreement([[1, 1], [0, 1]], { subject: "fix-bug/tests_pass" }).alpha
 */
export function measureAgreement(
  units: readonly (readonly number[])[],
  options: BootstrapOptions & { subject: string },
): AgreementMeasure {
  const pairable = units.filter((unit) => unit.length >= 2);
  const level = levelOf(pairable);
  const alpha = krippendorffAlpha(pairable, level);
  const measure = { units: pairable.length, values: pairable.flat().length, level };
  // One unit resamples to itself: an interval would only repeat the point.
  if (alpha === null || pairable.length < 2) return { alpha, interval: null, ...measure };
  const interval = bootstrapInterval(
    (random) =>
      krippendorffAlpha(
        pairable.map(() => pick(pairable, random)),
        level,
      ) ?? 1,
    { resamples: 1000, ...options },
  );
  return { alpha, interval, ...measure };
}
