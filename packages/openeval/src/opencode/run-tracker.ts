// Follows one run's event stream and stderr, and turns what it saw plus how the process ended into a run state —
// including the line between a candidate's failure and an infrastructure failure.

import { type ContextOverflow, readContextOverflow } from "./provider-errors.ts";
import type { RunEvent } from "./schema.ts";
import { createStreamLedger, recordStreamEvent, type StreamLedger } from "./stream-ledger.ts";

/** The limits a run is stopped at once it passes them, read from its own event stream. */
export type LimitState = "cost_limited" | "token_limited" | "step_limited";
export type RunState = "completed" | "failed" | "timed_out" | LimitState | "stopped" | "interrupted";
/**
 * Why the harness killed the process; the first reason wins. `stopped`: a judge decided early (earlyStop);
 * `context_overflow`: the provider rejects the requests as larger than the model's context and compaction cannot help.
 */
export type KillReason = "timed_out" | LimitState | "stopped" | "interrupted" | "context_overflow";

/** An error OpenCode reported for a step in its event stream (the database does not keep rejected attempts' errors). */
export interface StepError {
  sessionID: string | null;
  /** Epoch ms of the event. */
  at: number | null;
  name: string;
  message: string;
}

export interface RunTracker {
  sessionID: string | null;
  /** The provider answered at least once: a step_start event, or (after a kill) a model part in the database. */
  sawStepStart: boolean;
  /** Model steps of the candidate that finished (compaction summaries are taken back): complete turns. */
  candidateSteps: number;
  /**
   * The model asked for a tool (a tool_use event, or after a kill a tool part in the database): its output for that
   * step was complete, and what happens next (a tool that hangs) is the candidate's doing.
   */
  sawToolCall: boolean;
  /** `candidateSteps` when the last context-overflow rejection came. */
  stepsAtLastOverflow: number;
  /** A step finished and no compaction's "Continue…" text has shown it to be the compaction summary yet. */
  pendingStep: boolean;
  /** The provider rejected a request as larger than the model's context, with nothing completed since: a setup error. */
  contextOverflow: ContextOverflow | null;
  /** Every error event, in order. */
  stepErrors: StepError[];
  /** Sum of `step_finish.part.cost` (USD) of the root session; subagent sessions are not in the stream. */
  costUSD: number;
  /** Sum of `step_finish.part.tokens` input + output of the root session, as the recording counts them. */
  tokens: number;
  /** Each step's usage and each tool call the stream showed, to check the recording against. */
  ledger: StreamLedger;
  /** The first `error` event, as "Name: message". */
  firstError: string | null;
  /** The last ERROR line of OpenCode's log (stderr), for failures without an error event. */
  lastLogError: string | null;
  /** Model requests OpenCode sent again after a failed attempt of the same step (read from its log). */
  retries: number;
  /** Sessions whose last request attempt failed, with no new step begun since: their next attempt is a retry. */
  failedAttempt: Set<string>;
}

export function createRunTracker(): RunTracker {
  return {
    sessionID: null,
    sawStepStart: false,
    candidateSteps: 0,
    sawToolCall: false,
    stepsAtLastOverflow: 0,
    pendingStep: false,
    contextOverflow: null,
    stepErrors: [],
    costUSD: 0,
    tokens: 0,
    ledger: createStreamLedger(),
    firstError: null,
    lastLogError: null,
    retries: 0,
    failedAttempt: new Set(),
  };
}

/** What a tracker has newly learned that the runner must act on. */
export type Observation = "context_overflow" | null;

/**
 * Follows one event. A compaction shows in the stream as an ordinary step followed by a synthetic "Continue…" text
 * (`metadata.compaction_continue`), so that step is taken back once the text arrives. A context-overflow rejection
 * with no candidate step finished since the last one (or since the start, where only OpenCode's own prompt was sent)
 * cannot be helped by compacting again: that is returned so the runner ends the run.
 */
export function observeEvent(tracker: RunTracker, event: RunEvent): Observation {
  tracker.sessionID ??= event.sessionID ?? null;
  recordStreamEvent(tracker.ledger, event);
  if (event.type === "step_start") tracker.sawStepStart = true;
  if (event.type === "tool_use") tracker.sawToolCall = true;
  if (event.type === "step_finish") {
    tracker.costUSD += event.part?.cost ?? 0;
    tracker.tokens += (event.part?.tokens?.input ?? 0) + (event.part?.tokens?.output ?? 0);
    tracker.candidateSteps += 1;
    tracker.pendingStep = true;
  }
  if (
    event.type === "text" &&
    event.part?.synthetic === true &&
    event.part.metadata?.compaction_continue === true &&
    tracker.pendingStep
  ) {
    tracker.candidateSteps -= 1;
    tracker.pendingStep = false;
  }
  if (event.type !== "error") return null;
  const name = event.error?.name ?? "Error";
  const message = event.error?.data?.message ?? "";
  tracker.stepErrors.push({ sessionID: event.sessionID ?? null, at: event.timestamp ?? null, name, message });
  if (tracker.firstError === null) tracker.firstError = describeProviderError(name, message, event.error?.data?.url);
  const overflow = readContextOverflow(event.error);
  if (overflow === null) return null;
  const stuck = tracker.candidateSteps === tracker.stepsAtLastOverflow;
  tracker.stepsAtLastOverflow = tracker.candidateSteps;
  if (!stuck) return null;
  tracker.contextOverflow = overflow;
  return "context_overflow";
}

