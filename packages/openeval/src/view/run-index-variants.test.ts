import { describe, expect, it } from "vitest";
import type { BenchmarkRun, EvalRun, JudgeRun, SlotKey } from "../records/index.ts";
import { compareSides, loadRunSide } from "./compare-runs.ts";
import { queryEvalRuns } from "./query.ts";
import { buildRunIndex, describeRun, matrixCandidates, matrixRows } from "./run-index.ts";

const run: BenchmarkRun = {
  id: "r",
  name: "variants",
  benchmarkDirectory: "/nowhere",
  createdAt: "2026-12-01T10:00:00.000Z",
  opencodeVersion: "1.18.33",
  models: ["m/a"],
  repetitions: 1,
  evals: ["e"],
};

function recorded(slot: SlotKey, value: number, cost: number): [EvalRun, JudgeRun] {
  const id = `eval_${slot.variant}`;
  const evalRun: EvalRun = {
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
    metrics: { cost: { usd: cost }, tools: { calls: 1 } } as EvalRun["metrics"],
  };
  const judgeRun: JudgeRun = {
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
  };
  return [evalRun, judgeRun];
}

describe("the viewer's leaderboard with variants", () => {
  it("has one row per (model, variant), each with its own score, cost and matrix cell", () => {
    const current = recorded({ evalId: "e", model: "m/a", variant: "current", repetition: 1 }, 1, 0.5);
    const terse = recorded({ evalId: "e", model: "m/a", repetition: 1, variant: "terse" }, 0, 0.25);
    const index = buildRunIndex("/nowhere/r", run, [current[0], terse[0]], [current[1], terse[1]], null);
    expect(
      index.overview.leaderboard.map((row) => [row.model, row.variant, row.score.value, row.costUSD, row.slots]),
    ).toEqual([
      ["m/a", undefined, 100, 0.5, 1],
      ["m/a", "terse", 0, 0.25, 1],
    ]);
    expect(matrixRows(index)[0]!.cells.map((cell) => [cell.variant, cell.slots.map((slot) => slot.evalRunId)])).toEqual(
      [
        [undefined, ["eval_current"]],
        ["terse", ["eval_terse"]],
      ],
    );
  });

  it("names the matrix's columns, cells and eval-run rows by candidate, and the eval-run list filters by one", () => {
    const current = recorded({ evalId: "e", model: "m/a", variant: "current", repetition: 1 }, 1, 0.5);
    const terse = recorded({ evalId: "e", model: "m/a", repetition: 1, variant: "terse" }, 0, 0.25);
    const index = buildRunIndex("/nowhere/r", run, [current[0], terse[0]], [current[1], terse[1]], null);
    expect(matrixCandidates(index.overview)).toEqual(["m/a", "m/a [terse]"]);
    expect(matrixRows(index)[0]!.cells.map((cell) => cell.candidate)).toEqual(["m/a", "m/a [terse]"]);
    const query = (filter: { model?: string; candidate?: string }) =>
      queryEvalRuns(index.rows, { offset: 0, limit: 10, ...filter }).items.map((row) => [row.candidate, row.variant]);
    expect(query({ candidate: "m/a [terse]" })).toEqual([["m/a [terse]", "terse"]]);
    expect(query({ candidate: "m/a" })).toEqual([["m/a", undefined]]);
    expect(query({ model: "m/a" })).toHaveLength(2);
  });

  it("shows a declared variant's slots as pending before anything of it is recorded", () => {
    const current = recorded({ evalId: "e", model: "m/a", variant: "current", repetition: 1 }, 1, 0.5);
    const index = buildRunIndex("/nowhere/r", { ...run, variants: ["terse"] }, [current[0]], [current[1]], null);
    expect(matrixRows(index)[0]!.cells.map((cell) => [cell.candidate, cell.slots.map((slot) => slot.state)])).toEqual([
      ["m/a", ["completed"]],
      ["m/a [terse]", ["pending"]],
    ]);
    expect(index.overview.counts.slots).toBe(2);
  });

  it("lists a run with the variants it ran ([] for a run recorded before variants)", () => {
    expect(describeRun("r", { ...run, variants: ["terse"] }, false).variants).toEqual(["terse"]);
    expect(describeRun("r", run, false).variants).toEqual([]);
  });

  it("names each row's candidate, and compares a variant with current on the compare page's request", () => {
    const current = recorded({ evalId: "e", model: "m/a", variant: "current", repetition: 1 }, 1, 0.5);
    const terse = recorded({ evalId: "e", model: "m/a", repetition: 1, variant: "terse" }, 0, 0.25);
    const index = buildRunIndex("/nowhere/r", run, [current[0], terse[0]], [current[1], terse[1]], null);
    expect(index.overview.leaderboard.map((row) => row.candidate)).toEqual(["m/a", "m/a [terse]"]);
    const side = loadRunSide("r", index);
    const [pair] = compareSides(side, side, { modelA: "m/a", modelB: "m/a [terse]" }).pairs;
    expect(pair!.evals[0]).toMatchObject({ evalId: "e", a: 1, b: 0, difference: -1, status: "regression" });
    // The transcripts of the same slot, one per candidate, open side by side.
    expect(pair!.evals[0]!.slots.map((slot) => [slot.a?.evalRunId, slot.b?.evalRunId])).toEqual([
      ["eval_current", "eval_terse"],
    ]);
    expect(() => compareSides(side, side, { modelA: "m/a", modelB: "m/a [wordy]" })).toThrow(
      "run r has no model m/a [wordy]; its models are m/a, m/a [terse]",
    );
  });
});
