// Krippendorff's α against the worked example of Krippendorff's "Computing Krippendorff's Alpha-Reliability"
// (2011): 4 coders, 12 units, missing values; published α = 0.743 (nominal) and 0.849 (interval).
import { describe, expect, it } from "vitest";
import { krippendorffAlpha, levelOf, measureAgreement } from "./agreement.ts";

const published = [
  [1, 1, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [5, 5, 5],
  [1, 1],
  [3],
];

describe("krippendorffAlpha", () => {
  it("reproduces the published example at both levels", () => {
    expect(krippendorffAlpha(published, "nominal")).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(published, "interval")).toBeCloseTo(0.849, 3);
  });

  it("is 1 for perfect agreement, below 0 for judges that always disagree, and null with no unit graded twice", () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [0, 0],
        ],
        "nominal",
      ),
    ).toBe(1);
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [1, 1],
        ],
        "nominal",
      ),
    ).toBe(1);
    // Two judges, opposite on every recording: (1 − u) / u with u units.
    expect(
      krippendorffAlpha(
        [
          [1, 0],
          [0, 1],
          [1, 0],
          [0, 1],
        ],
        "nominal",
      ),
    ).toBeCloseTo(-0.75, 10);
    expect(krippendorffAlpha([[1], [0]], "nominal")).toBeNull();
  });
});

describe("measureAgreement", () => {
  it("counts only units graded twice, picks the level from the values, and bootstraps an interval around α", () => {
    const measure = measureAgreement([[1, 1], [0, 0], [1, 0], [1, 1], [0, 0], [1]], { subject: "e/c", seed: 1 });
    expect(measure).toMatchObject({ units: 5, values: 10, level: "nominal" });
    expect(measure.interval!.lower).toBeLessThanOrEqual(measure.alpha!);
    expect(measure.interval!.upper).toBeGreaterThanOrEqual(measure.alpha!);
    // Seeded: the same data give the same interval.
    expect(
      measureAgreement(
        [
          [1, 1],
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
        { subject: "e/c", seed: 1 },
      ).interval,
    ).toEqual(measure.interval);
    expect(levelOf([[0.5, 1]])).toBe("interval");
  });

  it("gives no interval for a single unit", () => {
    expect(measureAgreement([[1, 0]], { subject: "e/c" })).toMatchObject({ units: 1, interval: null });
  });
});
