// Comparing two sets of equal-weight scores: two runs, a run against baseline.json, or two
// models of one run. Per eval and per criterion the two scores and their change; per model pair the paired
// difference over evals with its 95% CI — compareModels' paired bootstrap, not a second implementation.
import type { Bounded, ModelSummary } from "./aggregate.ts";
import type { Baseline } from "./baseline-schema.ts";
import type { BootstrapOptions, Interval } from "./bootstrap.ts";
import { mean, THRESHOLD_TOLERANCE } from "./numbers.ts";
import { candidateName, groupByCandidate } from "../records/index.ts";
import { compareModels } from "./statistics.ts";

/** How b's score differs from a's: lower is a regression, higher an improvement. */
export type ChangeStatus = "regression" | "improvement" | "unchanged" | "unresolved" | "missing";
const CHANGE_STATUSES: readonly ChangeStatus[] = ["regression", "improvement", "unchanged", "unresolved", "missing"];

export interface ScoreChange {
  /** Credit 0–1 on each side; null when unresolved or absent (see status). */
  a: number | null;
  b: number | null;
  /** b − a (0–1); null unless both are resolved. */
  difference: number | null;
  status: ChangeStatus;
}

export interface CriterionChange extends ScoreChange {
  evalId: string;
  criterionId: string;
}

export interface EvalChange extends ScoreChange {
  evalId: string;
  criteria: CriterionChange[];
}

export interface ModelPairComparison {
  /** The model on side a and on side b (the same id when two runs are compared). */
  a: string;
  b: string;
  /** 0–100 with completion bounds. */
  scoreA: Bounded;
  scoreB: Bounded;
  /** b − a in points (0–100), paired over the evals both sides resolved, with its 95% paired-bootstrap CI. */
  paired: {
    meanDifference: number | null;
    interval: Interval | null;
    reason: string | null;
    pairedEvals: number;
    excluded: { evalId: string; reason: string }[];
  };
  evals: EvalChange[];
  /** Criterion changes by status. */
  counts: Record<ChangeStatus, number>;
}

/**
 * Compares model `a` of one side with model `b` of the other (b − a throughout).
 * @example compareSummaries(baselineRun.find(…)!, currentRun.find(…)!).counts.regression // 1
 */
export function compareSummaries(
  a: ModelSummary,
  b: ModelSummary,
  options: BootstrapOptions = {},
): ModelPairComparison {
  // compareModels pairs two models of one summary list by eval: give the sides names it can tell apart.
  const paired = compareModels(
    [
      { model: "b", evals: b.evals },
      { model: "a", evals: a.evals },
    ],
    "b",
    "a",
    { seed: 1, ...options },
  );
  const evalsA = new Map(a.evals.map((evaluation) => [evaluation.evalId, evaluation]));
  const evalsB = new Map(b.evals.map((evaluation) => [evaluation.evalId, evaluation]));
  const evalIds = [...new Set([...evalsA.keys(), ...evalsB.keys()])];
  const evals = evalIds.map((evalId): EvalChange => {
    const [left, right] = [evalsA.get(evalId), evalsB.get(evalId)];
    const criterionIds = [...new Set([...Object.keys(left?.criteria ?? {}), ...Object.keys(right?.criteria ?? {})])];
    return {
      evalId,
      ...change(left, right),
      criteria: criterionIds.map((criterionId) => ({
        evalId,
        criterionId,
        ...change(left?.criteria[criterionId], right?.criteria[criterionId]),
      })),
    };
  });
  const counts = Object.fromEntries(CHANGE_STATUSES.map((status) => [status, 0])) as Record<ChangeStatus, number>;
  for (const evaluation of evals) for (const criterion of evaluation.criteria) counts[criterion.status] += 1;
  return {
    a: candidateName(a),
    b: candidateName(b),
    scoreA: a.score,
    scoreB: b.score,
    paired: {
      meanDifference: paired.meanDifference,
      interval: paired.interval,
      reason: paired.reason,
      pairedEvals: paired.differences.length,
      excluded: paired.excluded.map((entry) => ({
        evalId: entry.evalId,
        reason: entry.reason.replace(/for b$/, "on side b").replace(/for a$/, "on side a"),
      })),
    },
    evals,
    counts,
  };
}

function change(a: Bounded | undefined, b: Bounded | undefined): ScoreChange {
  const values = { a: a?.value ?? null, b: b?.value ?? null };
  if (a === undefined || b === undefined) return { ...values, difference: null, status: "missing" };
  if (a.value === null || b.value === null) return { ...values, difference: null, status: "unresolved" };
  const difference = b.value - a.value;
  const status =
    difference < -THRESHOLD_TOLERANCE ? "regression" : difference > THRESHOLD_TOLERANCE ? "improvement" : "unchanged";
  return { ...values, difference, status };
}

/**
 * baseline.json as model summaries (its scores are means over repetitions; no repetition, cost or time is kept).
 * @example compareSummaries(baselineSummaries(baseline).find((m) => m.model === "openai/gpt-5")!, current)
 */
export function baselineSummaries(baseline: Baseline): ModelSummary[] {
  return groupByCandidate(baseline.entries).map(({ candidate, items: entries }) => {
    const evals = entries.map((entry) => {
      const criteria = Object.fromEntries(
        Object.entries(entry.criteria).map(([id, value]) => [id, { value, lower: value, upper: value }]),
      );
      const values = Object.values(entry.criteria);
      const value = values.length === 0 ? null : mean(values);
      return { evalId: entry.evalId, criteria, value, lower: value ?? 0, upper: value ?? 1 };
    });
    const known = evals.map((evaluation) => evaluation.value);
    const value = known.length === 0 || known.includes(null) ? null : 100 * mean(known as number[]);
    return {
      ...candidate,
      score: { value, lower: value ?? 0, upper: value ?? 100 },
      evals,
      slots: 0,
      judged: 0,
      costUSD: null,
      judgeCostUSD: null,
      totalCostUSD: null,
      elapsedMs: null,
      modelActiveMs: null,
    };
  });
}
