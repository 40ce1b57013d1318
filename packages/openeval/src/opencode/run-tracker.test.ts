import { describe, expect, test } from "vitest";
import { type RunTracker, createRunTracker, judgeRun, observeEvent } from "./run-tracker.ts";

function tracked(...events: { type: string; part?: { cost?: number }; error?: { name?: string; data?: { message?: string } } }[]): RunTracker {
  const tracker = createRunTracker();
  for (const event of events) observeEvent(tracker, { sessionID: "ses_1", ...event });
  return tracker;
}

const ending = { killReason: null, exitCode: 1, timeoutMs: 1000 } as const;
const apiError = { type: "error", error: { name: "APIError", data: { message: "overloaded" } } };

describe("judgeRun", () => {
  test("exit 0 is completed, whatever happened before", () => {
    expect(judgeRun(tracked({ type: "step_start" }), { ...ending, exitCode: 0 })).toEqual({ state: "completed", infrastructureError: false });
  });

  test("an error before any step is the provider's failure", () => {
    expect(judgeRun(tracked(apiError), ending)).toEqual({ state: "failed", infrastructureError: true, error: "APIError: overloaded" });
  });

  test("a non-zero exit before the model ever answered is infrastructure (OpenCode could not start)", () => {
    const tracker = tracked();
    tracker.lastLogError = "level=ERROR message=boom";
    expect(judgeRun(tracker, ending)).toEqual({ state: "failed", infrastructureError: true, error: "level=ERROR message=boom" });
  });

  test("a failure after a finished step is the candidate's", () => {
    const verdict = judgeRun(tracked({ type: "step_start" }, { type: "step_finish", part: { cost: 0 } }, apiError), ending);
    expect(verdict).toMatchObject({ state: "failed", infrastructureError: false });
  });

  test("a timeout while the first step's tool hangs is the candidate's; one where the model never answered is not", () => {
    const hanging = judgeRun(tracked({ type: "step_start" }), { ...ending, killReason: "timed_out" });
    expect(hanging).toMatchObject({ state: "timed_out", infrastructureError: false });
    const silent = judgeRun(tracked(), { ...ending, killReason: "timed_out" });
    expect(silent).toMatchObject({ state: "timed_out", infrastructureError: true });
  });

  test("harness kills name the state and are never infrastructure", () => {
    expect(judgeRun(tracked(), { ...ending, killReason: "interrupted" })).toMatchObject({ state: "interrupted", infrastructureError: false });
    expect(judgeRun(tracked(), { ...ending, killReason: "cost_limited", maxCostUSD: 1 })).toMatchObject({
      state: "cost_limited",
      infrastructureError: false,
    });
    expect(judgeRun(tracked({ type: "step_start" }), { ...ending, killReason: "stopped" })).toEqual({
      state: "stopped",
      infrastructureError: false,
      error: expect.stringMatching(/^Stopped early: an earlyStop check decided every criterion/),
    });
  });
});

test("observeEvent sums step_finish costs and keeps the first session and error", () => {
  const tracker = tracked(
    { type: "step_finish", part: { cost: 0.25 } },
    { type: "step_finish", part: { cost: 0.5 } },
    { type: "error", error: { name: "First" } },
    { type: "error", error: { name: "Second" } },
  );
  expect(tracker).toMatchObject({ sessionID: "ses_1", costUSD: 0.75, sawStepFinish: true, firstError: "First" });
});
