import { describe, expect, test } from "vitest";
import { OpenCodeError } from "./errors.ts";
import { parseModelRef } from "./model-id.ts";

describe("parseModelRef", () => {
  test("provider/model", () => {
    expect(parseModelRef("anthropic/claude-x")).toEqual({
      provider: "anthropic",
      id: "anthropic/claude-x",
      variant: null,
    });
  });

  test("model IDs may contain slashes; the variant follows the last #", () => {
    expect(parseModelRef("openrouter/anthropic/claude#high")).toEqual({
      provider: "openrouter",
      id: "openrouter/anthropic/claude",
      variant: "high",
    });
  });

  test.each(["claude", "/model", "provider/", ""])("rejects %j with an actionable error", (model) => {
    expect(() => parseModelRef(model)).toThrow(OpenCodeError);
  });
});
