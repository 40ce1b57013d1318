// Warm code-judge workers: each is its own Bun process that loads the worker before any job
// exists, then grades exactly one job and exits, so nothing passes from one grading to the next while a grading
// pays only for its own work. Workers are tied to the runner (they die with it, even by SIGKILL) and in their own
// session (a terminal's Ctrl-C is the runner's to handle). Without that tie a worker could outlive a killed runner
// mid-grading, so then each one starts with its job and carries the judge run's marker for crash recovery instead.
import type { Subprocess } from "bun";
import { RUN_MARKER } from "../opencode/index.ts";
import { runnerTiePrefix, tieToRunner } from "../sandbox/index.ts";
/** Spares kept started: one per lane that can grade at once on a small machine; more only costs memory. */
const SPARES = 2;

export type CodeWorker = Subprocess<"pipe", "pipe", "pipe">;

/** Started spares per worker file (a run's frozen worker, or the harness's own). */
const spares = new Map<string, CodeWorker[]>();

/**
 * A started worker of `file` waiting for its job: write the CodeJudgeJob JSON to its stdin and close it. Starts a
 * replacement so that the next grading finds one ready. `marker`: the judge run's RUN_MARKER value, used when
 * workers cannot be tied to the runner.
 *
 * @example const worker = takeCodeWorker(await harnessProgram("code-worker"), judgeRunId); worker.stdin.write(JSON.stringify(job)); worker.stdin.end();
 */
export function takeCodeWorker(file: string, marker?: string): CodeWorker {
  if (runnerTiePrefix().length === 0) {
    const untied = startWorker(file, marker);
    untied.ref();
    return untied;
  }
  const ready = spares.get(file) ?? [];
  spares.set(file, ready);
  let worker = ready.shift();
  while (worker && worker.exitCode !== null) worker = ready.shift(); // a spare that died waiting is no use
  worker ??= startWorker(file);
  worker.ref();
  while (ready.length < SPARES) ready.push(startWorker(file));
  return worker;
}

/**
 * Stops the spares of `file`, when the run they were started for is over: tied to the runner, they would otherwise
 * wait as long as the runner's process lives (a library caller running many benchmarks, a test suite).
 */
export async function stopCodeWorkers(file: string): Promise<void> {
  const stopping = spares.get(file) ?? [];
  spares.delete(file);
  for (const spare of stopping) spare.kill("SIGKILL");
  // A kill is delivered asynchronously: the run is over only once they are gone.
  await Promise.all(stopping.map((spare) => spare.exited));
}

function startWorker(file: string, marker?: string): CodeWorker {
  // --no-install: a judge never downloads packages (Bun would auto-install a missing one from the registry).
  const worker = Bun.spawn(tieToRunner([process.execPath, "--no-install", file]), {
    env: { ...process.env, ...(marker ? { [RUN_MARKER]: marker } : {}) },
    detached: true,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  worker.unref(); // a waiting spare never keeps the runner alive
  return worker;
}
