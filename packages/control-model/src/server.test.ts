import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import type { ControlFile } from "./schema.ts";
import { startControlServer, type ControlServer } from "./server.ts";

// The OpenAI streaming chunk as clients (e.g. @ai-sdk/openai-compatible) read it.
const ChunkSchema = z.strictObject({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.strictObject({
      index: z.literal(0),
      delta: z.strictObject({
        role: z.literal("assistant").optional(),
        content: z.string().optional(),
        reasoning_content: z.string().optional(),
        tool_calls: z
          .array(
            z.strictObject({
              index: z.number().int(),
              id: z.string(),
              type: z.literal("function"),
              function: z.strictObject({ name: z.string(), arguments: z.string() }),
            }),
          )
          .optional(),
      }),
      finish_reason: z.enum(["stop", "tool_calls", "length"]).nullable(),
    }),
  ),
  usage: z
    .strictObject({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() })
    .optional(),
});
type Chunk = z.infer<typeof ChunkSchema>;

const TOOLS = [{ type: "function", function: { name: "write", parameters: { type: "object" } } }];
const write = (filePath: string) => ({ name: "write", input: { filePath, content: "x" } });

const controls: Record<string, Record<string, ControlFile>> = {
  "fix-bug": {
    talker: { turns: [{ reasoning: "Let me think.", text: "Hello there." }] },
    writer: {
      turns: [
        { text: "Writing both.", tools: [write("a.txt"), { name: "bash", input: { command: "ls", timeout: 5 } }] },
        { text: "Second turn." },
        { text: "Last turn.", usage: { input: 120, output: 7 } },
      ],
    },
    failing: { turns: [{ error: { status: 503, message: "overloaded now" } }] },
    "llama-small": {
      turns: [
        {
          error: {
            status: 400,
            body: {
              error: {
                code: 400,
                message: "request (6230 tokens) exceeds the available context size (2048 tokens)",
                type: "exceed_context_size_error",
                n_prompt_tokens: 6230,
                n_ctx: 2048,
              },
            },
          },
        },
      ],
    },
    cut: { turns: [{ text: "The answer starts", finishReason: "length", usage: { input: 10, output: 1024 } }] },
    slow: { turns: [{ delayMs: 300, text: "Finally." }] },
    flaky: { turns: [{ failFirst: { times: 2, status: 503 }, text: "Third time lucky." }] },
    stuck: { turns: [{ delayMs: 60_000, text: "Never sent." }] },
    limited: { turns: [{ delayMs: 300, text: "Admitted." }], rateLimit: { concurrent: 2, retryAfter: 1 } },
    overloaded: {
      turns: [{ delayMs: 300, text: "Admitted." }],
      rateLimit: { concurrent: 1, retryAfter: 0.5, status: 503, message: "Overloaded" },
    },
  },
  "with/slash": { only: { turns: [{ text: "Slash eval." }] } },
};

let server: ControlServer;
beforeAll(async () => {
  server = await startControlServer({ controls });
});
afterAll(async () => {
  await server.close();
});

function chat(evalId: string, body: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseURL(evalId)}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ stream: true, stream_options: { include_usage: true }, tools: TOOLS, ...body }),
    ...init,
  });
}

async function readChunks(response: Response): Promise<Chunk[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const events = (await response.text()).split("\n\n").filter((event) => event !== "");
  expect(events.every((event) => event.startsWith("data: "))).toBe(true);
  expect(events.at(-1)).toBe("data: [DONE]");
  return events.slice(0, -1).map((event) => ChunkSchema.parse(JSON.parse(event.slice("data: ".length))));
}

const deltas = (chunks: Chunk[]) => chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
const textOf = (chunks: Chunk[]) =>
  deltas(chunks)
    .map((delta) => delta.content ?? "")
    .join("");
const finishOf = (chunks: Chunk[]) =>
  chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean);