/** "Name: message", with the URL OpenCode's error carries when the message does not name it (e.g. "Cannot connect to API"). */
function describeProviderError(name: string, message: string, url: string | undefined): string {
  const text = message ? `${name}: ${message}` : name;
  return url && !text.includes(url) ? `${text} (${url})` : text;
}

/**
 * Follows one line of OpenCode's log. 1.18 keeps retries in memory only (session status "retry", never persisted),
 * but logs every request attempt of a step: `message=stream` when it is sent, `message="stream error"` when it fails,
 * and `message=process` / `message=loop` when a new step begins. A `stream` after a `stream error` of the same session
 * with no new step between them is a retry. Requests of the small model (titles) are not steps and are not counted.
 */
export function observeLogLine(tracker: RunTracker, line: string): void {
  if (line.includes("level=ERROR")) tracker.lastLogError = line;
  const session = LOG_SESSION.exec(line)?.[1];
  if (session === undefined || line.includes(" small=true")) return;
  if (line.includes(' message="stream error" ')) tracker.failedAttempt.add(session);
  else if (line.includes(" message=stream ")) {
    if (tracker.failedAttempt.delete(session)) tracker.retries += 1;
  } else if (line.includes(" message=process ") || line.includes(" message=loop "))
    tracker.failedAttempt.delete(session);
}

const LOG_SESSION = / session\.id=(\S+)/;

/** The candidate's own limits, each enforced only when set. */
export interface RunLimits {
  maxCostUSD?: number;
  /** Input + output tokens, as `tokens` counts them. */
  maxTokens?: number;
  /** Model steps, as `candidateSteps` counts them. */
  maxSteps?: number;
}

/**
 * The limit the run has passed once it has observed `event`, or null. OpenCode runs a step's tool calls before it
 * reports the step finished, so cost and tokens, known from that report, stop the run with the step that passed them
 * whole, its tool calls included. The step limit is passed once the model has taken `maxSteps` steps and goes on: its
 * last allowed step ended asking for tools (OpenCode then asks the model again), or, for any other way on, a step
 * past the limit begins.
 * @example passedLimit(tracker, { type: "step_finish", part: { reason: "tool-calls" } }, { maxSteps: 3 }) // "step_limited" at the third
 */
export function passedLimit(tracker: RunTracker, event: RunEvent, limits: RunLimits): LimitState | null {
  if (event.type === "step_finish") {
    if (limits.maxCostUSD !== undefined && tracker.costUSD > limits.maxCostUSD) return "cost_limited";
    if (limits.maxTokens !== undefined && tracker.tokens > limits.maxTokens) return "token_limited";
  }
  const goesOn = event.type === "step_start" || (event.type === "step_finish" && event.part?.reason === "tool-calls");
  return goesOn && limits.maxSteps !== undefined && tracker.candidateSteps >= limits.maxSteps ? "step_limited" : null;
}

export interface RunVerdict {
  state: RunState;
  infrastructureError: boolean;
  /** The model is set up too small for the session (its context cannot hold the request): not the candidate's failure. */
  setupError: boolean;
  /** Killed by the time limit while the model had not finished its first answer: slow or dead, the provider decides. */
  waitedForFirstAnswer: boolean;
  error?: string;
}

export interface RunEnding extends RunLimits {
  killReason: KillReason | null;
  exitCode: number | null;
  spawnError?: string;
  timeoutMs: number;
  /** `provider/model`, named in a setup error. */
  model: string;
  /** The provider's configured endpoint (`options.baseURL`), named when the provider failed; null for a catalog provider. */
  endpoint?: string | null;
}

