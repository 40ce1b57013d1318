import { describe, expect, test } from "vitest";
import {
  type RunLimits,
  type RunTracker,
  createRunTracker,
  classifyEnding,
  observeEvent,
  observeLogLine,
  passedLimit,
} from "./run-tracker.ts";

type TestEvent = Parameters<typeof observeEvent>[1];

function tracked(...events: TestEvent[]): RunTracker {
  const tracker = createRunTracker();
  for (const event of events) observeEvent(tracker, { sessionID: "ses_1", ...event });
  return tracker;
}

const ending = { killReason: null, exitCode: 1, timeoutMs: 1000, model: "local/small" } as const;
const apiError = { type: "error", error: { name: "APIError", data: { message: "overloaded" } } };

describe("classifyEnding", () => {
  test("exit 0 is completed, whatever happened before", () => {
    expect(classifyEnding(tracked({ type: "step_start" }), { ...ending, exitCode: 0 })).toEqual({
      state: "completed",
      infrastructureError: false,
      setupError: false,
      waitedForFirstAnswer: false,
    });
  });

  test("an error before any step is the provider's failure", () => {
    expect(classifyEnding(tracked(apiError), ending)).toEqual({
      state: "failed",
      infrastructureError: true,
      setupError: false,
      waitedForFirstAnswer: false,
      error: "APIError: overloaded",
    });
  });

  test("a non-zero exit before the model ever answered is infrastructure (OpenCode could not start)", () => {
    const tracker = tracked();
    tracker.lastLogError = "level=ERROR message=boom";
    expect(classifyEnding(tracker, ending)).toEqual({
      state: "failed",
      infrastructureError: true,
      setupError: false,
      waitedForFirstAnswer: false,
      error: "level=ERROR message=boom",
    });
  });

  test("a failure after a finished step is the candidate's", () => {
    const verdict = classifyEnding(
      tracked({ type: "step_start" }, { type: "step_finish", part: { cost: 0 } }, apiError),
      ending,
    );
    expect(verdict).toMatchObject({ state: "failed", infrastructureError: false });
  });

  test("a timeout after a completed step is the candidate's; one before the first completed step is infrastructure", () => {
    const hanging = classifyEnding(
      tracked({ type: "step_start" }, { type: "step_finish", part: { cost: 0, reason: "tool-calls" } }),
      { ...ending, killReason: "timed_out" },
    );
    expect(hanging).toMatchObject({ state: "timed_out", infrastructureError: false });
    const midStep = classifyEnding(tracked({ type: "step_start" }), { ...ending, killReason: "timed_out" });
    expect(midStep).toMatchObject({ state: "timed_out", infrastructureError: true });
    const toolHangs = tracked({ type: "step_start" });
    toolHangs.sawToolCall = true; // what run-opencode reads from the database after the kill
    expect(classifyEnding(toolHangs, { ...ending, killReason: "timed_out" })).toMatchObject({
      state: "timed_out",
      infrastructureError: false,
    });
    const silent = classifyEnding(tracked(), { ...ending, killReason: "timed_out" });
    expect(silent).toMatchObject({ state: "timed_out", infrastructureError: true });
  });

  test("a timeout before the first answer says so, names the limit and whether the provider had started answering", () => {
    const limit = {
      ...ending,
      killReason: "timed_out",
      timeoutMs: 300_000,
      endpoint: "http://127.0.0.1:8080/v1",
    } as const;
    expect(classifyEnding(tracked({ type: "step_start" }), limit)).toEqual({
      state: "timed_out",
      infrastructureError: true,
      setupError: false,
      waitedForFirstAnswer: true,
      error:
        "The model had not finished its first answer after 300 s, the time limit (timeoutMs 300000): the provider had started answering.",
    });
    expect(classifyEnding(tracked(), limit).error).toBe(
      "The model had not finished its first answer after 300 s, the time limit (timeoutMs 300000): the provider at http://127.0.0.1:8080/v1 had sent nothing.",
    );
  });

  test("a failure before the first step names the provider's endpoint, once", () => {
    const connect = {
      type: "error",
      error: {
        name: "APIError",
        data: { message: "Cannot connect to API: Unable to connect. Is the computer able to access the url?" },
      },
    };
    const withEndpoint = { ...ending, endpoint: "http://127.0.0.1:8080/v1" };
    expect(classifyEnding(tracked(connect), withEndpoint).error).toBe(
      "APIError: Cannot connect to API: Unable to connect. Is the computer able to access the url? (provider endpoint http://127.0.0.1:8080/v1)",
    );
    const named = {
      type: "error",
      error: {
        name: "APIError",
        data: { message: "Cannot connect", url: "http://127.0.0.1:8080/v1/chat/completions" },
      },
    };
    expect(classifyEnding(tracked(named), withEndpoint).error).toBe(
      "APIError: Cannot connect (http://127.0.0.1:8080/v1/chat/completions)",
    );
    expect(classifyEnding(tracked(), { ...withEndpoint, killReason: "interrupted" }).error).toBe(
      "Interrupted: the run was aborted by its caller.",
    );
  });

  test("a compaction summary is not a completed candidate step", () => {
    const compacted = tracked(
      { type: "step_start" },
      { type: "step_finish", part: { cost: 0, reason: "stop", messageID: "msg_summary" } },
      { type: "text", part: { synthetic: true, metadata: { compaction_continue: true } } },
    );
    expect(compacted.candidateSteps).toBe(0);
    expect(classifyEnding(compacted, { ...ending, killReason: "timed_out" })).toMatchObject({
      state: "timed_out",
      infrastructureError: true,
    });
  });

  test("harness kills name the state and are never infrastructure", () => {
    expect(classifyEnding(tracked(), { ...ending, killReason: "interrupted" })).toMatchObject({
      state: "interrupted",
      infrastructureError: false,
    });
    expect(classifyEnding(tracked(), { ...ending, killReason: "cost_limited", maxCostUSD: 1 })).toMatchObject({
      state: "cost_limited",
      infrastructureError: false,
    });
    expect(classifyEnding(tracked({ type: "step_start" }), { ...ending, killReason: "stopped" })).toEqual({
      state: "stopped",
      infrastructureError: false,
      setupError: false,
      waitedForFirstAnswer: false,
      error: expect.stringMatching(/^Stopped early: an earlyStop check decided every criterion/),
    });
  });
});

