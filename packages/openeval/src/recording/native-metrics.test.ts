import { describe, expect, it } from "vitest";
import { measureNative, unionLength, type ModelStep } from "./native-metrics.ts";

describe("unionLength", () => {
  it("counts overlapping, contained and touching intervals once, in any order", () => {
    // [0, 10] ∪ [5, 15] ∪ [2, 3] ∪ [15, 20] ∪ [30, 31] = [0, 20] + [30, 31]
    expect(
      unionLength([
        [30, 31],
        [5, 15],
        [0, 10],
        [2, 3],
        [15, 20],
      ]),
    ).toBe(21);
    expect(unionLength([])).toBe(0);
  });
});

describe("measureNative", () => {
  const step = (overrides: Partial<ModelStep>): ModelStep => ({
    usage: null,
    created: 0,
    completed: 0,
    failed: false,
    ...overrides,
  });
  const usage = { usd: 0.001, input: 10, output: 20, reasoning: 0, cacheRead: 0, cacheWrite: 0 };

  it("gives no throughput for zero model-active time, and none without a streamed span", () => {
    const instant = measureNative({
      steps: [step({ usage, created: 5, completed: 5, generating: [5, 5] })],
      tools: [],
      compactions: 0,
      retries: 0,
    });
    expect(instant.timing).toEqual({ modelActiveMs: 0, outputTokensPerSecond: null });

    const open = measureNative({
      steps: [step({ usage, created: 5, completed: null })],
      tools: [],
      compactions: 0,
      retries: 0,
    });
    expect(open.timing).toEqual({ modelActiveMs: null, outputTokensPerSecond: null });
    expect(open.requests).toMatchObject({ started: 1, succeeded: 0, failed: 0, retries: 0 });
  });

  it("times the model from first to last byte of each step, not from the request: waiting and tools are not generation", () => {
    // Requested at 0, first byte at 4000 (queue + prompt processing), last byte at 5000, tool ran until 9000.
    const slow = step({ usage, created: 0, completed: 9_000, generating: [4_000, 5_000] });
    // Two overlapping subagent steps: union for active time, each step's own span for the rate.
    const a = step({ usage, created: 10_000, completed: 12_000, generating: [10_000, 12_000] });
    const b = step({ usage, created: 11_000, completed: 13_000, generating: [11_000, 13_000] });
    const metrics = measureNative({ steps: [slow, a, b], tools: [], compactions: 0, retries: 0 });
    // 1000 + [10000, 13000] = 4000 ms active; 60 output tokens over 1 + 2 + 2 = 5 s of streaming.
    expect(metrics.timing).toEqual({ modelActiveMs: 4_000, outputTokensPerSecond: 12 });
  });

  it("keeps cost unavailable when usage was reported without a price", () => {
    const metrics = measureNative({
      steps: [step({ usage: { ...usage, usd: null } })],
      tools: [],
      compactions: 0,
      retries: 0,
    });
    expect(metrics.cost.usd).toBeNull();
    expect(metrics.tokens.output).toBe(20);
  });
});
