import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import { readResults } from "../run/index.ts";
import { ResultsStore } from "../records/index.ts";
import { buildRunIndex, readRunIndex } from "./run-index.ts";
import { BENCHMARK_RECHECK_MS, SummaryReader } from "./run-summary.ts";

describe("the viewer's overview with variants", () => {
  it("gives each variant's paired comparison with current, as the CLI summary does", async () => {
    const { store } = await recordedRun();
    const index = buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null);
    const overview = await new SummaryReader().overview(index);
    expect(overview.leaderboard.map((row) => [row.variant ?? "current", row.score.value, row.verdict])).toEqual([["current", 100, "pass"], ["worse", 0, null]]);
    expect(overview.variantComparisons.map((entry) => [entry.variant, entry.comparison.b, entry.comparison.counts.regression, entry.comparison.evals[0]!.difference])).toEqual([
      ["worse", "p/m [worse]", 1, -1],
    ]);
    store.close();
  });
});

describe("the viewer's scores (issue 16 §1)", () => {
  it("are the CLI's, from one summary, after an edited judge made the recorded judgments stale", async () => {
    const { benchmark, store } = await recordedRun();
    await writeFile(join(benchmark.directory, "evals", "answer", "judge.ts"), 'export default () => ({ scores: { correct: true } });\n');
    const index = buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null);
    const overview = await new SummaryReader().overview(index);
    const cli = await readResults(store.directory);
    // The recorded judgments need rejudging now: the CLI counts them unresolved, and so does the leaderboard.
    const current = cli.models.find((model) => model.variant === undefined)!;
    expect(current.score).toEqual({ value: null, lower: 0, upper: 100 });
    const row = overview.leaderboard.find((entry) => entry.variant === undefined)!;
    expect(row.score).toEqual(current.score);
    expect([row.ci, row.ciNote]).toEqual([current.interval.interval, current.interval.reason]);
    // The matrix still shows what was recorded (the viewer does not re-plan its evidence).
    expect(index.matrix[0]!.cells.find((cell) => cell.variant === undefined)!.slots[0]!.value).toBe(1);
    store.close();
  });
});

describe("the viewer's first leaderboard (issue 18 §4)", () => {
  it("is summarized from the records its index read, not from a second read of every row", async () => {
    const { store } = await recordedRun();
    const index = readRunIndex(store.directory);
    const reads = [vi.spyOn(ResultsStore.prototype, "evalRuns"), vi.spyOn(ResultsStore.prototype, "judgeRuns")];
    try {
      const overview = await new SummaryReader().overview(index);
      expect(reads.map((read) => read.mock.calls.length)).toEqual([0, 0]);
      const cli = await readResults(store.directory);
      expect(overview.leaderboard.map((row) => [row.score, row.ci])).toEqual(cli.models.map((model) => [model.score, model.interval.interval]));
    } finally {
      for (const read of reads) read.mockRestore();
      store.close();
    }
  });
});

describe("the viewer's benchmark version (issue 18 §4)", () => {
  it("is stamped again after BENCHMARK_RECHECK_MS, not on every request: an edited judge shows within that time", async () => {
    const { benchmark, store } = await recordedRun();
    let now = 0;
    const reader = new SummaryReader(() => now);
    const index = buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null);
    const currentScore = async () => (await reader.overview(index)).leaderboard.find((row) => row.variant === undefined)!.score.value;
    expect(await currentScore()).toBe(100);
    const judge = join(benchmark.directory, "evals", "answer", "judge.ts");
    await writeFile(judge, 'export default () => ({ scores: { correct: true } });\n');
    await utimes(judge, new Date(), new Date(Date.now() + 5_000));
    now = BENCHMARK_RECHECK_MS - 1;
    expect(await currentScore()).toBe(100);
    now = BENCHMARK_RECHECK_MS;
    // The edited judge makes the recorded judgments stale: unresolved, as the CLI would say now.
    expect(await currentScore()).toBeNull();
    store.close();
  });
});
