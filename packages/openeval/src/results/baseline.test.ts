import { writeFileSync } from "node:fs";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { aggregateScores } from "./aggregate.ts";
import { buildBaseline, readBaseline, writeBaseline, type BaselineInput } from "./baseline.ts";
import { BaselineInvalidError, BaselineRefusedError } from "./errors.ts";
import { findRegressions, type SlotFingerprint } from "./regression.ts";
import type { SlotObservation } from "./statistics.ts";
import { decideVerdict, type CriterionRef } from "./verdict.ts";

const observe = (repetition: number, scores: SlotObservation["scores"], model = "m/a"): SlotObservation => ({
  evalId: "e",
  model,
  variant: "current",
  repetition,
  scores,
  costUSD: 0.1,
  elapsedMs: 1000,
  executed: scores !== null,
  fresh: false,
});
const criteria: Record<string, CriterionRef[]> = {
  e: [
    { id: "tests", source: "judge.ts" },
    { id: "style", source: "judge.md" },
  ],
};
const ids = { e: ["tests", "style"] };
const fingerprints: SlotFingerprint[] = [1, 2].map(() => ({
  evalId: "e",
  model: "m/a",
  candidateFingerprint: "cand-1",
  judgeFingerprint: "judge-1",
}));

function inputFor(observations: SlotObservation[], extra: Partial<BaselineInput> = {}): BaselineInput {
  return {
    runId: "run-1",
    createdAt: "2026-01-01T00:00:00.000Z",
    verdict: decideVerdict({ observations, criteria }),
    summaries: aggregateScores(observations, ids),
    fingerprints,
    outOfScope: 0,
    ...extra,
  };
}

