import { describe, expect, it } from "vitest";
import { aggregateScores, type SlotOutcome } from "./aggregate.ts";
import { bootstrapInterval, pick } from "./bootstrap.ts";
import {
  compareModels,
  costAndTimeByModel,
  measureCostAndTime,
  repetitionScore,
  scoreIntervals,
  type SlotObservation,
} from "./statistics.ts";

const slot = (evalId: string, repetition: number, scores: SlotOutcome["scores"], model = "m/a"): SlotOutcome => ({
  evalId,
  model,
  variant: "current",
  repetition,
  scores,
  costUSD: null,
  elapsedMs: null,
});

describe("scoreIntervals (bootstrap clustered by eval)", () => {
  it("spans what resampling two evals scoring 0 and 1 can give: 0, 50 or 100", () => {
    const outcomes = [slot("a", 1, { x: 0 }), slot("a", 2, { x: 0 }), slot("b", 1, { x: 1 }), slot("b", 2, { x: 1 })];
    expect(scoreIntervals(outcomes, { a: ["x"], b: ["x"] })).toEqual([
      { model: "m/a", interval: { lower: 0, upper: 100 }, reason: null },
    ]);
  });

  it("resamples repetitions within an eval: one eval with repetitions 0 and 1 also spans 0 to 100", () => {
    const outcomes = [slot("a", 1, { x: 0 }), slot("a", 2, { x: 1 })];
    expect(scoreIntervals(outcomes, { a: ["x"] })[0]!.interval).toEqual({ lower: 0, upper: 100 });
  });

  it("clusters an eval's cases in its eval: three cases of one repetition each give an interval, resampled within the eval", () => {
    const byCase = (caseId: string, x: number) => ({ ...slot("a", 1, { x }), case: caseId });
    const outcomes = [
      byCase("one", 0),
      byCase("two", 1),
      byCase("three", 1),
      slot("b", 1, { x: 1 }),
      slot("b", 2, { x: 1 }),
    ];
    const [interval] = scoreIntervals(outcomes, { a: ["x"], b: ["x"] });
    // Evals a (2/3) and b (1) drawn with replacement, a's cases resampled: from 0 (a twice, its 0 case thrice) to 100.
    expect(interval).toEqual({ model: "m/a", interval: { lower: expect.any(Number), upper: 100 }, reason: null });
    expect(interval!.interval!.lower).toBeLessThan(100 * (2 / 3));
  });

  it("gives, to the last bit, the interval of drawing every value, also where whole evals score alike (their draws are skipped)", () => {
    // Equal repetitions of 1/3 sum with rounding: the shortcut must sum them as the draws do.
    const values = [
      [1 / 3, 1 / 3, 1 / 3],
      [0, 1, 1],
      [0.7, 0.7, 0.7],
      [1, 1, 1],
      [0.1, 0.2, 0.3],
      [2 / 3, 2 / 3, 2 / 3],
    ];
    const outcomes = values.flatMap((scores, index) =>
      scores.map((x, repetition) => slot(`e${index}`, repetition + 1, { x })),
    );
    const criteria = Object.fromEntries(values.map((_, index) => [`e${index}`, ["x"]]));
    const drawingEveryValue = bootstrapInterval(
      (random) => {
        const drawn = values.map(() => pick(values, random));
        return (
          (100 *
            drawn.reduce(
              (total, cluster) => total + cluster.reduce((sum) => sum + pick(cluster, random), 0) / cluster.length,
              0,
            )) /
          drawn.length
        );
      },
      { seed: 3, subject: "m/a" },
    );
    expect(scoreIntervals(outcomes, criteria, { seed: 3 })[0]!.interval).toEqual(drawingEveryValue);
    expect(drawingEveryValue.lower).toBeLessThan(drawingEveryValue.upper);
  });

  it("collapses to the point score when nothing varies", () => {
    const outcomes = [
      slot("a", 1, { x: 0.5, y: 1 }),
      slot("a", 2, { x: 0.5, y: 1 }),
      slot("b", 1, { z: 0.75 }),
      slot("b", 2, { z: 0.75 }),
    ];
    expect(scoreIntervals(outcomes, { a: ["x", "y"], b: ["z"] })[0]!.interval).toEqual({ lower: 75, upper: 75 });
  });

  const varied = ["a", "b", "c", "d", "e", "f"].flatMap((evalId, index) =>
    [1, 2, 3].map((repetition) =>
      slot(evalId, repetition, { x: ((index * 3 + repetition * 7) % 10) / 10, y: repetition % 2 }),
    ),
  );
  const criteria = Object.fromEntries(["a", "b", "c", "d", "e", "f"].map((id) => [id, ["x", "y"]]));

  it("is stable for a seed, changes with the seed, and brackets the point score", () => {
    const first = scoreIntervals(varied, criteria, { seed: 1 })[0]!.interval!;
    expect(scoreIntervals(varied, criteria, { seed: 1 })[0]!.interval).toEqual(first);
    expect(scoreIntervals(varied, criteria, { seed: 2 })[0]!.interval).not.toEqual(first);
    const point = aggregateScores(varied, criteria)[0]!.score.value!;
    expect(first.lower).toBeLessThan(point);
    expect(first.upper).toBeGreaterThan(point);
  });

  it("does not change for one model when another joins the run", () => {
    const alone = scoreIntervals(varied, criteria)[0];
    const withOther = scoreIntervals([...varied.map((outcome) => ({ ...outcome, model: "m/b" })), ...varied], criteria);
    expect(withOther.find((interval) => interval.model === "m/a")).toEqual(alone);
  });

  it("is null with the reason below 2 repetitions or with an unresolved score", () => {
    expect(
      scoreIntervals([slot("a", 1, { x: 1 }), slot("a", 2, { x: 1 }), slot("b", 1, { x: 1 })], {
        a: ["x"],
        b: ["x"],
      })[0],
    ).toEqual({
      model: "m/a",
      interval: null,
      reason: "needs ≥ 2 repetitions per eval; b has 1",
    });
    const unresolved = scoreIntervals([slot("a", 1, { x: 1 }), slot("a", 2, { x: null })], { a: ["x"] })[0]!;
    expect(unresolved.interval).toBeNull();
    expect(unresolved.reason).toMatch(/unresolved/);
  });
});

