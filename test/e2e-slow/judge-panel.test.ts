// Judge panels on real OpenCode sessions: scripted judges on a local provider (the real-model path) that disagree on
// one criterion. Adding a judge grades only with it; the criterion they disagree on is unreliable with its α and does
// not fail the verdict unless judge.strict; rejudge --repeat keeps the judgments and adds more. A panel of scripted
// control judges (control/judge and a variant) works offline the same way.
import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readResults } from "../../packages/openeval/src/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { CONTROL_PANEL_BENCHMARK, PANEL_CONTROLS, panelBenchmark } from "../helpers/judge-panel-benchmark.ts";

let provider: ControlServer;
let directory: string;
let single: CliResult;

beforeAll(async () => {
  provider = await startControlServer({ controls: PANEL_CONTROLS });
  directory = await writeTree(panelBenchmark(provider.baseURL("local"), `{ model: "local/kind" }`));
  single = await runCli(["run", "--benchmark", directory]);
});

afterAll(async () => {
  await provider?.close();
});

function runDirectory(root = directory): string {
  const results = join(root, "results");
  return join(results, readdirSync(results)[0]!);
}

/** The latest judge run of each eval run, in eval-run order. */
function activeJudgeRuns(root = directory): JudgeRun[] {
  const store = ResultsStore.open(runDirectory(root), { readonly: true });
  try {
    return store.evalRuns().map((evalRun) => store.judgeRuns(evalRun.id).at(-1)!);
  } finally {
    store.close();
  }
}

async function setJudge(judge: string): Promise<void> {
  await writeFile(join(directory, "benchmark.ts"), panelBenchmark(provider.baseURL("local"), judge)["benchmark.ts"]!);
}

describe("a panel of two scripted judges", () => {
  it("one judge model grades once: its judgment is recorded, with no combine rule and its own score", () => {
    expect(single.exitCode, single.stdout + single.stderr).toBe(0);
    const judgeRuns = activeJudgeRuns();
    expect(judgeRuns).toHaveLength(2);
    for (const judgeRun of judgeRuns) {
      expect(judgeRun.panel!.map((judgment) => [judgment.model, judgment.repeat, judgment.gradedBy])).toEqual([
        ["local/kind", 0, judgeRun.id],
      ]);
      expect(judgeRun.combine).toBeUndefined();
      expect(judgeRun.scores!.tone).toMatchObject({ value: 1, reason: "Friendly." });
    }
    expect(single.stdout).not.toContain("Judge agreement");
  });

  it("adding a judge grades only with it; the criterion they disagree on is unreliable with its α, and does not fail the verdict", async () => {
    const before = activeJudgeRuns();
    await setJudge(`{ model: "local/kind", models: ["local/harsh"] }`);
    const run = await runCli(["run", "--benchmark", directory]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const judgeRuns = activeJudgeRuns();
    for (const [index, judgeRun] of judgeRuns.entries()) {
      expect(judgeRun.combine).toBe("mean");
      expect(judgeRun.panel!.map((judgment) => [judgment.model, judgment.gradedBy])).toEqual([
        ["local/kind", before[index]!.id],
        ["local/harsh", judgeRun.id],
      ]);
      expect(judgeRun.panel![1]!.scores!.tone!.value).toBe(0);
      expect(judgeRun.scores!.tone).toMatchObject({
        value: 0.5,
        reason: "mean of 2 judgments (local/kind 1, local/harsh 0)",
      });
    }
    expect(run.stdout).toContain("Judge agreement (Krippendorff's α): 2 criterion(s) judged by a panel, 1 unreliable:");
    expect(run.stdout).toContain("notes/clear α 1 [1, 1] over 2 recording(s), nominal, judges local/kind, local/harsh");
    expect(run.stdout).toMatch(
      /notes\/tone α -0\.5 \[[-\d.]+, [-\d.]+\] over 2 recording\(s\), nominal, judges local\/kind, local\/harsh — unreliable/,
    );
    expect(run.stdout).toContain(
      "Unreliable criteria (notes/tone) are advisory: that changed 0 gate decision(s), 1 criterion cell(s) and 0 regression(s) from fail to advisory.",
    );
    const summary = await readResults(runDirectory());
    expect(summary.agreement!.find((entry) => entry.criterionId === "tone")).toMatchObject({
      alpha: -0.5,
      units: 2,
      unreliable: true,
    });
    expect(summary.verdict.contributors.find((contributor) => contributor.id === "llm-judge")).toMatchObject({
      status: "pass",
      advisory: ["notes/local/writer/tone"],
    });
  });

  it("rejudge --repeat 1 keeps every judgment and has each judge grade each recording once more", async () => {
    const before = activeJudgeRuns();
    const run = await runCli(["rejudge", "--benchmark", directory, "--repeat", "1"]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    for (const [index, judgeRun] of activeJudgeRuns().entries()) {
      expect(judgeRun.id).not.toBe(before[index]!.id);
      expect(judgeRun.panel!.map((judgment) => `${judgment.model}#${judgment.repeat}`)).toEqual([
        "local/kind#0",
        "local/kind#1",
        "local/harsh#0",
        "local/harsh#1",
      ]);
      expect(judgeRun.panel!.filter((judgment) => judgment.gradedBy === judgeRun.id)).toHaveLength(2);
    }
    expect(run.stdout).toMatch(/notes\/tone α -?[\d.]+ \[[-\d.]+, [-\d.]+\] over 2 recording\(s\)/);
  });

  it("with judge.strict the unreliable criterion fails the verdict like any other, without grading again", async () => {
    const before = activeJudgeRuns().map((judgeRun) => judgeRun.id);
    await setJudge(`{ model: "local/kind", models: ["local/harsh"], strict: true }`);
    const run = await runCli(["run", "--benchmark", directory]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain("Unreliable criteria (notes/tone) block like any other: judge.strict is on.");
    expect(run.stdout).toMatch(/llm-judge\s+fail — failing: notes\/local\/writer\/tone/);
    expect(activeJudgeRuns().map((judgeRun) => judgeRun.id)).toEqual(before);
  });
});

describe("a panel of scripted control judges (offline)", () => {
  it("control/judge and control/judge#harsh grade control candidates; their disagreement is measured", async () => {
    const controls = await writeTree(CONTROL_PANEL_BENCHMARK);
    const run = await runCli(["run", "--benchmark", controls]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const [judgeRun] = activeJudgeRuns(controls);
    expect(judgeRun!.panel!.map((judgment) => [judgment.model, judgment.scores!.tone!.value])).toEqual([
      ["control/judge", 1],
      ["control/judge#harsh", 0],
    ]);
    const summary = await readResults(runDirectory(controls));
    expect(summary.agreement!.map((entry) => [entry.criterionId, entry.alpha, entry.unreliable])).toEqual([
      ["clear", 1, false],
      ["tone", -0.5, true],
    ]);
  });
});
