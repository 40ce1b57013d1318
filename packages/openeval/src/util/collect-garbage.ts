// Collecting the heap between the steps of a large read: Bun collects as the heap grows, so one step's
// garbage stays resident while the next step allocates, and a process's peak is the two stacked.

/** Below this many eval runs a read allocates a few MB: a full collection (~15 ms there) is not worth it. */
const LARGE_RUN_EVAL_RUNS = 1_000;

/** Collects the heap now when a read of `evalRuns` eval runs was large enough for its garbage to matter. */
export function collectAfterLargeRead(evalRuns: number): void {
  if (evalRuns >= LARGE_RUN_EVAL_RUNS) Bun.gc(true);
}
