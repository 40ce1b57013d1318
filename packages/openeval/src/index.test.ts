import { describe, expect, it } from "vitest";
import * as api from "./index.ts";

describe("the public API", () => {
  it("is exactly this list of runtime exports", () => {
    expect(Object.keys(api).sort()).toEqual([
      "BenchmarkInvalidError",
      "EvidenceError",
      "ReviewError",
      "RunNotFoundError",
      "VERIFICATION_IMAGE",
      "addModels",
      "compareRuns",
      "criterionMean",
      "isScored",
      "judgeEvidence",
      "loadBenchmark",
      "mergeRuns",
      "planBenchmark",
      "readRecording",
      "readResults",
      "recordEvidence",
      "removeModels",
      "resolveRun",
      "reviewEvalRun",
      "rubricCriteria",
      "runBenchmark",
      "snapshotRun",
    ]);
  });

  it("has OpenEval's judgment helpers: rubricCriteria, criterionMean, isScored", () => {
    expect(api.rubricCriteria("# R\n\n## Criterion: correct — The answer is right\n\nText.\n")).toEqual([
      { id: "correct", name: "The answer is right" },
    ]);
    expect(() => api.rubricCriteria("## Metric: old — Old\n")).toThrow(
      /old syntax; write "## Criterion: <id> — <label>"/,
    );
    expect(api.criterionMean({ a: { value: 1 }, b: { value: 0.5 } })).toBe(0.75);
    expect(api.criterionMean({ a: { value: 1 }, b: { value: null } })).toBeNull();
    expect([0, 1, 0.5, 1.5, -0.1, Number.NaN, "1"].map(api.isScored)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(api.VERIFICATION_IMAGE).toBe("openeval-verification:standard");
  });
});
