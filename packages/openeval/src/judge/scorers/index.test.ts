import { describe, expect, it } from "vitest";
import * as scorers from "./index.ts";

describe("openeval/scorers", () => {
  it("is exactly this list of runtime exports", () => {
    expect(Object.keys(scorers).sort()).toEqual([
      "DEFAULT_REFERENCE",
      "DEFAULT_WEIGHTS",
      "DiffSyntaxError",
      "MAX_COMPARED_CHARS",
      "SCORERS_VERSION",
      "ScorerError",
      "charSimilarity",
      "exactMatch",
      "filesChanged",
      "jsonShape",
      "noToolErrors",
      "parseUnifiedDiff",
      "referenceFix",
      "stepCount",
      "toolSequence",
      "toolWasCalled",
    ]);
    expect(scorers.SCORERS_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
