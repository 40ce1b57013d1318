import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assistantMessage,
  part,
  stepFinish,
  userMessage,
  writeNativeDatabase,
  type NativeFixture,
} from "./fixtures/native-database.ts";
import { extractNative } from "./native-extract.ts";

let scratch: string;
let databases = 0;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "native-extract-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function extract(fixture: NativeFixture, options?: Parameters<typeof extractNative>[1]) {
  const path = join(scratch, `db-${++databases}.db`);
  writeNativeDatabase(path, fixture);
  return extractNative(path, options);
}

const ROOT = "ses_root";
const CHILD = "ses_child";

describe("usage and cost", () => {
  it("counts each assistant message once across root, subagent child and compaction, ignoring session totals and step-finish copies", () => {
    const step = assistantMessage({
      id: "msg_a1",
      sessionID: ROOT,
      created: 1_000,
      completed: 2_000,
      usage: { input: 1_000, output: 100, reasoning: 10, cacheRead: 200, cacheWrite: 5 },
      cost: 0.01,
    });
    const compaction = assistantMessage({
      id: "msg_a2",
      sessionID: ROOT,
      created: 3_000,
      completed: 4_000,
      usage: { input: 3_000, output: 300 },
      cost: 0.02,
      compaction: true,
    });
    const child = assistantMessage({
      id: "msg_c1",
      sessionID: CHILD,
      created: 1_500,
      completed: 1_800,
      usage: { input: 500, output: 50, cacheRead: 7 },
      cost: 0.005,
    });
    const compactionRequest = userMessage("msg_u2", ROOT, 2_900);
    const extracted = extract({
      // The root row holds its own running totals, as OpenCode keeps them; adding them again would double-count.
      sessions: [
        { id: ROOT, created: 0, cost: 0.03, tokensInput: 4_000, tokensOutput: 400 },
        { id: CHILD, parentID: ROOT, created: 1_400, cost: 0.005, tokensInput: 500, tokensOutput: 50 },
      ],
      messages: [userMessage("msg_u1", ROOT, 900), step, compactionRequest, compaction, child],
      parts: [
        stepFinish("prt_1", step, 1_990),
        part("prt_2", compactionRequest, 2_900, { type: "compaction", auto: true, overflow: false }),
        stepFinish("prt_3", compaction, 3_990),
        stepFinish("prt_4", child, 1_790),
      ],
    });

    expect(extracted.metrics.tokens).toEqual({
      input: 4_500,
      output: 450,
      reasoning: 10,
      cacheRead: 207,
      cacheWrite: 5,
    });
    expect(extracted.metrics.cost.usd).toBeCloseTo(0.035, 12);
    expect(extracted.metrics.requests).toMatchObject({ started: 3, succeeded: 3, failed: 0, retries: null });
    expect(extracted.metrics.compactions).toBe(1);
    expect(extracted.rootSessionID).toBe(ROOT);
    expect(extracted.sessions).toEqual([
      { id: ROOT, parentID: null },
      { id: CHILD, parentID: ROOT },
    ]);
  });

  it("reports usage as unavailable (null) when no step carried any, but keeps a reported zero as 0", () => {
    // OpenCode stores zeros without `total` when the provider sent no usage (as for this failed step).
    const unreported = extract({
      sessions: [{ id: ROOT, created: 0 }],
      messages: [assistantMessage({ id: "msg_1", sessionID: ROOT, created: 10, completed: 20, error: "boom" })],
    });
    expect(unreported.metrics.cost.usd).toBeNull();
    expect(unreported.metrics.tokens).toEqual({
      input: null,
      output: null,
      reasoning: null,
      cacheRead: null,
      cacheWrite: null,
    });
    expect(unreported.metrics.timing.outputTokensPerSecond).toBeNull();
    expect(unreported.metrics.requests).toMatchObject({ started: 1, succeeded: 0, failed: 1, retries: null });

    const zeroStep = assistantMessage({
      id: "msg_1",
      sessionID: ROOT,
      created: 10,
      completed: 20,
      usage: { input: 0, output: 0 },
      cost: 0,
    });
    const zero = extract({
      sessions: [{ id: ROOT, created: 0 }],
      messages: [zeroStep],
      parts: [part("prt_1", zeroStep, 12, { type: "text", text: "", time: { start: 12, end: 18 } })],
    });
    expect(zero.metrics.cost.usd).toBe(0);
    expect(zero.metrics.tokens).toEqual({ input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 });
    expect(zero.metrics.timing.outputTokensPerSecond).toBe(0);

    const empty = extract({ sessions: [] });
    expect(empty.metrics.cost.usd).toBeNull();
    expect(empty.metrics.tokens.output).toBeNull();
    expect(empty.metrics.timing.modelActiveMs).toBeNull();
    expect(empty.rootSessionID).toBeNull();
    expect(empty.response).toBe("");
  });
});

