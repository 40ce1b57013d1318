// Journey: run maintenance on real recorded runs — add-models extends a run, remove-models retires a
// model from its scores keeping the evidence, add-models brings it back with no new candidate, merge-runs copies
// another run's work (the source untouched, a second merge copies nothing) and snapshot freezes the scores.
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readResults } from "../../packages/openeval/src/summary/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/index.ts";
import { fingerprint } from "../../packages/openeval/src/util/hash.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
let directory: string;
let runA: string;
let runB: string;

async function newRun(flags: string[]): Promise<string> {
  const before = new Set(await readdir(join(directory, "results")).catch(() => []));
  const result = await runCli(["run", "--benchmark", directory, "--new", ...flags]);
  expect(result.exitCode, result.stderr).toBe(0);
  const created = (await readdir(join(directory, "results"))).filter((name) => !before.has(name));
  expect(created).toHaveLength(1);
  return join(directory, "results", created[0]!);
}

function evalRunIds(run: string): string[] {
  const store = ResultsStore.open(run, { readonly: true });
  try {
    return store.evalRuns().map((evalRun) => evalRun.id);
  } finally {
    store.close();
  }
}

const scored = async (run: string) => (await readResults(run)).models.map((model) => [model.model, model.score.value]);
const summaryOf = (stdout: string) =>
  JSON.parse(stdout.trim().split("\n").at(-1)!) as { type: string; models: { model: string }[] };

beforeAll(async () => {
  directory = await makeTempDir();
  for (const id of ["exact-answer", "exact-again"])
    await cp(join(ROOT, "evals", "exact-answer"), join(directory, "evals", id), { recursive: true });
  await writeFile(
    join(directory, "benchmark.ts"),
    `export default { models: ["control/positive"], repetitions: 1 };\n`,
  );
  runB = await newRun(["--only-eval", "exact-again"]);
  runA = await newRun(["--only-eval", "exact-answer"]);
});

describe("run maintenance", () => {
  it("add → remove → add back → merge → snapshot", async () => {
    // add-models: the new model's slot runs, the recorded one is reused.
    const added = await runCli([
      "add-models",
      runA,
      "--model",
      "control/negative",
      "--only-eval",
      "exact-answer",
      "--json",
    ]);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(summaryOf(added.stdout).models.map((model) => model.model)).toEqual([
      "control/positive",
      "control/negative",
    ]);
    const afterAdd = evalRunIds(runA);
    expect(afterAdd).toHaveLength(2);
    const withNegative = await scored(runA);

    // remove-models: out of the scores, evidence kept; a model not in the run is named.
    const unknown = await runCli(["remove-models", runA, "--model", "control/nope"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(
      "remove-models: control/nope is not a model of this run; its models are: control/positive, control/negative",
    );
    const removed = await runCli(["remove-models", runA, "--model", "control/negative", "--json"]);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({
      removed: ["control/negative"],
      retiredSlots: 1,
      models: ["control/positive"],
    });
    expect((await scored(runA)).map(([model]) => model)).toEqual(["control/positive"]);
    expect((await readdir(join(runA, "eval-runs"))).sort()).toEqual([...afterAdd].sort());
    const again = await runCli(["remove-models", runA, "--model", "control/negative"]);
    expect(again.stderr).toContain(
      "control/negative is already retired from this run; `openeval add-models` brings it back",
    );

    // add-models again: restored from the recorded work, no new candidate.
    const back = await runCli([
      "add-models",
      runA,
      "--model",
      "control/negative",
      "--only-eval",
      "exact-answer",
      "--json",
    ]);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(evalRunIds(runA)).toEqual(afterAdd);
    expect(await scored(runA)).toEqual(withNegative);

    // merge-runs: B's slot A lacks is copied verbatim (integrity intact); B is left as it was; a second merge copies nothing.
    const bBefore = { ids: evalRunIds(runB), store: await readFile(join(runB, "store.db")) };
    const merged = await runCli(["merge-runs", runA, runB, "--json"]);
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({
      copiedSlots: ["exact-again/control/positive/1"],
      keptSlots: [],
      evalRuns: 1,
      judgeRuns: 1,
    });
    expect(evalRunIds(runA)).toEqual([...afterAdd, ...bBefore.ids]);
    expect(evalRunIds(runB)).toEqual(bBefore.ids);
    expect(await readFile(join(runB, "store.db"))).toEqual(bBefore.store);
    const results = await readResults(runA);
    expect(results.integrity).toEqual([]);
    expect(
      results.models
        .find((model) => model.model === "control/positive")!
        .evals.map((evaluation) => evaluation.evalId)
        .sort(),
    ).toEqual(["exact-again", "exact-answer"]);
    const remerged = await runCli(["merge-runs", runA, runB, "--json"]);
    expect(JSON.parse(remerged.stdout)).toMatchObject({
      copiedSlots: [],
      keptSlots: [{ slot: "exact-again/control/positive/1", sameInputs: true }],
    });
    const self = await runCli(["merge-runs", runA, runA]);
    expect(self.exitCode).toBe(2);
    expect(self.stderr).toContain("is both runs; name the run to merge into, then the run to merge from");

    // snapshot: the active slots and scores under their hash; a name is never reused.
    const snapshot = await runCli(["snapshot", runA, "after-merge", "--json"]);
    expect(snapshot.exitCode, snapshot.stderr).toBe(0);
    const file = JSON.parse(await readFile(join(runA, "maintenance", "snapshots", "after-merge.json"), "utf8")) as {
      hash: string;
      payload: { slots: unknown[]; scores: { models: unknown[] } };
    };
    expect(file.hash).toBe(fingerprint(file.payload));
    expect(file.payload.slots).toHaveLength(3);
    expect(file.payload.scores.models).toHaveLength(2);
    const reused = await runCli(["snapshot", runA, "after-merge"]);
    expect(reused.exitCode).toBe(2);
    expect(reused.stderr).toContain('snapshot: "after-merge" already exists');
  });
});
