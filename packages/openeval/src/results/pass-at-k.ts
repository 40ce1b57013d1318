// pass@k and pass^k: the unbiased estimators over n repetitions with c successes, and their per-model means
// over binary criteria × evals. Products instead of binomials keep them exact-enough up to n ≈ 1000.
import type { SlotOutcome } from "./aggregate.ts";
import { mean } from "./numbers.ts";
import { groupByCandidate } from "../records/index.ts";

export interface PassK {
  model: string;
  variant?: string;
  k: number;
  /** Chance that at least one of k repetitions passes, averaged over the model's binary (eval, criterion) cells. */
  passAtK: number | null;
  /** Chance that all k repetitions pass, averaged likewise. */
  passHatK: number | null;
  /** Binary (eval, criterion) cells averaged. */
  cells: number;
  /** Why the estimates are null, else null. */
  reason: string | null;
}

/**
 * Unbiased pass@k = 1 − C(n−c, k) / C(n, k), computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i).
 * @example passAtK(5, 2, 2) // 0.7
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * Unbiased pass^k = C(c, k) / C(n, k), computed as ∏_{i=0}^{k−1} (c − i) / (n − i).
 * @example passHatK(5, 2, 2) // 0.1
 */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (c < k) return 0;
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}

/**
 * pass@k and pass^k per model, averaged over the (eval, criterion) cells whose criterion is binary: every value
 * recorded for it, by any model, is 0 or 1 (so every model is averaged over the same cells). A cell with an
 * unresolved value, or fewer than k repetitions, makes the model's estimates null with the reason.
 * @example summarizePassK(outcomes, { e: ["tests_pass"] }, 2) // [{ model, k: 2, passAtK: 0.7, passHatK: 0.1, … }]
 */
export function summarizePassK(
  outcomes: readonly SlotOutcome[],
  criteria: Readonly<Record<string, readonly string[]>>,
  k: number,
): PassK[] {
  const cells = binaryCells(outcomes, criteria);
  return groupByCandidate(outcomes).map(({ candidate, items: mine }) => {
    const empty = { ...candidate, k, passAtK: null, passHatK: null, cells: 0 };
    const byEval = Map.groupBy(mine, (outcome) => outcome.evalId);
    // An eval with cases has one run of repetitions per case: each case is counted on its own, and the cell's
    // estimate is the mean of its cases' (every case weighs the same; the cell as much as any other).
    const counted = cells
      .filter((cell) => byEval.has(cell.evalId))
      .map((cell) => ({
        ...cell,
        cases: [...Map.groupBy(byEval.get(cell.evalId)!, (outcome) => outcome.case ?? "").values()].map((repetitions) =>
          repetitions.map((outcome) => outcome.scores?.[cell.criterion] ?? null),
        ),
      }))
      .map((cell) => ({ ...cell, values: cell.cases.flat() }));
    if (counted.length === 0) return { ...empty, reason: "no binary criteria (every recorded value 0 or 1)" };
    const unresolved = counted.find((cell) => cell.values.includes(null));
    if (unresolved)
      return {
        ...empty,
        cells: counted.length,
        reason: `${unresolved.evalId}/${unresolved.criterion} has unresolved repetitions`,
      };
    const short = counted.find((cell) => cell.cases.some((values) => values.length < k));
    if (short)
      return {
        ...empty,
        cells: counted.length,
        reason: `${short.evalId} has ${Math.min(...short.cases.map((values) => values.length))} repetition(s), fewer than k = ${k}`,
      };
    const counts = counted.map((cell) =>
      cell.cases.map((values) => ({ n: values.length, c: values.filter((value) => value === 1).length })),
    );
    return {
      ...candidate,
      k,
      passAtK: mean(counts.map((cases) => mean(cases.map(({ n, c }) => passAtK(n, c, k))))),
      passHatK: mean(counts.map((cases) => mean(cases.map(({ n, c }) => passHatK(n, c, k))))),
      cells: counted.length,
      reason: null,
    };
  });
}

function binaryCells(
  outcomes: readonly SlotOutcome[],
  criteria: Readonly<Record<string, readonly string[]>>,
): { evalId: string; criterion: string }[] {
  const byEval = Map.groupBy(outcomes, (outcome) => outcome.evalId);
  return Object.entries(criteria).flatMap(([evalId, ids]) =>
    ids
      .filter((criterion) =>
        (byEval.get(evalId) ?? []).every((outcome) => {
          const value = outcome.scores?.[criterion] ?? null;
          return value === null || value === 0 || value === 1;
        }),
      )
      .map((criterion) => ({ evalId, criterion })),
  );
}

function checkCounts(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger) || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass@k needs whole numbers with 0 ≤ c ≤ n and 1 ≤ k ≤ n; got n = ${n}, c = ${c}, k = ${k}`);
  }
}
