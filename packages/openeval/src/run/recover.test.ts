import { existsSync, readdirSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import type { EvalRun } from "../records/index.ts";
import { ResultsStore } from "../records/index.ts";
import { processesMatching } from "../../../../test/helpers/processes.ts";
import { checkMarker } from "./early-stop.ts";
import { claimRun, openRun, recoverRun, RunInProgressError } from "./recover.ts";

function running(id: string): EvalRun {
  return {
    id,
    runId: "r",
    slot: { evalId: "e", model: "p/m", variant: "current", repetition: 1 },
    control: false,
    state: "running",
    infrastructureError: false,
    error: null,
    startedAt: new Date(Date.now() - 5000).toISOString(),
    completedAt: null,
    elapsedMs: null,
    input: { candidateFingerprint: "f", prompt: "p", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "x" },
    evidence: null,
    metrics: null,
  };
}

describe("recoverRun", () => {
  it("marks a dead runner's unfinished eval runs interrupted and reaps the processes they left", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    store.saveEvalRun(running("eval_orphan"));
    store.saveEvalRun({ ...running("eval_done"), state: "completed" });
    // A process the dead runner's OpenCode left behind, carrying the eval run's marker.
    const orphan = Bun.spawn(["sleep", "331"], { env: { ...process.env, OPENEVAL_RUN_MARKER: "eval_orphan" } });
    // And one of the earlyStop check judging that eval run when the runner died.
    const checkOrphan = Bun.spawn(["sleep", "332"], {
      env: { ...process.env, OPENEVAL_RUN_MARKER: checkMarker("eval_orphan") },
    });
    // Its scratch folders (owned by the dead runner), with the auth.json copy the candidate got, and a live
    // process's that must stay.
    const deadRunner = Bun.spawn(["true"]);
    await deadRunner.exited;
    const scratch = join(tmpdir(), `openeval-eval_orphan-${process.pid}-x1`);
    const checkScratch = join(tmpdir(), `openeval-judge-eval_orphan-check-${process.pid}-x2`);
    const otherScratch = join(tmpdir(), `openeval-eval_done-${process.pid}-x3`);
    for (const directory of [scratch, checkScratch, otherScratch]) {
      await mkdir(join(directory, "opencode", "data", "opencode"), { recursive: true });
      await writeFile(
        join(directory, "opencode", "data", "opencode", "auth.json"),
        '{"anthropic":{"type":"api","key":"sk-ant-left-behind-123"}}',
      );
      const owner =
        directory === otherScratch ? { pid: process.pid, start: null } : { pid: deadRunner.pid, start: "1" };
      await writeFile(join(directory, ".owner"), JSON.stringify(owner));
    }
    store.beat(999_999_999);
    const recovery = await recoverRun(store);
    expect(existsSync(scratch)).toBe(false);
    expect(existsSync(checkScratch)).toBe(false);
    expect(existsSync(otherScratch)).toBe(true);
    await rm(otherScratch, { recursive: true });
    expect(recovery.interruptedEvalRuns).toEqual(["eval_orphan"]);
    expect(store.evalRun("eval_orphan")).toMatchObject({
      state: "interrupted",
      error: expect.stringContaining("planned again"),
    });
    expect(store.evalRun("eval_done")?.state).toBe("completed");
    await Promise.all([orphan.exited, checkOrphan.exited]);
    expect(processesMatching("sleep 331")).toEqual([]);
    expect(processesMatching("sleep 332")).toEqual([]);
  });

  it("reaps a scratch folder only once the processes that write into it are dead", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    store.saveEvalRun(running("eval_starting"));
    const deadRunner = Bun.spawn(["true"]);
    await deadRunner.exited;
    const scratch = join(tmpdir(), `openeval-eval_starting-${process.pid}-x4`);
    try {
      await mkdir(scratch, { recursive: true });
      await writeFile(join(scratch, ".owner"), JSON.stringify({ pid: deadRunner.pid, start: "1" }));
      // An OpenCode of the dead runner still starting: it (re)creates its XDG folders in the scratch folder. One
      // process that forks nothing, so that once it is dead nothing can write there any more.
      const starting = Bun.spawn(
        [
          process.execPath,
          "-e",
          `const { mkdirSync } = require("node:fs"); for (;;) { mkdirSync(${JSON.stringify(join(scratch, "opencode", "data"))}, { recursive: true }); Bun.sleepSync(5); }`,
        ],
        { env: { ...process.env, OPENEVAL_RUN_MARKER: "eval_starting" } },
      );
      // It is writing before the run is recovered.
      while (!existsSync(join(scratch, "opencode", "data"))) await Bun.sleep(10);
      store.beat(999_999_999);
      await recoverRun(store);
      await starting.exited;
      expect(existsSync(scratch)).toBe(false);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it("refuses to take over a run whose runner is alive", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    const other = Bun.spawn(["sleep", "30"]);
    store.beat(other.pid);
    await expect(recoverRun(store)).rejects.toThrow(RunInProgressError);
    await expect(recoverRun(store)).rejects.toThrow(/Another openeval run \(pid \d+\) is working on/);
    other.kill();
    // A stale heartbeat is a dead runner, even if its pid was reused.
    const staleStore = ResultsStore.open(await makeTempDir(), { create: true });
    staleStore.beat(process.ppid);
    await expect(recoverRun(staleStore, Date.now() + 60_000)).resolves.toEqual({
      interruptedEvalRuns: [],
      interruptedJudgeRuns: [],
    });
  });

  it("reaps the code-judge worker or judge session of a judge run left running, and scratch folders whose owner died", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    store.saveEvalRun({ ...running("eval_judged"), state: "completed" });
    store.saveJudgeRun({
      id: "judge_orphan",
      runId: "r",
      evalRunId: "eval_judged",
      slot: { evalId: "e", model: "p/m", variant: "current", repetition: 1 },
      kind: "code",
      state: "running",
      judgeFingerprint: "j",
      startedAt: new Date().toISOString(),
      completedAt: null,
      elapsedMs: null,
      scores: null,
      unscored: false,
      error: null,
      directory: "judge-runs/judge_orphan",
    });
    const worker = Bun.spawn(["sleep", "333"], { env: { ...process.env, OPENEVAL_RUN_MARKER: "judge_orphan" } });
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const scratch = join(tmpdir(), `openeval-eval_judged-${process.pid}`);
    await mkdir(scratch, { recursive: true });
    await writeFile(join(scratch, ".owner"), JSON.stringify({ pid: dead.pid, start: "1" }));
    const recovery = await recoverRun(store);
    expect(recovery.interruptedJudgeRuns).toEqual(["judge_orphan"]);
    await worker.exited;
    expect(processesMatching("sleep 333")).toEqual([]);
    expect(existsSync(scratch)).toBe(false);
  });

  it("claims the run in one step: of many runners claiming at the same instant exactly one proceeds", async () => {
    const directory = await makeTempDir();
    ResultsStore.open(directory, { create: true }).close();
    const claimant = `import { ResultsStore } from ${JSON.stringify(new URL("../records/store.ts", import.meta.url).pathname)};
import { recoverRun } from ${JSON.stringify(new URL("./recover.ts", import.meta.url).pathname)};
const store = ResultsStore.open(${JSON.stringify(directory)});
await Bun.sleep(Number(process.argv[1]) - Date.now());
try { await recoverRun(store); console.log("claimed"); } catch (error) { console.log(error.message); }
await Bun.sleep(1500);`;
    for (let round = 0; round < 3; round++) {
      const at = String(Date.now() + 1_500);
      const runners = Array.from({ length: 4 }, () =>
        Bun.spawn([process.execPath, "-e", claimant, at], { stdout: "pipe", stderr: "inherit" }),
      );
      const outputs = await Promise.all(runners.map((runner) => new Response(runner.stdout).text()));
      const claimed = runners.filter((_, index) => outputs[index]!.trim() === "claimed");
      expect(claimed, outputs.join("")).toHaveLength(1);
      for (const output of outputs.filter((text) => text.trim() !== "claimed"))
        expect(output).toContain(`Another openeval run (pid ${claimed[0]!.pid}) is working on`);
      ResultsStore.open(directory).release(claimed[0]!.pid);
    }
  });
});

