// Measurement 12: what adaptive repetitions save. Simulated A/B comparisons (no model calls): a variant that passes each
// eval with probability 0.8 against a current at 0.3 (over 8 and over 20 evals: more evals give more pairs a round),
// and two identical arms at 0.5, each run with repetitions { min: 2, max: 10 } as the runner's stopping rule decides
// them (results/sequential-decision.ts), against a fixed 10. Dollars are the slots run at a simulated $0.05 a slot.
import { createRandom } from "../packages/openeval/src/results/bootstrap.ts";
import { simulateComparison } from "../packages/openeval/src/results/fixtures/simulate-comparison.ts";
import { round } from "./lib/stats.ts";
import type { Section } from "./lib/table.ts";

const MIN = 2;
const MAX = 10;
const SLOT_USD = 0.05;

export interface AdaptiveCase {
  name: string;
  comparisons: number;
  /** Mean repetitions a slot ran, adaptive. */
  meanRepetitions: number;
  /** Share of comparisons decided "different" by max. */
  decidedShare: number;
  adaptiveUSD: number;
  fixedUSD: number;
}

export function measureAdaptive(options: { comparisons: number }): AdaptiveCase[] {
  const cases = [
    { name: "real difference (0.8 against 0.3), 8 evals", evals: 8, a: 0.8, b: 0.3 },
    { name: "real difference (0.8 against 0.3), 20 evals", evals: 20, a: 0.8, b: 0.3 },
    { name: "identical arms (0.5 and 0.5), 20 evals", evals: 20, a: 0.5, b: 0.5 },
  ];
  return cases.map((entry) => {
    const random = createRandom(7);
    let repetitions = 0;
    let decided = 0;
    for (let index = 0; index < options.comparisons; index++) {
      const outcome = simulateComparison(
        { a: Array(entry.evals).fill(entry.a), b: Array(entry.evals).fill(entry.b), min: MIN, max: MAX },
        random,
      );
      repetitions += outcome.repetitions;
      if (outcome.decision === "different") decided++;
    }
    const meanRepetitions = repetitions / options.comparisons;
    const slotsPerRepetition = 2 * entry.evals;
    return {
      name: entry.name,
      comparisons: options.comparisons,
      meanRepetitions: round(meanRepetitions, 2),
      decidedShare: round(decided / options.comparisons, 3),
      adaptiveUSD: round(meanRepetitions * slotsPerRepetition * SLOT_USD, 2),
      fixedUSD: round(MAX * slotsPerRepetition * SLOT_USD, 2),
    };
  });
}

export function sectionAdaptive(cases: AdaptiveCase[]): Section {
  return {
    title: `12. Adaptive repetitions: an A/B with min ${MIN}, max ${MAX}, against a fixed ${MAX} (simulated, $${SLOT_USD} a slot)`,
    columns: [
      "comparison",
      "runs",
      "mean repetitions",
      "decided different",
      "adaptive $",
      "fixed $",
      "adaptive / fixed",
    ],
    rows: cases.map((entry) => [
      entry.name,
      entry.comparisons,
      entry.meanRepetitions,
      `${(100 * entry.decidedShare).toFixed(1)}%`,
      entry.adaptiveUSD.toFixed(2),
      entry.fixedUSD.toFixed(2),
      (entry.adaptiveUSD / entry.fixedUSD).toFixed(2),
    ]),
    notes: [
      "Identical arms should run to max and be decided different at most 5% of the time (the rule's error rate).",
    ],
  };
}