describe("limits passed live", () => {
  /** One step of a looping model, in OpenCode's order: it starts, its tool call runs, and then it is reported finished. */
  const loopingStep = (usage: { input: number; output: number }, reason = "tool-calls"): TestEvent[] => [
    { type: "step_start" },
    { type: "tool_use", part: { id: "prt_tool", tool: "bash" } },
    {
      type: "step_finish",
      part: { cost: 0.01, reason, tokens: { ...usage, reasoning: 7, cache: { read: 500, write: 9 } } },
    },
  ];

  /** Feeds the steps' events as the runner does and says where the first limit was passed (event index), if at all. */
  function firstLimit(limits: RunLimits, steps: TestEvent[][]) {
    const tracker = createRunTracker();
    const events = steps.flat();
    for (const [index, event] of events.entries()) {
      observeEvent(tracker, { sessionID: "ses_1", ...event });
      const limit = passedLimit(tracker, { sessionID: "ses_1", ...event }, limits);
      if (limit !== null) return { limit, index, event: event.type, tracker };
    }
    return { limit: null, tracker };
  }

  const usage = { input: 1_000, output: 50 };
  const looping = Array.from({ length: 20 }, () => loopingStep(usage));

  test("maxSteps: the last allowed step, its tool calls run, ends asking for more", () => {
    const stopped = firstLimit({ maxSteps: 3 }, looping);
    // Three whole steps (three events each): stopped at the third's finish, before the model is asked again.
    expect(stopped).toMatchObject({ limit: "step_limited", index: 8, event: "step_finish" });
    expect(stopped.tracker.candidateSteps).toBe(3);
    expect(stopped.tracker.ledger.tools).toHaveLength(3);
    // A session whose last allowed step is its final answer ends on its own.
    expect(firstLimit({ maxSteps: 3 }, [...looping.slice(0, 2), loopingStep(usage, "stop")]).limit).toBeNull();
    // Any other way on is stopped as the step past the limit begins.
    const truncated = firstLimit({ maxSteps: 3 }, [...looping.slice(0, 2), loopingStep(usage, "length"), looping[0]!]);
    expect(truncated).toMatchObject({ limit: "step_limited", index: 9, event: "step_start" });
  });

  test("maxTokens: input + output as recorded, at the step that passes it (cache and reasoning not counted)", () => {
    // 1,050 a step: 3,150 after the third passes 3,000 (with cache and reasoning it would pass after the second).
    const stopped = firstLimit({ maxTokens: 3_000 }, looping);
    expect(stopped).toMatchObject({ limit: "token_limited", index: 8, event: "step_finish" });
    expect(stopped.tracker.tokens).toBe(3_150);
    // Exactly at the limit is not past it.
    expect(firstLimit({ maxTokens: 3_150 }, looping.slice(0, 3)).limit).toBeNull();
  });

  test("no limits set: nothing is ever passed; the first limit passed is the one named", () => {
    expect(firstLimit({}, looping).limit).toBeNull();
    expect(firstLimit({ maxSteps: 10, maxTokens: 2_000 }, looping)).toMatchObject({ limit: "token_limited", index: 5 });
    expect(firstLimit({ maxSteps: 1, maxTokens: 2_000 }, looping)).toMatchObject({ limit: "step_limited", index: 2 });
    // Passed at the same step: the limit its usage passed comes before the one it would pass by going on.
    expect(firstLimit({ maxSteps: 2, maxTokens: 2_000 }, looping)).toMatchObject({ limit: "token_limited", index: 5 });
    expect(firstLimit({ maxCostUSD: 0.025, maxTokens: 1_000_000 }, looping)).toMatchObject({
      limit: "cost_limited",
      index: 8,
    });
  });

  test("a compaction summary is not a step the limit counts", () => {
    const compaction: TestEvent[] = [
      { type: "step_start" },
      { type: "step_finish", part: { cost: 0, reason: "stop", messageID: "msg_summary" } },
      { type: "text", part: { synthetic: true, metadata: { compaction_continue: true } } },
    ];
    const stopped = firstLimit({ maxSteps: 2 }, [loopingStep(usage), compaction, ...looping]);
    // Step 1 (3 events), the compaction (3), then step 2's finish.
    expect(stopped).toMatchObject({ limit: "step_limited", index: 8 });
  });

  test("a limit passed is the candidate's own outcome, its error naming the limit", () => {
    const looped = tracked(...loopingStep(usage), ...loopingStep(usage));
    expect(classifyEnding(looped, { ...ending, killReason: "token_limited", maxTokens: 2_000 })).toEqual({
      state: "token_limited",
      infrastructureError: false,
      setupError: false,
      waitedForFirstAnswer: false,
      error: "Recorded tokens 2100 (input + output) passed maxTokens 2000; the run was stopped.",
    });
    expect(classifyEnding(looped, { ...ending, killReason: "step_limited", maxSteps: 2 })).toEqual({
      state: "step_limited",
      infrastructureError: false,
      setupError: false,
      waitedForFirstAnswer: false,
      error: "The model went on after 2 steps, the most maxSteps allows; the run was stopped.",
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
  expect(tracker).toMatchObject({ sessionID: "ses_1", costUSD: 0.75, candidateSteps: 2, firstError: "First" });
});

test("an error that carries the endpoint's URL names it", () => {
  const tracker = tracked({
    type: "error",
    error: {
      name: "APIError",
      data: { message: "Cannot connect to API", url: "http://127.0.0.1:9/v1/chat/completions" },
    },
  });
  expect(tracker.firstError).toBe("APIError: Cannot connect to API (http://127.0.0.1:9/v1/chat/completions)");
});

describe("context overflow", () => {
  const overflow = {
    type: "error",
    error: {
      name: "ContextOverflowError",
      data: {
        message: "This model's maximum context length is 2048 tokens. However, your messages resulted in 6230 tokens.",
      },
    },
  };

  test("a rejection before any completed step ends the run as a setup error with both numbers and the remedy", () => {
    const tracker = createRunTracker();
    expect(observeEvent(tracker, overflow)).toBe("context_overflow");
    const verdict = classifyEnding(tracker, { ...ending, exitCode: null, killReason: "context_overflow" });
    expect(verdict).toMatchObject({ state: "failed", infrastructureError: true, setupError: true });
    expect(verdict.error).toContain("Setup error of local/small");
    expect(verdict.error).toContain("needs 6230 tokens");
    expect(verdict.error).toContain("a context of 2048 tokens");
    expect(verdict.error).toMatch(/Raise the server's context to at least 6230 tokens .*or set limit\.context/);
    expect(verdict.error).toContain("not the candidate's failure");
  });

  test("a rejection after completed work lets OpenCode compact once; rejected again with nothing done in between, it is a setup error", () => {
    const tracker = tracked({ type: "step_start" }, { type: "step_finish", part: { cost: 0, reason: "tool-calls" } });
    expect(observeEvent(tracker, overflow)).toBeNull();
    observeEvent(tracker, { type: "step_finish", part: { cost: 0, reason: "stop" } });
    observeEvent(tracker, { type: "text", part: { synthetic: true, metadata: { compaction_continue: true } } });
    expect(observeEvent(tracker, overflow)).toBe("context_overflow");
  });

  test("a rejection OpenCode does not compact past (it failed the session) is a setup error too", () => {
    const tracker = tracked({
      type: "error",
      error: { name: "APIError", data: { message: "prompt is too long: 6230 tokens > 2048 maximum" } },
    });
    expect(classifyEnding(tracker, ending)).toMatchObject({
      state: "failed",
      setupError: true,
      error: expect.stringContaining("needs 6230 tokens"),
    });
  });
});

describe("retries, read from OpenCode's log", () => {
  // The shapes of OpenCode 1.18.33's --print-logs lines (a control that failed the first attempt of step 0 once and
  // of step 1 twice; see the run-opencode e2e, which counts them on the real binary).
  const line = (level: string, message: string, session = "ses_1", extra = "small=false agent=build mode=primary") =>
    `timestamp=2026-12-01T22:57:53.000Z level=${level} run=1f2e3d4c message=${message} providerID=control modelID=flaky session.id=${session} ${extra}`;
  const step = (session = "ses_1") =>
    `timestamp=2026-12-01T22:57:53.000Z level=INFO run=1f2e3d4c message=process session.id=${session} messageID=msg_1`;
  const loop = (session = "ses_1") =>
    `timestamp=2026-12-01T22:57:53.000Z level=INFO run=1f2e3d4c message=loop session.id=${session} step=1`;
  const failed = (session = "ses_1") =>
    line("ERROR", '"stream error"', session) + ' error.error="AI_APICallError: overloaded"';

  function retriesOf(lines: string[]): number {
    const tracker = createRunTracker();
    for (const text of lines) observeLogLine(tracker, text);
    return tracker.retries;
  }

  test("a request sent again after a failed attempt of the same step is a retry", () => {
    expect(
      retriesOf([
        step(),
        line("INFO", "stream"),
        failed(),
        line("INFO", "stream"),
        loop(),
        step(),
        line("INFO", "stream"),
        failed(),
        line("INFO", "stream"),
        failed(),
        line("INFO", "stream"),
      ]),
    ).toBe(3);
  });

  test("a step that succeeds first time, or fails with no new attempt, has none", () => {
    expect(
      retriesOf([
        step(),
        line("INFO", "stream"),
        loop(),
        step(),
        line("INFO", "stream"),
        failed(),
        `${step()} error="overloaded"`,
      ]),
    ).toBe(0);
  });

  test("a failure ends with its step: the next step's request is not a retry", () => {
    expect(retriesOf([step(), line("INFO", "stream"), failed(), loop(), step(), line("INFO", "stream")])).toBe(0);
  });

  test("sessions are followed apart (a subagent's failure is not the parent's retry), and title requests are not steps", () => {
    expect(
      retriesOf([
        line("INFO", "stream", "ses_1"),
        failed("ses_2"),
        line("INFO", "stream", "ses_1"),
        line("INFO", "stream", "ses_2"),
      ]),
    ).toBe(1);
    expect(retriesOf([failed(), line("INFO", "stream", "ses_1", "small=true agent=title")])).toBe(0);
  });
});
