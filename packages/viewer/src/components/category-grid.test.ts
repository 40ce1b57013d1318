import { describe, expect, it } from "vitest";
import type { RunOverview } from "openeval/viewer-api";
import { candidateOf, categoryGrid } from "./category-grid.ts";

const score = (value: number | null) => ({ value, lower: value ?? 10, upper: value ?? 90 });
const CATEGORIES: RunOverview["categories"] = [
  {
    category: "speed",
    criteria: 2,
    evals: 2,
    models: [
      { model: "p/a", score: score(40), interval: { lower: 30, upper: 50 }, reason: null },
      { model: "p/a", variant: "terse", score: score(null), interval: null, reason: "score unresolved" },
      { model: "p/b", score: score(70), interval: null, reason: "needs ≥ 2 repetitions per eval; e has 1" },
    ],
  },
  {
    category: "tone",
    criteria: 1,
    evals: 1,
    models: [{ model: "p/b", score: score(20), interval: null, reason: null }],
  },
];

describe("categoryGrid", () => {
  it("keeps the categories' order, puts the candidates in the order asked and the unasked after them", () => {
    const grid = categoryGrid(CATEGORIES, ["p/b", "p/a"]);
    expect(grid.categories).toEqual(["speed", "tone"]);
    expect(grid.candidates).toEqual(["p/b", "p/a", "p/a [terse]"]);
  });

  it("gives each pair's numbers as the overview has them, and nothing for a pair it has none for", () => {
    const grid = categoryGrid(CATEGORIES, ["p/a", "p/a [terse]", "p/b", "p/c"]);
    expect(grid.candidates).toEqual(["p/a", "p/a [terse]", "p/b"]);
    expect(grid.cell("speed", "p/a")).toEqual({
      category: "speed",
      candidate: "p/a",
      score: { value: 40, lower: 40, upper: 40 },
      interval: { lower: 30, upper: 50 },
      reason: null,
    });
    expect(grid.cell("speed", "p/a [terse]")?.score).toEqual({ value: null, lower: 10, upper: 90 });
    expect(grid.cell("tone", "p/a")).toBeUndefined();
  });

  it("names a variant's candidate as the leaderboard does", () => {
    expect(candidateOf({ model: "p/a" })).toBe("p/a");
    expect(candidateOf({ model: "p/a", variant: "terse" })).toBe("p/a [terse]");
  });
});
