import { describe, expect, it } from "vitest";
import { adaptiveBlock } from "./adaptive-lines.ts";

const settings = { min: 2, max: 10, decided: "variants" as const, margin: null, note: null };

describe("the adaptive repetitions block", () => {
  it("says the round reached against max, what was spared and each comparison's decision", () => {
    expect(
      adaptiveBlock({
        adaptive: {
          ...settings,
          level: 3,
          saved: { slots: 28, usd: 0.28 },
          comparisons: [
            {
              a: "p/a [hinted]",
              b: "p/a",
              decidedAfter: 3,
              look: { decision: "different", mean: 1, lower: 0.2, upper: 1.8, pairs: 12 },
            },
            {
              a: "p/b [hinted]",
              b: "p/b",
              decidedAfter: null,
              look: { decision: null, mean: 0, lower: -0.8, upper: 0.8, pairs: 12 },
            },
          ],
        },
      }),
    ).toEqual([
      "Adaptive repetitions (decide variants): 3 of max 10 repetitions used; 28 slots spared (~$0.2800 by their recorded costs)",
      "  p/a [hinted] against p/a: different after repetition 3 (mean +1.00, interval 0.20 to 1.80, 12 pairs)",
      "  p/b [hinted] against p/b: not decided (mean +0.00, interval -0.80 to 0.80, 12 pairs)",
    ]);
  });

  it("is empty for a run without adaptive repetitions", () => {
    expect(adaptiveBlock({ adaptive: null })).toEqual([]);
    expect(adaptiveBlock({})).toEqual([]);
  });
});
