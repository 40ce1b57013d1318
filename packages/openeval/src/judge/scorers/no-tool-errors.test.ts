import { describe, expect, it } from "vitest";
import { judgeContext } from "./fixtures/context.ts";
import { noToolErrors } from "./no-tool-errors.ts";

describe("noToolErrors", () => {
  it("passes when no call failed (a command that exited non-zero completed)", async () => {
    await using ctx = await judgeContext({
      tools: [
        { name: "bash", input: { command: "false" }, output: "exit 1" },
        { name: "read", input: { filePath: "a.js" }, output: "…" },
      ],
    });
    expect(noToolErrors(ctx)).toEqual({
      value: true,
      reason: "none of 2 tool calls failed",
      measurements: { calls: 2, failed: 0, unfinished: 0, ignored: [], errors: [] },
    });
  });

  it("fails naming the first failed call, lists the failures, and counts unfinished calls apart", async () => {
    await using ctx = await judgeContext({
      tools: [
        { name: "read", input: { filePath: "missing.js" }, error: "File not found: missing.js" },
        { name: "bash", input: { command: "sleep 100" }, status: "running" },
        { name: "edit", input: {}, error: "oldString not found" },
      ],
    });
    expect(noToolErrors(ctx)).toEqual({
      value: false,
      reason: '2 of 3 tool calls failed; first: read "File not found: missing.js"',
      measurements: {
        calls: 3,
        failed: 2,
        unfinished: 1,
        ignored: [],
        errors: [
          { id: "tool_1", name: "read", error: "File not found: missing.js" },
          { id: "tool_3", name: "edit", error: "oldString not found" },
        ],
      },
    });
  });

  it("leaves out the tools named in ignore", async () => {
    await using ctx = await judgeContext({
      tools: [{ name: "webfetch", input: { url: "http://127.0.0.1:1" }, error: "refused" }],
    });
    expect(noToolErrors(ctx, { ignore: ["webfetch"] })).toMatchObject({
      value: true,
      reason: "none of 0 tool calls failed",
    });
  });

  it("refuses options it does not know", async () => {
    await using ctx = await judgeContext();
    expect(() => noToolErrors(ctx, { ignore: "read" } as never)).toThrow(/noToolErrors: invalid options: ignore/);
  });
});
