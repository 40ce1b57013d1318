// The summary a runner records for the viewer: it is readResults' own, and its key moves with everything
// readResults reads — the rows, the events that change a run, the benchmark folder, the triggers, the recorded images.
import { Database } from "bun:sqlite";
import { utimesSync, writeFileSync } from "node:fs";
import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import {
  recordInvocationFinished,
  recordInvocationStarted,
  recordModelsAdded,
  recordRuntimeIdentity,
  ResultsStore,
  STORE_FILE,
} from "../records/index.ts";
import { benchmarkVersion } from "./benchmark-version.ts";
import type { RunnerEvent } from "./events.ts";
import { readResults } from "./read-results.ts";
import {
  readRecordedSummary,
  recordSummary,
  SUMMARY_RECORDED_EVENT,
  toLeaderboardSummary,
} from "./recorded-summary.ts";
import { runBenchmark } from "../run/run-benchmark.ts";

/** The recorded summary, when it still holds for the run and its benchmark folder as they are now. */
function recorded(store: ResultsStore, folder: string) {
  return readRecordedSummary(store.directory, benchmarkVersion(folder));
}

describe("a run's recorded summary", () => {
  it("is the summary readResults gives, not the runner's own (scoped by --variant, timed with its fresh runs)", async () => {
    const { benchmark, store } = await recordedRun();
    const events: RunnerEvent[] = [];
    // Every slot is recorded: the runner plans nothing to run, summarizes, and records. --variant makes "worse" block its verdict.
    const own = await runBenchmark(benchmark.directory, {
      run: store.directory,
      scope: { isolation: "process", variants: ["worse"] },
      onEvent: (event) => events.push(event),
    });
    expect(events.filter((event) => event.type === "notice")).toEqual([]);
    const results = await readResults(store.directory);
    expect(store.latestEvent(SUMMARY_RECORDED_EVENT)).toMatchObject({ summary: toLeaderboardSummary(results) });
    expect((await recorded(store, benchmark.directory))!.summary).toEqual(toLeaderboardSummary(results));
    // The runner's own verdict counted the variant; readResults' (and the viewer's) does not.
    expect([own.verdict.status, results.verdict.status]).toEqual(["fail", "pass"]);
    store.close();
  });

  it("is made with the benchmark folder as it is at the run's end, not the copy the runner loaded at its start", async () => {
    const { benchmark, store } = await recordedRun();
    const judge = join(benchmark.directory, "evals", "answer", "judge.ts");
    await writeFile(judge, "export default () => ({ scores: { correct: true } });\n");
    await utimes(judge, new Date(), new Date(Date.now() + 5_000));
    // The runner holds the benchmark as loaded before the edit; a reader loads the edited judge, whose judgments are not recorded.
    await runBenchmark(benchmark, { run: store.directory, scope: { isolation: "process" } });
    const results = await readResults(store.directory);
    expect(results.models.find((model) => model.variant === undefined)!.score.value).toBeNull();
    expect((await recorded(store, benchmark.directory))!.summary).toEqual(toLeaderboardSummary(results));
    store.close();
  });

  it("is made with the benchmark folder loaded again when a file changed while the runner ran", async () => {
    const { benchmark, store } = await recordedRun();
    const judge = join(benchmark.directory, "evals", "answer", "judge.ts");
    // Edited after the runner stamped and loaded the folder: the load it holds is no longer what a reader loads.
    const edit = (event: RunnerEvent) => {
      if (event.type !== "run.started") return;
      writeFileSync(judge, "export default () => ({ scores: { correct: true } });\n");
      utimesSync(judge, new Date(), new Date(Date.now() + 5_000));
    };
    await runBenchmark(benchmark.directory, { run: store.directory, scope: { isolation: "process" }, onEvent: edit });
    const results = await readResults(store.directory);
    expect(results.models.find((model) => model.variant === undefined)!.score.value).toBeNull();
    expect((await recorded(store, benchmark.directory))!.summary).toEqual(toLeaderboardSummary(results));
    store.close();
  });

  it("is not recorded when it cannot be made, and the run goes on with a notice", async () => {
    const { benchmark, store } = await recordedRun();
    // The run's record names a folder that is gone: the runner was given the benchmark, a reader could not load it.
    store.writeRun({ ...store.readRun(), benchmarkDirectory: join(benchmark.directory, "moved") });
    const events: RunnerEvent[] = [];
    const summary = await runBenchmark(benchmark.directory, {
      run: store.directory,
      scope: { isolation: "process" },
      onEvent: (event) => events.push(event),
    });
    expect(summary.verdict.status).toBe("pass");
    expect(
      events.filter((event) => event.type === "notice").map((event) => (event as { message: string }).message),
    ).toEqual([
      expect.stringMatching(
        /^The run's summary was not recorded for the viewer \(.+\): `openeval view` will compute it/,
      ),
    ]);
    expect(events.at(-1)!.type).toBe("run.finished");
    expect(store.latestEvent(SUMMARY_RECORDED_EVENT)).toBeNull();
    store.close();
  });
});