describe("requests counted from the recorded attempts", () => {
  // What OpenCode 1.18.33 leaves after compacting past context-overflow rejections (seen against a scripted provider):
  // each rejected attempt is an empty, completed assistant message without finish or error; the error is only in the stream.
  const rejected = (id: string, created: number) =>
    assistantMessage({ id, sessionID: ROOT, created, completed: created + 1_500 });
  const fixture: NativeFixture = {
    sessions: [{ id: ROOT, created: 0 }],
    messages: [
      userMessage("msg_u1", ROOT, 0),
      rejected("msg_r1", 1_000),
      assistantMessage({
        id: "msg_s1",
        sessionID: ROOT,
        created: 3_000,
        completed: 3_100,
        compaction: true,
        finish: "stop",
        usage: { input: 50, output: 5 },
      }),
      rejected("msg_r2", 4_000),
      assistantMessage({
        id: "msg_ok",
        sessionID: ROOT,
        created: 6_000,
        completed: 8_000,
        finish: "length",
        usage: { input: 100, output: 1_024 },
        cost: 0,
      }),
      assistantMessage({
        id: "msg_t",
        sessionID: ROOT,
        created: 9_000,
        completed: 10_000,
        finish: "tool-calls",
        usage: { input: 100, output: 10 },
        cost: 0,
      }),
    ],
  };
  const streamErrors = [
    { sessionID: ROOT, at: 2_600, name: "ContextOverflowError", message: "maximum context length is 2048 tokens" },
    {
      sessionID: ROOT,
      at: 5_600,
      name: "ContextOverflowError",
      message: "maximum context length is 2048 tokens (again)",
    },
  ];

  it("counts rejected attempts as failed, records finish reasons and steps cut at the output limit", () => {
    const { metrics } = extract(fixture, { streamErrors });
    expect(metrics.requests).toEqual({
      started: 5,
      succeeded: 3,
      failed: 2,
      retries: null,
      finishReasons: { error: 2, stop: 1, length: 1, "tool-calls": 1 },
    });
    expect(metrics.truncated).toBe(1);
    expect(metrics.version).toBe(2);
  });

  it("times only steps that streamed output: rejected attempts are not model-active time", () => {
    const [, , summary, , ok, tool] = fixture.messages!;
    const streamed: NativeFixture = {
      ...fixture,
      parts: [
        part("prt_s", summary!, 3_020, { type: "text", text: "Summary.", time: { start: 3_020, end: 3_090 } }),
        part("prt_ok", ok!, 6_500, { type: "text", text: "Long answer", time: { start: 6_500, end: 8_000 } }),
        part("prt_t", tool!, 9_400, {
          type: "tool",
          tool: "bash",
          callID: "call_1",
          state: { status: "completed", input: {}, output: "", time: { start: 9_600, end: 9_900 } },
        }),
      ],
    };
    // [3020, 3090] + [6500, 8000] + [9400, 9600]; the two rejected 1.5 s attempts are left out.
    expect(extract(streamed).metrics.timing.modelActiveMs).toBe(1_770);
  });

  it("gives each rejected attempt the error the stream reported for it", () => {
    expect(extract(fixture, { streamErrors }).stepErrors).toEqual([
      { messageID: "msg_r1", name: "ContextOverflowError", message: "maximum context length is 2048 tokens" },
      { messageID: "msg_r2", name: "ContextOverflowError", message: "maximum context length is 2048 tokens (again)" },
    ]);
  });

  it("an unpriced model's $0 is not a cost: unknown; a priced model's reported 0 stays 0", () => {
    expect(extract(fixture, { priced: false }).metrics.cost.usd).toBeNull();
    expect(extract(fixture).metrics.cost.usd).toBe(0);
  });
});