/**
 * State: a harness kill names it (a context overflow ends the run `failed`); otherwise exit 0 is `completed`
 * (OpenCode exits 0 even after an auto-rejected permission) and anything else is `failed`.
 *
 * Setup error: the provider rejected a request as larger than the model's context with no candidate step finished
 * since (at the start that is OpenCode's own prompt): the model's setup, not the candidate, failed. It is an
 * infrastructure error too: recorded, retryable once fixed, never scored.
 *
 * Infrastructure error (never scored as the candidate's 0): the run failed or timed out *before the candidate
 * completed a single model step* (compaction summaries do not count; a step whose tool call is running has completed
 * its output): OpenCode could not start, the provider was unreachable, rejected the request, or never finished
 * answering. After that, a failure or a timeout is the candidate's own (e.g. its tool call hanging in `sleep`). A
 * limit it passed (cost, tokens, steps) is its own too: each needs a finished step, and the run is judged as it stands.
 */
export function classifyEnding(tracker: RunTracker, ending: RunEnding): RunVerdict {
  const state: RunState =
    ending.killReason === "context_overflow"
      ? "failed"
      : (ending.killReason ?? (ending.exitCode === 0 ? "completed" : "failed"));
  const overflow =
    tracker.contextOverflow ?? (state === "failed" && tracker.candidateSteps === 0 ? firstOverflow(tracker) : null);
  const setupError = state === "failed" && overflow !== null;
  const beforeFirstStep = tracker.candidateSteps === 0 && !tracker.sawToolCall;
  const infrastructureError = setupError || ((state === "failed" || state === "timed_out") && beforeFirstStep);
  const error = setupError
    ? describeOverflow(overflow, ending.model)
    : beforeFirstStep
      ? describeFirstAnswerFailure(state, tracker, ending)
      : describeError(state, tracker, ending);
  const waitedForFirstAnswer = state === "timed_out" && beforeFirstStep;
  const verdict = { state, infrastructureError, setupError, waitedForFirstAnswer };
  return error === undefined ? verdict : { ...verdict, error };
}

/** A rejection OpenCode did not compact past (it failed the session instead): the first overflow among the errors. */
function firstOverflow(tracker: RunTracker): ContextOverflow | null {
  for (const error of tracker.stepErrors) {
    const overflow = readContextOverflow({ name: error.name, data: { message: error.message } });
    if (overflow) return overflow;
  }
  return null;
}

/** Both numbers and the remedy (errors say what to do). */
export function describeOverflow(overflow: ContextOverflow, model: string): string {
  const needs = overflow.requested === null ? "more tokens than it allows" : `${overflow.requested} tokens`;
  const allows =
    overflow.limit === null
      ? "its context (the provider did not say how large)"
      : `a context of ${overflow.limit} tokens`;
  const atLeast = overflow.requested === null ? "" : ` to at least ${overflow.requested} tokens`;
  return (
    `Setup error of ${model}: the provider rejected the request because it does not fit the model's context — the request needs ${needs}, the server allows ${allows}. ` +
    `This is not the candidate's failure. Raise the server's context${atLeast} (llama.cpp --ctx-size, vLLM --max-model-len, Ollama num_ctx), ` +
    `or set limit.context of ${model} in benchmark.ts candidate.providers to what the server really allows. Provider said: ${overflow.message}`
  );
}

/**
 * Before the model finished a single step, a timeout is the provider's slowness or death, never the candidate's, and
 * a failure is the provider's: both name the endpoint (OpenCode's "Cannot connect to API" does not).
 */
function describeFirstAnswerFailure(state: RunState, tracker: RunTracker, ending: RunEnding): string | undefined {
  const at = ending.endpoint ? ` at ${ending.endpoint}` : "";
  if (state === "timed_out") {
    const answered = tracker.sawStepStart ? "the provider had started answering" : `the provider${at} had sent nothing`;
    return `The model had not finished its first answer after ${formatSeconds(ending.timeoutMs)} s, the time limit (timeoutMs ${ending.timeoutMs}): ${answered}.`;
  }
  const error = describeError(state, tracker, ending);
  const namesNoEndpoint =
    state === "failed" && error !== undefined && ending.endpoint && !error.includes(ending.endpoint);
  return namesNoEndpoint ? `${error} (provider endpoint ${ending.endpoint})` : error;
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function describeError(state: RunState, tracker: RunTracker, ending: RunEnding): string | undefined {
  switch (state) {
    case "completed":
      return undefined;
    case "timed_out":
      return `Wall-clock timeout of ${ending.timeoutMs} ms reached; the whole process tree was killed.`;
    case "cost_limited":
      return `Recorded cost $${tracker.costUSD.toFixed(6)} passed maxCostUSD $${ending.maxCostUSD}; the run was stopped.`;
    case "token_limited":
      return `Recorded tokens ${tracker.tokens} (input + output) passed maxTokens ${ending.maxTokens}; the run was stopped.`;
    case "step_limited":
      return `The model went on after ${ending.maxSteps} steps, the most maxSteps allows; the run was stopped.`;
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
