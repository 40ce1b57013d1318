import { describe, expect, it } from "vitest";
import { defaultCandidateCpus } from "./candidate-container.ts";

describe("a candidate's default CPUs", () => {
  it("leave one of the engine's CPUs to the runner and the engine, at most 2 and at least half a CPU", () => {
    expect([1, 2, 3, 4, 64].map(defaultCandidateCpus)).toEqual([0.5, 1, 2, 2, 2]);
  });

  it("are one CPU when the engine does not say how many it has", () => {
    expect(defaultCandidateCpus(null)).toBe(1);
  });
});
