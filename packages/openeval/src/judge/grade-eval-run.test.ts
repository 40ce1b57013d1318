import { describe, expect, it } from "vitest";
import { combineSources } from "./grade-eval-run.ts";
import type { SourceOutcome } from "./judge-source.ts";

const code: SourceOutcome = { state: "completed", scores: { tests: { value: 1, source: "judge.ts" } } };
const rubric: SourceOutcome = {
  state: "completed",
  scores: { style: { value: 0.5, source: "judge.md", reason: "Fine." } },
};

describe("combineSources", () => {
  it("is active with every source's scores when all completed", () => {
    expect(combineSources([code, rubric])).toEqual({
      state: "completed",
      scores: { ...code.scores, ...rubric.scores },
      unscored: false,
      error: null,
    });
  });

  it("keeps judge.ts's scores as evidence when the rubric half fails, without making the judgment active", () => {
    const failedRubric: SourceOutcome = {
      state: "failed",
      scores: null,
      error: "the judge submitted no valid judgment.",
    };
    expect(combineSources([code, failedRubric])).toEqual({
      state: "failed",
      scores: null,
      unscored: false,
      error: "the judge submitted no valid judgment.",
      keptScores: code.scores,
    });
    // Nothing completed: nothing to keep.
    expect(combineSources([{ ...failedRubric, state: "timed_out" }])).not.toHaveProperty("keptScores");
  });

  it("keeps nothing of an interrupted judgment", () => {
    expect(combineSources([code], true)).toEqual({
      state: "completed",
      scores: code.scores,
      unscored: false,
      error: null,
    });
    expect(combineSources([code, { state: "interrupted", scores: null }], true)).toMatchObject({
      state: "interrupted",
      scores: null,
    });
    expect(combineSources([code, { state: "interrupted", scores: null }], true)).not.toHaveProperty("keptScores");
  });
});
