import { describe, expect, it } from "vitest";
import { isPriced, unpricedReason } from "./model-pricing.ts";

describe("isPriced", () => {
  const providers = {
    local: { models: { qwen: { name: "Qwen" }, priced: { name: "P", cost: { input: 0, output: 0 } } } },
    control: { models: { positive: { name: "p" } } },
  };

  it("is false for a configured model declared without cost, whatever its variant", () => {
    expect(isPriced("local/qwen", providers)).toBe(false);
    expect(isPriced("local/qwen#fast", providers)).toBe(false);
  });

  it("is true for a declared price (a price of 0 is a price), for catalog models and for controls", () => {
    expect(isPriced("local/priced", providers)).toBe(true);
    expect(isPriced("anthropic/claude-sonnet-4-5", providers)).toBe(true);
    expect(isPriced("control/positive", providers)).toBe(true);
  });

  it("says what to add", () => {
    expect(unpricedReason("local/qwen")).toContain("candidate.providers.local.models declares it without `cost`");
  });
});
