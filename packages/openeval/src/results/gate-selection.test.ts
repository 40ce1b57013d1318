import { describe, expect, it } from "vitest";
import { GateSelectionError } from "./errors.ts";
import { resolveGate } from "./gate-selection.ts";

describe("resolveGate (default ◁ benchmark.ts ◁ CLI)", () => {
  it("enables every contributor by default", () => {
    expect(resolveGate()).toEqual(["code-judge", "llm-judge", "gates", "regression", "integrity", "invariants"]);
  });

  it("lets benchmark.ts switch contributors off; omitted ones stay on", () => {
    expect(resolveGate({ configured: { regression: false, gates: true } })).toEqual([
      "code-judge",
      "llm-judge",
      "gates",
      "integrity",
      "invariants",
    ]);
  });

  it("--gate sets the set outright, even over benchmark.ts", () => {
    expect(resolveGate({ configured: { regression: false }, gate: ["regression,gates"] })).toEqual([
      "gates",
      "regression",
    ]);
  });

  it("--only restricts what is enabled, and --no-llm-judge / --no-integrity / --no-invariants remove theirs", () => {
    expect(resolveGate({ configured: { regression: false }, only: ["gates", "regression"] })).toEqual(["gates"]);
    expect(resolveGate({ noLlmJudge: true })).toEqual(["code-judge", "gates", "regression", "integrity", "invariants"]);
    expect(resolveGate({ noIntegrity: true })).toEqual([
      "code-judge",
      "llm-judge",
      "gates",
      "regression",
      "invariants",
    ]);
    expect(resolveGate({ noInvariants: true })).toEqual([
      "code-judge",
      "llm-judge",
      "gates",
      "regression",
      "integrity",
    ]);
    expect(resolveGate({ configured: { invariants: false } })).not.toContain("invariants");
    expect(resolveGate({ gate: ["invariants"] })).toEqual(["invariants"]);
    expect(resolveGate({ configured: { integrity: false } })).not.toContain("integrity");
    expect(resolveGate({ only: ["integrity"] })).toEqual(["integrity"]);
    expect(resolveGate({ only: ["llm-judge"], noLlmJudge: true })).toEqual([]);
  });

  it("rejects unknown ids from the CLI or benchmark.ts, listing the valid ones", () => {
    expect(() => resolveGate({ gate: ["judges"] })).toThrow(
      'Unknown verdict contributor "judges"; valid ids are code-judge, llm-judge, gates, regression, integrity, invariants',
    );
    try {
      resolveGate({ configured: { deterministic: false }, only: ["gates", "web"] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GateSelectionError);
      expect((error as GateSelectionError).unknownIds).toEqual(["deterministic", "web"]);
      expect((error as GateSelectionError).code).toBe("OE_GATE_SELECTION_INVALID");
    }
  });
});
