import { describe, expect, it } from "vitest";
import type { JudgeRun } from "../records/index.ts";
import { readJudgeRunDetail } from "./read-judge-run.ts";

const judgeRun: JudgeRun = {
  id: "judge_1",
  runId: "r",
  evalRunId: "eval_1",
  slot: { evalId: "e", model: "p/m", repetition: 1, variant: "current" },
  kind: "hybrid",
  state: "failed",
  judgeFingerprint: "f",
  startedAt: "2026-12-01T10:00:00.000Z",
  completedAt: "2026-12-01T10:00:01.000Z",
  elapsedMs: 1000,
  scores: null,
  unscored: false,
  error: "the judge submitted no valid judgment.",
  directory: "judge-runs/judge_1",
};

describe("readJudgeRunDetail", () => {
  it("shows a failed hybrid judgment's kept judge.ts scores, marked as not counted", async () => {
    const kept = { ...judgeRun, keptScores: { tests: { value: 1, source: "judge.ts" as const, reason: "All pass." } } };
    const detail = await readJudgeRunDetail("/nonexistent-run", kept, null);
    expect(detail.keptOnly).toBe(true);
    expect(detail.criteria).toEqual([{ id: "tests", value: 1, source: "judge.ts", reason: "All pass.", citations: [], measurements: null }]);
    const nothingKept = await readJudgeRunDetail("/nonexistent-run", judgeRun, null);
    expect(nothingKept).toMatchObject({ keptOnly: false, criteria: [] });
  });
});
