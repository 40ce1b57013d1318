import { describe, expect, it } from "vitest";
import { OpenCodeError } from "../opencode/index.ts";
import { StoreError } from "../records/index.ts";
import { ExportError } from "../view/index.ts";
import { formatCliError, UsageError } from "./errors.ts";

describe("formatCliError: one formatter keyed on the error base", () => {
  it("prints any stage's actionable error briefly, with the exit code it carries", () => {
    // OpenCodeError and ExportError were once missing from a hand-kept list, and printed as bugs with a stack.
    for (const error of [
      new OpenCodeError("modelInvalid", { model: "p" }),
      new ExportError("targetNotEmpty", { output: "out/" }),
      new UsageError("outputMissing"),
      new StoreError("noRunRecord", { directory: "results/r" }),
    ]) {
      expect(formatCliError(error)).toEqual({
        message: `error ${error.code}: ${error.message}`,
        exitCode: 2,
        json: { error: { code: error.code, message: error.message } },
      });
    }
  });

  it("prints anything else as a bug to report, with its stack, exit 3", () => {
    const formatted = formatCliError(new TypeError("x is undefined"));
    expect(formatted.exitCode).toBe(3);
    expect(formatted.message).toMatch(/^Unexpected error \(please report it\):\nTypeError: x is undefined\n\s+at /);
    expect(formatted.json).toEqual({ error: { code: null, message: "x is undefined" } });
  });
});
