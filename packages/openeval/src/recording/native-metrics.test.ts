import { describe, expect, it } from "vitest";
import { measureNative, unionLength, type ModelStep } from "./native-metrics.ts";

describe("unionLength", () => {
  it("counts overlapping, contained and touching intervals once, in any order", () => {
    // [0, 10] ∪ [5, 15] ∪ [2, 3] ∪ [15, 20] ∪ [30, 31] = [0, 20] + [30, 31]
    expect(unionLength([[30, 31], [5, 15], [0, 10], [2, 3], [15, 20]])).toBe(21);
    expect(unionLength([])).toBe(0);
  });
});

describe("measureNative", () => {
  const step = (overrides: Partial<ModelStep>): ModelStep => ({ usage: null, created: 0, completed: 0, failed: false, ...overrides });
  const usage = { usd: 0.001, input: 10, output: 20, reasoning: 0, cacheRead: 0, cacheWrite: 0 };

  it("gives no throughput for zero model-active time, and none without closed steps", () => {
    const instant = measureNative({ steps: [step({ usage, created: 5, completed: 5 })], tools: [], compactions: 0, retries: 0 });
    expect(instant.timing).toEqual({ modelActiveMs: 0, outputTokensPerSecond: null });

    const open = measureNative({ steps: [step({ usage, created: 5, completed: null })], tools: [], compactions: 0, retries: 0 });
    expect(open.timing).toEqual({ modelActiveMs: null, outputTokensPerSecond: null });
    expect(open.requests).toMatchObject({ started: 1, succeeded: 0, failed: 0, retries: 0 });
  });

  it("keeps cost unavailable when usage was reported without a price", () => {
    const metrics = measureNative({ steps: [step({ usage: { ...usage, usd: null } })], tools: [], compactions: 0, retries: 0 });
    expect(metrics.cost.usd).toBeNull();
    expect(metrics.tokens.output).toBe(20);
  });
});
