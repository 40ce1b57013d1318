// `openeval export --format atif` over real recordings: a copy of the example benchmark run offline (one eval, one
// repetition) with the scripted controls, then exported; every trajectory validates against the schema written from
// Harbor's RFC, its model steps and tool calls are the recording's, and no credential of the run's shell is in it.
import { readdirSync, readFileSync } from "node:fs";
import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AtifTrajectorySchema, type AtifTrajectory } from "../../packages/openeval/src/recording/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { EvalRun } from "../../packages/openeval/src/records/schema.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
// In the shell that runs the benchmark: a provider key a careless export could copy from the recorded environment.
const PLANTED_KEY = "sk-proj-PLANTEDatifExport0123456789abcdef";

let run: CliResult;
let exported: CliResult;
let output: string;
let evalRuns: EvalRun[];

beforeAll(async () => {
  const directory = await makeTempDir();
  await cp(join(ROOT, "benchmark.ts"), join(directory, "benchmark.ts"));
  await cp(join(ROOT, "evals"), join(directory, "evals"), { recursive: true });
  await cp(join(ROOT, "variants"), join(directory, "variants"), { recursive: true });
  run = await runCli(
    ["run", "--benchmark", directory, "--only-eval", "fix-slugify", "--only-repetition", "1", "--isolation", "process"],
    { env: { OPENAI_API_KEY: PLANTED_KEY }, timeoutMs: 900_000 },
  );
  const runDirectory = join(directory, "results", (await readdir(join(directory, "results")))[0]!);
  const store = ResultsStore.open(runDirectory, { readonly: true });
  evalRuns = store.evalRuns();
  store.close();
  output = join(await makeTempDir(), "atif");
  exported = await runCli(["export", runDirectory, "--format", "atif", "--output", output]);
}, 1_000_000);

function read(path: string): AtifTrajectory {
  return AtifTrajectorySchema.parse(JSON.parse(readFileSync(join(output, path), "utf8")));
}

describe("ATIF export of the example benchmark's recordings", () => {
  it("exports every eval run of the run", () => {
    expect(run.exitCode, run.stderr + run.stdout).toBe(0);
    expect(exported.exitCode, exported.stderr).toBe(0);
    // control/positive and control/negative, in current and the concise variant.
    expect(evalRuns).toHaveLength(4);
    expect(exported.stdout).toContain(`Exported 4 trajectories (ATIF)`);
  });

  it("writes trajectories that validate, with the recording's model steps, tool calls, usage and final answer", () => {
    const marker = JSON.parse(readFileSync(join(output, "openeval-atif.json"), "utf8"));
    expect(marker.skipped).toEqual([]);
    for (const evalRun of evalRuns) {
      const entry = marker.trajectories.find((item: { evalRunId: string }) => item.evalRunId === evalRun.id);
      const root = read(entry.path);
      const all: AtifTrajectory[] = [root, ...entry.subagents.map((path: string) => read(path))];
      const agentSteps = all.flatMap((trajectory) => trajectory.steps.filter((step) => step.source === "agent"));
      expect(agentSteps.length, evalRun.id).toBe(evalRun.metrics!.requests!.started);
      expect(agentSteps.flatMap((step) => step.tool_calls ?? []).length).toBe(evalRun.metrics!.tools.calls);
      expect(root.steps[0]).toMatchObject({ source: "user" });
      expect(root.steps[0]!.message).toContain("slugify");
      expect(root.agent.model_name).toBe(evalRun.slot.model);
      expect(root.final_metrics?.total_completion_tokens).toBe(
        evalRun.metrics!.tokens.output! + evalRun.metrics!.tokens.reasoning!,
      );
      // The final answer is the last agent step's message, and kept as such in extra.
      const answer = (root.extra?.openeval as { final_answer: string }).final_answer;
      expect(answer.length).toBeGreaterThan(0);
      expect(root.steps.at(-1)!.message).toBe(answer);
    }
  });

  it("holds no credential of the shell that ran the benchmark", () => {
    const files = readdirSync(output, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const name of files) expect(readFileSync(join(output, name), "utf8")).not.toContain(PLANTED_KEY);
  });
});
