// What a summary says per candidate beyond its score (the viewer's leaderboard shows it from the summary).
import { describe, expect, it } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import type { RunMetrics } from "../records/index.ts";
import { formatModelCost, formatSummary } from "../report/summary-table.ts";
import { summarizeRun } from "./summarize-run.ts";

describe("a run's summary", () => {
  it("counts each candidate's failed slots and names the criteria each eval is scored by", async () => {
    const { benchmark, store } = await recordedRun();
    // A rejudge of the variant's eval run that failed: its latest judgment counts, so the slot is failed, not scored.
    const judged = store.judgeRuns("eval_worse")[0]!;
    store.saveJudgeRun({
      ...judged,
      id: "judge_again",
      state: "failed",
      scores: null,
      error: "judge.ts threw",
      directory: "judge-runs/judge_again",
      startedAt: "2026-12-01T10:00:02.000Z",
      completedAt: "2026-12-01T10:00:03.000Z",
    });
    const summary = await summarizeRun(benchmark, store, {}, "r");
    expect(summary.models.map((row) => [row.variant ?? "current", row.failed, row.judged])).toEqual([
      ["current", 0, 1],
      ["worse", 1, 0],
    ]);
    expect(summary.criteria).toEqual({ answer: ["correct"] });
    store.close();
  });

  it("after a stop, counts what an interrupted execution spent and says a stopped judgment was interrupted", async () => {
    const { benchmark, store } = await recordedRun();
    const time = { startedAt: "2026-12-01T10:00:02.000Z", completedAt: "2026-12-01T10:00:03.000Z", elapsedMs: 1000 };
    // SIGTERM while the variant's candidate ran: its eval run is recorded interrupted, with what it had spent.
    const worse = store.evalRun("eval_worse")!;
    store.saveEvalRun({
      ...worse,
      id: "eval_stopped",
      ...time,
      state: "interrupted",
      error: "stopped by SIGTERM",
      metrics: spent(26.55),
      integrity: undefined,
    });
    // Ctrl-C while the current arm's new recording was judged: the judge run, with today's judge inputs, is interrupted.
    const current = store.evalRun("eval_current")!;
    store.saveEvalRun({ ...current, id: "eval_judging", ...time, integrity: undefined });
    const judged = store.judgeRuns("eval_current")[0]!;
    store.saveJudgeRun({
      ...judged,
      id: "judge_stopped",
      evalRunId: "eval_judging",
      ...time,
      state: "interrupted",
      scores: null,
      error: "The runner was interrupted before this judgment finished",
      directory: "judge-runs/judge_stopped",
      integrity: undefined,
    });

    const summary = await summarizeRun(benchmark, store, {}, "r");
    const variant = summary.models.find((row) => row.variant === "worse")!;
    expect([variant.costTime.executed, variant.costUSD, formatModelCost(variant)]).toEqual([
      1,
      26.55,
      "$26.5500 + unknown = ≥ $26.5500",
    ]);
    expect(summary.open.map((open) => [open.slot.variant, open.evalRunId, open.reason])).toEqual([
      ["current", "eval_judging", "The previous judgment was interrupted before it finished"],
      ["worse", "eval_stopped", "The previous execution was interrupted before it finished"],
    ]);
    expect(formatSummary(summary)).not.toContain("Judge inputs changed");
    store.close();
  });
});

function spent(usd: number): RunMetrics {
  return {
    version: 2,
    cost: { usd },
    tokens: { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
    tools: { calls: 0, succeeded: 0, failed: 0, unfinished: 0, errorRate: null },
    requests: null,
    compactions: 0,
    timing: { elapsedMs: 1000, modelActiveMs: null, outputTokensPerSecond: null },
  };
}