describe("repetitionScore", () => {
  it("weighs the criteria of one repetition equally, null when any is unresolved", () => {
    expect(repetitionScore(slot("a", 1, { code: 0.5, llm: 1 }), ["code", "llm"])).toBe(0.75);
    expect(repetitionScore(slot("a", 1, { code: 0.5 }), ["code", "llm"])).toBeNull();
    expect(repetitionScore(slot("a", 1, null), ["code"])).toBeNull();
  });
});

describe("compareModels (paired over evals)", () => {
  const outcomes = [
    slot("e1", 1, { x: 1 }),
    slot("e2", 1, { x: 0.5 }),
    slot("e3", 1, { x: 1 }),
    slot("e4", 1, { x: null }),
    slot("e1", 1, { x: 0.5 }, "m/b"),
    slot("e2", 1, { x: 0.5 }, "m/b"),
    slot("e4", 1, { x: 1 }, "m/b"),
    slot("e5", 1, { x: 0 }, "m/b"),
  ];
  const summaries = aggregateScores(outcomes, { e1: ["x"], e2: ["x"], e3: ["x"], e4: ["x"], e5: ["x"] });

  it("means the per-eval differences (50 and 0 → 25) with a paired bootstrap interval (0 to 50)", () => {
    const comparison = compareModels(summaries, "m/a", "m/b");
    expect(comparison.differences).toEqual([
      { evalId: "e1", a: 100, b: 50, difference: 50 },
      { evalId: "e2", a: 50, b: 50, difference: 0 },
    ]);
    expect(comparison.meanDifference).toBe(25);
    expect(comparison.interval).toEqual({ lower: 0, upper: 50 });
  });

  it("lists the evals it leaves out and why", () => {
    expect(compareModels(summaries, "m/a", "m/b").excluded).toEqual([
      { evalId: "e3", reason: "missing for m/b" },
      { evalId: "e4", reason: "unresolved for m/a" },
      { evalId: "e5", reason: "missing for m/a" },
    ]);
  });

  it("gives no interval below 2 paired evals", () => {
    const one = aggregateScores([slot("e1", 1, { x: 1 }), slot("e1", 1, { x: 0 }, "m/b")], { e1: ["x"] });
    expect(compareModels(one, "m/a", "m/b")).toMatchObject({
      meanDifference: 100,
      interval: null,
      reason: "needs ≥ 2 paired evals; 1 paired",
    });
  });
});

describe("cost and time", () => {
  const observe = (
    model: string,
    costUSD: number | null,
    elapsedMs: number | null,
    executed = true,
  ): SlotObservation => ({
    ...slot("e", 1, { x: 1 }, model),
    costUSD,
    elapsedMs,
    executed,
    fresh: false,
  });
  const observations = [
    observe("m/a", 0.1, 1000),
    observe("m/a", 0.2, 2000),
    observe("m/a", null, 3000),
    observe("m/a", 0.3, 4000),
    observe("m/a", null, null, false),
    observe("m/b", null, null),
  ];

  it("totals and means the known costs, counts the unknown ones, and ignores slots never executed", () => {
    const [a, b] = costAndTimeByModel(observations);
    expect(a).toMatchObject({
      model: "m/a",
      executed: 4,
      unknownCost: 1,
      medianElapsedMs: 2500,
      p95ElapsedMs: 4000,
      unknownElapsed: 0,
    });
    expect(a!.totalUSD).toBeCloseTo(0.6, 12);
    expect(a!.meanUSD).toBeCloseTo(0.2, 12);
    expect(b).toEqual({
      model: "m/b",
      executed: 1,
      totalUSD: null,
      meanUSD: null,
      unknownCost: 1,
      medianElapsedMs: null,
      p95ElapsedMs: null,
      unknownElapsed: 1,
    });
  });

  it("is all zeros and nulls for nothing executed", () => {
    expect(measureCostAndTime([])).toEqual({
      executed: 0,
      totalUSD: null,
      meanUSD: null,
      unknownCost: 0,
      medianElapsedMs: null,
      p95ElapsedMs: null,
      unknownElapsed: 0,
    });
  });
});