describe("openRun", () => {
  it("creating a run waits for another runner creating one, then finds its run held and names its pid", async () => {
    const benchmark = await makeTempDir();
    // Another runner, slow between choosing and creating its run: it holds the run-creation lock meanwhile, claims
    // the run it created, and stays alive a while as a runner working on it would.
    const records = join(import.meta.dirname, "..", "records", "index.ts");
    const other = Bun.spawn(
      [
        process.execPath,
        "-e",
        `
      const { ResultsStore, newRunId, resultsRoot, whileCreatingRun } = await import(${JSON.stringify(records)});
      const directory = ${JSON.stringify(benchmark)};
      whileCreatingRun(directory, () => {
        console.log("holding");
        Bun.sleepSync(1500);
        ResultsStore.open(resultsRoot(directory) + "/" + newRunId(), { create: true }).claim(process.pid, () => true);
      });
      Bun.sleepSync(5000);
    `,
      ],
      { stdout: "pipe" },
    );
    try {
      const reader = other.stdout.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain("holding");
      const { choice, store } = openRun(benchmark, {});
      try {
        expect(choice.created).toBe(false);
        expect(() => claimRun(store)).toThrow(
          `Another openeval run (pid ${other.pid}) is working on ${choice.directory}`,
        );
      } finally {
        store.close();
      }
      expect(
        readdirSync(join(benchmark, "results"), { withFileTypes: true }).filter((entry) => entry.isDirectory()),
      ).toHaveLength(1);
    } finally {
      other.kill("SIGKILL");
      await other.exited;
    }
  });
});