describe("a recorded summary's key", () => {
  it("holds while nothing readResults reads has changed: a runner's invocation log is not such a change", async () => {
    const { benchmark, store } = await recordedRun();
    await recordSummary(store);
    recordInvocationStarted(store, {
      invocation: "inv_1",
      startedAt: "2026-12-01T11:00:00.000Z",
      pid: 1,
      concurrency: 1,
      maxCostUSD: null,
      estimateUSD: null,
      work: [],
    });
    recordInvocationFinished(store, {
      invocation: "inv_1",
      finishedAt: "2026-12-01T11:00:01.000Z",
      complete: true,
      verdict: "pass",
    });
    expect(await recorded(store, benchmark.directory)).toMatchObject({
      summary: toLeaderboardSummary(await readResults(store.directory)),
      recordedAt: expect.any(String),
    });
    store.close();
  });

  it("changes with a new row", async () => {
    const { benchmark, store } = await recordedRun();
    await recordSummary(store);
    const evalRun = store.evalRuns()[0]!;
    store.saveEvalRun({ ...evalRun, id: "eval_again", slot: { ...evalRun.slot, repetition: 2 } });
    expect(await recorded(store, benchmark.directory)).toBeNull();
    store.close();
  });

  it("changes when a row running then is finalized", async () => {
    const { benchmark, store } = await recordedRun();
    const evalRun = store.evalRuns()[0]!;
    const running = { ...evalRun, id: "eval_running", state: "running" as const, completedAt: null };
    store.saveEvalRun(running);
    await recordSummary(store);
    expect(await recorded(store, benchmark.directory)).not.toBeNull();
    store.saveEvalRun({ ...running, state: "interrupted", completedAt: evalRun.completedAt, error: "stopped" });
    expect(await recorded(store, benchmark.directory)).toBeNull();
    store.close();
  });

  it("changes when a file of the benchmark folder is edited", async () => {
    const { benchmark, store } = await recordedRun();
    await recordSummary(store);
    const judge = join(benchmark.directory, "evals", "answer", "judge.ts");
    await writeFile(judge, "export default () => ({ scores: { correct: true } });\n");
    await utimes(judge, new Date(), new Date(Date.now() + 5_000));
    expect(await recorded(store, benchmark.directory)).toBeNull();
    store.close();
  });

  it("changes with an add-models event (or any event type but the invocation log's)", async () => {
    const { benchmark, store } = await recordedRun();
    await recordSummary(store);
    recordModelsAdded(store, ["p/other"]);
    expect(await recorded(store, benchmark.directory)).toBeNull();
    await recordSummary(store);
    expect(await recorded(store, benchmark.directory)).not.toBeNull();
    store.appendEvent("some.future.event", { note: "counts by default" });
    expect(await recorded(store, benchmark.directory)).toBeNull();
    store.close();
  });

  it("changes when a trigger that keeps finalized rows immutable is dropped", async () => {
    const { benchmark, store } = await recordedRun();
    await recordSummary(store);
    const db = new Database(join(store.directory, STORE_FILE));
    db.run("DROP TRIGGER judge_runs_finalized_immutable");
    db.close();
    expect(await recorded(store, benchmark.directory)).toBeNull();
    store.close();
  });

  it("changes when a runner records another candidate or verification image (one rebuilt since)", async () => {
    const folder = await writeTree(
      minimalBenchmark({
        "benchmark.ts": 'export default { models: ["p/m"], repetitions: 1, candidate: { isolation: "container" } };\n',
        "evals/answer/judge.ts":
          "export default async ({ verification }) => ({ scores: { correct: verification !== undefined } });\n",
      }),
    );
    const store = emptyRun(folder);
    recordRuntimeIdentity(store, { candidateImage: IMAGE_1, verificationImage: IMAGE_1 });
    await recordSummary(store);
    recordRuntimeIdentity(store, { candidateImage: IMAGE_1 });
    expect(await recorded(store, folder)).not.toBeNull();
    recordRuntimeIdentity(store, { candidateImage: IMAGE_2 });
    expect(await recorded(store, folder)).toBeNull();
    await recordSummary(store);
    recordRuntimeIdentity(store, { verificationImage: IMAGE_2 });
    expect(await recorded(store, folder)).toBeNull();
    store.close();
  });

  it("is recorded and checked with no container engine answering (DOCKER_HOST names a socket that does not exist)", async () => {
    const folder = await writeTree(
      minimalBenchmark({
        "benchmark.ts": 'export default { models: ["p/m"], repetitions: 1, candidate: { isolation: "container" } };\n',
      }),
    );
    const store = emptyRun(folder);
    recordRuntimeIdentity(store, { candidateImage: IMAGE_1 });
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = `unix://${join(folder, "no-engine.sock")}`;
    try {
      await recordSummary(store);
      expect(store.latestEvent(SUMMARY_RECORDED_EVENT)).not.toBeNull();
      expect(await recorded(store, folder)).not.toBeNull();
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
      store.close();
    }
  });
});

const IMAGE_1 = `sha256:${"1".repeat(64)}`;
const IMAGE_2 = `sha256:${"2".repeat(64)}`;

/** A run of `folder`'s benchmark with nothing recorded yet. */
function emptyRun(folder: string): ResultsStore {
  const store = ResultsStore.open(join(folder, "results", "r"), { create: true });
  store.writeRun({
    id: "r",
    name: "c",
    benchmarkDirectory: folder,
    createdAt: "2026-12-01T10:00:00.000Z",
    opencodeVersion: "1.18.33",
    models: ["p/m"],
    repetitions: 1,
    evals: ["answer"],
  });
  return store;
}
