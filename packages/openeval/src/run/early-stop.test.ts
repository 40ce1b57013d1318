import { describe, expect, it } from "vitest";
import type { EarlyCheckResult } from "../judge/index.ts";
import type { EvalRun, RunMetrics } from "../records/index.ts";
import { DEFAULT_EARLY_STOP, earlyStopPolicy, type EarlyStopPolicy } from "../load/index.ts";
import { createEarlyStopMonitor, decidedJudgeRun, type EarlyJudge } from "./early-stop.ts";

/** The deciding judge session's metrics (as measureSession gives them). */
const judgeMetrics: RunMetrics = {
  version: 2,
  cost: { usd: 0.1 },
  tokens: { input: 900, output: 40, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
  tools: { calls: 2, succeeded: 2, failed: 0, unfinished: 0, errorRate: 0 },
  requests: { started: 3, succeeded: 3, failed: 0, retries: 0 },
  compactions: 0,
  timing: { elapsedMs: 2_000, modelActiveMs: 800, outputTokensPerSecond: 50 },
};
const decided: EarlyCheckResult = {
  outcome: "decided",
  scores: { done: { value: 1, source: "judge.md", reason: "r" } },
  reason: null,
  costUSD: 0.1,
  metrics: judgeMetrics,
};
const continuing = (costUSD: number): EarlyCheckResult => ({
  outcome: "continue",
  scores: null,
  reason: "done: still open",
  costUSD,
});

/** A monitor whose checks run as soon as they are scheduled, on a clock the test moves. */
function harness(
  policy: Partial<EarlyStopPolicy>,
  judge: EarlyJudge,
  take = async (directory: string) => ({ directory, hash: "h".repeat(64) }),
) {
  let clock = 1_000;
  const pending: Promise<void>[] = [];
  const judged: { directory: string; maxCostUSD: number }[] = [];
  const monitor = createEarlyStopMonitor({
    policy: { ...DEFAULT_EARLY_STOP, minIntervalMs: 0, ...policy },
    runDirectory: "/results/run",
    evalRunId: "eval_1",
    schedule: (check) => void pending.push(check()),
    judge: (checkpoint, directory, limits) => {
      judged.push({ directory, maxCostUSD: limits.maxCostUSD });
      return judge(checkpoint, directory, limits);
    },
    now: () => clock,
  });
  return {
    monitor,
    judged,
    advance: (ms: number) => void (clock += ms),
    boundary: async () => {
      monitor.onBoundary(take);
      await Promise.all(pending);
    },
  };
}

describe("earlyStopPolicy", () => {
  it("uses the documented defaults for true and fills a partial object from them", () => {
    expect(earlyStopPolicy(true)).toEqual({ minIntervalMs: 45_000, maxChecks: 12, maxCostUSD: 1 });
    expect(earlyStopPolicy({ maxChecks: 2 })).toEqual({ minIntervalMs: 45_000, maxChecks: 2, maxCostUSD: 1 });
    expect(earlyStopPolicy(false)).toBeNull();
    expect(earlyStopPolicy(undefined)).toBeNull();
  });

  it("applies to every model unless onlyModels names some; without a model it is the eval's policy", () => {
    expect(earlyStopPolicy(true, "a/b")).toEqual(DEFAULT_EARLY_STOP);
    expect(earlyStopPolicy({ maxChecks: 2, onlyModels: ["a/b"] }, "a/b")).toEqual({
      ...DEFAULT_EARLY_STOP,
      maxChecks: 2,
    });
    expect(earlyStopPolicy({ onlyModels: ["a/b"] }, "c/d")).toBeNull();
    expect(earlyStopPolicy({ onlyModels: ["a/b"] })).toEqual(DEFAULT_EARLY_STOP);
  });
});

describe("createEarlyStopMonitor", () => {
  it("checks no sooner than minIntervalMs after the start or the last check", async () => {
    const run = harness({ minIntervalMs: 10_000 }, async () => continuing(0));
    await run.boundary();
    expect(run.judged).toHaveLength(0);
    run.advance(10_000);
    await run.boundary();
    run.advance(9_999);
    await run.boundary();
    expect(run.judged).toHaveLength(1);
    run.advance(1);
    await run.boundary();
    expect(run.judged).toHaveLength(2);
  });

  it("stops the candidate on a decided check and keeps the check's snapshot with the decision", async () => {
    const run = harness({}, async () => decided);
    await run.boundary();
    expect(run.monitor.stop.aborted).toBe(true);
    const decision = run.monitor.decision();
    expect(decision?.scores).toEqual(decided.scores);
    expect(decision?.check).toMatchObject({
      check: 1,
      outcome: "decided",
      directory: "eval-runs/eval_1/checks/1",
      checkpoint: { directory: "eval-runs/eval_1/checks/1/evidence", hash: "h".repeat(64) },
    });
    expect(run.judged[0]!.directory).toBe("/results/run/eval-runs/eval_1/checks/1/rubric");
    await run.boundary();
    expect(await run.monitor.finish()).toHaveLength(1);

    const evalRun = {
      id: "eval_1",
      runId: "r",
      slot: { evalId: "e", model: "m/x", variant: "current", repetition: 1 },
    } as EvalRun;
    const judgeRun = decidedJudgeRun(evalRun, decision!, { judgeRunId: "judge_1", judgeFingerprint: "f" });
    expect(judgeRun).toMatchObject({
      state: "completed",
      kind: "rubric",
      scores: decided.scores,
      directory: "eval-runs/eval_1/checks/1",
      decidedEarly: { check: 1 },
    });
    // The decisive judge session's metrics are the judgment's, as a final judge run's are.
    expect(judgeRun.metrics).toEqual(judgeMetrics);
  });

  it("stops checking at maxChecks, and at maxCostUSD, giving each check what is left of the budget", async () => {
    const counted = harness({ maxChecks: 2 }, async () => continuing(0));
    for (let index = 0; index < 4; index++) await counted.boundary();
    expect(counted.judged).toHaveLength(2);

    const priced = harness({ maxCostUSD: 1 }, async () => continuing(0.6));
    for (let index = 0; index < 4; index++) await priced.boundary();
    expect(priced.judged.map((check) => check.maxCostUSD)).toEqual([1, 0.4]);
    expect((await priced.monitor.finish()).map((check) => check.costUSD)).toEqual([0.6, 0.6]);
    expect(priced.monitor.stop.aborted).toBe(false);
  });

  it("cancels a check in flight when the candidate ends, and a late decision stops nothing", async () => {
    for (const answer of [
      decided,
      { outcome: "failed", scores: null, reason: "interrupted", costUSD: 0 } satisfies EarlyCheckResult,
    ]) {
      let cancelled = false;
      const run = harness(
        {},
        (_checkpoint, _directory, limits) =>
          new Promise((resolve) =>
            limits.signal!.addEventListener("abort", () => ((cancelled = true), resolve(answer))),
          ),
      );
      run.monitor.onBoundary(async (directory) => ({ directory, hash: "h" }));
      await Bun.sleep(0);
      const [check, ...rest] = await run.monitor.finish();
      expect(cancelled).toBe(true);
      expect(rest).toEqual([]);
      // A judge that still decided says so; one cut short is recorded as cancelled, not as the judge's failure.
      expect(check!.outcome).toBe(answer.outcome === "decided" ? "decided" : "cancelled");
      expect(run.monitor.decision()).toBeNull();
      expect(run.monitor.stop.aborted).toBe(false);
    }
  });

  it("records a snapshot that could not be taken as a failed check, and goes on", async () => {
    const run = harness(
      {},
      async () => continuing(0),
      async () => {
        throw new Error("disk full");
      },
    );
    await run.boundary();
    const [check] = await run.monitor.finish();
    expect(check).toMatchObject({
      outcome: "failed",
      reason: "the snapshot could not be taken: disk full",
      checkpoint: null,
    });
    expect(run.judged).toHaveLength(0);
  });
});