const toolCallsOf = (chunks: Chunk[]) => deltas(chunks).flatMap((delta) => delta.tool_calls ?? []);
const user = (content = "Fix the bug.") => ({ role: "user", content });
const assistant = { role: "assistant", content: "ok" };
const toolResult = { role: "tool", tool_call_id: "call_1", content: "done" };

describe("streaming answers", () => {
  it("streams a text turn as OpenAI chunks with reasoning, text and finish_reason stop", async () => {
    const chunks = await readChunks(await chat("fix-bug", { model: "talker", messages: [user()] }));
    expect(textOf(chunks)).toBe("Hello there.");
    expect(
      deltas(chunks)
        .map((d) => d.reasoning_content ?? "")
        .join(""),
    ).toBe("Let me think.");
    expect(deltas(chunks)[0]?.role).toBe("assistant");
    expect(finishOf(chunks)).toEqual(["stop"]);
    expect(new Set(chunks.map((chunk) => chunk.model))).toEqual(new Set(["talker"]));
  });

  it("ends a tool turn with its tool calls: unique ids, names, JSON arguments, finish_reason tool_calls", async () => {
    const first = await readChunks(await chat("fix-bug", { model: "writer", messages: [user()] }));
    const again = await readChunks(await chat("fix-bug", { model: "writer", messages: [user()] }));
    expect(textOf(first)).toBe("Writing both.");
    const calls = toolCallsOf(first);
    expect(calls.map((call) => [call.index, call.function.name])).toEqual([
      [0, "write"],
      [1, "bash"],
    ]);
    expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual({ filePath: "a.txt", content: "x" });
    expect(JSON.parse(calls[1]?.function.arguments ?? "")).toEqual({ command: "ls", timeout: 5 });
    const ids = [...calls, ...toolCallsOf(again)].map((call) => call.id);
    expect(new Set(ids).size).toBe(4);
    expect(finishOf(first)).toEqual(["tool_calls"]);
  });

  it("selects the turn by the assistant messages after the last user message", async () => {
    const step1 = await chat("fix-bug", { model: "writer", messages: [user(), assistant, toolResult] });
    expect(textOf(await readChunks(step1))).toBe("Second turn.");
    const newUserTurn = await chat("fix-bug", {
      model: "writer",
      messages: [user(), assistant, toolResult, user("More.")],
    });
    expect(textOf(await readChunks(newUserTurn))).toBe("Writing both.");
  });

  it("repeats the last turn for steps past the end", async () => {
    const messages = [user(), assistant, toolResult, assistant, toolResult, assistant, toolResult, assistant];
    expect(textOf(await readChunks(await chat("fix-bug", { model: "writer", messages })))).toBe("Last turn.");
  });

  it("sends a usage chunk only when the turn declares usage", async () => {
    const declared = await readChunks(
      await chat("fix-bug", { model: "writer", messages: [user(), assistant, assistant] }),
    );
    expect(declared.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 120, completion_tokens: 7, total_tokens: 127 },
    });
    const absent = await readChunks(await chat("fix-bug", { model: "writer", messages: [user()] }));
    expect(absent.some((chunk) => "usage" in chunk)).toBe(false);
  });

  it("answers requests without tools (title, compaction) with a fixed summary and no usage", async () => {
    for (const tools of [undefined, []]) {
      const messages = [user(), assistant, assistant];
      const chunks = await readChunks(await chat("fix-bug", { model: "writer", messages, tools }));
      expect(textOf(chunks)).toBe("Control summary.");
      expect(toolCallsOf(chunks)).toEqual([]);
      expect(chunks.some((chunk) => "usage" in chunk)).toBe(false);
    }
  });
});

describe("non-streaming answers", () => {
  it("answers stream:false with one chat.completion holding the same content", async () => {
    const response = await chat("fix-bug", { model: "writer", messages: [user()], stream: false });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "writer",
      choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: "Writing both." } }],
    });
    expect(
      body.choices[0].message.tool_calls.map((call: { function: { name: string } }) => call.function.name),
    ).toEqual(["write", "bash"]);
    expect(body.usage).toBeUndefined();

    const last = await (
      await chat("fix-bug", { model: "writer", messages: [user(), assistant, assistant], stream: false })
    ).json();
    expect(last.choices[0]).toMatchObject({ finish_reason: "stop", message: { content: "Last turn." } });
    expect(last.usage).toEqual({ prompt_tokens: 120, completion_tokens: 7, total_tokens: 127 });
  });
});

