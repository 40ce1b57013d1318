import { describe, expect, it } from "vitest";
import { capitalizeOutcome, describeOutcome } from "./eval-run-outcome.ts";

describe("describeOutcome", () => {
  it("words an infrastructure or setup error as such, whatever state the process ended in", () => {
    expect(describeOutcome({ state: "timed_out", infrastructureError: true })).toBe("infrastructure error");
    expect(describeOutcome({ state: "failed", infrastructureError: true })).toBe("infrastructure error");
    expect(describeOutcome({ state: "failed", infrastructureError: true, setupError: true })).toBe("setup error");
    const preparationError = {
      step: 1,
      cwd: ".",
      argv: ["npm", "ci"],
      exitCode: 1,
      timedOut: false,
      outputTail: "",
      log: "eval-runs/e/logs/prepare.log",
    };
    expect(describeOutcome({ state: "failed", infrastructureError: true, preparationError })).toBe("preparation error");
    const integrityError = {
      stream: "s",
      database: "d",
      mismatches: [{ sessionID: "ses_1", quantity: "cost" as const, stream: 0.15, database: 0.002 }],
    };
    expect(describeOutcome({ state: "completed", infrastructureError: true, integrityError })).toBe("integrity error");
  });

  it("words the candidate's own endings", () => {
    expect(describeOutcome({ state: "failed", infrastructureError: false })).toBe("candidate failed");
    expect(describeOutcome({ state: "timed_out", infrastructureError: false })).toBe("timed out");
    expect(describeOutcome({ state: "token_limited", infrastructureError: false })).toBe("token limited");
    expect(describeOutcome({ state: "step_limited", infrastructureError: false })).toBe("step limited");
    expect(describeOutcome({ state: "completed", infrastructureError: false })).toBe("completed");
    expect(capitalizeOutcome("setup error")).toBe("Setup error");
  });
});