describe("model-active time", () => {
  it("is the union of the steps' first-to-last-byte spans across sessions, overlaps counted once", () => {
    const CHILD_2 = "ses_child2";
    const root = assistantMessage({
      id: "msg_r1",
      sessionID: ROOT,
      created: 1_000,
      completed: 5_000,
      usage: { input: 10, output: 100 },
    });
    const child = assistantMessage({
      id: "msg_c1",
      sessionID: CHILD,
      created: 2_000,
      completed: 3_000,
      usage: { input: 10, output: 100 },
    });
    const child2 = assistantMessage({
      id: "msg_d1",
      sessionID: CHILD_2,
      created: 2_500,
      completed: 6_000,
      usage: { input: 10, output: 50 },
    });
    const compaction = assistantMessage({
      id: "msg_r2",
      sessionID: ROOT,
      created: 8_000,
      completed: 9_000,
      usage: { input: 10, output: 50 },
      compaction: true,
    });
    const text = (id: string, message: typeof root, start: number, end: number) =>
      part(id, message, start, { type: "text", text: "…", time: { start, end } });
    const extracted = extract({
      sessions: [
        { id: ROOT, created: 0 },
        { id: CHILD, parentID: ROOT, created: 1_900 },
        { id: CHILD_2, parentID: ROOT, created: 1_950 },
      ],
      messages: [root, child, child2, compaction, assistantMessage({ id: "msg_r3", sessionID: ROOT, created: 10_000 })],
      parts: [
        // The root streams [1500, 2500]; its subagents [2200, 3000] and [2800, 4000] in parallel: [1500, 4000].
        text("prt_r1", root, 1_500, 2_500),
        text("prt_c1", child, 2_200, 3_000),
        text("prt_d1", child2, 2_800, 4_000),
        // A later compaction step, disjoint: + [8500, 9000]. A synthetic part is OpenCode's, not the model's.
        text("prt_r2", compaction, 8_500, 9_000),
        part("prt_x", compaction, 8_000, {
          type: "text",
          text: "Continue",
          synthetic: true,
          time: { start: 8_000, end: 9_500 },
        }),
      ],
    });
    // 2500 ms + 500 ms = 3000 ms (from each request's start instead, it would be 6000 ms).
    expect(extracted.metrics.timing.modelActiveMs).toBe(3_000);
    // 300 output tokens over 1 + 0.8 + 1.2 + 0.5 = 3.5 s of streaming.
    expect(extracted.metrics.timing.outputTokensPerSecond).toBeCloseTo(300 / 3.5, 9);
    expect(extracted.metrics.requests).toMatchObject({ started: 5, succeeded: 4, failed: 0, retries: null });
  });
});

describe("tools", () => {
  const step = assistantMessage({ id: "msg_a1", sessionID: ROOT, created: 100, completed: 900 });
  const tool = (id: string, created: number, name: string, state: Record<string, unknown>) =>
    part(id, step, created, { type: "tool", tool: name, callID: `call_${id}`, state });

  it("reads every tool part in time order with its final state; unfinished calls are counted apart from failures", () => {
    const extracted = extract({
      sessions: [{ id: ROOT, created: 0 }],
      messages: [step],
      parts: [
        tool("prt_4", 400, "bash", { status: "pending", input: {}, raw: "" }),
        tool("prt_1", 110, "write", {
          status: "completed",
          input: { filePath: "a.txt", content: "A" },
          output: "Wrote file successfully.",
          title: "a.txt",
          metadata: { filepath: "/ws/a.txt", exists: false },
          time: { start: 120, end: 150 },
        }),
        tool("prt_2", 200, "read", {
          status: "error",
          input: { filePath: "missing" },
          error: "File not found: missing",
          time: { start: 210, end: 215 },
        }),
        tool("prt_3", 300, "bash", {
          status: "running",
          input: { command: "sleep 30" },
          metadata: { output: "" },
          time: { start: 310 },
        }),
      ],
    });

    expect(extracted.tools).toEqual([
      {
        id: "prt_1",
        sessionID: ROOT,
        messageID: "msg_a1",
        name: "write",
        status: "completed",
        input: { filePath: "a.txt", content: "A" },
        output: "Wrote file successfully.",
        error: null,
        metadata: { filepath: "/ws/a.txt", exists: false },
        startedAt: 120,
        completedAt: 150,
        durationMs: 30,
      },
      {
        id: "prt_2",
        sessionID: ROOT,
        messageID: "msg_a1",
        name: "read",
        status: "error",
        input: { filePath: "missing" },
        output: null,
        error: "File not found: missing",
        metadata: undefined,
        startedAt: 210,
        completedAt: 215,
        durationMs: 5,
      },
      expect.objectContaining({ id: "prt_3", status: "running", startedAt: 310, completedAt: null, durationMs: null }),
      expect.objectContaining({ id: "prt_4", status: "pending", input: {}, startedAt: null }),
    ]);
    expect(extracted.metrics.tools).toEqual({ calls: 4, succeeded: 1, failed: 1, unfinished: 2, errorRate: 0.5 });
  });

  it("counts a shell command that exited non-zero as a tool success", () => {
    const extracted = extract({
      sessions: [{ id: ROOT, created: 0 }],
      messages: [step],
      parts: [
        tool("prt_1", 110, "bash", {
          status: "completed",
          input: { command: "bun test", description: "run tests" },
          output: "1 fail\n",
          metadata: { output: "1 fail\n", exit: 1, truncated: false },
          time: { start: 120, end: 500 },
        }),
      ],
    });
    expect(extracted.tools[0]).toMatchObject({ status: "completed", error: null, metadata: { exit: 1 } });
    expect(extracted.metrics.tools).toEqual({ calls: 1, succeeded: 1, failed: 0, unfinished: 0, errorRate: 0 });
  });
});

