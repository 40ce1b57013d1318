import { describe, expect, it } from "vitest";
import type { SlotOutcome } from "./aggregate.ts";
import { scoreCategories } from "./category-scores.ts";

const outcome = (
  model: string,
  evalId: string,
  repetition: number,
  scores: Record<string, number | null> | null,
): SlotOutcome => ({ evalId, model, variant: "current", repetition, scores, costUSD: null, elapsedMs: null });

describe("scoreCategories", () => {
  const criteria = { a: ["x", "y"], b: ["z"], c: ["w"] };
  const categories = { a: { x: ["speed"], y: ["accuracy"] }, b: { z: ["speed"] } };
  const outcomes = [
    outcome("m/one", "a", 1, { x: 1, y: 0 }),
    outcome("m/one", "a", 2, { x: 0, y: 1 }),
    outcome("m/one", "b", 1, { z: 1 }),
    outcome("m/one", "b", 2, { z: 1 }),
    outcome("m/one", "c", 1, { w: 0 }),
    outcome("m/one", "c", 2, { w: 0 }),
    outcome("m/two", "a", 1, { x: 1, y: 1 }),
    outcome("m/two", "a", 2, null),
    outcome("m/two", "b", 1, { z: 0 }),
    outcome("m/two", "b", 2, { z: 0 }),
  ];

  it("rescores each category over its criteria only: equal criterion weight per eval, equal eval weight", () => {
    const [speed, accuracy] = scoreCategories(outcomes, criteria, categories, { seed: 1 });
    expect(speed).toMatchObject({ category: "speed", criteria: 2, evals: 2 });
    // speed: eval a's x averages 0.5, eval b's z 1 → 75 (eval c, uncategorized, does not count).
    expect(speed!.models[0]).toMatchObject({
      model: "m/one",
      score: { value: 75, lower: 75, upper: 75 },
      reason: null,
    });
    expect(speed!.models[0]!.interval!.lower).toBeLessThanOrEqual(75);
    expect(speed!.models[0]!.interval!.upper).toBeGreaterThanOrEqual(75);
    expect(accuracy).toMatchObject({ category: "accuracy", criteria: 1, evals: 1 });
    expect(accuracy!.models[0]!.score).toEqual({ value: 50, lower: 50, upper: 50 });
  });

  it("an unjudged repetition leaves the category score null with completion bounds and no CI", () => {
    const two = scoreCategories(outcomes, criteria, categories, { seed: 1 })[0]!.models[1]!;
    // x: (1 + unknown) / 2 → [0.5, 1]; z: 0 → speed in [25, 50].
    expect(two).toMatchObject({ model: "m/two", score: { value: null, lower: 25, upper: 50 }, interval: null });
    expect(two.reason).toMatch(/unresolved/);
  });

  it("is empty when no scored criterion has a category", () => {
    expect(scoreCategories(outcomes, criteria, {})).toEqual([]);
    expect(scoreCategories(outcomes, { c: ["w"] }, categories)).toEqual([]);
  });
});
