import { describe, expect, it } from "vitest";
import { bootstrapInterval, createRandom, pick, seedFor } from "./bootstrap.ts";
import { median } from "../util/median.ts";
import { mean, meanBounded, meetsThreshold, quantile } from "./numbers.ts";

describe("createRandom (mulberry32)", () => {
  it("gives the same stream for the same seed and another for another seed", () => {
    const draw = (seed: number) => Array.from({ length: 5 }, createRandom(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("stays in [0, 1) and is roughly uniform", () => {
    const values = Array.from({ length: 10_000 }, createRandom(1));
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(mean(values)).toBeCloseTo(0.5, 1);
  });

  it("skips values as if it had drawn them, past 2^32 state wraps too", () => {
    for (const count of [0, 1, 7, 123_457]) {
      const drawn = createRandom(99);
      for (let index = 0; index < count; index++) drawn();
      const skipped = createRandom(99);
      skipped.skip(count);
      expect(Array.from({ length: 3 }, skipped), `count ${count}`).toEqual(Array.from({ length: 3 }, drawn));
    }
  });

  it("gives each subject its own seed", () => {
    expect(seedFor(1, "m/a")).toBe(seedFor(1, "m/a"));
    expect(seedFor(1, "m/a")).not.toBe(seedFor(1, "m/b"));
    expect(seedFor(1, "m/a")).not.toBe(seedFor(2, "m/a"));
  });
});

describe("bootstrapInterval", () => {
  it("is the central 95% of the resampled statistic", () => {
    // Mean of two draws from {0, 1}: 0 (¼), 0.5 (½), 1 (¼) → 2.5th percentile 0, 97.5th 1.
    const values = [0, 1];
    const interval = bootstrapInterval((random) => mean([pick(values, random), pick(values, random)]), {
      subject: "s",
    });
    expect(interval).toEqual({ lower: 0, upper: 1 });
  });

  it("rejects a non-positive number of resamples", () => {
    expect(() => bootstrapInterval(() => 0, { subject: "s", resamples: 0 })).toThrow(/resamples/);
  });
});

describe("numbers", () => {
  it("takes nearest-rank quantiles, so p95 is an observed value", () => {
    const values = Array.from({ length: 20 }, (_, index) => 100 * (index + 1));
    expect(quantile(values, 0.95)).toBe(1900);
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([], 0.95)).toBeNull();
  });

  it("takes the median as the mean of the middle two for an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([])).toBeNull();
  });

  it("lets a rounded mean meet its threshold", () => {
    expect((0.7 + 0.1) / 2).toBeLessThan(0.4);
    expect(meetsThreshold((0.7 + 0.1) / 2, 0.4)).toBe(true);
    expect(meetsThreshold(0.79, 0.8)).toBe(false);
  });

  it("means bounded scores, keeping unresolved ones as bounds", () => {
    expect(
      meanBounded([
        { value: 1, lower: 1, upper: 1 },
        { value: null, lower: 0, upper: 1 },
      ]),
    ).toEqual({ value: null, lower: 0.5, upper: 1 });
    expect(meanBounded([])).toEqual({ value: null, lower: 0, upper: 1 });
  });
});
