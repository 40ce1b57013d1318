import { describe, expect, it } from "vitest";
import * as api from "./index.ts";

describe("the public API", () => {
  it("is exactly this list of runtime exports", () => {
    expect(Object.keys(api).sort()).toEqual(["BenchmarkInvalidError", "EvidenceError", "compareRuns", "judgeEvidence", "loadBenchmark", "planBenchmark", "readRecording", "readResults", "recordEvidence", "runBenchmark"]);
  });
});
