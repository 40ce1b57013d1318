// Per-model statistics beyond the equal-weight score: its 95% confidence interval, a paired comparison
// of two models, and cost and time. Point scores come from aggregate.ts; this file only adds uncertainty and spend.
import type { ModelSummary, SlotOutcome } from "./aggregate.ts";
import { bootstrapInterval, pick, type BootstrapOptions, type Interval, type Random } from "./bootstrap.ts";
import { median } from "../util/median.ts";
import { mean, quantile } from "./numbers.ts";
import { candidateName, groupByCandidate, type CandidateRef } from "../records/index.ts";

/** A slot as the gates and cost/time statistics see it: its outcome plus whether (and when) it was executed. */
export interface SlotObservation extends SlotOutcome {
  /** An eval run exists for the slot. A slot never executed has no spend and no time, rather than unknown ones. */
  executed: boolean;
  /** The eval run was executed by this invocation; a reused recording is not a live measurement. */
  fresh: boolean;
}

export interface ScoreInterval {
  model: string;
  variant?: string;
  /** 95% interval of the model's 0–100 score; null with `reason` when it cannot be computed. */
  interval: Interval | null;
  reason: string | null;
}

/**
 * 95% confidence interval of each model's score: a percentile bootstrap clustered by eval — resample the evals
 * with replacement, then within each drawn eval resample its repetitions — seeded, B = 2000 by default. Needs
 * ≥ 2 repetitions of every eval and a resolved point score; otherwise null with the reason.
 * @example scoreIntervals(outcomes, { a: ["x"], b: ["y"] }) // [{ model: "m/a", interval: { lower: 0, upper: 100 }, reason: null }]
 */
export function scoreIntervals(
  outcomes: readonly SlotOutcome[],
  criteria: Readonly<Record<string, readonly string[]>>,
  options: BootstrapOptions = {},
): ScoreInterval[] {
  return groupByCandidate(outcomes).map(({ candidate, items }) => {
    const evals = Map.groupBy(items, (outcome) => outcome.evalId);
    const few = [...evals].find(([, repetitions]) => repetitions.length < 2);
    if (few)
      return { ...candidate, interval: null, reason: `needs ≥ 2 repetitions per eval; ${few[0]} has ${few[1].length}` };
    const clusters: number[][] = [];
    for (const [evalId, repetitions] of evals) {
      const scores = repetitions.map((outcome) => repetitionScore(outcome, criteria[evalId] ?? []));
      if (scores.includes(null))
        return {
          ...candidate,
          interval: null,
          reason: `score unresolved (${evalId} has unjudged or unresolved repetitions)`,
        };
      clusters.push(scores as number[]);
    }
    const resampleMean = clusteredResampler(clusters);
    const interval = bootstrapInterval((random) => 100 * resampleMean(random), {
      ...options,
      subject: candidateName(candidate),
    });
    return { ...candidate, interval, reason: null };
  });
}

/** One plain resample's mean (as many draws as values), summed in draw order without an array of the draws. */
function resampleMean(values: readonly number[], random: Random): number {
  let sum = 0;
  for (let index = 0; index < values.length; index++) sum += pick(values, random);
  return sum / values.length;
}

/**
 * One clustered resample's mean: draw as many clusters as there are, then within each drawn cluster as many values
 * as it holds; the mean of the drawn clusters' means. Loops instead of mapped arrays (the same draws in the same
 * order, summed in the same order), and one array of drawn clusters for every resample: a new one per resample was
 * 2,000 × 8 bytes per eval per model of garbage, ~150 MB at its peak for 1,000 evals × 10 models.
 * A cluster whose values are all equal (every repetition scored alike, the usual case) resamples to the same mean
 * whatever is drawn: its draws are skipped, not made (the stream goes on as if they had been), and its mean is summed
 * once, in the same order, so every interval is the one the draws give, to the last bit.
 */
function clusteredResampler(clusters: readonly (readonly number[])[]): (random: Random) => number {
  const constantMeans = clusters.map((cluster) =>
    cluster.every((value) => value === cluster[0]) ? sumInOrder(cluster) / cluster.length : null,
  );
  const drawn = new Int32Array(clusters.length);
  return (random) => {
    for (let index = 0; index < clusters.length; index++) drawn[index] = Math.floor(random() * clusters.length);
    let total = 0;
    for (let draw = 0; draw < drawn.length; draw++) {
      const index = drawn[draw]!;
      const constant = constantMeans[index]!;
      if (constant === null) total += resampleMean(clusters[index]!, random);
      else {
        random.skip(clusters[index]!.length);
        total += constant;
      }
    }
    return total / drawn.length;
  };
}

/** The sum a resample of `values` makes when each draw is `values[0]` (all equal): added one at a time, as drawn. */
function sumInOrder(values: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < values.length; index++) sum += values[0]!;
  return sum;
}

/**
 * One repetition's equal-weight score: the mean of its criteria. With every criterion resolved, the mean of these
 * over repetitions equals aggregate.ts's eval score (criterion means, then their mean). Null when unresolved.
 * @example repetitionScore({ …, scores: { code: 0.5, llm: 1 } }, ["code", "llm"]) // 0.75
 */
