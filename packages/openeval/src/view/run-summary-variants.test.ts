import { utimes, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import { readResults, recordSummary, SUMMARY_RECORDED_EVENT, type LeaderboardSummary } from "../summary/index.ts";
import type { RunOverview } from "./api-types.ts";
import { ResultsStore } from "../records/index.ts";
import { buildRunIndex, matrixRows, readRunIndex } from "./run-index.ts";
import { BENCHMARK_RECHECK_MS, SummaryReader } from "./run-summary.ts";
import { RunCatalog } from "./run-catalog.ts";
import { ViewerData } from "./viewer-data.ts";

describe("the viewer's overview with variants", () => {
  it("gives each variant's paired comparison with current, as the CLI summary does", async () => {
    const { store } = await recordedRun();
    const index = buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null);
    const overview = await new SummaryReader().overview(index);
    expect(
      overview.leaderboard.map((row) => [row.variant ?? "current", row.score.value, row.verdict?.headline ?? null]),
    ).toEqual([
      ["current", 100, "pass"],
      ["worse", 0, null],
    ]);
    expect(
      overview.variantComparisons.map((entry) => [
        entry.variant,
        entry.comparison.b,
        entry.comparison.counts.regression,
        entry.comparison.evals[0]!.difference,
      ]),
    ).toEqual([["worse", "p/m [worse]", 1, -1]]);
    store.close();
  });
});

describe("the viewer's scores", () => {
  it("are the CLI's, from one summary, after an edited judge made the recorded judgments stale", async () => {
    const { benchmark, store } = await recordedRun();
    await writeFile(
      join(benchmark.directory, "evals", "answer", "judge.ts"),
      "export default () => ({ scores: { correct: true } });\n",
    );
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
    expect(matrixRows(index)[0]!.cells.find((cell) => cell.variant === undefined)!.slots[0]!.value).toBe(1);
    store.close();
  });
});

describe("the viewer's first leaderboard", () => {
  it("is the summary the runner recorded while its key holds, read without a row; made again once the run changes", async () => {
    const { store } = await recordedRun();
    await recordSummary(store);
    // A recorded summary whose key holds is served as it is: one that says 42 shows 42, where computing gives 100.
    const recorded = store.latestEvent(SUMMARY_RECORDED_EVENT) as { summary: LeaderboardSummary; recordedAt: string };
    const forty = structuredClone(recorded);
    forty.summary.models.find((model) => model.variant === undefined)!.score.value = 42;
    store.appendEvent(SUMMARY_RECORDED_EVENT, forty);
    const index = buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null);
    const reads = [
      vi.spyOn(ResultsStore.prototype, "evalRuns"),
      vi.spyOn(ResultsStore.prototype, "judgeRuns"),
      vi.spyOn(ResultsStore.prototype, "evalRun"),
    ];
    const currentScore = (overview: RunOverview) =>
      overview.leaderboard.find((row) => row.variant === undefined)!.score.value;
    try {
      const overview = await new SummaryReader().overview(index);
      expect(reads.map((read) => read.mock.calls.length)).toEqual([0, 0, 0]);
      expect([currentScore(overview), overview.summaryRecordedAt]).toEqual([42, recorded.recordedAt]);
    } finally {
      for (const read of reads) read.mockRestore();
    }
    // A new row: the key no longer holds, and the leaderboard is readResults' own, made now.
    const evalRun = store.evalRuns()[0]!;
    store.saveEvalRun({ ...evalRun, id: "eval_again", slot: { ...evalRun.slot, repetition: 2 } });
    const changed = await new SummaryReader().overview(
      buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null),
    );
    const cli = await readResults(store.directory);
    expect([currentScore(changed), changed.summaryRecordedAt]).toEqual([100, null]);
    expect(changed.leaderboard.map((row) => [row.score, row.ci])).toEqual(
      cli.models.map((model) => [model.score, model.interval.interval]),
    );
    store.close();
  });
});

