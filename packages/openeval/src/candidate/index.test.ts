import { expect, test } from "vitest";
import * as candidate from "./index.ts";

test("the candidate stage exposes exactly this runtime API", () => {
  expect(Object.keys(candidate).sort()).toEqual([
    "buildCandidateImage",
    "buildEnvironmentImage",
    "candidateRuntime",
    "evalRunPaths",
    "executeCandidate",
    "findEnvironmentImage",
    "resolveCandidateImage",
  ]);
});
