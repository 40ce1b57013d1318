// Journeys: the CLI refuses what matches nothing — scope flags with a typo, and retry /
// rejudge of eval runs they cannot redo — with exit 2, naming the valid values, before any work starts.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { EvalRun } from "../../packages/openeval/src/records/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { runCli } from "../helpers/cli.ts";
import { minimalBenchmark, writeTree } from "../helpers/fixtures.ts";

let directory: string;
const slot = (repetition: number) => ({ evalId: "answer", model: "provider/model", variant: "current", repetition });

function evalRun(id: string, repetition: number, state: EvalRun["state"], extra: Partial<EvalRun> = {}): EvalRun {
  return {
    id,
    runId: "run-1",
    slot: slot(repetition),
    control: false,
    state,
    infrastructureError: false,
    error: null,
    startedAt: new Date().toISOString(),
    completedAt: new Date().toISOString(),
    elapsedMs: 1,
    input: { candidateFingerprint: "old", prompt: "p", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "x" },
    evidence: null,
    metrics: null,
    ...extra,
  };
}

beforeAll(async () => {
  directory = await writeTree(
    minimalBenchmark({
      "benchmark.ts": `export default { models: ["provider/model", "provider/other"], repetitions: 2 };\n`,
    }),
  );
  const store = ResultsStore.open(join(directory, "results", "run-1"), { create: true });
  store.writeRun({
    id: "run-1",
    name: "b",
    benchmarkDirectory: directory,
    createdAt: new Date().toISOString(),
    opencodeVersion: "x",
    models: ["provider/model"],
    repetitions: 2,
    evals: ["answer"],
  });
  store.saveEvalRun(
    evalRun("eval_done", 1, "completed", { evidence: { directory: "eval-runs/eval_done/evidence", hash: "h" } }),
  );
  store.saveEvalRun(evalRun("eval_old", 2, "failed", { infrastructureError: true }));
  store.saveEvalRun(evalRun("eval_new", 2, "failed", { infrastructureError: true }));
  store.close();
});

describe("scope flags that match nothing", () => {
  it.each([
    [["--only-eval", "anwser"], '--only-eval "anwser" matches no eval; the valid values are: answer'],
    [
      ["--only-model", "provider/typo"],
      `--only-model "provider/typo" matches no model of the run (benchmark.ts's, the run's and --model's); the valid values are: provider/model, provider/other`,
    ],
    [
      ["--only-category", "speed"],
      '--only-category "speed" matches no criterion category; the valid values are: (none)',
    ],
    [["--only-repetition", "3"], '--only-repetition "3" matches no repetition; the valid values are: 1, 2'],
    [
      ["--model", "provider/x", "--only-model", "provider/typo"],
      `--only-model "provider/typo" matches no model of the run (benchmark.ts's, the run's and --model's); the valid values are: provider/model, provider/other, provider/x`,
    ],
  ])("run and plan %j exit 2 naming the valid values", async (flags, message) => {
    for (const command of ["run", "plan"]) {
      const result = await runCli([command, "--benchmark", directory, "--offline", ...flags]);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).not.toContain("Verdict");
    }
  });
});

describe("--model adds models (OpenEval's meaning)", () => {
  it("plans benchmark.ts's models and the run's with the --model ones, each once", async () => {
    const result = await runCli([
      "plan",
      "--benchmark",
      directory,
      "--json",
      "--model",
      "provider/x",
      "--model",
      "provider/model",
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const { work } = JSON.parse(result.stdout) as { work: { model: string }[] };
    expect([...new Set(work.map((slot) => slot.model))]).toEqual(["provider/model", "provider/other", "provider/x"]);
  });
});

describe("retry and rejudge refusals", () => {
  it("retry of a completed eval run exits 2 pointing to rejudge, and executes nothing", async () => {
    const result = await runCli(["retry", "eval_done", "--benchmark", directory]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "retry eval_done: it ended completed, so there is nothing to execute again; to grade its recording again use `openeval rejudge eval_done`",
    );
    const store = ResultsStore.open(join(directory, "results", "run-1"), { readonly: true });
    expect(store.evalRuns()).toHaveLength(3);
    store.close();
  });

  it("retry and rejudge of unknown or superseded ids exit 2 naming the active eval run of the slot", async () => {
    const unknown = await runCli(["retry", "eval_typo", "--benchmark", directory]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("retry eval_typo: no such eval run in this run");
    const superseded = await runCli(["retry", "eval_old", "--benchmark", directory]);
    expect(superseded.exitCode).toBe(2);
    expect(superseded.stderr).toContain(
      "retry eval_old: superseded by a later execution of answer × provider/model #2; the active eval run of that slot is eval_new",
    );
    const rejudgeUnknown = await runCli(["rejudge", "eval_typo", "--benchmark", directory]);
    expect(rejudgeUnknown.exitCode).toBe(2);
    expect(rejudgeUnknown.stderr).toContain("rejudge eval_typo: no such eval run in this run");
    const rejudgeFailed = await runCli(["rejudge", "eval_new", "--benchmark", directory]);
    expect(rejudgeFailed.exitCode).toBe(2);
    expect(rejudgeFailed.stderr).toContain(
      "rejudge eval_new: it ended failed (infrastructure error) and has no recording to judge; execute it again with `openeval retry eval_new`",
    );
  });
});