describe("the viewer's benchmark version", () => {
  it("is stamped again after BENCHMARK_RECHECK_MS, not on every request: an edited judge shows within that time", async () => {
    const { benchmark, store } = await recordedRun();
    let now = 0;
    const reader = new SummaryReader(() => now);
    const index = buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null);
    const currentScore = async () =>
      (await reader.overview(index)).leaderboard.find((row) => row.variant === undefined)!.score.value;
    expect(await currentScore()).toBe(100);
    const judge = join(benchmark.directory, "evals", "answer", "judge.ts");
    await writeFile(judge, "export default () => ({ scores: { correct: true } });\n");
    await utimes(judge, new Date(), new Date(Date.now() + 5_000));
    now = BENCHMARK_RECHECK_MS - 1;
    expect(await currentScore()).toBe(100);
    now = BENCHMARK_RECHECK_MS;
    // The edited judge makes the recorded judgments stale: unresolved, as the CLI would say now.
    expect(await currentScore()).toBeNull();
    store.close();
  });
});

describe("a finished run's overview from its recorded summary alone (the first leaderboard without an index)", () => {
  it("reads no eval run, and says what the overview made from the run's index says", async () => {
    const { store } = await recordedRun();
    await recordSummary(store);
    const reads = [
      vi.spyOn(ResultsStore.prototype, "eachEvalRun"),
      vi.spyOn(ResultsStore.prototype, "eachJudgeRun"),
      vi.spyOn(ResultsStore.prototype, "evalRun"),
    ];
    let recorded: RunOverview | null;
    try {
      recorded = await new SummaryReader().recordedOverview(store.directory);
      expect(reads.map((read) => read.mock.calls.length)).toEqual([0, 0, 0]);
    } finally {
      for (const read of reads) read.mockRestore();
    }
    const indexed = await new SummaryReader().overview(readRunIndex(store.directory));
    expect(recorded).not.toBeNull();
    // The live stream compares versions: the two must agree, or a page would refetch for nothing.
    const { leaderboard, ...rest } = recorded!;
    const { leaderboard: indexedLeaderboard, ...indexedRest } = indexed;
    expect(rest).toEqual(indexedRest);
    expect(leaderboard).toEqual(indexedLeaderboard);
    expect(
      leaderboard.map((row) => [
        row.candidate,
        row.score.value,
        row.verdict?.headline ?? null,
        row.slots,
        row.judged,
        row.failed,
      ]),
    ).toEqual([
      ["p/m", 100, "pass", 1, 1, 0],
      ["p/m [worse]", 0, null, 1, 1, 0],
    ]);
    store.close();
  });

  it("answers the leaderboard and the live stream's version without indexing the run", async () => {
    const { store } = await recordedRun();
    await recordSummary(store);
    const data = new ViewerData(RunCatalog.open({ run: store.directory, resultsRoot: "unused" }));
    const runId = basename(store.directory);
    const indexing = vi.spyOn(RunCatalog.prototype, "index");
    try {
      const overview = (await data.overview(runId))!;
      expect(overview.summaryRecordedAt).not.toBeNull();
      expect(await data.liveState(runId)).toEqual({ version: overview.version, live: false });
      expect(indexing).not.toHaveBeenCalled();
      // The pages that list eval runs do index it.
      expect(data.evalRuns(runId, { offset: 0, limit: 10 })!.total).toBe(2);
      expect(indexing).toHaveBeenCalled();
    } finally {
      indexing.mockRestore();
      await data.close();
      store.close();
    }
  });

  it("is not used for a run a runner is working on, nor once the run has changed", async () => {
    const { store } = await recordedRun();
    await recordSummary(store);
    store.beat(process.pid);
    expect(await new SummaryReader().recordedOverview(store.directory)).toBeNull();
    store.release();
    expect(await new SummaryReader().recordedOverview(store.directory)).not.toBeNull();
    const evalRun = store.evalRuns()[0]!;
    store.saveEvalRun({ ...evalRun, id: "eval_again", slot: { ...evalRun.slot, repetition: 2 } });
    expect(await new SummaryReader().recordedOverview(store.directory)).toBeNull();
    store.close();
  });
});