export function repetitionScore(outcome: SlotOutcome, criterionIds: readonly string[]): number | null {
  if (criterionIds.length === 0 || outcome.scores === null) return null;
  const values = criterionIds.map((id) => outcome.scores?.[id] ?? null);
  return values.includes(null) ? null : mean(values as number[]);
}

export interface PairedComparison {
  a: string;
  b: string;
  /** Per eval, in points (0–100): a's eval score, b's, and a − b. */
  differences: { evalId: string; a: number; b: number; difference: number }[];
  /** Mean of the per-eval differences, in points; null when no eval is paired. */
  meanDifference: number | null;
  /** 95% paired-bootstrap interval of `meanDifference`; null with `reason` below 2 paired evals. */
  interval: Interval | null;
  reason: string | null;
  /** Evals left out of the pairing, with why (missing or unresolved for one of the models). */
  excluded: { evalId: string; reason: string }[];
}

/**
 * Paired comparison of model `a` against `b` over the evals both have resolved scores for: per-eval differences,
 * their mean × 100, and a seeded percentile bootstrap over evals (each draw keeps an eval's pair together).
 * @example compareModels(aggregateScores(outcomes, criteria), "m/a", "m/b") // { meanDifference: 25, interval: { lower: 0, upper: 50 }, … }
 */
export function compareModels(
  summaries: readonly Pick<ModelSummary, "model" | "variant" | "evals">[],
  a: string,
  b: string,
  options: BootstrapOptions = {},
): PairedComparison {
  const scoresOf = (name: string) =>
    new Map(
      summaries
        .find((summary) => candidateName(summary) === name)
        ?.evals.map((evaluation) => [evaluation.evalId, evaluation.value]) ?? [],
    );
  const [left, right] = [scoresOf(a), scoresOf(b)];
  const differences: PairedComparison["differences"] = [];
  const excluded: PairedComparison["excluded"] = [];
  for (const evalId of [...new Set([...left.keys(), ...right.keys()])].sort()) {
    const [x, y] = [left.get(evalId), right.get(evalId)];
    if (x === undefined || y === undefined) excluded.push({ evalId, reason: `missing for ${x === undefined ? a : b}` });
    else if (x === null || y === null) excluded.push({ evalId, reason: `unresolved for ${x === null ? a : b}` });
    else differences.push({ evalId, a: 100 * x, b: 100 * y, difference: 100 * (x - y) });
  }
  const deltas = differences.map((pair) => pair.difference);
  const meanDifference = deltas.length === 0 ? null : mean(deltas);
  if (deltas.length < 2)
    return {
      a,
      b,
      differences,
      meanDifference,
      interval: null,
      reason: `needs ≥ 2 paired evals; ${deltas.length} paired`,
      excluded,
    };
  const interval = bootstrapInterval((random) => resampleMean(deltas, random), {
    ...options,
    subject: `${a}\u0000${b}`,
  });
  return { a, b, differences, meanDifference, interval, reason: null, excluded };
}

export interface CostAndTime {
  /** Slots with an eval run. */
  executed: number;
  /** Sum of the recorded costs; a lower bound when `unknownCost` > 0; null when no cost is known. */
  totalUSD: number | null;
  /** Mean over the executed slots with a recorded cost; null when none. */
  meanUSD: number | null;
  /** Executed slots without a recorded cost (usage unavailable is unknown, never 0). */
  unknownCost: number;
  medianElapsedMs: number | null;
  /** Nearest-rank 95th percentile of elapsedMs. */
  p95ElapsedMs: number | null;
  unknownElapsed: number;
}

/**
 * Cost and time over a set of observations; only executed slots count.
 * @example measureCostAndTime(observations) // { executed: 4, totalUSD: 0.4, meanUSD: 0.1, p95ElapsedMs: 2000, … }
 */
export function measureCostAndTime(observations: readonly SlotObservation[]): CostAndTime {
  const executed = observations.filter((observation) => observation.executed);
  const costs = known(executed.map((observation) => observation.costUSD));
  const times = known(executed.map((observation) => observation.elapsedMs));
  return {
    executed: executed.length,
    totalUSD: costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0),
    meanUSD: costs.length === 0 ? null : mean(costs),
    unknownCost: executed.length - costs.length,
    medianElapsedMs: median(times),
    p95ElapsedMs: quantile(times, 0.95),
    unknownElapsed: executed.length - times.length,
  };
}

/**
 * Cost and time per model, in first-appearance order.
 * @example costAndTimeByModel(observations) // [{ model: "m/a", totalUSD: 0.4, … }]
 */
export function costAndTimeByModel(observations: readonly SlotObservation[]): (CostAndTime & CandidateRef)[] {
  return groupByCandidate(observations).map(({ candidate, items }) => ({ ...candidate, ...measureCostAndTime(items) }));
}

function known(values: readonly (number | null)[]): number[] {
  return values.filter((value): value is number => value !== null);
}
