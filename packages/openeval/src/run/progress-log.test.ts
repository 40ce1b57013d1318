import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { readInvocations, ResultsStore } from "../records/index.ts";
import type { PlannedSlot } from "../plan/index.ts";
import type { RunSummary } from "../summary/index.ts";
import { createProgressLog } from "./progress-log.ts";

const slot = (repetition: number, action: PlannedSlot["action"]) =>
  ({ evalId: "e", model: "m/a", variant: "current", repetition, action }) as PlannedSlot;

describe("the progress log", () => {
  it("records each invocation's planned work, --max-cost and concurrency, and how it ended", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    try {
      const log = createProgressLog(store, { concurrency: 3, maxCostUSD: 2.5 });
      log({
        type: "run.started",
        runId: "r",
        directory: store.directory,
        resumed: false,
        slots: [slot(1, "candidate"), slot(2, "reuse"), slot(3, "judge")],
        estimateUSD: 0.75,
      });
      const [running] = readInvocations(store, { work: true });
      expect(running!.finished).toBeNull();
      expect(running!.started).toMatchObject({ pid: process.pid, concurrency: 3, maxCostUSD: 2.5, estimateUSD: 0.75 });
      expect(running!.work).toEqual([
        { kind: "candidate", evalId: "e", model: "m/a", variant: "current", repetition: 1 },
        { kind: "judge", evalId: "e", model: "m/a", variant: "current", repetition: 3 },
      ]);
      // Unasked, the planned work is not read (a large plan is megabytes of JSON).
      expect(readInvocations(store)[0]!.work).toBeNull();
      log({
        type: "run.finished",
        runId: "r",
        directory: store.directory,
        summary: { complete: false, verdict: { status: "unknown" } } as RunSummary,
      });
      const [finished] = readInvocations(store, { work: true });
      expect(finished!.finished).toMatchObject({
        invocation: running!.started.invocation,
        complete: false,
        verdict: "unknown",
      });
      // Nothing is queued once it finished: its planned work is not read even when asked for.
      expect(finished!.work).toBeNull();
    } finally {
      store.close();
    }
  });
});
