import { describe, expect, it } from "vitest";
import type { RunSummary } from "../summary/index.ts";
import { formatCaseTable } from "./case-table.ts";

const bounded = (value: number | null, lower = value ?? 0, upper = value ?? 1) => ({ value, lower, upper });

describe("formatCaseTable", () => {
  it("one row per (eval, case), one column per candidate; an unresolved case shows its bounds", () => {
    const models = [
      {
        model: "p/a",
        evals: [
          {
            evalId: "refunds",
            criteria: {},
            ...bounded(0.5),
            cases: [
              { caseId: "late", criteria: {}, ...bounded(1) },
              { caseId: "early", criteria: {}, ...bounded(0) },
            ],
          },
          { evalId: "plain", criteria: {}, ...bounded(1) },
        ],
      },
      {
        model: "p/b",
        variant: "terse",
        evals: [
          {
            evalId: "refunds",
            criteria: {},
            ...bounded(null, 0.25, 0.75),
            cases: [
              { caseId: "late", criteria: {}, ...bounded(0.5) },
              { caseId: "early", criteria: {}, ...bounded(null) },
            ],
          },
        ],
      },
    ] as unknown as RunSummary["models"];
    expect(formatCaseTable({ models }).split("\n")).toEqual([
      "eval     case   p/a     p/b [terse]",
      "-------  -----  ------  ------------",
      "refunds  late   100.0%  50.0%",
      "refunds  early  0.0%    [0.0–100.0]%",
    ]);
    expect(formatCaseTable({ models: [] })).toBe("No eval of this run has cases.");
  });
});
