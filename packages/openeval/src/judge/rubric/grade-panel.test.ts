// A panel: which judgments are reused or graded, how they combine, and what a failed judge leaves.
import { describe, expect, it } from "vitest";
import type { CriterionScore, PanelJudgment } from "../../records/index.ts";
import { gradePanel, planJudgments, type PanelRequest } from "./grade-panel.ts";
import { combinePanelScores, combineValues } from "./panel-scores.ts";
import type { SourceOutcome } from "../judge-source.ts";

const score = (value: number | null, reason = "r"): CriterionScore => ({ value, source: "judge.md", reason });

function judgment(model: string, repeat: number, scores: Record<string, CriterionScore> | null): PanelJudgment {
  return {
    model,
    repeat,
    fingerprint: `fp-${model}`,
    state: "completed",
    scores,
    error: null,
    costUSD: 0.5,
    directory: `judge-runs/old/rubric`,
    gradedBy: "old",
  };
}

const panel = (overrides: Partial<PanelRequest> = {}): PanelRequest => ({
  judges: [
    { model: "a/judge", fingerprint: "fp-a/judge" },
    { model: "b/judge", fingerprint: "fp-b/judge" },
  ],
  combine: "mean",
  previous: [],
  repeat: 0,
  reuse: true,
  ...overrides,
});

describe("combineValues", () => {
  it("means, mins and takes the majority of resolved values; unresolved ones take no part", () => {
    expect(combineValues([1, 0, null], "mean")).toBe(0.5);
    expect(combineValues([1, 0.5, null], "min")).toBe(0.5);
    expect(combineValues([1, 1, 0], "majority")).toBe(1);
    expect(combineValues([null, null], "mean")).toBeNull();
  });

  it("leaves a majority tie unresolved", () => {
    expect(combineValues([1, 0], "majority")).toBeNull();
    expect(combineValues([1, 0, 0.5], "majority")).toBeNull();
  });
});

describe("combinePanelScores", () => {
  it("combines a panel of three by majority, each judgment named in the reason with its value", () => {
    const combined = combinePanelScores(
      [
        judgment("a/judge", 0, { tests: score(1), docs: score(0) }),
        judgment("b/judge", 0, { tests: score(0), docs: score(0) }),
        judgment("c/judge", 0, { tests: score(1), docs: score(null) }),
      ],
      "majority",
    );
    expect(combined!.tests!.value).toBe(1);
    expect(combined!.docs!.value).toBe(0);
    expect(combined!.tests!.reason).toBe("majority of 3 judgments (a/judge 1, b/judge 0, c/judge 1)");
    expect(combined!.docs!.reason).toBe("majority of 3 judgments (a/judge 0, b/judge 0, c/judge unresolved)");
  });

  it("is null when no judgment submitted scores", () => {
    expect(combinePanelScores([judgment("a/judge", 0, null)], "mean")).toBeNull();
  });

  it("combines what capped judgments judged before the cap as it combines their scores", () => {
    const capped = (value: number, judged: number): CriterionScore => ({
      ...score(value),
      ceiling: { kind: "reference_fix", value: 0.5, judged },
    });
    const combined = combinePanelScores(
      [judgment("a/judge", 0, { fix: capped(0.5, 1) }), judgment("b/judge", 0, { fix: capped(0.25, 0.25) })],
      "mean",
    );
    expect(combined!.fix).toMatchObject({
      value: 0.375,
      ceiling: { kind: "reference_fix", value: 0.5, judged: 0.625 },
    });
  });
});

describe("planJudgments", () => {
  it("grades every judge once when nothing was graded before", () => {
    expect(planJudgments(panel()).planned).toEqual([
      { model: "a/judge", fingerprint: "fp-a/judge", repeat: 0 },
      { model: "b/judge", fingerprint: "fp-b/judge", repeat: 0 },
    ]);
  });

  it("adding a judge grades only with the new one: the others' completed judgments are kept", () => {
    const previous = [judgment("a/judge", 0, { tests: score(1) })];
    const { kept, planned } = planJudgments(panel({ previous }));
    expect(kept).toEqual(previous);
    expect(planned).toEqual([{ model: "b/judge", fingerprint: "fp-b/judge", repeat: 0 }]);
  });

  it("grades again a judge whose judgment failed or whose inputs changed", () => {
    const failed = { ...judgment("a/judge", 0, null), state: "failed" as const };
    const changed = { ...judgment("b/judge", 0, { tests: score(1) }), fingerprint: "fp-old-rubric" };
    expect(planJudgments(panel({ previous: [failed, changed] })).planned.map((entry) => entry.model)).toEqual([
      "a/judge",
      "b/judge",
    ]);
  });

  it("repeats: keeps every judgment and grades each judge n more times, numbering on", () => {
    const previous = [judgment("a/judge", 0, {}), judgment("a/judge", 1, {}), judgment("b/judge", 0, {})];
    const { kept, planned } = planJudgments(panel({ previous, repeat: 2 }));
    expect(kept).toHaveLength(3);
    expect(planned.map((entry) => `${entry.model}#${entry.repeat}`)).toEqual([
      "a/judge#2",
      "a/judge#3",
      "b/judge#1",
      "b/judge#2",
    ]);
  });

  it("an explicit rejudge (no reuse) grades every judge afresh", () => {
    const previous = [judgment("a/judge", 0, {}), judgment("b/judge", 0, {})];
    const { kept, planned } = planJudgments(panel({ previous, reuse: false }));
    expect(kept).toEqual([]);
    expect(planned.map((entry) => `${entry.model}#${entry.repeat}`)).toEqual(["a/judge#0", "b/judge#0"]);
  });
});

