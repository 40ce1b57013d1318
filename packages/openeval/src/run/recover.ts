// Crash recovery: a run whose runner died (its heartbeat went stale) is taken over by the next `openeval run`.
// Unfinished eval and judge runs are marked interrupted (kept as evidence, then re-planned) and any process
// they left behind is reaped. A runner that is still alive is never taken over.
import { OpenEvalError } from "../util/errors.ts";
import { RUN_MARKER } from "../opencode/index.ts";
import { killProcessTree } from "../sandbox/index.ts";
import { chooseRunDirectory, ResultsStore, whileCreatingRun, type RunDirectoryChoice } from "../records/index.ts";
import { reapOrphanedScratchDirs } from "../util/scratch-dir.ts";
import { checkMarker } from "./early-stop.ts";

export const HEARTBEAT_INTERVAL_MS = 2_000;
/** A heartbeat older than this means the runner is gone, even if its pid was reused by another process. */
const STALE_AFTER_MS = 5 * HEARTBEAT_INTERVAL_MS;

export class RunInProgressError extends OpenEvalError {
  readonly code = "OE_RUN_IN_PROGRESS";
  /** `alternative`: what else the caller can do, as a clause that goes on the message (or ""). */
  constructor(
    readonly pid: number,
    readonly directory: string,
    alternative: string,
  ) {
    super(
      `Another openeval run (pid ${pid}) is working on ${directory}; wait for it to finish (or stop it: kill ${pid})${alternative}`,
    );
  }
}

export interface Recovery {
  interruptedEvalRuns: string[];
  interruptedJudgeRuns: string[];
}

/**
 * Claims the run (one atomic step: exactly one of two runners started together proceeds), then takes over what a
 * dead runner left: its unfinished eval and judge runs, their processes, and scratch folders whose owner died.
 */
export async function recoverRun(store: ResultsStore, now = Date.now()): Promise<Recovery> {
  claimRun(store, ", or start a separate run with --new", now);
  const completedAt = new Date(now).toISOString();
  const unfinished = store.unfinished();
  const interruptedEvalRuns: string[] = [];
  for (const evalRun of unfinished.evalRuns) {
    await killProcessTree({ marker: `${RUN_MARKER}=${evalRun.id}` });
    await killProcessTree({ marker: `${RUN_MARKER}=${checkMarker(evalRun.id)}` });
    store.saveEvalRun({
      ...evalRun,
      state: "interrupted",
      completedAt,
      elapsedMs: now - Date.parse(evalRun.startedAt),
      error:
        "The runner stopped before this eval run finished; its partial recording is kept and the slot is planned again",
    });
    interruptedEvalRuns.push(evalRun.id);
  }
  const interruptedJudgeRuns: string[] = [];
  for (const judgeRun of unfinished.judgeRuns) {
    await killProcessTree({ marker: `${RUN_MARKER}=${judgeRun.id}` }); // its code-judge worker or rubric judge session
    store.saveJudgeRun({
      ...judgeRun,
      state: "interrupted",
      completedAt,
      elapsedMs: now - Date.parse(judgeRun.startedAt),
      error: "The runner stopped before this judge run finished",
    });
    interruptedJudgeRuns.push(judgeRun.id);
  }
  // Only once their processes are dead: an OpenCode still starting re-created its XDG folders in a scratch folder
  // reaped before it was killed, leaving one with no owner file that no later run removes.
  reapOrphanedScratchDirs();
  return { interruptedEvalRuns, interruptedJudgeRuns };
}

/**
 * Chooses the run to work on (`--run`, `--new`, else the latest, else a new one) and opens its store. A new run is
 * created and claimed under the benchmark's run-creation lock, so a runner started at the same instant finds it
 * held (recoverRun then names this runner's pid) instead of creating a second run.
 */
export function openRun(
  benchmarkDirectory: string,
  options: { run?: string; new?: boolean },
): { choice: RunDirectoryChoice; store: ResultsStore } {
  const open = () => {
    const choice = chooseRunDirectory(benchmarkDirectory, options);
    const store = ResultsStore.open(choice.directory, { create: true });
    if (choice.created) claimRun(store);
    return { choice, store };
  };
  // A named run is never created: it needs no lock (and may live outside this benchmark's results/).
  return options.run ? open() : whileCreatingRun(benchmarkDirectory, open);
}

/** Claims the run for this process, or throws RunInProgressError naming the live runner that holds it and `alternative`. */
export function claimRun(store: ResultsStore, alternative = "", now = Date.now()): void {
  const holder = store.claim(process.pid, (beat) => holds(beat, now));
  if (holder) throw new RunInProgressError(holder.pid, store.directory, alternative);
}

/** Throws RunInProgressError when a live runner holds the run; writes nothing (merge-runs reads its source so). */
export function checkNotHeld(store: ResultsStore, now = Date.now()): void {
  const pid = runHolder(store, now);
  if (pid !== null) throw new RunInProgressError(pid, store.directory, "");
}

/** The pid of the live runner (another process) that holds the run; null when none does. */
export function runHolder(store: ResultsStore, now = Date.now()): number | null {
  const holder = store.heartbeat();
  return holder && holder.pid !== process.pid && holds(holder, now) ? holder.pid : null;
}

function holds(beat: { pid: number; at: number }, now: number): boolean {
  return isAlive(beat.pid) && now - beat.at < STALE_AFTER_MS;
}

/** Does `work` on a run no live runner holds (remove-models, merge-runs), holding it meanwhile. */
export function whileHoldingRun<T>(store: ResultsStore, work: () => T): T {
  claimRun(store);
  try {
    return work();
  } finally {
    store.release();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
