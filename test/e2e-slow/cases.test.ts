// A copy of examples/cases run for real: one eval with three cases (two in cases.jsonl, one in
// regression.cases.jsonl), run by two scripted controls that each pass only the case whose answer they give. One
// OpenCode session per case per control; per-case scores as the controls earn them; editing one case re-plans only
// its slots; readRecording gives a script the case; --only-case leaves the run incomplete, and such a run is refused
// as a baseline.
import { cp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRecording } from "../../packages/openeval/src/recording/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const EXAMPLE = join(ROOT, "examples", "cases");

/** The example in a temporary folder; eval.ts imports zod, which the repository's node_modules holds. */
async function copyExample(): Promise<string> {
  const directory = await makeTempDir();
  await cp(EXAMPLE, directory, { recursive: true });
  await symlink(join(ROOT, "node_modules"), join(directory, "node_modules"));
  return directory;
}

interface Summary {
  complete: boolean;
  models: { model: string; evals: { evalId: string; value: number; cases: { caseId: string; value: number }[] }[] }[];
}

let directory: string;

beforeAll(async () => {
  directory = await copyExample();
}, 60_000);

describe("an eval with cases", () => {
  it("runs one slot per case per candidate, scores each case as its control earns it, and the eval as their mean", async () => {
    const run = await runCli(["run", "--benchmark", directory], { timeoutMs: 500_000 });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stderr.match(/^candidate capitals \(case \w+\) × control\/\w+ #1: completed/gm)).toHaveLength(6);
    const report = await runCli(["report", "--benchmark", directory, "--json"]);
    const summary = JSON.parse(report.stdout) as Summary;
    const byModel = Object.fromEntries(
      summary.models.map((model) => [
        model.model,
        Object.fromEntries(model.evals[0]!.cases.map((item) => [item.caseId, item.value])),
      ]),
    );
    expect(byModel).toEqual({
      "control/paris": { france: 1, japan: 0, italy: 0 },
      "control/tokyo": { france: 0, japan: 1, italy: 0 },
    });
    expect(summary.models[0]!.evals[0]!.value).toBeCloseTo(1 / 3, 12);
    const table = await runCli(["report", "--benchmark", directory, "--cases"]);
    expect(table.stdout).toMatch(/^capitals\s+japan\s+0\.0%\s+100\.0%$/m);
  }, 560_000);

  it("readRecording gives a script the case as the run's judges were given it", async () => {
    const [runId] = await readdir(join(directory, "results"));
    const runDirectory = join(directory, "results", runId!);
    const store = ResultsStore.open(runDirectory, { readonly: true });
    const italy = store.evalRuns().find((each) => each.slot.case === "italy")!;
    store.close();
    await using ctx = await readRecording(runDirectory, italy.id);
    expect(ctx.case).toEqual({
      id: "italy",
      input: { country: "Italy" },
      expected: { capital: "Rome" },
      tags: ["europe", "regression"],
    });
  });

  it("editing one case's input plans candidates for that case only; editing a regression case's expected value re-judges it only", async () => {
    const cases = join(directory, "evals", "capitals", "cases.jsonl");
    await writeFile(cases, (await readFile(cases, "utf8")).replace('"country": "Japan"', '"country": "Nippon"'));
    const regression = join(directory, "evals", "capitals", "regression.cases.jsonl");
    await writeFile(regression, (await readFile(regression, "utf8")).replace('"Rome"', '"Roma"'));
    const plan = await runCli(["plan", "--benchmark", directory]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const actions = plan.stdout.match(/^ {2}(reuse|candidate|judge) +capitals \(case \w+\) × control\/\w+/gm);
    expect(actions?.map((line) => line.trim().replace(/ +/g, " "))).toEqual([
      "reuse capitals (case france) × control/paris",
      "reuse capitals (case france) × control/tokyo",
      "candidate capitals (case japan) × control/paris",
      "candidate capitals (case japan) × control/tokyo",
      "judge capitals (case italy) × control/paris",
      "judge capitals (case italy) × control/tokyo",
    ]);
  });

  it("--only-case runs only that case: the run is incomplete (exit 3) and cannot become a baseline", async () => {
    const filtered = await copyExample();
    const run = await runCli(["run", "--benchmark", filtered, "--only-case", "france"], { timeoutMs: 300_000 });
    expect(run.exitCode, run.stdout + run.stderr).toBe(3);
    expect(run.stderr.match(/^candidate capitals \(case france\) × control\/\w+ #1: completed/gm)).toHaveLength(2);
    expect(run.stderr).not.toMatch(/case (japan|italy)\) × control\/\w+ #1: completed/);
    const [runId] = await readdir(join(filtered, "results"));
    const baseline = await runCli(["baseline", "set", join(filtered, "results", runId!), "--benchmark", filtered]);
    expect(baseline.exitCode).toBe(2);
    expect(baseline.stderr).toMatch(/cannot become the baseline/);
    const typo = await runCli(["plan", "--benchmark", filtered, "--only-case", "frnace"]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('--only-case "frnace" matches no case; the valid values are: france, japan, italy');
  }, 360_000);

  it("a reviewed slot saved with --save-regression becomes a regression case the next plan runs, nothing else changing", async () => {
    const [runId] = await readdir(join(directory, "results"));
    const store = ResultsStore.open(join(directory, "results", runId!), { readonly: true });
    const evalRun = store
      .evalRuns()
      .find((each) => each.slot.case === "france" && each.slot.model === "control/tokyo")!;
    store.close();
    const reviewed = await runCli([
      "review",
      runId!,
      evalRun.id,
      "--benchmark",
      directory,
      "--criterion",
      Object.keys(await judgedScores(evalRun.id))[0]!,
      "--score",
      "0",
      "--reason",
      "Tokyo is not the capital of France",
      "--save-regression",
      "--json",
    ]);
    expect(reviewed.exitCode, reviewed.stderr).toBe(0);
    const { regressionCase } = JSON.parse(reviewed.stdout) as { regressionCase: { id: string; file: string } };
    expect(regressionCase.id).toMatch(/^france-reviewed-[0-9a-f]{8}$/);
    const saved = (await readFile(join(directory, regressionCase.file), "utf8")).trim().split("\n").at(-1)!;
    expect(JSON.parse(saved)).toEqual({
      id: regressionCase.id,
      input: { country: "France" },
      expected: { capital: "Paris" },
      tags: ["europe", "reviewed"],
    });
    const plan = await runCli(["plan", "--benchmark", directory]);
    expect(
      plan.stdout.match(new RegExp(`^ {2}candidate +capitals \\(case ${regressionCase.id}\\)`, "gm")),
    ).toHaveLength(2);
  });
});

/** The active judgment's scores of an eval run, as the store keeps them. */
async function judgedScores(evalRunId: string): Promise<Record<string, unknown>> {
  const [runId] = await readdir(join(directory, "results"));
  const store = ResultsStore.open(join(directory, "results", runId!), { readonly: true });
  try {
    return store.judgeRuns(evalRunId).at(-1)!.scores!;
  } finally {
    store.close();
  }
}
