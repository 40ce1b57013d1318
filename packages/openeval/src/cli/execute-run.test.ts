import { describe, expect, it } from "vitest";
import { parseSelection } from "./execute-run.ts";

describe("parseSelection", () => {
  it("reads --gate and --only as comma lists and refuses an empty item instead of dropping it", () => {
    expect(parseSelection({ gate: ["code-judge, gates"], only: ["gates"] })).toEqual({
      gate: ["code-judge", "gates"],
      only: ["gates"],
      noLlmJudge: false,
      noIntegrity: false,
      noInvariants: false,
    });
    expect(parseSelection({ "no-integrity": true }).noIntegrity).toBe(true);
    expect(parseSelection({ "no-invariants": true }).noInvariants).toBe(true);
    expect(() => parseSelection({ gate: [","] })).toThrow('--gate has an empty item in ","');
    expect(() => parseSelection({ only: ["gates,"] })).toThrow('--only has an empty item in "gates,"');
  });
});
