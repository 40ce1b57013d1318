import { describe, expect, it } from "vitest";
import { charSimilarity, lcsLength } from "./char-similarity.ts";

/** The textbook O(n·m) dynamic programme, to check the bit-parallel one against. */
function lcsByTable(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  let previous = new Array<number>(right.length + 1).fill(0);
  for (const char of left) {
    const row = [0];
    right.forEach((other, j) => row.push(char === other ? previous[j]! + 1 : Math.max(previous[j + 1]!, row[j]!)));
    previous = row;
  }
  return previous[right.length]!;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

describe("charSimilarity", () => {
  it("is 2·LCS / (|a| + |b|): hand-computed pairs", () => {
    expect(charSimilarity("x = 1", "x = 2").ratio).toBe(0.8); // LCS "x = ": 2·4 / 10
    expect(charSimilarity("abc", "abd").ratio).toBeCloseTo(2 / 3, 12); // LCS "ab": 2·2 / 6
    expect(charSimilarity("kitten", "sitting").ratio).toBeCloseTo(8 / 13, 12); // LCS "ittn": 2·4 / 13
    expect(charSimilarity("same", "same")).toEqual({ ratio: 1, truncated: false });
  });

  it("gives 1 for two empty texts (nothing differs) and 0 when only one side is empty", () => {
    expect(charSimilarity("", "").ratio).toBe(1);
    expect(charSimilarity("", "abc").ratio).toBe(0);
    expect(charSimilarity("abc", "").ratio).toBe(0);
  });

  it("counts code points, not UTF-16 units", () => {
    expect(charSimilarity("a😀", "b😀").ratio).toBe(0.5); // 2·1 / 4
  });

  it("agrees with the dynamic programme on random texts across word boundaries (31–130 characters)", () => {
    const random = seeded(7);
    for (let trial = 0; trial < 200; trial++) {
      const text = () =>
        Array.from({ length: 31 + Math.floor(random() * 100) }, () => "ab c\n(x)"[Math.floor(random() * 8)]).join("");
      const [a, b] = [text(), text()];
      expect(
        lcsLength(
          [...a].map((c) => c.codePointAt(0)!),
          [...b].map((c) => c.codePointAt(0)!),
        ),
        `${a} / ${b}`,
      ).toBe(lcsByTable(a, b));
      expect(charSimilarity(a, b).ratio).toBeCloseTo((2 * lcsByTable(a, b)) / (a.length + b.length), 12);
    }
  });

  // Speed is measured by the benchmark script, not asserted here.
  it("compares a few KB whole", () => {
    const random = seeded(11);
    const text = () =>
      Array.from({ length: 8_000 }, () => String.fromCharCode(32 + Math.floor(random() * 60))).join("");
    const [a, b] = [text(), text()];
    const { ratio, truncated } = charSimilarity(a, b);
    expect(truncated).toBe(false);
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(1);
  });

  it("bounds huge inputs: beyond the limit it compares a prefix, says so, and the ratio is a lower bound", () => {
    const a = "ab".repeat(60);
    const b = "ba".repeat(60);
    const exact = charSimilarity(a, b, 1_000);
    const bounded = charSimilarity(a, b, 50);
    expect(exact.truncated).toBe(false);
    expect(bounded.truncated).toBe(true);
    expect(bounded.ratio).toBeLessThanOrEqual(exact.ratio);
    expect(bounded.ratio).toBeGreaterThan(0);
  });

  it("keeps a short side whole and cuts only the long one to fit the budget", () => {
    const short = "needle";
    const long = `${"-".repeat(450)}needle${"-".repeat(50)}`;
    const bounded = charSimilarity(short, long, 50); // budget 2,500 pairs: all 6 against the first 416 of 506
    expect(bounded.truncated).toBe(true);
    expect(bounded.ratio).toBe(0); // "needle" sits past the cut: a lower bound, never an overstatement
    expect(charSimilarity(short, long).ratio).toBeCloseTo(12 / 512, 12);
  });

  it("strips a shared prefix and suffix exactly before any bound applies", () => {
    const shared = "x".repeat(10_000);
    expect(charSimilarity(`${shared}a${shared}`, `${shared}b${shared}`, 10)).toEqual({
      ratio: 40_000 / 40_002,
      truncated: false,
    });
  });
});
