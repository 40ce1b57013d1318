import { describe, expect, it } from "vitest";
import { exactMatch } from "./exact-match.ts";
import { judgeContext } from "./fixtures/context.ts";

describe("exactMatch", () => {
  it("passes when the response equals the expected text, trimmed and case-sensitive by default", async () => {
    await using ctx = await judgeContext({ response: "APPLE\n" });
    expect(exactMatch(ctx, "APPLE")).toEqual({
      value: true,
      reason: 'the response equals "APPLE" (trimmed, case-sensitive)',
      measurements: { expected: "APPLE", received: "APPLE\n", trim: true, caseSensitive: true },
    });
  });

  it("fails on a different answer, on case unless told otherwise, and on whitespace with trim: false", async () => {
    await using ctx = await judgeContext({ response: " Apple " });
    expect(exactMatch(ctx, "APPLE")).toMatchObject({
      value: false,
      reason: 'expected "APPLE", the response is " Apple " (trimmed, case-sensitive)',
    });
    expect(exactMatch(ctx, "APPLE", { caseSensitive: false }).value).toBe(true);
    expect(exactMatch(ctx, "apple", { caseSensitive: false, trim: false }).value).toBe(false);
    expect(exactMatch(ctx, "PEAR").value).toBe(false);
  });

  it("refuses options it does not know", async () => {
    await using ctx = await judgeContext({ response: "APPLE" });
    expect(() => exactMatch(ctx, "APPLE", { ignoreCase: true } as never)).toThrow(
      /exactMatch: invalid options: unknown key "ignoreCase"/,
    );
  });
});
