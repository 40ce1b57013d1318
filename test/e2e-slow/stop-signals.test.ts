// Journeys through stopping a runner: SIGTERM to the bun process or to the npm wrapper and
// Ctrl-C to the whole process group stop every OpenCode tree and code-judge worker within 10 s, record the unfinished
// work `interrupted`, print the summary and exit 143 / 130; SIGKILL of the runner takes its agents with it within 5 s
// (parent-death signal); a rerun finishes every slot with exactly one completed candidate execution, and no scratch
// folder outlives any of it.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { processesMatching, processesWithEnvironment } from "../helpers/processes.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "packages", "openeval", "bin", "openeval");
const CLI_MAIN = join(ROOT, "packages", "openeval", "src", "cli", "main.ts");
const SLOW_COMMAND = "sleep 24.4131"; // unique in the process table
const control = (turns: unknown[]) => JSON.stringify({ turns });

/** Two evals: one whose agent sleeps in bash, one answered at once whose code judge spins when told to. */
async function writeBenchmark(): Promise<string> {
  return writeTree({
    "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1, concurrency: 2, candidate: { timeoutMs: 240_000 } };\n`,
    "evals/slow/prompt.md": "Take your time.\n",
    "evals/slow/judge.ts": `export default ({ response }) => ({ scores: { answered: response.text.trim() === "OK" } });\n`,
    "evals/slow/controls/positive.json": control([
      { tools: [{ name: "bash", input: { command: `${SLOW_COMMAND}; echo done`, description: "wait" } }] },
      { text: "OK" },
    ]),
    "evals/quick/prompt.md": "Reply with OK.\n",
    // A synchronous loop: no signal handler of the worker ever runs, only SIGKILL ends it.
    "evals/quick/judge.ts": `export default ({ response }) => { if (process.env.OPENEVAL_E2E_SPIN) while (true) {} return { scores: { answered: response.text.trim() === "OK" } }; };\n`,
    "evals/quick/controls/positive.json": control([{ text: "OK" }]),
  });
}

