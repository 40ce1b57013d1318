// What a summary says per candidate beyond its score (the viewer's leaderboard shows it from the summary, issue 18 §4).
import { describe, expect, it } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import { summarizeRun } from "./summarize-run.ts";

describe("a run's summary", () => {
  it("counts each candidate's failed slots and names the criteria each eval is scored by", async () => {
    const { benchmark, store } = await recordedRun();
    // A rejudge of the variant's eval run that failed: its latest judgment counts, so the slot is failed, not scored.
    const judged = store.judgeRuns("eval_worse")[0]!;
    store.saveJudgeRun({ ...judged, id: "judge_again", state: "failed", scores: null, error: "judge.ts threw", directory: "judge-runs/judge_again", startedAt: "2026-12-01T10:00:02.000Z", completedAt: "2026-12-01T10:00:03.000Z" });
    const summary = await summarizeRun(benchmark, store, {}, "r");
    expect(summary.models.map((row) => [row.variant ?? "current", row.failed, row.judged])).toEqual([["current", 0, 1], ["worse", 1, 0]]);
    expect(summary.criteria).toEqual({ answer: ["correct"] });
    store.close();
  });
});