function refusalOf(input: BaselineInput): BaselineRefusedError {
  try {
    buildBaseline(input);
  } catch (error) {
    if (error instanceof BaselineRefusedError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("buildBaseline", () => {
  const passing = [observe(1, { tests: 1, style: 1 }), observe(2, { tests: 1, style: 1 })];

  it("keeps fingerprints and per-(eval, model, criterion) scores only", () => {
    expect(buildBaseline(inputFor(passing))).toEqual({
      format: "openeval.baseline",
      version: 1,
      runId: "run-1",
      createdAt: "2026-01-01T00:00:00.000Z",
      verdict: "pass",
      acceptedFailing: false,
      gate: ["code-judge", "llm-judge", "gates", "regression", "integrity", "invariants"],
      entries: [
        {
          evalId: "e",
          model: "m/a",
          candidateFingerprints: ["cand-1"],
          judgeFingerprints: ["judge-1"],
          criteria: { tests: 1, style: 1 },
        },
      ],
    });
  });

  it("refuses an incomplete run, naming the unjudged slot", () => {
    const refusal = refusalOf(inputFor([observe(1, { tests: 1, style: 1 }), observe(2, null)]));
    expect(refusal.refusals.map((item) => item.reason)).toEqual(["incomplete", "unresolved"]);
    expect(refusal.message).toContain("incomplete: 1 slot(s) are unjudged (e/m/a#2)");
    expect(refusal.message).toContain("unresolved: 2 criterion score(s) are unresolved (e/m/a/tests, e/m/a/style)");
  });

  it("refuses a scope-filtered run", () => {
    expect(refusalOf(inputFor(passing, { outOfScope: 3 })).message).toMatch(
      /filtered: 3 slot\(s\) of the benchmark were outside the --only-\* scope/,
    );
  });

  it("refuses a failing run, naming what failed, unless acceptFailing", () => {
    const failing = [observe(1, { tests: 0, style: 1 }), observe(2, { tests: 1, style: 1 })];
    const refusal = refusalOf(inputFor(failing));
    expect(refusal.refusals).toEqual([
      {
        reason: "failing",
        message: "the verdict is fail (code-judge: e/m/a/tests); pass --accept-failing to accept it anyway",
      },
    ]);
    const accepted = buildBaseline(inputFor(failing, { acceptFailing: true }));
    expect(accepted).toMatchObject({ verdict: "fail", acceptedFailing: true });
    expect(accepted.entries[0]!.criteria).toEqual({ tests: 0.5, style: 1 });
  });

  it("writes atomically and reads back through the schema; a missing file reads as null", async () => {
    const directory = await makeTempDir("openeval-baseline-");
    const file = join(directory, "baseline.json");
    expect(await readBaseline(file)).toBeNull();
    const written = await writeBaseline(file, inputFor(passing));
    expect(await readBaseline(file)).toEqual(written);
  });

  it("rejects a baseline.json it cannot read, naming the key", async () => {
    const directory = await makeTempDir("openeval-baseline-");
    const file = join(directory, "baseline.json");
    const baseline = buildBaseline(inputFor(passing));
    writeFileSync(file, JSON.stringify({ ...baseline, entries: [{ ...baseline.entries[0], criteria: { tests: 2 } }] }));
    await expect(readBaseline(file)).rejects.toThrow(BaselineInvalidError);
    await expect(readBaseline(file)).rejects.toThrow(/entries\[0\]\.criteria\.tests/);
    writeFileSync(file, "{");
    await expect(readBaseline(file)).rejects.toThrow(/not JSON/);
  });
});

describe("findRegressions", () => {
  const baseline = buildBaseline(
    inputFor([observe(1, { tests: 1, style: 0.5 }), observe(2, { tests: 1, style: 0.5 })], { acceptFailing: true }),
  );

  it("names each criterion that passed in the baseline and fails now", () => {
    const now = aggregateScores([observe(1, { tests: 0, style: 0 })], ids);
    // style never passed (0.5 < 1), so its drop to 0 is not a regression.
    expect(findRegressions(baseline, now, undefined)).toEqual({
      regressed: ["e/m/a/tests"],
      unresolved: [],
      notCompared: [],
      compared: 1,
      judgeChanged: [],
      advisory: [],
    });
  });

  it("leaves the baseline's control rows out: controls never enter the verdict, so they are neither compared nor missing", () => {
    const withControl = buildBaseline(
      inputFor([observe(1, { tests: 1, style: 1 }), observe(1, { tests: 1, style: 1 }, "control/positive")]),
    );
    expect(withControl.entries.map((entry) => entry.model)).toEqual(["m/a", "control/positive"]);
    // The run's verdict sees real models only (summarizeRun): the control's passes are not "baseline passes not in this run".
    const report = findRegressions(withControl, aggregateScores([observe(1, { tests: 1, style: 1 })], ids), undefined);
    expect(report).toMatchObject({ regressed: [], notCompared: [], compared: 2 });
    const verdict = decideVerdict({
      observations: [observe(1, { tests: 1, style: 1 })],
      criteria,
      baseline: withControl,
    });
    expect(verdict.contributors.find((contributor) => contributor.id === "regression")!.detail).toBe(
      "against baseline of run run-1",
    );
  });

  it("judges both sides by today's thresholds", () => {
    const now = aggregateScores([observe(1, { tests: 1, style: 0.2 })], ids);
    expect(findRegressions(baseline, now, { criteria: { style: { min: 0.5 } } }).regressed).toEqual(["e/m/a/style"]);
  });

  it("separates unresolved and missing cells, and flags a changed judge", () => {
    const pending = aggregateScores([observe(1, null)], ids);
    expect(findRegressions(baseline, pending, undefined).unresolved).toEqual(["e/m/a/tests"]);
    const other = aggregateScores([observe(1, { tests: 1, style: 1 }, "m/b")], ids);
    expect(findRegressions(baseline, other, undefined).notCompared).toEqual(["e/m/a/tests"]);
    const rejudged = [{ evalId: "e", model: "m/a", candidateFingerprint: "cand-1", judgeFingerprint: "judge-2" }];
    expect(
      findRegressions(baseline, aggregateScores([observe(1, { tests: 1, style: 1 })], ids), undefined, rejudged)
        .judgeChanged,
    ).toEqual(["e/m/a"]);
  });

  it("promotes one arm: current by default, the --variant's rows with it; regression compares the same arm", () => {
    const terse = (repetition: number, scores: SlotObservation["scores"]): SlotObservation => ({
      ...observe(repetition, scores),
      variant: "terse",
    });
    const observations = [
      observe(1, { tests: 1, style: 1 }),
      observe(2, { tests: 1, style: 1 }),
      terse(1, { tests: 0, style: 1 }),
      terse(2, { tests: 0, style: 1 }),
    ];
    const armFingerprints = [
      ...fingerprints,
      { evalId: "e", model: "m/a", variant: "terse", candidateFingerprint: "cand-terse", judgeFingerprint: "judge-1" },
    ];
    const currentOnly = decideVerdict({
      observations: observations.filter((observation) => observation.variant === "current"),
      criteria,
    });
    const current = buildBaseline(inputFor(observations, { fingerprints: armFingerprints, verdict: currentOnly }));
    expect(
      current.entries.map((entry) => [entry.model, entry.variant, entry.criteria, entry.candidateFingerprints]),
    ).toEqual([["m/a", undefined, { tests: 1, style: 1 }, ["cand-1"]]]);
    const variant = buildBaseline(
      inputFor(observations, { fingerprints: armFingerprints, variant: "terse", acceptFailing: true }),
    );
    expect(
      variant.entries.map((entry) => [entry.model, entry.variant, entry.criteria, entry.candidateFingerprints]),
    ).toEqual([["m/a", "terse", { tests: 0, style: 1 }, ["cand-terse"]]]);
    // A terse baseline is compared with terse's cells only: current passing tests does not hide terse's style regression.
    const now = aggregateScores([observe(1, { tests: 1, style: 1 }), terse(1, { tests: 0, style: 0 })], ids);
    expect(findRegressions(variant, now, undefined).regressed).toEqual(["e/m/a [terse]/style"]);
    expect(findRegressions(current, now, undefined).regressed).toEqual([]);
  });
});

describe("a baseline of an eval with cases", () => {
  const cased = (caseId: string, scores: SlotObservation["scores"]): SlotObservation => ({
    ...observe(1, scores),
    case: caseId,
  });
  const accepted = [cased("late", { tests: 1, style: 1 }), cased("early", { tests: 1, style: 0 })];

  it("keeps each case's criterion scores beside the eval's; an eval without cases keeps none", () => {
    const baseline = buildBaseline({ ...inputFor(accepted), acceptFailing: true });
    expect(baseline.entries[0]).toMatchObject({
      criteria: { tests: 1, style: 0.5 },
      cases: { late: { tests: 1, style: 1 }, early: { tests: 1, style: 0 } },
    });
    const plain = buildBaseline(inputFor([observe(1, { tests: 1, style: 1 }), observe(2, { tests: 1, style: 1 })]));
    expect(plain.entries[0]).not.toHaveProperty("cases");
  });

  it("compares case by case: a case that passed and fails now regressed, named with its case", () => {
    const baseline = buildBaseline({ ...inputFor(accepted), acceptFailing: true });
    const now = aggregateScores([cased("late", { tests: 0, style: 1 }), cased("early", { tests: 1, style: 1 })], ids);
    const report = findRegressions(baseline, now, undefined);
    // tests fell for the eval (1 → 0.5) and for case late; style passed for late only and still does.
    expect(report.regressed).toEqual(["e/m/a/tests", "e[late]/m/a/tests"]);
    expect(report.compared).toBe(4);
  });
});
