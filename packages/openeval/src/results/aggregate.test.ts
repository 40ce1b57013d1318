import { describe, expect, it } from "vitest";
import { aggregateScores, type SlotOutcome } from "./aggregate.ts";

const slot = (evalId: string, repetition: number, scores: SlotOutcome["scores"], model = "m/a"): SlotOutcome => ({
  evalId,
  model,
  variant: "current",
  repetition,
  scores,
  costUSD: 0.01,
  elapsedMs: 1000,
});

describe("aggregateScores", () => {
  it("weighs criteria equally: code 0.5 + LLM 1 gives 75% for that repetition", () => {
    const [summary] = aggregateScores([slot("e", 1, { code: 0.5, llm: 1 })], { e: ["code", "llm"] });
    expect(summary!.score).toEqual({ value: 75, lower: 75, upper: 75 });
  });

  it("averages criteria over repetitions, criteria within an eval, and evals within a model", () => {
    const outcomes = [
      slot("a", 1, { x: 1, y: 0 }),
      slot("a", 2, { x: 0, y: 0 }),
      slot("b", 1, { z: 1 }),
      slot("b", 2, { z: 1 }),
    ];
    const [summary] = aggregateScores(outcomes, { a: ["x", "y"], b: ["z"] });
    // a: x = 0.5, y = 0 → 0.25; b: 1 → model = 100 × (0.25 + 1) / 2 = 62.5
    expect(summary!.evals.map((evaluation) => evaluation.value)).toEqual([0.25, 1]);
    expect(summary!.score.value).toBe(62.5);
    expect(summary!.costUSD).toBeCloseTo(0.04);
  });

  it("turns unresolved and unjudged slots into completion bounds, never a number", () => {
    const outcomes = [slot("a", 1, { x: 1 }), slot("a", 2, { x: null }), slot("b", 1, null)];
    const [summary] = aggregateScores(outcomes, { a: ["x"], b: ["z"] });
    // a: lower (1 + 0) / 2 = 0.5, upper 1; b: lower 0, upper 1 → model lower 25, upper 100
    expect(summary!.score).toEqual({ value: null, lower: 25, upper: 100 });
    expect(summary!.judged).toBe(2);
  });

  it("keeps an eval with no known criteria in the denominator as fully unresolved", () => {
    const [summary] = aggregateScores([slot("a", 1, { x: 1 }), slot("b", 1, null)], { a: ["x"], b: [] });
    expect(summary!.score).toEqual({ value: null, lower: 50, upper: 100 });
  });

  it("gives each (model, variant) its own row; current rows carry no variant", () => {
    const outcomes = [
      slot("a", 1, { x: 1 }),
      { ...slot("a", 1, { x: 0 }), variant: "terse" },
      slot("a", 1, { x: 1 }, "m/b"),
    ];
    expect(
      aggregateScores(outcomes, { a: ["x"] }).map((summary) => [summary.model, summary.variant, summary.score.value]),
    ).toEqual([
      ["m/a", undefined, 100],
      ["m/a", "terse", 0],
      ["m/b", undefined, 100],
    ]);
  });
});

describe("a model's times", () => {
  it("sums its candidates' model-active time apart from the union of their wall time, null when none is known", () => {
    const outcome = (repetition: number, modelActiveMs: number | null, intervals: [number, number][]) => ({
      evalId: "e",
      model: "m/a",
      variant: "current",
      repetition,
      scores: { ok: 1 },
      costUSD: null,
      elapsedMs: null,
      modelActiveMs,
      intervals,
    });
    const [summary] = aggregateScores(
      [outcome(1, 1_500, [[0, 10_000]]), outcome(2, 500, [[5_000, 12_000]]), outcome(3, null, [])],
      { e: ["ok"] },
    );
    expect(summary).toMatchObject({ modelActiveMs: 2_000, elapsedMs: 12_000 });
    expect(aggregateScores([outcome(1, null, [])], { e: ["ok"] })[0]!.modelActiveMs).toBeNull();
  });
});

describe("aggregateScores with cases", () => {
  const cased = (caseId: string, repetition: number, scores: SlotOutcome["scores"]): SlotOutcome => ({
    ...slot("cased", repetition, scores),
    case: caseId,
  });

  it("scores each case as an eval (its criteria over repetitions), the eval as the mean of its cases, the model as the mean of its evals", () => {
    const outcomes = [
      cased("one", 1, { x: 1, y: 1 }),
      cased("one", 2, { x: 1, y: 0 }),
      cased("two", 1, { x: 0, y: 0 }),
      cased("two", 2, { x: 0, y: 0 }),
      cased("three", 1, { x: 1, y: 1 }),
      cased("three", 2, { x: 1, y: 1 }),
      slot("plain", 1, { z: 0 }),
      slot("plain", 2, { z: 0 }),
    ];
    const [summary] = aggregateScores(outcomes, { cased: ["x", "y"], plain: ["z"] });
    const [cases, plain] = summary!.evals;
    // one: x 1, y 0.5 → 0.75; two: 0; three: 1 → eval (0.75 + 0 + 1) / 3; plain 0 → model 100 × that / 2.
    expect(cases!.cases?.map(({ caseId, value }) => [caseId, value])).toEqual([
      ["one", 0.75],
      ["two", 0],
      ["three", 1],
    ]);
    expect(cases!.value).toBeCloseTo(1.75 / 3, 12);
    expect(cases!.criteria.y!.value).toBeCloseTo(1.5 / 3, 12);
    expect(summary!.score.value).toBeCloseTo((100 * 1.75) / 3 / 2, 9);
    // Three cases weigh as much as the one plain eval: the model's score is not pulled toward the eval with cases.
    expect(plain).toEqual({
      evalId: "plain",
      criteria: { z: { value: 0, lower: 0, upper: 0 } },
      value: 0,
      lower: 0,
      upper: 0,
    });
  });

  it("an unjudged case leaves its eval's score unresolved, with bounds", () => {
    const [summary] = aggregateScores([cased("one", 1, { x: 1 }), cased("two", 1, null)], { cased: ["x"] });
    expect(summary!.evals[0]).toMatchObject({ value: null, lower: 0.5, upper: 1 });
    expect(summary!.evals[0]!.cases?.[1]).toMatchObject({ caseId: "two", value: null, lower: 0, upper: 1 });
  });
});
