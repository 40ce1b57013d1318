import { describe, expect, it } from "vitest";
import type { BenchmarkRun, EvalRun, JudgeRun, SlotKey } from "../records/index.ts";
import { compareSides, loadRunSide } from "./compare-runs.ts";
import { buildRunIndex, matrixRowOf, matrixRows } from "./run-index.ts";

const run: BenchmarkRun = {
  id: "r",
  name: "cases",
  benchmarkDirectory: "/nowhere",
  createdAt: "2026-12-01T10:00:00.000Z",
  opencodeVersion: "1.18.33",
  models: ["m/a", "m/b"],
  repetitions: 1,
  evals: ["e"],
};

function recorded(slot: SlotKey, value: number): [EvalRun, JudgeRun] {
  const id = `eval_${slot.model}_${slot.case}`;
  return [
    {
      id,
      runId: "r",
      slot,
      control: false,
      state: "completed",
      infrastructureError: false,
      error: null,
      startedAt: "2026-12-01T10:00:00.000Z",
      completedAt: "2026-12-01T10:00:10.000Z",
      elapsedMs: 10_000,
      input: { candidateFingerprint: id, prompt: "p", timeoutMs: 60_000, maxCostUSD: null, opencodeVersion: "1.18.33" },
      evidence: { directory: "x", hash: "h" },
      metrics: null,
    },
    {
      id: `judge_${id}`,
      runId: "r",
      evalRunId: id,
      slot,
      kind: "code",
      state: "completed",
      judgeFingerprint: "j",
      startedAt: "x",
      completedAt: "y",
      elapsedMs: 1,
      scores: { ok: { value, source: "judge.ts" } },
      unscored: false,
      error: null,
      directory: "j",
    },
  ];
}

describe("the viewer with cases", () => {
  const slot = (model: string, caseId: string) => ({
    evalId: "e",
    model,
    variant: "current",
    repetition: 1,
    case: caseId,
  });
  const records = [
    recorded(slot("m/a", "late"), 1),
    recorded(slot("m/a", "early"), 0),
    recorded(slot("m/b", "late"), 0),
    recorded(slot("m/b", "early"), 0),
  ];
  const index = () =>
    buildRunIndex(
      "/nowhere/r",
      run,
      records.map(([evalRun]) => evalRun),
      records.map(([, judgeRun]) => judgeRun),
      null,
    );

  it("shows every case's slot in its eval's matrix cell, and scores the cell as the mean of its cases", () => {
    const built = index();
    expect(built.overview.leaderboard.map((row) => [row.model, row.score.value, row.slots])).toEqual([
      ["m/a", 50, 2],
      ["m/b", 0, 2],
    ]);
    expect(matrixRows(built)[0]!.cells[0]!.slots.map((cell) => [cell.case, cell.evalRunId])).toEqual([
      ["late", "eval_m/a_late"],
      ["early", "eval_m/a_early"],
    ]);
  });

  it("drills from the eval to its cases: each candidate's score per case, and 404 material for an unknown eval", () => {
    const built = index();
    const row = matrixRowOf(built, "e")!;
    expect(row.cases).toEqual(["late", "early"]);
    expect(row.cells.map((cell) => [cell.candidate, cell.cases])).toEqual([
      [
        "m/a",
        [
          { caseId: "late", score: { value: 1, lower: 1, upper: 1 } },
          { caseId: "early", score: { value: 0, lower: 0, upper: 0 } },
        ],
      ],
      [
        "m/b",
        [
          { caseId: "late", score: { value: 0, lower: 0, upper: 0 } },
          { caseId: "early", score: { value: 0, lower: 0, upper: 0 } },
        ],
      ],
    ]);
    expect(matrixRowOf(built, "nope")).toBeNull();
  });

  it("pairs the two sides' slots of a comparison by case, not by repetition alone", () => {
    const side = loadRunSide("r", index());
    const [pair] = compareSides(side, side, { modelA: "m/a", modelB: "m/b" }).pairs;
    expect(pair!.evals[0]!.slots.map((cell) => [cell.case, cell.a?.evalRunId, cell.b?.evalRunId])).toEqual([
      ["early", "eval_m/a_early", "eval_m/b_early"],
      ["late", "eval_m/a_late", "eval_m/b_late"],
    ]);
  });
});
