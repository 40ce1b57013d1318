// benchmark.ts `gates`, evaluated against the run's evidence only: score.min per model, per-criterion
// min, latency.p95Ms over fresh executions, cost.maxUSD over total spend. Evidence that cannot decide a gate
// makes it `unknown`, never a silent pass.
import type { GateSettings } from "../load/index.ts";
import type { Bounded, ModelSummary } from "./aggregate.ts";
import { candidateName } from "../records/index.ts";
import { criterionCells, judgeCriterion } from "./criterion-status.ts";
import { meanBounded } from "./numbers.ts";
import { measureCostAndTime, type SlotObservation } from "./statistics.ts";

export type GateId = "score.min" | `criteria.${string}.min` | "latency.p95Ms" | "cost.maxUSD";
export type GateStatus = "pass" | "fail" | "unknown";

export interface GateResult {
  id: GateId;
  /** The model a `score.min` result is about; absent for run-wide gates. */
  model?: string;
  status: GateStatus;
  /** The measured value (score and criterion gates as fractions in [0,1]); null when unmeasured. */
  actual: number | null;
  threshold: number;
  detail: string;
  /** It failed only through criteria whose judges disagree (unreliable): advisory, never blocking. */
  advisory?: boolean;
}

export interface GateInput {
  gates: GateSettings | undefined;
  /** aggregateScores() of the same observations. */
  summaries: readonly ModelSummary[];
  observations: readonly SlotObservation[];
  /** Every observed slot is judged: a criterion that has not appeared by now never will. */
  complete?: boolean;
}

/**
 * Evaluates every configured gate, in the order score (one result per model), criteria, latency, cost.
 * @example evaluateGates({ gates: { score: { min: 0.8 } }, summaries, observations }) // [{ id: "score.min", model: "m/a", status: "pass", actual: 0.85, threshold: 0.8, … }]
 */
export function evaluateGates(input: GateInput): GateResult[] {
  const { gates } = input;
  if (!gates) return [];
  return [
    ...(gates.score ? input.summaries.map((summary) => scoreGate(summary, gates.score!.min)) : []),
    ...Object.entries(gates.criteria ?? {}).map(([criterionId, { min }]) => criterionGate(input, criterionId, min)),
    ...(gates.latency ? [latencyGate(input.observations, gates.latency.p95Ms)] : []),
    ...(gates.cost ? [costGate(input.observations, gates.cost.maxUSD)] : []),
  ];
}

/** Names a gate result in contributor outcomes: `score.min` results carry their model. */
export function gateName(result: GateResult): string {
  return result.model ? `${result.id} (${result.model})` : result.id;
}

function scoreGate(summary: ModelSummary, min: number): GateResult {
  const score = {
    value: fraction(summary.score.value),
    lower: summary.score.lower / 100,
    upper: summary.score.upper / 100,
  };
  // Named by candidate: with --variant, a model's current and variant rows each have their own score gate.
  const name = candidateName(summary);
  return { id: "score.min", model: name, ...boundedGate(score, min, `${name} score`) };
}

/** The criterion's mean over every (eval, model) cell where it appears, with completion bounds. */
function criterionGate(input: GateInput, criterionId: string, min: number): GateResult {
  const id = `criteria.${criterionId}.min` as const;
  const scores = criterionCells(input.summaries)
    .filter((cell) => cell.criterionId === criterionId)
    .map((cell) => cell.score);
  if (scores.length === 0 && input.complete && input.observations.length > 0) {
    return {
      id,
      status: "fail",
      actual: null,
      threshold: min,
      detail: `every slot is judged and no judge scored a criterion "${criterionId}"; fix gates.criteria in benchmark.ts`,
    };
  }
  if (scores.length === 0) {
    return {
      id,
      status: "unknown",
      actual: null,
      threshold: min,
      detail: `no eval in this run has a criterion "${criterionId}"; check gates.criteria in benchmark.ts`,
    };
  }
  return {
    id,
    ...boundedGate(meanBounded(scores), min, `${criterionId} mean over ${scores.length} eval × model cell(s)`),
  };
}

function latencyGate(observations: readonly SlotObservation[], p95Ms: number): GateResult {
  const fresh = measureCostAndTime(observations.filter((observation) => observation.fresh));
  const actual = fresh.p95ElapsedMs;
  if (actual === null) {
    const detail =
      fresh.executed === 0
        ? "no eval run was executed by this invocation, and a reused recording is not a live measurement; run with --fresh"
        : `none of the ${fresh.executed} fresh execution(s) recorded its elapsed time`;
    return { id: "latency.p95Ms", status: "unknown", actual, threshold: p95Ms, detail };
  }
  const measured = `p95 ${actual} ms over ${fresh.executed - fresh.unknownElapsed} fresh execution(s)`;
  return {
    id: "latency.p95Ms",
    status: actual <= p95Ms ? "pass" : "fail",
    actual,
    threshold: p95Ms,
    detail: `${measured}, limit ${p95Ms} ms`,
  };
}

/** Spend only grows, so known spend over the limit fails even while other costs are unknown. */
function costGate(observations: readonly SlotObservation[], maxUSD: number): GateResult {
  const spend = measureCostAndTime(observations);
  const actual = spend.totalUSD ?? (spend.executed === 0 ? 0 : null);
  const known = actual ?? 0;
  const unknown = spend.unknownCost > 0 ? `; ${spend.unknownCost} execution(s) have no recorded cost` : "";
  const detail = `spent $${round(known)} of $${maxUSD}${unknown}`;
  if (known > maxUSD) return { id: "cost.maxUSD", status: "fail", actual, threshold: maxUSD, detail };
  return { id: "cost.maxUSD", status: spend.unknownCost > 0 ? "unknown" : "pass", actual, threshold: maxUSD, detail };
}

/** The same rule as a criterion cell (judgeCriterion): resolved decides; unresolved fails only when hopeless. */
function boundedGate(score: Bounded, min: number, subject: string): Omit<GateResult, "id" | "model"> {
  const status = judgeCriterion(score, min);
  if (score.value !== null) {
    return {
      status,
      actual: score.value,
      threshold: min,
      detail: `${subject} ${round(score.value)} ${status === "pass" ? "≥" : "<"} ${min}`,
    };
  }
  const range = `${subject} unresolved, between ${round(score.lower)} and ${round(score.upper)}`;
  const verdict =
    status === "fail" ? `: below ${min} whatever the unresolved work gives` : "; finish the run to decide";
  return { status, actual: null, threshold: min, detail: `${range}${verdict}` };
}

function fraction(points: number | null): number | null {
  return points === null ? null : points / 100;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