describe("response", () => {
  it("is the visible text of the root's last answering message, not a compaction summary nor a child's answer", () => {
    const answer = assistantMessage({ id: "msg_a3", sessionID: ROOT, created: 300, completed: 400 });
    const summary = assistantMessage({ id: "msg_a4", sessionID: ROOT, created: 500, completed: 600, compaction: true });
    const child = assistantMessage({ id: "msg_c1", sessionID: CHILD, created: 700, completed: 800 });
    const earlier = assistantMessage({ id: "msg_a1", sessionID: ROOT, created: 100, completed: 200 });
    const extracted = extract({
      sessions: [
        { id: ROOT, created: 0 },
        { id: CHILD, parentID: ROOT, created: 650 },
      ],
      messages: [earlier, answer, summary, child],
      parts: [
        part("prt_1", earlier, 110, { type: "text", text: "Working on it." }),
        part("prt_2", answer, 310, { type: "text", text: "The fix is in." }),
        part("prt_3", answer, 320, { type: "text", text: "(internal)", synthetic: true }),
        part("prt_4", answer, 330, { type: "text", text: "Tests pass." }),
        part("prt_5", summary, 510, { type: "text", text: "Summary of the conversation." }),
        part("prt_6", child, 710, { type: "text", text: "child answer" }),
      ],
    });
    expect(extracted.response).toBe("The fix is in.\n\nTests pass.");
  });

  it("picks the earliest parentless session as root", () => {
    const extracted = extract({
      sessions: [
        { id: "ses_late", created: 50 },
        { id: "ses_early", created: 10 },
      ],
    });
    expect(extracted.rootSessionID).toBe("ses_early");
  });
});

