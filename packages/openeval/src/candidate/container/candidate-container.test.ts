import { describe, expect, it } from "vitest";
import { defaultCandidateCpus } from "./candidate-container.ts";

describe("a candidate's default CPUs", () => {
  it("are the engine host's CPUs, at most 2", () => {
    expect([1, 2, 3, 4, 64].map(defaultCandidateCpus)).toEqual([1, 2, 2, 2, 2]);
  });

  it("are one CPU when the engine does not say how many it has", () => {
    expect(defaultCandidateCpus(null)).toBe(1);
  });
});
