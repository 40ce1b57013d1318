import { describe, expect, it } from "vitest";
import { judgeContext } from "./fixtures/context.ts";
import { toolWasCalled } from "./tool-was-called.ts";

const TOOLS = [
  { name: "read", input: { filePath: "a.js" }, output: "…" },
  { name: "bash", input: { command: "node --test" }, error: "spawn failed" },
  { name: "bash", input: { command: "node --test" }, output: "# fail 0" },
];

describe("toolWasCalled", () => {
  it("passes when the tool was called at least minTimes (default 1)", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    expect(toolWasCalled(ctx, "read")).toEqual({
      value: true,
      reason: "1 read call; at least the 1 required",
      measurements: { tool: "read", minTimes: 1, succeededOnly: false, calls: 1, completed: 1, failed: 0, counted: 1 },
    });
    expect(toolWasCalled(ctx, "bash", { minTimes: 2 }).value).toBe(true);
  });

  it("fails when the tool was not called, or not successfully often enough", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    expect(toolWasCalled(ctx, "edit")).toMatchObject({
      value: false,
      reason: "0 edit calls; fewer than the 1 required",
    });
    expect(toolWasCalled(ctx, "bash", { minTimes: 2, succeeded: true })).toMatchObject({
      value: false,
      reason: "1 successful bash call (2 in all, 1 failed); fewer than the 2 required",
    });
    expect(toolWasCalled(ctx, "bash", { succeeded: true }).value).toBe(true);
  });

  it("refuses a minTimes that is not a positive integer", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    expect(() => toolWasCalled(ctx, "bash", { minTimes: 0 })).toThrow(/toolWasCalled: invalid options: minTimes/);
    expect(() => toolWasCalled(ctx, "bash", { minTimes: 1.5 })).toThrow(/minTimes/);
  });
});
