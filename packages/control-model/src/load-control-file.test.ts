import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlFileError } from "./errors.ts";
import { loadControlFile } from "./load-control-file.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "control-file-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeControl(name: string, content: unknown): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

async function loadError(path: string): Promise<ControlFileError> {
  const error = await loadControlFile(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ControlFileError);
  return error as ControlFileError;
}

describe("loadControlFile", () => {
  it("accepts a file using every field", async () => {
    const file = {
      turns: [
        {
          reasoning: "Plan first.",
          text: "Creating it.",
          tools: [{ name: "write", input: { filePath: "a.txt", content: "a" } }],
          delayMs: 10,
          usage: { input: 100, output: 5 },
        },
        { error: { status: 503, message: "overloaded" }, delayMs: 0 },
        { text: "Done." },
      ],
      verdict: {
        correct: { value: true, reason: "The file exists." },
        quality: { value: 0.5, reason: "Terse." },
        style: { value: null, reason: "Not applicable." },
      },
      earlyCheck: "continue",
    };
    expect(await loadControlFile(await writeControl("valid", file))).toEqual(file);
  });

  it.each([
    ["no turns", {}, "turns"],
    ["empty turns", { turns: [] }, "turns"],
    ["a tool without a name", { turns: [{ tools: [{ input: {} }] }] }, "turns[0].tools[0].name"],
    [
      "a tool input that is not an object",
      { turns: [{}, { tools: [{ name: "bash", input: ["ls"] }] }] },
      "turns[1].tools[0].input",
    ],
    ["an empty tools list", { turns: [{ tools: [] }] }, "turns[0].tools"],
    ["text that is not a string", { turns: [{ text: 42 }] }, "turns[0].text"],
    ["a negative delay", { turns: [{ delayMs: -1 }] }, "turns[0].delayMs"],
    ["fractional usage", { turns: [{ usage: { input: 1.5, output: 1 } }] }, "turns[0].usage.input"],
    ["an error status that is not an error", { turns: [{ error: { status: 200 } }] }, "turns[0].error.status"],
    ["an error turn that also speaks", { turns: [{ error: { status: 500 }, text: "hi" }] }, "turns[0].error"],
    ["a misspelled key", { turns: [{ tool_calls: [] }] }, "tool_calls"],
    [
      "an error with both a message and a body",
      { turns: [{ error: { status: 400, message: "m", body: {} } }] },
      "turns[0].error",
    ],
    [
      "a cut turn that calls tools",
      { turns: [{ finishReason: "length", tools: [{ name: "bash", input: {} }] }] },
      "turns[0].finishReason",
    ],
    [
      "a transient failure with a status OpenCode does not retry",
      { turns: [{ failFirst: { times: 1, status: 400 } }] },
      "turns[0].failFirst.status",
    ],
    [
      "a transient failure on an error turn",
      { turns: [{ error: { status: 500 }, failFirst: { times: 1, status: 503 } }] },
      "turns[0].failFirst",
    ],
    [
      "a transient failure more often than OpenCode retries",
      { turns: [{ failFirst: { times: 6, status: 503 } }] },
      "turns[0].failFirst.times",
    ],
    ["a finish reason other than length", { turns: [{ finishReason: "stop" }] }, "turns[0].finishReason"],
    [
      "a verdict value that is a string",
      { turns: [{}], verdict: { correct: { value: "yes", reason: "r" } } },
      "verdict.correct.value",
    ],
    [
      "a verdict with a blank reason",
      { turns: [{}], verdict: { correct: { value: true, reason: "  " } } },
      "verdict.correct.reason",
    ],
    ["an early check that is neither decide nor continue", { turns: [{}], earlyCheck: "maybe" }, "earlyCheck"],
    [
      "a rate limit with a status other than 429 or 503",
      { turns: [{}], rateLimit: { concurrent: 2, retryAfter: 1, status: 500 } },
      "rateLimit.status",
    ],
    [
      "a rate limit that admits no request",
      { turns: [{}], rateLimit: { concurrent: 0, retryAfter: 1 } },
      "rateLimit.concurrent",
    ],
    ["a rate limit without retryAfter", { turns: [{}], rateLimit: { concurrent: 2 } }, "rateLimit.retryAfter"],
  ])("rejects %s, naming the path, the field and where the format is described", async (name, content, field) => {
    const path = await writeControl(name.replaceAll(" ", "-"), content);
    const error = await loadError(path);
    expect(error.code).toBe("OE_CONTROL_FILE_INVALID");
    expect(error.path).toBe(path);
    expect(error.message).toContain(path);
    expect(error.message).toContain(field);
    expect(error.message).toContain("(format: docs/control-files.md)");
  });

  it("rejects malformed JSON as invalid, naming the path", async () => {
    const path = await writeControl("malformed", '{"turns": [');
    const error = await loadError(path);
    expect(error.code).toBe("OE_CONTROL_FILE_INVALID");
    expect(error.message).toContain(path);
    expect(error.message).toContain("not valid JSON");
  });

  it("reports a missing file as unreadable, naming the path", async () => {
    const path = join(dir, "missing.json");
    const error = await loadError(path);
    expect(error.code).toBe("OE_CONTROL_FILE_UNREADABLE");
    expect(error.message).toContain(path);
    expect(error.cause).toBeDefined();
  });
});
