// OpenEval compatibility end to end: an OpenEval 0.5-style benchmark — a judge.ts that reads tools, events, diff and metrics the
// OpenEval way, criterion categories, and an eval.ts with a git-history workspace, a prepare step and its own
// candidate timeout — runs with `openeval run` and the scripted controls, and scores exactly as OpenEval's rules say.
import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { EvalRun, JudgeRun } from "../../packages/openeval/src/records/schema.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "openeval-0.5");
let run: CliResult;
let evalRuns: EvalRun[];
let judgeRuns: JudgeRun[];

beforeAll(async () => {
  const directory = await makeTempDir();
  await cp(FIXTURE, directory, { recursive: true });
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 300_000 });
  const runDirectory = join(directory, "results", (await readdir(join(directory, "results")))[0]!);
  const store = ResultsStore.open(runDirectory, { readonly: true });
  evalRuns = store.evalRuns();
  judgeRuns = store.judgeRuns();
  store.close();
});

function scoresOf(model: string, evalId = "notes"): Record<string, number | null> {
  const evalRun = evalRuns.find((candidate) => candidate.slot.model === model && candidate.slot.evalId === evalId)!;
  const judgeRun = judgeRuns.find((candidate) => candidate.evalRunId === evalRun.id && candidate.state === "completed");
  expect(judgeRun, JSON.stringify(judgeRuns.map((candidate) => candidate.error ?? candidate.state))).toBeDefined();
  return Object.fromEntries(Object.entries(judgeRun!.scores ?? {}).map(([id, score]) => [id, score.value]));
}

describe("an OpenEval 0.5 judge.ts in a real run", () => {
  it("grades the positive control by OpenEval's rules: booleans 1/0, 1 - errorRate as credit", () => {
    expect(run.exitCode, run.stderr + run.stdout).toBe(0);
    expect(scoresOf("control/positive")).toEqual({
      wrote_notes: 1,
      shell_output: 1,
      tried_missing: 1,
      reliability: 1 - 1 / 3,
      recorded_events: 1,
    });
    // The model's score: the mean of its evals (notes 93.3%, release 100%).
    expect(run.stdout).toMatch(/control\/positive \(control\)\s+96\.7%/);
  });

  it("grades the negative control, which made no tool call, 0 wherever OpenEval's judge would", () => {
    expect(scoresOf("control/negative")).toEqual({
      wrote_notes: 0,
      shell_output: 0,
      tried_missing: 0,
      reliability: 0,
      recorded_events: 1,
    });
    // notes 20%, release 66.7%.
    expect(run.stdout).toMatch(/control\/negative \(control\)\s+43\.3%/);
  });

  it("reports the criteria's OpenEval categories as per-category scores (tools: the mean of its three criteria)", () => {
    expect(run.stdout).toContain("By category:");
    expect(run.stdout).toMatch(/^tools\s+control\/positive\s+88\.9%/m);
    expect(run.stdout).toMatch(/^tools\s+control\/negative\s+0\.0%/m);
    expect(run.stdout).toMatch(/^workspace\s+control\/positive\s+100\.0%/m);
  });

  it("seeds the git-history workspace and runs the prepare step before the initial snapshot: its output is starting state", () => {
    expect(scoresOf("control/positive", "release")).toEqual({
      bumped_version: 1,
      prepared_history: 1,
      history_untouched: 1,
    });
    expect(scoresOf("control/negative", "release")).toEqual({
      bumped_version: 0,
      prepared_history: 1,
      history_untouched: 1,
    });
    const release = evalRuns.find((candidate) => candidate.slot.evalId === "release")!;
    expect(release.input.timeoutMs).toBe(90_000);
  });
});
