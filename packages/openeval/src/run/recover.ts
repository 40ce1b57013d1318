// Crash recovery: a run whose runner died (its heartbeat went stale) is taken over by the next `openeval run`.
// Unfinished eval and judge runs are marked interrupted (kept as evidence, then re-planned) and any process
// they left behind is reaped. A runner that is still alive is never taken over.
import { killProcessTree, RUN_MARKER } from "../opencode/index.ts";
import type { ResultsStore } from "../results/index.ts";
import { checkMarker } from "./early-stop.ts";
import { removeScratchOf } from "./remove-scratch.ts";

export const HEARTBEAT_INTERVAL_MS = 2_000;
/** A heartbeat older than this means the runner is gone, even if its pid was reused by another process. */
const STALE_AFTER_MS = 5 * HEARTBEAT_INTERVAL_MS;

export class RunInProgressError extends Error {
  readonly code = "RUN_IN_PROGRESS";
}

export interface Recovery {
  interruptedEvalRuns: string[];
  interruptedJudgeRuns: string[];
}

export async function recoverRun(store: ResultsStore, now = Date.now()): Promise<Recovery> {
  const beat = store.heartbeat();
  if (beat && beat.pid !== process.pid && isAlive(beat.pid) && now - beat.at < STALE_AFTER_MS) {
    throw new RunInProgressError(
      `Another openeval run (pid ${beat.pid}) is working on ${store.directory}; wait for it, stop it, or start a separate run with --new`,
    );
  }
  const completedAt = new Date(now).toISOString();
  const interruptedEvalRuns: string[] = [];
  for (const evalRun of store.evalRuns().filter((run) => run.state === "running")) {
    await killProcessTree({ marker: `${RUN_MARKER}=${evalRun.id}` });
    await killProcessTree({ marker: `${RUN_MARKER}=${checkMarker(evalRun.id)}` });
    store.saveEvalRun({
      ...evalRun,
      state: "interrupted",
      completedAt,
      elapsedMs: now - Date.parse(evalRun.startedAt),
      error: "The runner stopped before this eval run finished; its partial recording is kept and the slot is planned again",
    });
    interruptedEvalRuns.push(evalRun.id);
  }
  const interruptedJudgeRuns: string[] = [];
  for (const judgeRun of store.judgeRuns().filter((run) => run.state === "running")) {
    store.saveJudgeRun({ ...judgeRun, state: "interrupted", completedAt, elapsedMs: now - Date.parse(judgeRun.startedAt), error: "The runner stopped before this judge run finished" });
    interruptedJudgeRuns.push(judgeRun.id);
  }
  await removeScratchOf({ evalRuns: interruptedEvalRuns, judgeRuns: interruptedJudgeRuns });
  return { interruptedEvalRuns, interruptedJudgeRuns };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
