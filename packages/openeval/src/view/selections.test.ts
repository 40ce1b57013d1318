import { describe, expect, it } from "vitest";
import type { BenchmarkRun, EvalRun, JudgeRun } from "../records/index.ts";
import { pageOf, queryEvalRuns, selectEvalRuns, type EvalRunSelection } from "./query.ts";
import { buildRunIndex, type RunIndex } from "./run-index.ts";
import { Selections } from "./selections.ts";

const run: BenchmarkRun = {
  id: "r",
  name: "paging",
  benchmarkDirectory: "/nowhere",
  createdAt: "2026-12-01T10:00:00.000Z",
  opencodeVersion: "1.18.33",
  models: ["m/a", "m/b"],
  repetitions: 3,
  evals: ["e1", "e2"],
};

function recorded(n: number): [EvalRun, JudgeRun] {
  const slot = {
    evalId: `e${(n % 2) + 1}`,
    model: n % 4 < 2 ? "m/a" : "m/b",
    variant: "current",
    repetition: Math.floor(n / 4) + 1,
  };
  const id = `eval_${n}`;
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
    elapsedMs: 1_000 * n,
    input: { candidateFingerprint: id, prompt: "p", timeoutMs: 60_000, maxCostUSD: null, opencodeVersion: "1.18.33" },
    evidence: { directory: "x", hash: "h" },
    metrics: { cost: { usd: n / 100 }, tools: { calls: 1 } } as EvalRun["metrics"],
  };
  const judgeRun: JudgeRun = {
    id: `judge_${n}`,
    runId: "r",
    evalRunId: id,
    slot,
    kind: "code",
    state: "completed",
    judgeFingerprint: "j",
    startedAt: "x",
    completedAt: "y",
    elapsedMs: 1,
    scores: { ok: { value: (n % 3) / 2, source: "judge.ts" } },
    unscored: false,
    error: null,
    directory: "j",
  };
  return [evalRun, judgeRun];
}

const evalRunSelections = () =>
  new Selections((runIndex: RunIndex, selection: EvalRunSelection) => selectEvalRuns(runIndex.rows, selection));

function index() {
  const records = Array.from({ length: 12 }, (_, n) => recorded(n));
  return buildRunIndex(
    "/nowhere/r",
    run,
    records.map(([evalRun]) => evalRun),
    records.map(([, judgeRun]) => judgeRun),
    null,
  );
}

describe("eval-run selections kept per run index", () => {
  it("pages a kept selection exactly as queryEvalRuns pages the rows", () => {
    const selections = evalRunSelections();
    const runIndex = index();
    const selection = { model: "m/b", sort: "score" as const, descending: true };
    for (const offset of [0, 2, 4]) {
      expect(pageOf(selections.select(runIndex, selection), offset, 2)).toEqual(
        queryEvalRuns(runIndex.rows, { ...selection, offset, limit: 2 }),
      );
    }
  });

  it("filters and sorts once per query and index: the next page reuses it; another query or a re-read index does not", () => {
    const selections = evalRunSelections();
    const first = index();
    const byCost = selections.select(first, { sort: "cost" });
    expect(selections.select(first, { sort: "cost" })).toBe(byCost);
    expect(selections.select(first, { sort: "cost", descending: true })).not.toBe(byCost);
    const reread = index();
    expect(selections.select(reread, { sort: "cost" })).not.toBe(byCost);
    expect(selections.select(reread, { sort: "cost" })).toEqual(byCost);
  });

  it("looks rows up by eval run id", () => {
    const runIndex = index();
    expect(runIndex.rowsById.get("eval_5")).toBe(runIndex.rows.find((row) => row.id === "eval_5"));
  });
});
