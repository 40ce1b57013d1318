import { describe, expect, it } from "vitest";
import { aggregateScores } from "./aggregate.ts";
import { intervalOf, judgingOf, unionMs } from "./active-time.ts";

describe("active time", () => {
  it("is the union of intervals: overlapping work counts once, gaps do not count", () => {
    expect(
      unionMs([
        [0, 10],
        [5, 15],
        [20, 30],
      ]),
    ).toBe(25);
    expect(
      unionMs([
        [20, 30],
        [0, 40],
      ]),
    ).toBe(40);
    expect(unionMs([])).toBeNull();
    expect(intervalOf({ startedAt: "2026-12-01T00:00:00.000Z", elapsedMs: 500 })).toEqual([
      Date.parse("2026-12-01T00:00:00.000Z"),
      Date.parse("2026-12-01T00:00:00.500Z"),
    ]);
    expect(intervalOf({ startedAt: "2026-12-01T00:00:00.000Z", elapsedMs: null })).toBeNull();
  });

  it("gives a model's time as the union and its candidate and judge spend apart and together", () => {
    const outcome = (repetition: number, start: number, judgeCostUSD: number | null) => ({
      evalId: "e",
      model: "p/m",
      variant: "current",
      repetition,
      scores: { ok: 1 },
      costUSD: 0.25,
      elapsedMs: 10_000,
      judgeCostUSD,
      intervals: [
        [start, start + 10_000],
        [start + 10_000, start + 12_000],
      ] as const,
    });
    // Two repetitions run side by side, 5 s apart: 17 s of wall time, not 2 × 12 s.
    const [model] = aggregateScores([outcome(1, 0, 0.05), outcome(2, 5_000, null)], { e: ["ok"] });
    expect(model).toMatchObject({ elapsedMs: 17_000, costUSD: 0.5, judgeCostUSD: 0.05, totalCostUSD: 0.55 });
  });

  it("counts judging spend once: earlyStop checks, then the judge run unless it is the deciding check's", () => {
    const evalRun = {
      startedAt: "2026-12-01T00:00:00.000Z",
      elapsedMs: 1_000,
      earlyStop: { checks: [{ costUSD: 0.02 }, { costUSD: null }, { costUSD: 0.03 }] },
    };
    const judgeRun = { startedAt: "2026-12-01T00:00:02.000Z", elapsedMs: 500, costUSD: 0.05 };
    const of = (e: unknown, j: unknown) =>
      judgingOf(e as Parameters<typeof judgingOf>[0], j as Parameters<typeof judgingOf>[1]);
    expect(of(evalRun, judgeRun).judgeCostUSD).toBeCloseTo(0.1);
    expect(of(evalRun, { ...judgeRun, costUSD: 0.03, decidedEarly: { check: 3 } }).judgeCostUSD).toBeCloseTo(0.05);
    expect(of(null, { ...judgeRun, costUSD: undefined }).judgeCostUSD).toBeNull();
    expect(unionMs(of(evalRun, judgeRun).intervals)).toBe(1_500);
  });

  it("a panel's judgment costs what all its judgments did, those reused from an earlier judge run included", () => {
    // This judge run spent 0.04 on the judge it added; the other judgment (0.05) was paid for by an earlier run.
    const panel = [
      { costUSD: 0.05, gradedBy: "judge_old" },
      { costUSD: 0.04, gradedBy: "judge_new" },
    ];
    const judgeRun = { startedAt: "2026-12-01T00:00:02.000Z", elapsedMs: 500, costUSD: 0.04, panel };
    expect(judgingOf(null, judgeRun as Parameters<typeof judgingOf>[1]).judgeCostUSD).toBeCloseTo(0.09);
  });
});