describe("scripted errors and delays", () => {
  it("answers an error turn with its status, an OpenAI error body and retry-after-ms", async () => {
    const response = await chat("fix-bug", { model: "failing", messages: [user()] });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after-ms")).toBe("50");
    expect(await response.json()).toEqual({
      error: { message: "overloaded now", type: "server_error", code: "control_error" },
    });
  });

  it("answers an error turn with a given body verbatim (another provider's error shape)", async () => {
    const response = await chat("fix-bug", { model: "llama-small", messages: [user()] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 400,
        message: "request (6230 tokens) exceeds the available context size (2048 tokens)",
        type: "exceed_context_size_error",
        n_prompt_tokens: 6230,
        n_ctx: 2048,
      },
    });
  });

  it("fails the first failFirst.times attempts of a step per session, then plays the turn", async () => {
    const attempt = (session: string) =>
      chat(
        "fix-bug",
        { model: "flaky", messages: [user()] },
        { headers: { "content-type": "application/json", "x-session-id": session } },
      );
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await attempt("ses_a")).status);
    expect(statuses).toEqual([503, 503, 200]);
    // Another session's step is counted on its own.
    const other = await attempt("ses_b");
    expect(other.status).toBe(503);
    expect(other.headers.get("retry-after-ms")).toBe("50");
    expect((await other.json()).error).toEqual({
      message: "Scripted transient error (HTTP 503), attempt 1",
      type: "server_error",
      code: "control_error",
    });
  });

  it("streams finish_reason length for a turn cut at the output limit", async () => {
    const chunks = await readChunks(await chat("fix-bug", { model: "cut", messages: [user()] }));
    expect(textOf(chunks)).toBe("The answer starts");
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual([
      "length",
    ]);
  });

  it("waits delayMs before answering", async () => {
    const started = performance.now();
    const chunks = await readChunks(await chat("fix-bug", { model: "slow", messages: [user()] }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(textOf(chunks)).toBe("Finally.");
  });

  it("stops waiting when the client disconnects during a delay", async () => {
    const sessionID = `abort-${crypto.randomUUID()}`;
    const controller = new AbortController();
    const pending = chat(
      "fix-bug",
      { model: "stuck", messages: [user()] },
      {
        signal: controller.signal,
        headers: { "content-type": "application/json", "x-session-id": sessionID },
      },
    );
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow();
    // The 60 s delay ends early: the request is logged as "client closed" within moments.
    await expect
      .poll(() => server.requests.find((r) => r.sessionID === sessionID)?.status, { timeout: 5_000 })
      .toBe(499);
  });
});

