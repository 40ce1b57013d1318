// The stopping rule of adaptive repetitions keeps its error rate under repeated looks: over 10,000 simulated
// comparisons of arms with no true difference, at most 5% are ever called different; with a true difference the
// size of the margin, it decides within max at least as often as its last look alone would (a normal approximation).
import { describe, expect, it } from "vitest";
import { createRandom } from "./bootstrap.ts";
import { simulateComparison } from "./fixtures/simulate-comparison.ts";
import { decideLook, lookAlpha } from "./sequential-decision.ts";

const COMPARISONS = 10_000;

describe("the sequential decision", () => {
  it("spends at most α over every look", () => {
    let spent = 0;
    for (let look = 1; look <= 100_000; look++) spent += lookAlpha(0.05, look);
    expect(spent).toBeLessThan(0.05);
    expect(spent).toBeGreaterThan(0.0499);
  });

  it("calls arms with no true difference different in at most 5% of 10,000 simulated comparisons", () => {
    const random = createRandom(41);
    let different = 0;
    for (let index = 0; index < COMPARISONS; index++) {
      // Five evals, each with its own chance of a pass, the same for both arms.
      const chances = Array.from({ length: 5 }, () => random());
      const { decision } = simulateComparison({ a: chances, b: chances, min: 2, max: 10 }, random);
      if (decision === "different") different++;
    }
    expect(different / COMPARISONS).toBeLessThanOrEqual(0.05);
  });

  it("decides a true difference of the margin within max at least as often as its last look predicts", () => {
    const random = createRandom(43);
    const cells = 40;
    const margin = 0.3;
    const arms = { a: Array(cells).fill(0.65), b: Array(cells).fill(0.35), min: 2, max: 10, margin };
    let decided = 0;
    for (let index = 0; index < COMPARISONS; index++)
      if (simulateComparison(arms, random).decision === "different") decided++;
    // The last look alone: n = 400 paired differences of variance 2·0.65·0.35, against its half-width.
    const pairs = cells * arms.max;
    const halfWidth = Math.sqrt((2 * Math.log(2 / lookAlpha(0.05, arms.max - arms.min + 1))) / pairs);
    const standardError = Math.sqrt((2 * 0.65 * 0.35) / pairs);
    const expected = normalCdf((margin - halfWidth) / standardError);
    expect(expected).toBeGreaterThan(0.99);
    expect(decided / COMPARISONS).toBeGreaterThanOrEqual(expected - 0.01);
  });

  it("decides equivalent only when the interval lies inside ±margin, and names what it looked at", () => {
    expect(decideLook([], 1)).toEqual({ decision: null, mean: null, lower: null, upper: null, pairs: 0 });
    const same = Array(400).fill(0);
    expect(decideLook(same, 1).decision).toBeNull();
    expect(decideLook(same, 1, { margin: 0.2 })).toMatchObject({ decision: "equivalent", mean: 0, pairs: 400 });
    expect(decideLook(same, 1, { margin: 0.1 }).decision).toBeNull();
    expect(decideLook(Array(20).fill(-1), 1).decision).toBe("different");
  });
});

/** Φ(x), by the Abramowitz–Stegun approximation 26.2.17 (error below 7.5e-8). */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const density = Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);
  const tail =
    density * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x >= 0 ? 1 - tail : tail;
}
