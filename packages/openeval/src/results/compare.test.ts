import { describe, expect, it } from "vitest";
import { aggregateScores, type SlotOutcome } from "./aggregate.ts";
import { compareSummaries } from "./compare.ts";
import { compareModels } from "./statistics.ts";

const slot = (evalId: string, repetition: number, scores: SlotOutcome["scores"], model = "m/a"): SlotOutcome => ({
  evalId,
  model,
  variant: "current",
  repetition,
  scores,
  costUSD: null,
  elapsedMs: null,
});

describe("compareSummaries", () => {
  const before = aggregateScores([slot("e1", 1, { x: 1, y: 0.5 }), slot("e2", 1, { z: 1 }), slot("e3", 1, { w: 1 })], {
    e1: ["x", "y"],
    e2: ["z"],
    e3: ["w"],
  })[0]!;
  const after = aggregateScores(
    [slot("e1", 1, { x: 0.25, y: 1, v: 1 }), slot("e2", 1, null), slot("e4", 1, { u: 1 })],
    { e1: ["x", "y", "v"], e2: ["z"], e4: ["u"] },
  )[0]!;
  const comparison = compareSummaries(before, after);
  const criterion = (evalId: string, id: string) =>
    comparison.evals.find((entry) => entry.evalId === evalId)!.criteria.find((entry) => entry.criterionId === id)!;

  it("gives each criterion b − a and a status: worse, better, unresolved on a side, or present on one side only", () => {
    expect(criterion("e1", "x")).toMatchObject({ a: 1, b: 0.25, difference: -0.75, status: "regression" });
    expect(criterion("e1", "y")).toMatchObject({ a: 0.5, b: 1, difference: 0.5, status: "improvement" });
    expect(criterion("e1", "v")).toMatchObject({ a: null, b: 1, difference: null, status: "missing" });
    expect(criterion("e2", "z")).toMatchObject({ a: 1, b: null, difference: null, status: "unresolved" });
    expect(criterion("e3", "w").status).toBe("missing");
    expect(criterion("e4", "u").status).toBe("missing");
    expect(comparison.counts).toEqual({ regression: 1, improvement: 1, unchanged: 0, unresolved: 1, missing: 3 });
  });

  it("takes the paired difference from compareModels, b − a, and lists the evals it could not pair", () => {
    const paired = compareModels(
      [
        { ...after, model: "b" },
        { ...before, model: "a" },
      ],
      "b",
      "a",
      { seed: 1 },
    );
    expect(comparison.paired.meanDifference).toBe(paired.meanDifference);
    expect(comparison.paired).toMatchObject({
      pairedEvals: 1,
      interval: null,
      reason: "needs ≥ 2 paired evals; 1 paired",
    });
    expect(comparison.paired.excluded).toEqual([
      { evalId: "e2", reason: "unresolved on side b" },
      { evalId: "e3", reason: "missing on side b" },
      { evalId: "e4", reason: "missing on side a" },
    ]);
  });
});
