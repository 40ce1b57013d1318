// Follows one run's event stream and stderr, and turns what it saw plus how the process ended into a run state —
// including the line between a candidate's failure and an infrastructure failure.

import type { RunEvent } from "./schema.ts";

export type RunState = "completed" | "failed" | "timed_out" | "cost_limited" | "stopped" | "interrupted";
/** Why the harness killed the process; the first reason wins. `stopped`: a judge decided early (earlyStop). */
export type KillReason = "timed_out" | "cost_limited" | "stopped" | "interrupted";

export interface RunTracker {
  sessionID: string | null;
  /** The provider answered at least once: a step_start event, or (after a kill) a model part in the database. */
  sawStepStart: boolean;
  /** A model step finished: the candidate produced a complete turn. */
  sawStepFinish: boolean;
  /** Sum of `step_finish.part.cost` (USD) of the root session; subagent sessions are not in the stream. */
  costUSD: number;
  /** The first `error` event, as "Name: message". */
  firstError: string | null;
  /** The last ERROR line of OpenCode's log (stderr), for failures without an error event. */
  lastLogError: string | null;
}

export function createRunTracker(): RunTracker {
  return { sessionID: null, sawStepStart: false, sawStepFinish: false, costUSD: 0, firstError: null, lastLogError: null };
}

export function observeEvent(tracker: RunTracker, event: RunEvent): void {
  tracker.sessionID ??= event.sessionID ?? null;
  if (event.type === "step_start") tracker.sawStepStart = true;
  if (event.type === "step_finish") {
    tracker.sawStepFinish = true;
    tracker.costUSD += event.part?.cost ?? 0;
  }
  if (event.type === "error" && tracker.firstError === null) {
    const name = event.error?.name ?? "Error";
    tracker.firstError = event.error?.data?.message ? `${name}: ${event.error.data.message}` : name;
  }
}

export function observeLogLine(tracker: RunTracker, line: string): void {
  if (line.includes("level=ERROR")) tracker.lastLogError = line;
}

export interface RunVerdict {
  state: RunState;
  infrastructureError: boolean;
  error?: string;
}

export interface RunEnding {
  killReason: KillReason | null;
  exitCode: number | null;
  spawnError?: string;
  timeoutMs: number;
  maxCostUSD?: number;
}

/**
 * State: a harness kill names it; otherwise exit 0 is `completed` (OpenCode exits 0 even after an auto-rejected
 * permission) and anything else is `failed`.
 *
 * Infrastructure error (never scored as the candidate's 0): the run failed or timed out *before the candidate
 * produced a single complete step*, and either OpenCode reported an error (API error after its retries, unknown
 * model, provider misconfigured) or no model step ever began (OpenCode could not start, or the provider was
 * unreachable or never answered while OpenCode retried). Not infrastructure: a step had begun and the run then
 * timed out without an error — that is the candidate's own tool call hanging (e.g. `sleep` in bash) — and any
 * failure after a finished step, which is part of the candidate's run.
 */
export function judgeRun(tracker: RunTracker, ending: RunEnding): RunVerdict {
  const state: RunState = ending.killReason ?? (ending.exitCode === 0 ? "completed" : "failed");
  const beforeAnyStep = !tracker.sawStepFinish && (tracker.firstError !== null || !tracker.sawStepStart);
  const infrastructureError = (state === "failed" || state === "timed_out") && beforeAnyStep;
  const error = describeError(state, tracker, ending);
  return error === undefined ? { state, infrastructureError } : { state, infrastructureError, error };
}

function describeError(state: RunState, tracker: RunTracker, ending: RunEnding): string | undefined {
  switch (state) {
    case "completed":
      return undefined;
    case "timed_out":
      return `Wall-clock timeout of ${ending.timeoutMs} ms reached; the whole process tree was killed.`;
    case "cost_limited":
      return `Recorded cost $${tracker.costUSD.toFixed(6)} passed maxCostUSD $${ending.maxCostUSD}; the run was stopped.`;
    case "stopped":
      return "Stopped early: an earlyStop check decided every criterion, so the rest of the run could not change the judgment.";
    case "interrupted":
      return "Interrupted: the run was aborted by its caller.";
    case "failed":
      return (
        ending.spawnError ??
        tracker.firstError ??
        tracker.lastLogError ??
        `OpenCode exited with ${ending.exitCode === null ? "a signal" : `code ${ending.exitCode}`}.`
      );
  }
}
