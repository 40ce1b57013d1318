// The README's main job on a copy of the example benchmark: `openeval run` offline with the scripted controls,
// then a user's script reads the recordings back with readRecording().
import { existsSync } from "node:fs";
import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { defaultConcurrency } from "../../packages/openeval/src/run/run-benchmark.ts";
import type { EvalRun, JudgeRun } from "../../packages/openeval/src/records/schema.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
let directory: string;
let run: CliResult;
let runDirectory: string;
let evalRuns: EvalRun[];
let judgeRuns: JudgeRun[];

beforeAll(async () => {
  directory = await makeTempDir();
  await cp(join(ROOT, "benchmark.ts"), join(directory, "benchmark.ts"));
  await cp(join(ROOT, "evals"), join(directory, "evals"), { recursive: true });
  await cp(join(ROOT, "variants"), join(directory, "variants"), { recursive: true });
  // 40 sessions (the variant doubles the 20 of current); a loaded 2-core machine needs ~10 minutes.
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 1_200_000 });
  runDirectory = join(directory, "results", (await readdir(join(directory, "results")))[0]!);
  const store = ResultsStore.open(runDirectory, { readonly: true });
  evalRuns = store.evalRuns();
  judgeRuns = store.judgeRuns();
  store.close();
}, 1_260_000);

/**
 * tidy-build's negative control deletes src/ at once: with earlyStop (needs a second lane, so at least two cores
 * for the default concurrency) a check decides it and stops the run.
 */
function stoppedEarly(evalRun: EvalRun): boolean {
  return evalRun.slot.evalId === "tidy-build" && evalRun.slot.model === "control/negative" && defaultConcurrency() >= 2;
}

async function inspect(evalRun: EvalRun) {
  const child = Bun.spawn(
    [process.execPath, join(import.meta.dirname, "scripts", "inspect-recording.ts"), runDirectory, evalRun.id],
    { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
  );
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  expect(await child.exited, stderr).toBe(0);
  return JSON.parse(stdout);
}

describe("the example benchmark, offline", () => {
  it("scores the positive control 100% and the negative control less, and exits 0", () => {
    expect(run.exitCode, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/control\/positive \(control\)\s+100\.0%/);
    const negative = /control\/negative \(control\)\s+(\d+\.\d)%/.exec(run.stdout);
    expect(Number(negative?.[1])).toBeLessThan(100);
  });

  it("keeps one recording per slot, each with its own archived opencode.db", () => {
    // 5 evals × 2 models × 2 arms (current and the `concise` variant) × 2 repetitions.
    expect(evalRuns).toHaveLength(5 * 2 * 2 * 2);
    expect(evalRuns.filter((evalRun) => evalRun.slot.variant === "concise")).toHaveLength(5 * 2 * 2);
    for (const evalRun of evalRuns) {
      expect(evalRun.state).toBe(stoppedEarly(evalRun) ? "stopped" : "completed");
      expect(existsSync(join(runDirectory, evalRun.evidence!.directory, "native", "opencode.db"))).toBe(true);
    }
    expect(new Set(evalRuns.map((evalRun) => evalRun.evidence!.hash)).size).toBe(evalRuns.length);
  });

  it("reports the variant arm beside current and compares it with current per model", () => {
    expect(run.stdout).toMatch(/control\/positive \[concise\] \(control\)\s+100\.0%/);
    expect(run.stdout).toMatch(/control\/positive \[concise\] vs current: 0\.0 points .* over 5 paired eval\(s\)/);
  });

  it("grades tidy-build's controls: the negative one stopped early on a decided check, the positive one judged when finished", () => {
    for (const evalRun of evalRuns.filter((candidate) => candidate.slot.evalId === "tidy-build")) {
      const judgeRun = judgeRuns.find(
        (candidate) => candidate.evalRunId === evalRun.id && candidate.state === "completed",
      );
      const negative = evalRun.slot.model === "control/negative";
      expect(judgeRun?.scores?.kept_sources?.value).toBe(negative ? 0 : 1);
      expect(judgeRun?.decidedEarly !== undefined).toBe(stoppedEarly(evalRun));
      if (!stoppedEarly(evalRun)) continue;
      expect(evalRun.earlyStop?.checks.at(-1)?.outcome).toBe("decided");
      expect(existsSync(join(runDirectory, judgeRun!.decidedEarly!.checkpoint.directory, "manifest.json"))).toBe(true);
    }
  });

  it("reads back the response, tool calls, workspace diff, sessions, messages and native database", async () => {
    const fix = evalRuns.find(
      (evalRun) => evalRun.slot.evalId === "fix-slugify" && evalRun.slot.model === "control/positive",
    )!;
    const seen = await inspect(fix);
    expect(seen.response).toContain("Fixed");
    expect(seen.model).toBe("control/positive");
    expect(seen.tools.map((tool: { name: string }) => tool.name)).toEqual(["bash", "read", "edit", "bash"]);
    expect(seen.tools[0].input).toMatchObject({ command: "node --test" });
    expect(seen.tools[0].output).toContain("# fail 1");
    expect(seen.tools[3].output).toContain("# fail 0");
    expect(seen.diff).toEqual([
      expect.objectContaining({
        path: "slugify.js",
        status: "modified",
        patch: expect.stringContaining('+    .replace(/[^a-z0-9]+/g, "-")'),
      }),
    ]);
    expect(seen.sessions).toHaveLength(1);
    expect(seen.messages.map((message: { role: string }) => message.role)).toEqual([
      "user",
      "assistant",
      "assistant",
      "assistant",
      "assistant",
      "assistant",
    ]);
    expect(seen.sessionTitles).toEqual([{ title: "openeval candidate run" }]);
    expect(seen.events).toBeGreaterThan(0);
    expect(seen.export).toBe(true);
    expect(seen.metrics.tokens.input).toBe(2100 + 2600 + 2900 + 3100 + 3400);
    expect(seen.metrics.tools).toMatchObject({ calls: 4, succeeded: 4, failed: 0, errorRate: 0 });
    // The pinned SDK, served over a disposable copy of the archived database.
    expect(seen.sdkMessages).toBe(seen.messages.length);
    expect(seen.openapi).toMatch(/^3\./);
  });
});