function openStore(directory: string): ResultsStore | null {
  try {
    const root = join(directory, "results");
    return ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
  } catch {
    return null;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await Bun.sleep(200)) if (condition()) return;
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

/** Waits until the slow candidate's agent sleeps and the quick eval's code judge spins: work of both kinds is live. */
async function waitUntilMidway(directory: string): Promise<{ evalRunId: string; judgeRunId: string }> {
  let ids: { evalRunId: string; judgeRunId: string } | null = null;
  await waitFor(() => {
    const store = openStore(directory);
    if (!store) return false;
    try {
      const slow = store.evalRuns().find((run) => run.slot.evalId === "slow" && run.state === "running");
      const judge = store.judgeRuns().find((run) => run.slot.evalId === "quick" && run.state === "running");
      if (slow && judge && processesMatching(SLOW_COMMAND).length > 0)
        ids = { evalRunId: slow.id, judgeRunId: judge.id };
      return ids !== null;
    } finally {
      store.close();
    }
  }, 240_000);
  await Bun.sleep(500); // let the judge worker get into its loop
  return ids!;
}

function processesOf(ids: { evalRunId: string; judgeRunId: string }): number[] {
  return [
    ...processesWithEnvironment(`OPENEVAL_RUN_MARKER=${ids.evalRunId}`),
    ...processesWithEnvironment(`OPENEVAL_RUN_MARKER=${ids.judgeRunId}`),
    ...processesMatching(SLOW_COMMAND),
  ];
}

function scratchFoldersOf(ids: { evalRunId: string; judgeRunId: string }): string[] {
  return readdirSync(tmpdir()).filter(
    (entry) => entry.startsWith(`openeval-${ids.evalRunId}`) || entry.startsWith(`openeval-judge-${ids.judgeRunId}`),
  );
}

/** Every slot has exactly one completed candidate execution, and the interrupted ones were kept as evidence. */
function expectRerunComplete(directory: string, ids: { evalRunId: string; judgeRunId: string }): void {
  const store = openStore(directory)!;
  try {
    const evalRuns = store.evalRuns();
    for (const evalId of ["slow", "quick"])
      expect(evalRuns.filter((run) => run.slot.evalId === evalId && run.state === "completed")).toHaveLength(1);
    expect(evalRuns.find((run) => run.id === ids.evalRunId)?.state).toBe("interrupted");
    expect(store.judgeRuns().find((run) => run.id === ids.judgeRunId)?.state).toBe("interrupted");
    expect(store.judgeRuns().filter((run) => run.state === "completed")).toHaveLength(2);
  } finally {
    store.close();
  }
}

type Sender = (runner: Bun.Subprocess) => void;

async function stopMidway(argv: string[], send: Sender, options: { detached?: boolean } = {}) {
  const directory = await writeBenchmark();
  const runner = Bun.spawn([...argv, "run", "--benchmark", directory], {
    env: { ...process.env, OPENEVAL_E2E_SPIN: "1" },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
    ...(options.detached ? { detached: true } : {}),
  });
  const stdout = new Response(runner.stdout).text();
  const stderr = new Response(runner.stderr).text();
  const ids = await waitUntilMidway(directory);
  const sent = Date.now();
  send(runner);
  const exitCode = await Promise.race([runner.exited, Bun.sleep(10_000).then(() => null)]);
  const stoppedWithinMs = Date.now() - sent;
  if (exitCode === null) runner.kill("SIGKILL");
  return { directory, ids, exitCode, stoppedWithinMs, stdout: await stdout, stderr: await stderr };
}

describe("stopping a runner", () => {
  it("SIGTERM to the bun process: everything stops within 10 s, work is interrupted, summary printed, exit 143; a rerun finishes the rest", async () => {
    const stopped = await stopMidway([process.execPath, CLI_MAIN], (runner) => runner.kill("SIGTERM"));
    expect(stopped.exitCode, stopped.stderr).toBe(143);
    expect(stopped.stoppedWithinMs).toBeLessThan(10_000);
    expect(processesOf(stopped.ids)).toEqual([]);
    expect(scratchFoldersOf(stopped.ids)).toEqual([]);
    expect(stopped.stdout).toContain("control/positive (control)");
    expect(stopped.stderr).toMatch(/Interrupted by SIGTERM: 2 slot\(s\) unfinished/);
    const store = openStore(stopped.directory)!;
    expect(store.evalRun(stopped.ids.evalRunId)?.state).toBe("interrupted");
    expect(store.judgeRuns().find((run) => run.id === stopped.ids.judgeRunId)?.state).toBe("interrupted");
    expect(store.heartbeat()).toBeNull(); // the claim was given up
    store.close();

    const rerun = await runCli(["run", "--benchmark", stopped.directory], { timeoutMs: 300_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expectRerunComplete(stopped.directory, stopped.ids);
  });

  it("SIGTERM to the npm wrapper (node): the same clean stop, and the wrapper exits 143", async () => {
    const stopped = await stopMidway(["node", BIN], (runner) => runner.kill("SIGTERM"));
    expect(stopped.exitCode, stopped.stderr).toBe(143);
    expect(processesOf(stopped.ids)).toEqual([]);
    expect(scratchFoldersOf(stopped.ids)).toEqual([]);
    expect(stopped.stderr).toContain("Interrupted by SIGTERM");
  });

  it("Ctrl-C to the whole process group (wrapper and bun both get SIGINT): one clean stop, exit 130", async () => {
    // The terminal sends SIGINT to every process of its foreground group; the runner's group is its own here.
    const stopped = await stopMidway(["node", BIN], (runner) => process.kill(-runner.pid, "SIGINT"), {
      detached: true,
    });
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(processesOf(stopped.ids)).toEqual([]);
    expect(scratchFoldersOf(stopped.ids)).toEqual([]);
    expect(stopped.stderr.match(/SIGINT: stopping/g)).toHaveLength(1);
    expect(stopped.stderr).toContain("Interrupted by SIGINT");
    const store = openStore(stopped.directory)!;
    expect(store.evalRun(stopped.ids.evalRunId)?.state).toBe("interrupted");
    store.close();
  });

  it("SIGKILL of the runner: its agents and its spinning judge worker die within 5 s; the next run reaps the scratch folders and finishes", async () => {
    const stopped = await stopMidway([process.execPath, CLI_MAIN], (runner) => runner.kill("SIGKILL"));
    await waitFor(() => processesOf(stopped.ids).length === 0, 5_000);
    expect(processesOf(stopped.ids)).toEqual([]);
    expect(scratchFoldersOf(stopped.ids).length).toBeGreaterThan(0); // a SIGKILL runs no cleanup…
    const rerun = await runCli(["run", "--benchmark", stopped.directory], { timeoutMs: 300_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(scratchFoldersOf(stopped.ids)).toEqual([]); // …the next run's recovery does
    expectRerunComplete(stopped.directory, stopped.ids);
  });
});

describe("two runners on one run", () => {
  /** Starts two runners at the same instant on the benchmark's latest run; returns their exit codes, pids and stderr. */
  async function raceTwo(directory: string) {
    const start = () =>
      Bun.spawn([process.execPath, CLI_MAIN, "run", "--benchmark", directory], {
        stdout: "ignore",
        stderr: "pipe",
        stdin: "ignore",
      });
    const runners = [start(), start()];
    const started = Date.now();
    const finished = await Promise.all(
      runners.map(async (runner) => ({
        pid: runner.pid,
        stderr: await new Response(runner.stderr).text(),
        exitCode: await runner.exited,
        afterMs: Date.now() - started,
      })),
    );
    return finished.sort((a, b) => a.exitCode - b.exitCode);
  }

  /** One eval the positive control answers at once, one repetition. */
  function writeQuickBenchmark(): Promise<string> {
    return writeTree({
      "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
      "evals/quick/prompt.md": "Reply with OK.\n",
      "evals/quick/judge.ts": `export default ({ response }) => ({ scores: { answered: response.text.trim() === "OK" } });\n`,
      "evals/quick/controls/positive.json": control([{ text: "OK" }]),
    });
  }

  it("on a benchmark with no run yet, two runners started at once make one run: the second finds it held", async () => {
    const directory = await writeQuickBenchmark();
    const [winner, loser] = await raceTwo(directory);
    expect(winner!.exitCode, winner!.stderr).toBe(0);
    expect(loser!.exitCode, loser!.stderr).toBe(2);
    expect(loser!.stderr).toContain(`Another openeval run (pid ${winner!.pid}) is working on`);
    expect(loser!.afterMs).toBeLessThan(winner!.afterMs);
    const runs = readdirSync(join(directory, "results"), { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    expect(runs).toHaveLength(1);
  });

  it("exactly one proceeds; the other exits at once naming the holder; no slot is executed or judged twice", async () => {
    const directory = await writeQuickBenchmark();
    expect((await runCli(["run", "--benchmark", directory], { timeoutMs: 300_000 })).exitCode).toBe(0);
    const rounds = [
      // New candidate work: a second repetition.
      () =>
        Bun.write(
          join(directory, "benchmark.ts"),
          `export default { models: ["control/positive"], repetitions: 2 };\n`,
        ),
      // New judge work only: an edited judge.ts.
      () =>
        Bun.write(
          join(directory, "evals/quick/judge.ts"),
          `export default ({ response }) => ({ scores: { answered: response.text.includes("OK") } });\n`,
        ),
    ];
    for (const edit of rounds) {
      await edit();
      const [winner, loser] = await raceTwo(directory);
      expect(winner!.exitCode, winner!.stderr).toBe(0);
      expect(loser!.exitCode).toBe(2);
      expect(loser!.stderr).toContain(`Another openeval run (pid ${winner!.pid}) is working on`);
      expect(loser!.stderr).toContain("--new");
      expect(loser!.afterMs).toBeLessThan(winner!.afterMs);
    }
    const store = openStore(directory)!;
    try {
      const evalRuns = store.evalRuns();
      expect(evalRuns.map((run) => `${run.slot.repetition}:${run.state}`).sort()).toEqual([
        "1:completed",
        "2:completed",
      ]);
      // Per eval run: the first judgment, then exactly one for the edited judge.ts (rep 2 was judged once with each).
      for (const evalRun of evalRuns) {
        const fingerprints = store.judgeRuns(evalRun.id).map((run) => run.judgeFingerprint);
        expect(new Set(fingerprints).size).toBe(fingerprints.length);
      }
    } finally {
      store.close();
    }
  });
});
