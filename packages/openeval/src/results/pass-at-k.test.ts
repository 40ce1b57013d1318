import { describe, expect, it } from "vitest";
import type { SlotOutcome } from "./aggregate.ts";
import { passAtK, passHatK, summarizePassK } from "./pass-at-k.ts";

const slot = (evalId: string, repetition: number, scores: SlotOutcome["scores"], model = "m/a"): SlotOutcome => ({
  evalId,
  model,
  variant: "current",
  repetition,
  scores,
  costUSD: null,
  elapsedMs: null,
});

/** C(n, k) exactly, for checking the product forms. */
function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

describe("passAtK / passHatK", () => {
  it("matches the hand-computed n = 5, c = 2, k = 2: pass@2 = 1 − C(3,2)/C(5,2) = 0.7, pass^2 = C(2,2)/C(5,2) = 0.1", () => {
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 12);
  });

  it("reduces to c/n at k = 1 and handles all-pass and all-fail", () => {
    expect(passAtK(4, 1, 1)).toBeCloseTo(0.25, 12);
    expect(passHatK(4, 1, 1)).toBeCloseTo(0.25, 12);
    expect([passAtK(5, 5, 5), passHatK(5, 5, 5)]).toEqual([1, 1]);
    expect([passAtK(5, 0, 3), passHatK(5, 0, 3)]).toEqual([0, 0]);
  });

  it("stays exact at n = 100 where the binomials overflow doubles' integers", () => {
    // C(99,50)/C(100,50) = 50/100.
    expect(passAtK(100, 1, 50)).toBeCloseTo(0.5, 12);
    expect(passHatK(100, 99, 50)).toBeCloseTo(0.5, 12);
    const exact = 1 / Number(binomial(100, 50));
    expect(passHatK(100, 50, 50) / exact).toBeCloseTo(1, 9);
    expect(passAtK(100, 30, 10)).toBeCloseTo(1 - Number(binomial(70, 10)) / Number(binomial(100, 10)), 12);
  });

  it("rejects impossible counts", () => {
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 4)).toThrow(/1 ≤ k ≤ n/);
    expect(() => passHatK(3, 1, 0)).toThrow(RangeError);
    expect(() => passHatK(3, 1.5, 1)).toThrow(RangeError);
  });
});

describe("summarizePassK", () => {
  const binary = [1, 0, 1, 0, 0];
  const outcomes = [
    ...binary.map((value, index) => slot("e", index + 1, { t: value })),
    ...binary.map((_, index) => slot("f", index + 1, { u: 1, g: index === 0 ? 0.5 : 1 })),
    ...binary.map((_, index) => slot("f", index + 1, { u: 1, g: 1 }, "m/b")),
  ];
  const criteria = { e: ["t"], f: ["u", "g"] };

  it("averages over binary (eval, criterion) cells: (0.7 + 1) / 2 and (0.1 + 1) / 2", () => {
    const [a] = summarizePassK(outcomes, criteria, 2);
    expect(a).toMatchObject({ model: "m/a", k: 2, cells: 2, reason: null });
    expect(a!.passAtK).toBeCloseTo(0.85, 12);
    expect(a!.passHatK).toBeCloseTo(0.55, 12);
  });

  it("decides binariness over every model, so g (0.5 once for m/a) is graded for m/b too", () => {
    const [, b] = summarizePassK(outcomes, criteria, 2);
    expect(b).toMatchObject({ model: "m/b", cells: 1, passAtK: 1, passHatK: 1 });
  });

  it("gives null with the reason for k above the repetitions, or unresolved values", () => {
    expect(summarizePassK(outcomes, criteria, 6)[0]).toMatchObject({
      passAtK: null,
      reason: expect.stringMatching(/fewer than k = 6/),
    });
    const unresolved = summarizePassK([slot("e", 1, { t: 1 }), slot("e", 2, null)], { e: ["t"] }, 1)[0];
    expect(unresolved).toMatchObject({ passAtK: null, passHatK: null, reason: "e/t has unresolved repetitions" });
    expect(summarizePassK([slot("e", 1, { s: 0.3 })], { e: ["s"] }, 1)[0]!.reason).toMatch(/no binary criteria/);
  });
});

describe("summarizePassK with cases", () => {
  it("counts each case's repetitions on their own: a cell's estimate is the mean of its cases'", () => {
    const cased = (caseId: string, repetition: number, value: number) => ({
      ...slot("c", repetition, { t: value }),
      case: caseId,
    });
    // Case a passes both repetitions, case b neither: pass^2 is (1 + 0) / 2, not the 1/6 of four mixed repetitions.
    const [summary] = summarizePassK(
      [cased("a", 1, 1), cased("a", 2, 1), cased("b", 1, 0), cased("b", 2, 0)],
      { c: ["t"] },
      2,
    );
    expect(summary).toMatchObject({ cells: 1, passAtK: 0.5, passHatK: 0.5, reason: null });
  });
});
