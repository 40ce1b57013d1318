import { describe, expect, it } from "vitest";
import { aggregateScores } from "./aggregate.ts";
import { evaluateGates, gateName } from "./gates.ts";
import type { SlotObservation } from "./statistics.ts";
import type { GateSettings } from "../load/index.ts";

const observe = (
  evalId: string,
  repetition: number,
  scores: SlotObservation["scores"],
  extra: Partial<SlotObservation> = {},
): SlotObservation => ({
  evalId,
  model: "m/a",
  variant: "current",
  repetition,
  scores,
  costUSD: 0.1,
  elapsedMs: 1000,
  executed: true,
  fresh: true,
  ...extra,
});

function gatesOf(
  observations: SlotObservation[],
  gates: GateSettings,
  criteria: Record<string, string[]> = { a: ["x", "y"], b: ["x"] },
) {
  return evaluateGates({ gates, summaries: aggregateScores(observations, criteria), observations });
}

describe("score.min", () => {
  // a: x 0.7, y 0.1 → 0.4 (0.39999… in floating point); b: x 0.4 → model score 0.4.
  const observations = [observe("a", 1, { x: 0.7, y: 0.1 }), observe("b", 1, { x: 0.4 })];

  it("passes at and just below the score, fails just above it", () => {
    expect(gatesOf(observations, { score: { min: 0.4 } })[0]).toMatchObject({
      id: "score.min",
      model: "m/a",
      status: "pass",
      threshold: 0.4,
    });
    expect(gatesOf(observations, { score: { min: 0.39 } })[0]!.status).toBe("pass");
    expect(gatesOf(observations, { score: { min: 0.41 } })[0]).toMatchObject({
      status: "fail",
      detail: "m/a score 0.4 < 0.41",
    });
    expect(gatesOf(observations, { score: { min: 0.4 } })[0]!.actual).toBeCloseTo(0.4, 12);
  });

  it("is one result per model", () => {
    const two = [...observations, ...observations.map((observation) => ({ ...observation, model: "m/b" }))];
    expect(gatesOf(two, { score: { min: 0.5 } }).map(gateName)).toEqual(["score.min (m/a)", "score.min (m/b)"]);
  });

  it("is unknown, never a pass, while the score is unresolved — and fails once even full credit cannot reach the min", () => {
    const unresolved = [observe("a", 1, { x: 1, y: 1 }), observe("b", 1, null, { executed: false, fresh: false })];
    expect(gatesOf(unresolved, { score: { min: 0.5 } })[0]).toMatchObject({
      status: "unknown",
      actual: null,
      detail: expect.stringMatching(/between 0.5 and 1/),
    });
    const hopeless = [observe("a", 1, { x: 0, y: 0 }), observe("b", 1, null, { executed: false, fresh: false })];
    expect(gatesOf(hopeless, { score: { min: 0.6 } })[0]).toMatchObject({ status: "fail", actual: null });
  });
});

describe("criteria.<id>.min", () => {
  // x appears in a (1) and b (0.5) → mean 0.75.
  const observations = [observe("a", 1, { x: 1, y: 0 }), observe("b", 1, { x: 0.5 })];

  it("compares the criterion's mean over the evals where it appears", () => {
    expect(gatesOf(observations, { criteria: { x: { min: 0.75 } } })[0]).toMatchObject({
      id: "criteria.x.min",
      status: "pass",
      actual: 0.75,
    });
    expect(gatesOf(observations, { criteria: { x: { min: 0.76 } } })[0]!.status).toBe("fail");
    expect(gatesOf(observations, { criteria: { y: { min: 0.1 } } })[0]).toMatchObject({ status: "fail", actual: 0 });
  });

  it("is unknown for a criterion no eval has while slots are unjudged, and fails once every slot is judged without it", () => {
    expect(gatesOf(observations, { criteria: { typo: { min: 0.5 } } })[0]).toMatchObject({
      id: "criteria.typo.min",
      status: "unknown",
      actual: null,
    });
    const complete = evaluateGates({
      gates: { criteria: { typo: { min: 0.5 } } },
      summaries: aggregateScores(observations, { a: ["x", "y"], b: ["x"] }),
      observations,
      complete: true,
    });
    expect(complete[0]).toMatchObject({
      id: "criteria.typo.min",
      status: "fail",
      detail: expect.stringContaining('no judge scored a criterion "typo"; fix gates.criteria'),
    });
  });
});

describe("latency.p95Ms", () => {
  const observations = [
    observe("a", 1, { x: 1, y: 1 }, { elapsedMs: 1000 }),
    observe("a", 2, { x: 1, y: 1 }, { elapsedMs: 3000 }),
    observe("b", 1, { x: 1 }, { elapsedMs: 99_000, fresh: false }),
  ];

  it("counts fresh executions only: p95 of 1000 and 3000 is 3000", () => {
    expect(gatesOf(observations, { latency: { p95Ms: 3000 } })[0]).toMatchObject({
      id: "latency.p95Ms",
      status: "pass",
      actual: 3000,
    });
    expect(gatesOf(observations, { latency: { p95Ms: 2999 } })[0]!.status).toBe("fail");
  });

  it("is unknown when nothing was executed fresh", () => {
    const reused = observations.map((observation) => ({ ...observation, fresh: false }));
    expect(gatesOf(reused, { latency: { p95Ms: 3000 } })[0]).toMatchObject({
      status: "unknown",
      actual: null,
      detail: expect.stringMatching(/--fresh/),
    });
  });
});

describe("cost.maxUSD", () => {
  const costs = (...values: (number | null)[]) =>
    values.map((costUSD, index) => observe("a", index + 1, { x: 1, y: 1 }, { costUSD }));

  it("compares total spend with the limit", () => {
    expect(gatesOf(costs(0.5, 0.5), { cost: { maxUSD: 1 } })[0]).toMatchObject({
      id: "cost.maxUSD",
      status: "pass",
      actual: 1,
    });
    expect(gatesOf(costs(0.5, 0.7), { cost: { maxUSD: 1 } })[0]!.status).toBe("fail");
  });

  it("is unknown with unrecorded costs, unless the known spend already exceeds the limit", () => {
    expect(gatesOf(costs(0.5, null), { cost: { maxUSD: 1 } })[0]).toMatchObject({
      status: "unknown",
      detail: "spent $0.5 of $1; 1 execution(s) have no recorded cost",
    });
    expect(gatesOf(costs(1.5, null), { cost: { maxUSD: 1 } })[0]!.status).toBe("fail");
  });
});

it("evaluates nothing without gates", () => {
  expect(evaluateGates({ gates: undefined, summaries: [], observations: [] })).toEqual([]);
});
