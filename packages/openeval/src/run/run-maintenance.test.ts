// The run maintenance functions refuse what they cannot do, naming it; the journey that uses them on
// real recorded runs is test/e2e-slow/run-maintenance.test.ts.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { BenchmarkInvalidError } from "../load/index.ts";
import { ResultsStore, type EvalRun } from "../records/index.ts";
import { addModels } from "./add-models.ts";
import { mergeRuns } from "./merge-runs.ts";
import { removeModels } from "./remove-models.ts";
import { snapshotRun } from "./snapshot-run.ts";

const sleeper = Bun.spawn(["sleep", "60"]);
afterAll(() => sleeper.kill());

async function recordedRun(
  options: { benchmark?: string; models?: string[]; running?: boolean; heldBy?: number } = {},
): Promise<string> {
  const directory = join(await makeTempDir(), "run");
  const store = ResultsStore.open(directory, { create: true });
  store.writeRun({
    id: "r",
    name: "b",
    benchmarkDirectory: options.benchmark ?? "/benchmark",
    createdAt: "2026-12-01T00:00:00.000Z",
    opencodeVersion: "x",
    models: options.models ?? ["p/a", "p/b"],
    repetitions: 1,
    evals: ["e"],
  });
  if (options.running) store.saveEvalRun(evalRun());
  if (options.heldBy) store.beat(options.heldBy);
  store.close();
  return directory;
}

function evalRun(): EvalRun {
  return {
    id: "eval_open",
    runId: "r",
    slot: { evalId: "e", model: "p/a", variant: "current", repetition: 1 },
    control: false,
    state: "running",
    infrastructureError: false,
    error: null,
    startedAt: "2026-12-01T00:00:00.000Z",
    completedAt: null,
    elapsedMs: null,
    input: { candidateFingerprint: "f", prompt: "p", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "x" },
    evidence: null,
    metrics: null,
  };
}

describe("run maintenance refusals", () => {
  it("add-models and remove-models need models; an unknown run says what a run is", async () => {
    await expect(addModels(await recordedRun(), [])).rejects.toThrow(
      "add-models: name the models to add, e.g. --model openai/gpt-5",
    );
    await expect(removeModels(await recordedRun(), [])).rejects.toThrow("remove-models: name the models to retire");
    await expect(removeModels(join(await makeTempDir(), "nothing"), ["p/a"])).rejects.toThrow(
      /nothing is not a run: pass a results\/<run-id> folder that openeval run wrote$/,
    );
  });

  it("add-models refuses a run a live runner holds, saying what to do, before any work", async () => {
    const benchmark = await writeTree(minimalBenchmark());
    const run = await recordedRun({ benchmark, models: ["provider/model"], heldBy: sleeper.pid });
    await expect(addModels(run, ["provider/other"])).rejects.toThrow(
      `Another openeval run (pid ${sleeper.pid}) is working on ${run}; wait for it to finish (or stop it: kill ${sleeper.pid})`,
    );
  });

  it("add-models checks each model like benchmark.ts's list", async () => {
    const run = await recordedRun({ benchmark: await writeTree(minimalBenchmark()), models: ["provider/model"] });
    const error = await addModels(run, ["not a model"]).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BenchmarkInvalidError);
    expect((error as BenchmarkInvalidError).problems.map((problem) => problem.message)).toEqual([
      '"not a model" must look like "provider/model" or "provider/model#variant"',
    ]);
  });

  it("remove-models keeps at least one model and refuses a run a live runner holds", async () => {
    await expect(removeModels(await recordedRun(), ["p/a", "p/b"])).rejects.toThrow(
      "remove-models: a run keeps at least one model; p/a, p/b would leave none",
    );
    await expect(removeModels(await recordedRun({ heldBy: sleeper.pid }), ["p/a"])).rejects.toThrow(
      `Another openeval run (pid ${sleeper.pid}) is working on`,
    );
  });

  it("merge-runs refuses runs of different benchmarks, a source with unfinished work, and a live source", async () => {
    await expect(mergeRuns(await recordedRun(), await recordedRun({ benchmark: "/other" }))).rejects.toThrow(
      "merge-runs: the runs belong to different benchmarks (/benchmark and /other); merge runs of one benchmark",
    );
    const unfinished = await recordedRun({ running: true });
    await expect(mergeRuns(await recordedRun(), unfinished)).rejects.toThrow(
      `merge-runs: ${unfinished} has unfinished eval runs (eval_open); \`openeval run --run ${unfinished}\` recovers them first`,
    );
    await expect(mergeRuns(await recordedRun(), await recordedRun({ heldBy: sleeper.pid }))).rejects.toThrow(
      `Another openeval run (pid ${sleeper.pid})`,
    );
    await expect(mergeRuns(await recordedRun(), join(await makeTempDir(), "nothing"))).rejects.toThrow(
      /nothing is not a run: pass a results\/<run-id> folder that openeval run wrote$/,
    );
  });

  it("snapshot refuses a name that is not a plain file name", async () => {
    for (const name of ["../escape", "", "a/b", ".hidden"]) {
      await expect(snapshotRun(await recordedRun(), name)).rejects.toThrow(
        `snapshot: "${name}" is not a snapshot name`,
      );
    }
  });
});
