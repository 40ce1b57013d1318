// The runner's lifecycle events, kept in the run's store for the live viewer (another process): when this
// invocation started, the work it planned, its --max-cost and concurrency, and how it ended. The running,
// queued and finished work itself is read from the store's eval and judge runs.
import { randomUUID } from "node:crypto";
import { recordInvocationFinished, recordInvocationStarted, toSlotKey, type ResultsStore } from "../records/index.ts";
import type { RunnerListener } from "../summary/index.ts";

export function createProgressLog(
  store: ResultsStore,
  settings: { concurrency: number; maxCostUSD: number | null },
): RunnerListener {
  const invocation = `inv_${randomUUID()}`;
  return (event) => {
    if (event.type === "run.started") {
      recordInvocationStarted(store, {
        invocation,
        startedAt: new Date().toISOString(),
        pid: process.pid,
        concurrency: settings.concurrency,
        maxCostUSD: settings.maxCostUSD,
        estimateUSD: event.estimateUSD,
        work: event.slots
          .filter((slot) => slot.action === "candidate" || slot.action === "judge")
          .map((slot) => ({ kind: slot.action as "candidate" | "judge", ...toSlotKey(slot) })),
      });
    }
    if (event.type === "run.finished") {
      recordInvocationFinished(store, {
        invocation,
        finishedAt: new Date().toISOString(),
        complete: event.summary.complete,
        verdict: event.summary.verdict.status,
      });
    }
  };
}
