import { describe, expect, it } from "vitest";
import { cohensKappa, type LabelPair } from "./cohens-kappa.ts";

function pairs(counts: { tp: number; tn: number; fp: number; fn: number }): LabelPair[] {
  return [
    ...Array.from({ length: counts.tp }, () => ({ judge: true, human: true })),
    ...Array.from({ length: counts.tn }, () => ({ judge: false, human: false })),
    ...Array.from({ length: counts.fp }, () => ({ judge: true, human: false })),
    ...Array.from({ length: counts.fn }, () => ({ judge: false, human: true })),
  ];
}

describe("Cohen's κ", () => {
  it("matches a hand computation on a constructed label set", () => {
    // 10 units: both pass 4, both fail 3, judge-only pass 1, human-only pass 2.
    // observed = (4 + 3) / 10 = 0.7; judge passes 5/10, human 6/10;
    // chance = 0.5 × 0.6 + 0.5 × 0.4 = 0.5; κ = (0.7 − 0.5) / (1 − 0.5) = 0.4.
    // True-positive rate = 4 / (4 + 2) = 2/3; true-negative rate = 3 / (3 + 1) = 0.75.
    const agreement = cohensKappa(pairs({ tp: 4, tn: 3, fp: 1, fn: 2 }));
    expect(agreement.units).toBe(10);
    expect(agreement.observed).toBeCloseTo(0.7, 12);
    expect(agreement.kappa).toBeCloseTo(0.4, 12);
    expect(agreement.truePositiveRate).toBeCloseTo(2 / 3, 12);
    expect(agreement.trueNegativeRate).toBeCloseTo(0.75, 12);
    expect([
      agreement.truePositives,
      agreement.trueNegatives,
      agreement.falsePositives,
      agreement.falseNegatives,
    ]).toEqual([4, 3, 1, 2]);
  });

  it("is 1 for full agreement and −1 for full disagreement with both labels used equally", () => {
    // Agreement: observed 1, chance 0.5 → (1 − 0.5) / 0.5 = 1. Disagreement: observed 0, chance 0.5 → −0.5 / 0.5 = −1.
    expect(cohensKappa(pairs({ tp: 3, tn: 3, fp: 0, fn: 0 })).kappa).toBe(1);
    expect(cohensKappa(pairs({ tp: 0, tn: 0, fp: 5, fn: 5 })).kappa).toBe(-1);
  });

  it("is undefined (null) without units, or when both raters gave one label throughout", () => {
    expect(cohensKappa([])).toMatchObject({ units: 0, kappa: null, observed: null, truePositiveRate: null });
    // Chance agreement is total (1 × 1): κ would be 0 / 0.
    expect(cohensKappa(pairs({ tp: 4, tn: 0, fp: 0, fn: 0 }))).toMatchObject({
      kappa: null,
      observed: 1,
      truePositiveRate: 1,
      trueNegativeRate: null,
    });
  });
});
