import { describe, expect, it } from "vitest";
import { EvidenceError } from "./errors.ts";

describe("EvidenceError: each situation's code and message come from its definition", () => {
  it("writes the message from the data the throw site passes, under the situation's code", () => {
    const error = new EvidenceError("fileNotInSnapshot", { path: "src/a.ts", revision: "final" });
    expect(error.code).toBe("OE_FILE_NOT_FOUND");
    expect(error.message).toBe(
      '"src/a.ts" is not in the final workspace snapshot; list files with workspace.files("final")',
    );
  });

  it("a situation without data takes none, and keeps the cause it is given", () => {
    const cause = new Error("disk");
    const error = new EvidenceError("noVerificationRan", undefined, { cause });
    expect([error.code, error.message, error.cause]).toEqual([
      "OE_NOT_AVAILABLE",
      "no verification ran in this context",
      cause,
    ]);
  });

  it("an eval run without a recording names its state and, as a clause, its error", () => {
    const error = new EvidenceError("evalRunUnrecorded", {
      evalRunId: "er_1",
      state: "timed_out",
      error: "The provider failed.",
    });
    expect(error.message).toBe("Eval run er_1 has no recording (state timed out: The provider failed)");
  });
});