describe("gradePanel", () => {
  const grading = (outcomes: Record<string, SourceOutcome>) => {
    const calls: { model: string; directory: string }[] = [];
    return {
      calls,
      grading: {
        judgeRunId: "judge_new",
        runDirectory: "/runs/r1",
        directory: "/runs/r1/judge-runs/judge_new/rubric",
        grade: async (model: string, directory: string) => {
          calls.push({ model, directory });
          return outcomes[model]!;
        },
      },
    };
  };

  it("grades each new judge in its own folder, keeps reused ones, and counts only the new spend", async () => {
    const previous = [judgment("a/judge", 0, { tests: score(1) })];
    const { calls, grading: request } = grading({
      "b/judge": { state: "completed", scores: { tests: score(0) }, costUSD: 0.25 },
      "c/judge": { state: "completed", scores: { tests: score(1) }, costUSD: 0.25 },
    });
    const outcome = await gradePanel(
      panel({
        previous,
        combine: "majority",
        judges: [
          { model: "a/judge", fingerprint: "fp-a/judge" },
          { model: "b/judge", fingerprint: "fp-b/judge" },
          { model: "c/judge", fingerprint: "fp-c/judge" },
        ],
      }),
      request,
    );
    expect(calls).toEqual([
      { model: "b/judge", directory: "/runs/r1/judge-runs/judge_new/rubric" },
      { model: "c/judge", directory: "/runs/r1/judge-runs/judge_new/rubric-2" },
    ]);
    expect(outcome.state).toBe("completed");
    expect(outcome.scores!.tests!.value).toBe(1);
    expect(outcome.costUSD).toBe(0.5);
    expect(outcome.combine).toBe("majority");
    expect(outcome.panel!.map((entry) => [entry.model, entry.gradedBy, entry.directory])).toEqual([
      ["a/judge", "old", "judge-runs/old/rubric"],
      ["b/judge", "judge_new", "judge-runs/judge_new/rubric"],
      ["c/judge", "judge_new", "judge-runs/judge_new/rubric-2"],
    ]);
  });

  it("reports the judgments made so far after each one, so that a judge run cut short keeps them", async () => {
    const { grading: request } = grading({
      "a/judge": { state: "completed", scores: { tests: score(1) } },
      "b/judge": { state: "completed", scores: { tests: score(1) } },
    });
    const seen: string[][] = [];
    await gradePanel(panel(), { ...request, onJudgment: (judgments) => seen.push(judgments.map((j) => j.model)) });
    expect(seen).toEqual([["a/judge"], ["a/judge", "b/judge"]]);
  });

  it("one judge failing fails the judgment, naming it, and keeps every judgment for the next grading", async () => {
    const { grading: request } = grading({
      "a/judge": { state: "completed", scores: { tests: score(1) } },
      "b/judge": { state: "timed_out", scores: null, error: "the judge ran out of time" },
    });
    const outcome = await gradePanel(panel(), request);
    expect(outcome).toMatchObject({
      state: "timed_out",
      scores: null,
      error: "judge b/judge: the judge ran out of time",
    });
    expect(outcome.panel!.map((entry) => entry.state)).toEqual(["completed", "timed_out"]);
  });

  it("one judge graded once is no panel: no combine rule, its own session's metrics and scores", async () => {
    const metrics = { cost: { usd: 0.1 } } as unknown as SourceOutcome["metrics"];
    const { grading: request } = grading({ "a/judge": { state: "completed", scores: { tests: score(1) }, metrics } });
    const outcome = await gradePanel(panel({ judges: [{ model: "a/judge", fingerprint: "fp-a/judge" }] }), request);
    expect(outcome.combine).toBeUndefined();
    expect(outcome.metrics).toBe(metrics);
    expect(outcome.scores).toEqual({ tests: score(1) });
  });
});
