import { describe, expect, it } from "vitest";
import { judgeContext } from "./fixtures/context.ts";
import { matchesPartially } from "./partial-match.ts";
import { toolSequence } from "./tool-sequence.ts";

const TOOLS = [
  { name: "read", input: { filePath: "slugify.js" }, output: "…" },
  { name: "bash", input: { command: "ls", description: "List" }, output: "a" },
  { name: "edit", input: { filePath: "slugify.js", oldString: "/", newString: "/g" }, output: "ok" },
  { name: "bash", input: { command: "node --test", timeout: 60 }, error: "spawn failed" },
  { name: "bash", input: { command: "node --test" }, output: "# fail 0" },
];

describe("toolSequence", () => {
  it("passes when the calls contain the steps in order, other calls between", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    const score = toolSequence(ctx, ["read", { name: "edit", input: { filePath: "slugify.js" } }, "bash"]);
    expect(score).toEqual({
      value: true,
      reason: "all 3 expected calls were made in order (of 5 calls)",
      measurements: {
        expected: [
          { name: "read", input: null },
          { name: "edit", input: { filePath: "slugify.js" } },
          { name: "bash", input: null },
        ],
        matched: [
          { step: 1, callId: "tool_1", callIndex: 0 },
          { step: 2, callId: "tool_3", callIndex: 2 },
          { step: 3, callId: "tool_4", callIndex: 3 },
        ],
        missingStep: null,
        calls: ["read", "bash", "edit", "bash", "bash"],
        succeededOnly: false,
      },
    });
  });

  it("fails when the order differs, naming the first step no later call matched", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    const score = toolSequence(ctx, ["edit", "read"]);
    expect(score.value).toBe(false);
    expect(score.reason).toBe("matched 1 of 2 expected calls; no call after call 3 matched step 2 (read) (of 5 calls)");
    expect(score.measurements.missingStep).toBe(2);
  });

  it("matches inputs partially: named keys only, RegExp against strings, nested objects and arrays", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    expect(toolSequence(ctx, [{ name: "bash", input: { command: /^node --test$/ } }]).value).toBe(true);
    expect(toolSequence(ctx, [{ name: "edit", input: { filePath: "other.js" } }]).reason).toContain(
      'step 1 (edit {"filePath":"other.js"})',
    );
    expect(toolSequence(ctx, [{ name: "bash", input: { command: /pytest/ } }]).value).toBe(false);
    expect(matchesPartially({ a: { b: [1, { c: 2, d: 3 }] } }, { a: { b: [1, { c: 2 }] } })).toBe(true);
    expect(matchesPartially({ a: [1, 2] }, { a: [1] })).toBe(false);
    expect(matchesPartially({ a: null }, { a: null })).toBe(true);
    expect(matchesPartially({}, { a: null })).toBe(false);
  });

  it("with succeeded, a failed call does not count", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    const steps = ["edit", { name: "bash", input: { timeout: 60 } }];
    expect(toolSequence(ctx, steps).value).toBe(true);
    expect(toolSequence(ctx, steps, { succeeded: true }).value).toBe(false);
  });

  it("reports a RegExp pattern as its source in measurements", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    expect(toolSequence(ctx, [{ name: "bash", input: { command: /test/i } }]).measurements.expected).toEqual([
      { name: "bash", input: { command: "/test/i" } },
    ]);
  });

  it("refuses an empty sequence, a step without a name, and unknown options", async () => {
    await using ctx = await judgeContext({ tools: TOOLS });
    expect(() => toolSequence(ctx, [])).toThrow(/toolSequence: expected must be a non-empty list/);
    expect(() => toolSequence(ctx, [{ input: {} } as never])).toThrow(/toolSequence: expected must be/);
    expect(() => toolSequence(ctx, ["read"], { strict: true } as never)).toThrow(
      /toolSequence: invalid options: .*strict/,
    );
  });
});