describe("rate limits", () => {
  it("answers 429 with retry-after while `concurrent` requests of the control are in flight, and admits again after", async () => {
    const ask = () => chat("fix-bug", { model: "limited", messages: [user()] });
    const first = await Promise.all([ask(), ask(), ask()]);
    expect(first.map((response) => response.status).sort()).toEqual([200, 200, 429]);
    const pushedBack = first.find((response) => response.status === 429)!;
    expect(pushedBack.headers.get("retry-after")).toBe("1");
    expect(pushedBack.headers.get("retry-after-ms")).toBeNull();
    expect(await pushedBack.json()).toEqual({
      error: {
        message: "Rate limit reached: more than 2 concurrent requests to limited",
        type: "rate_limit_error",
        code: "rate_limited",
      },
    });
    // Answered requests leave the count: two more fit again.
    const again = await Promise.all([ask(), ask()]);
    expect(again.map((response) => response.status)).toEqual([200, 200]);
  });

  it("pushes back with 503 and its own message when the control says so; other controls are not counted", async () => {
    const [first, second, other] = await Promise.all([
      chat("fix-bug", { model: "overloaded", messages: [user()] }),
      chat("fix-bug", { model: "overloaded", messages: [user()] }),
      chat("fix-bug", { model: "slow", messages: [user()] }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 503]);
    const pushedBack = first.status === 503 ? first : second;
    expect(pushedBack.headers.get("retry-after")).toBe("0.5");
    expect((await pushedBack.json()).error.message).toBe("Overloaded");
    expect(other.status).toBe(200);
  });
});

describe("routing", () => {
  it("serves /health and lists an eval's controls", async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: "ok" });
    const models = await (await fetch(`${server.baseURL("fix-bug")}/models`)).json();
    expect(models.data.map((model: { id: string }) => model.id)).toEqual([
      "talker",
      "writer",
      "failing",
      "llama-small",
      "cut",
      "slow",
      "flaky",
      "stuck",
      "limited",
      "overloaded",
    ]);
  });

  it("binds 127.0.0.1 and encodes the eval id into the base URL", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseURL("with/slash")).toBe(`${server.url}/with%2Fslash/v1`);
    expect(textOf(await readChunks(await chat("with/slash", { model: "only", messages: [user()] })))).toBe(
      "Slash eval.",
    );
  });

  it("answers an unknown control with 404 naming it and the known controls", async () => {
    const response = await chat("fix-bug", { model: "ghost", messages: [user()] });
    expect(response.status).toBe(404);
    const { error } = await response.json();
    expect(error.message).toContain('"ghost"');
    expect(error.message).toContain("talker, writer, failing, llama-small, cut, slow, flaky, stuck");
  });

  it("answers an unknown eval with 404 naming it and the known evals", async () => {
    for (const response of [
      await chat("nope", { model: "talker", messages: [user()] }),
      await fetch(`${server.baseURL("nope")}/models`),
    ]) {
      expect(response.status).toBe(404);
      const { error } = await response.json();
      expect(error.message).toContain('"nope"');
      expect(error.message).toContain("fix-bug, with/slash");
    }
  });

  it("answers malformed JSON and non-chat bodies with 400, and unknown routes with 404", async () => {
    const malformed = await chat("fix-bug", {}, { body: '{"model": "talker",' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe("invalid_json");
    const noMessages = await chat("fix-bug", { model: "talker", messages: "hi" });
    expect(noMessages.status).toBe(400);
    expect((await noMessages.json()).error.message).toContain("messages");
    expect((await fetch(`${server.url}/v1/chat/completions`)).status).toBe(404);
  });

  it("logs each request with its eval, control, step, session, tools flag and status", async () => {
    const sessionID = `log-${crypto.randomUUID()}`;
    const headers = { "content-type": "application/json", "x-session-id": sessionID };
    await (await chat("fix-bug", { model: "writer", messages: [user(), assistant, toolResult] }, { headers })).text();
    await (await chat("fix-bug", { model: "writer", messages: [user()], tools: undefined }, { headers })).text();
    await (await chat("fix-bug", { model: "failing", messages: [user()] }, { headers })).text();
    const logged = server.requests.filter((r) => r.sessionID === sessionID);
    expect(
      logged.map(({ evalId, control, step, hadTools, status }) => ({ evalId, control, step, hadTools, status })),
    ).toEqual([
      { evalId: "fix-bug", control: "writer", step: 1, hadTools: true, status: 200 },
      { evalId: "fix-bug", control: "writer", step: 0, hadTools: false, status: 200 },
      { evalId: "fix-bug", control: "failing", step: 0, hadTools: true, status: 503 },
    ]);
    expect(logged.every((r) => Math.abs(r.at - Date.now()) < 60_000)).toBe(true);
  });
});

describe("close", () => {
  it("stops serving", async () => {
    const own = await startControlServer({ controls: {} });
    expect((await fetch(`${own.url}/health`)).status).toBe(200);
    await own.close();
    await expect(fetch(`${own.url}/health`)).rejects.toThrow();
  });
});
