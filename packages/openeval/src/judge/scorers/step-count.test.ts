import { describe, expect, it } from "vitest";
import { nativeContext } from "../../recording/fixtures/native-recording.ts";
import { judgeContext } from "./fixtures/context.ts";
import { stepCount } from "./step-count.ts";

describe("stepCount", () => {
  it("counts every model step of the recording (the subagent's too) against the bounds", async () => {
    await using ctx = await nativeContext();
    expect(stepCount(ctx, { max: 4 })).toEqual({
      value: true,
      reason: "4 model steps; within the ≤ 4 allowed",
      measurements: { steps: 4, min: null, max: 4, succeeded: 4, failed: 0 },
    });
    expect(stepCount(ctx, { min: 5 })).toMatchObject({
      value: false,
      reason: "4 model steps; fewer than the ≥ 5 allowed",
    });
    expect(stepCount(ctx, { min: 1, max: 3 })).toMatchObject({
      value: false,
      reason: "4 model steps; more than the 1–3 allowed",
    });
  });

  it("refuses missing or crossed bounds", async () => {
    await using ctx = await nativeContext();
    expect(() => stepCount(ctx, {})).toThrow(/stepCount: invalid options: .*give min, max or both/);
    expect(() => stepCount(ctx, { min: 3, max: 2 })).toThrow(/min must not be above max/);
    expect(() => stepCount(ctx, { max: 1.5 })).toThrow(/stepCount: invalid options: max/);
  });

  it("is a scorer error, not a 0, on constructed evidence, which ran no model", async () => {
    await using ctx = await judgeContext();
    expect(() => stepCount(ctx, { max: 3 })).toThrow(/stepCount: this recording counts no model steps/);
  });
});
