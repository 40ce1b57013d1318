// Cohen's κ between two raters of pass/fail labels (a judge and the people who reviewed it), with the confusion
// counts and the rates calibration reports. Pure: labels in, numbers out.

/** One unit rated by both: `judge` and `human` say pass (true) or fail (false). */
export interface LabelPair {
  judge: boolean;
  human: boolean;
}

export interface BinaryAgreement {
  /** Units rated by both. */
  units: number;
  /** Both pass / both fail / only the judge passes / only the human passes. */
  truePositives: number;
  trueNegatives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Share of units on which they agree; null without units. */
  observed: number | null;
  /**
   * (observed − chance) / (1 − chance), chance from each rater's own pass rate. Null without units, or when both gave
   * one and the same label throughout: then chance agreement is total and κ is undefined (0 / 0).
   */
  kappa: number | null;
  /** Of the units the human passed, the share the judge passed too (sensitivity); null when the human passed none. */
  truePositiveRate: number | null;
  /** Of the units the human failed, the share the judge failed too (specificity); null when the human failed none. */
  trueNegativeRate: number | null;
}

/**
 * @example cohensKappa([{ judge: true, human: true }, { judge: false, human: false }, { judge: true, human: false }]).kappa // 0.4
 */
export function cohensKappa(pairs: readonly LabelPair[]): BinaryAgreement {
  const count = (judge: boolean, human: boolean) =>
    pairs.filter((pair) => pair.judge === judge && pair.human === human).length;
  const truePositives = count(true, true);
  const trueNegatives = count(false, false);
  const falsePositives = count(true, false);
  const falseNegatives = count(false, true);
  const units = pairs.length;
  const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  const observed = ratio(truePositives + trueNegatives, units);
  const judgePass = (truePositives + falsePositives) / units;
  const humanPass = (truePositives + falseNegatives) / units;
  const chance = judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
  return {
    units,
    truePositives,
    trueNegatives,
    falsePositives,
    falseNegatives,
    observed,
    kappa: observed === null || chance === 1 ? null : (observed - chance) / (1 - chance),
    truePositiveRate: ratio(truePositives, truePositives + falseNegatives),
    trueNegativeRate: ratio(trueNegatives, trueNegatives + falsePositives),
  };
}
