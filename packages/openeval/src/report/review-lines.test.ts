import { describe, expect, it } from "vitest";
import { REVIEW_FORMAT } from "../records/index.ts";
import type { ReviewStanding, RunSummary } from "../summary/index.ts";
import { reviewBlock } from "./review-lines.ts";

function standing(repetition: number, active: ReviewStanding["active"]): ReviewStanding {
  return {
    review: {
      format: REVIEW_FORMAT,
      id: `review_${repetition}`,
      runId: "r",
      evalRunId: `eval_${repetition}`,
      slot: { evalId: "answer", model: "p/m", variant: "current", repetition },
      criterion: "correct",
      score: 1,
      reason: "Right",
      reviewer: { name: null, email: "ada@example.com" },
      at: "2026-12-01T10:00:00.000Z",
      supersedes: { judgeRunId: `judge_${repetition}`, value: 0 },
    },
    superseded: false,
    active,
  };
}

const summaryOf = (reviews: ReviewStanding[]) => ({ reviews }) as RunSummary;

describe("the summary's reviews", () => {
  it("lists the reviews that decide a score now, says when the judge now agrees, and counts past the first 20", () => {
    const agreeing = { judgeRunId: "judge_2", judged: 1, judgeAgrees: true };
    const block = reviewBlock(
      summaryOf([
        standing(1, null),
        standing(2, agreeing),
        ...Array.from({ length: 21 }, (_, index) =>
          standing(index + 3, { judgeRunId: "j", judged: 0, judgeAgrees: false }),
        ),
      ]),
    )!;
    expect(block.title).toBe("22 criteria reviewed by people (their scores replace the judge's)");
    expect(block.lines[0]).toBe("answer × p/m #2 correct: 1 (judge 1; the judge now agrees) by ada@example.com: Right");
    expect(block.lines).toHaveLength(21);
    expect(block.lines.at(-1)).toBe("… and 2 more (report --json lists them)");
    expect(reviewBlock(summaryOf([standing(1, null)]))).toBeNull();
    expect(reviewBlock({} as RunSummary)).toBeNull();
  });
});