describe("events and retries", () => {
  it("orders events by time, then session, then seq, placing untimed events by their payload time", () => {
    const extracted = extract({
      sessions: [
        { id: ROOT, created: 0 },
        { id: CHILD, parentID: ROOT, created: 15 },
      ],
      events: [
        { sessionID: ROOT, seq: 0, type: "session.created.1", data: { info: { time: { created: 5, updated: 5 } } } },
        { sessionID: ROOT, seq: 1, type: "message.part.updated.1", data: { part: { type: "tool" }, time: 10 } },
        // Untimed, and its payload time is older than the event before it: it stays after seq 1.
        { sessionID: ROOT, seq: 2, type: "message.updated.1", data: { info: { time: { created: 1 } } } },
        { sessionID: ROOT, seq: 3, type: "message.part.updated.1", data: { part: { type: "tool" }, time: 30 } },
        { sessionID: CHILD, seq: 0, type: "session.created.1", data: { info: { time: { created: 15, updated: 15 } } } },
        { sessionID: CHILD, seq: 1, type: "message.part.updated.1", data: { time: 20 } },
      ],
    });
    expect(extracted.events.map((event) => [event.sessionID, event.sequence, event.time])).toEqual([
      [ROOT, 0, null],
      [ROOT, 1, 10],
      [ROOT, 2, null],
      [CHILD, 0, null],
      [CHILD, 1, 20],
      [ROOT, 3, 30],
    ]);
    expect(extracted.events[1]).toEqual({
      sessionID: ROOT,
      sequence: 1,
      type: "message.part.updated.1",
      time: 10,
      data: { part: { type: "tool" }, time: 10 },
    });
  });

  it("counts persisted retry evidence: retry parts and session.retry.scheduled events", () => {
    const step = assistantMessage({
      id: "msg_a1",
      sessionID: ROOT,
      created: 100,
      completed: 900,
      usage: { input: 1, output: 1 },
    });
    const extracted = extract({
      sessions: [{ id: ROOT, created: 0 }],
      messages: [step],
      parts: [
        part("prt_1", step, 110, {
          type: "retry",
          attempt: 1,
          error: { name: "APIError", data: { message: "overloaded" } },
          time: { created: 110 },
        }),
        part("prt_2", step, 120, {
          type: "retry",
          attempt: 2,
          error: { name: "APIError", data: { message: "overloaded" } },
          time: { created: 120 },
        }),
      ],
      events: [{ sessionID: ROOT, seq: 0, type: "session.retry.scheduled.1", data: { attempt: 1, at: 130 } }],
    });
    expect(extracted.metrics.requests?.retries).toBe(3);
  });

  it("adds the retries the run's log showed, and tells zero from unknown", () => {
    const step = assistantMessage({
      id: "msg_a1",
      sessionID: ROOT,
      created: 100,
      completed: 900,
      usage: { input: 1, output: 1 },
    });
    const path = join(scratch, "logged-retries.db");
    writeNativeDatabase(path, { sessions: [{ id: ROOT, created: 0 }], messages: [step] });
    expect(extractNative(path, { retries: 2 }).metrics.requests?.retries).toBe(2);
    expect(extractNative(path, { retries: 0 }).metrics.requests?.retries).toBe(0);
    // Without the log (and nothing persisted) the recording cannot tell.
    expect(extractNative(path).metrics.requests?.retries).toBeNull();
  });

  it("rejects a database whose rows are not OpenCode's shapes", () => {
    const path = join(scratch, "corrupt.db");
    writeNativeDatabase(path, {
      sessions: [{ id: ROOT, created: 0 }],
      messages: [{ id: "msg_1", sessionID: ROOT, created: 1, data: { time: { created: 1 } } }],
    });
    expect(() => extractNative(path)).toThrow(/unexpected message msg_1 \(role: /);
  });
});

describe("tool calls written as text", () => {
  it("finds tool-call-shaped text in intermediate and final answers, one per message, and none in ordinary ones", () => {
    const first = assistantMessage({ id: "msg_a1", sessionID: ROOT, created: 10, completed: 20 });
    const plain = assistantMessage({ id: "msg_a2", sessionID: ROOT, created: 30, completed: 40 });
    const last = assistantMessage({ id: "msg_a3", sessionID: ROOT, created: 50, completed: 60 });
    const extracted = extract({
      sessions: [{ id: ROOT, created: 0 }],
      messages: [userMessage("msg_u1", ROOT, 5), first, plain, last],
      parts: [
        part("prt_1", first, 15, {
          type: "text",
          text: 'Let me look.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>',
        }),
        part("prt_2", first, 16, { type: "text", text: "<tool_call>again</tool_call>" }),
        part("prt_3", plain, 35, { type: "text", text: 'The file holds {"name": "demo"}.' }),
        part("prt_4", last, 55, {
          type: "text",
          text: '{"name": "write", "arguments": {"filePath": "a.txt", "content": "x"}}',
        }),
      ],
    });
    expect(extracted.toolCallText).toEqual([
      { messageID: "msg_a1", shape: "<tool_call>", excerpt: expect.stringMatching(/^<tool_call>\n\{"name": "bash"/) },
      {
        messageID: "msg_a3",
        shape: '{"name":…,"arguments":…}',
        excerpt: '{"name": "write", "arguments": {"filePath": "a.txt", "content": "x"}}',
      },
    ]);
  });
});

describe("requests the provider answered", () => {
  it("counts a step with reported usage as answered although OpenCode marked it with an error afterwards", () => {
    const rejected = assistantMessage({
      id: "msg_a1",
      sessionID: ROOT,
      created: 10,
      completed: 20,
      error: "context length exceeded",
    });
    const summary = assistantMessage({
      id: "msg_a2",
      sessionID: ROOT,
      created: 30,
      completed: 40,
      usage: { input: 425, output: 10 },
      compaction: true,
      error: "context length exceeded",
    });
    const extracted = extract({
      sessions: [{ id: ROOT, created: 0 }],
      messages: [userMessage("msg_u1", ROOT, 5), rejected, summary],
    });
    expect(extracted.metrics.requests).toMatchObject({ started: 2, succeeded: 1, failed: 1 });
    expect(extracted.metrics.tokens).toMatchObject({ input: 425, output: 10 });
  });
});
