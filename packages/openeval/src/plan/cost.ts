// Cost before spending: each action's maximum cost (known only when a limit bounds it), the
// --max-cost hard cap that defers work before any spend, --offline, and the estimate shown with the plan.
import { earlyStopPolicy, judgePanelOf, type BenchmarkSettings, type EvalDefinition } from "../load/index.ts";
import { cellId, toSlotKey, type EvalRunHead, type SlotKey } from "../records/index.ts";
import { median } from "../util/median.ts";
import type { PlannedSlot } from "./plan-benchmark.ts";
import { CONTROL_PROVIDER, isControlModel } from "../util/control-model.ts";
import { isPriced, unpricedReason } from "../util/model-pricing.ts";

/**
 * The most a candidate run of `model` can cost, or null when nothing bounds it. An unpriced model's recorded cost is
 * always $0, so `maxCostUSD` can never stop it: its maximum is unknown.
 */
export function candidateMaxCost(model: string, settings: BenchmarkSettings): number | null {
  // Controls are priced at 0 unless the benchmark prices them.
  if (isControlModel(model) && !settings.candidate.providers[CONTROL_PROVIDER]) return 0;
  if (!isPriced(model, settings.candidate.providers)) return null;
  return settings.candidate.maxCostUSD ?? null;
}

/**
 * Why a candidate's maximum cost is unknown, as the plan says it. maxTokens and maxSteps stop a run but bound no
 * spend: a step's usage is known only once it ends, and cached tokens are priced but not counted.
 */
export function unknownCandidateCost(model: string, settings: BenchmarkSettings): string {
  if (!isPriced(model, settings.candidate.providers)) return unpricedReason(model);
  const { maxTokens, maxSteps } = settings.candidate;
  return maxTokens === undefined && maxSteps === undefined
    ? "set candidate.maxCostUSD to bound it"
    : "set candidate.maxCostUSD to bound it (maxTokens and maxSteps stop a run, but do not bound what it spends)";
}

/** The most a judge run can cost: code judges call no model; rubric judges are bounded by judge.maxCostUSD. */
export function judgeMaxCost(hasRubric: boolean, settings: BenchmarkSettings, gradingsPerJudge = 1): number | null {
  const realJudges = judgePanelOf(settings).models.filter((model) => !isControlModel(model)).length;
  if (!hasRubric || realJudges === 0) return 0;
  // Each real judge model's session is bounded on its own; a panel's reused judgments make this an upper bound.
  const limit = settings.judge.maxCostUSD;
  return limit === undefined ? null : limit * realJudges * gradingsPerJudge;
}

/** The most a candidate's earlyStop checks can spend on its judge (the eval's earlyStop maxCostUSD; 0 when unmonitored). */
export function checksMaxCost(evaluation: EvalDefinition, settings: BenchmarkSettings, model: string): number {
  const policy = earlyStopPolicy(evaluation.settings.earlyStop, model);
  return policy === null || isScriptedJudge(settings) ? 0 : policy.maxCostUSD;
}

/** Early checks are graded by the one judge model (a panel cannot decide early). */
function isScriptedJudge(settings: BenchmarkSettings): boolean {
  const [model] = judgePanelOf(settings).models;
  return model !== undefined && isControlModel(model);
}

export interface CostLimits {
  offline?: boolean;
  maxCostUSD?: number;
}

export interface WorkCost {
  /** Null when unknown (nothing bounds it). */
  maxCost(slot: PlannedSlot): number | null;
  /** The work calls a model (a candidate run, or an LLM rubric judge), scripted or not. */
  callsModel(slot: PlannedSlot): boolean;
  /** What to do when its maximum is unknown. */
  whyUnknown(slot: PlannedSlot): string;
}

/** Defers work that --offline or --max-cost forbids, in plan order; the rest is left as planned. */
export function limitWork<Slot extends PlannedSlot>(slots: Slot[], limits: CostLimits, cost: WorkCost): Slot[] {
  let remaining = limits.maxCostUSD ?? Number.POSITIVE_INFINITY;
  return slots.map((slot) => {
    if (slot.action !== "candidate" && slot.action !== "judge") return slot;
    if (limits.offline && cost.callsModel(slot)) {
      return {
        ...slot,
        action: "deferred",
        deferredBy: "offline",
        reason: `--offline: ${slot.reason.toLowerCase()}, which needs a model call`,
      };
    }
    const maxCost = cost.maxCost(slot);
    if (limits.maxCostUSD === undefined) return slot;
    if (maxCost === null) {
      return {
        ...slot,
        action: "deferred",
        deferredBy: "budget",
        reason: `--max-cost: its maximum cost is unknown; ${cost.whyUnknown(slot)}`,
      };
    }
    if (maxCost > remaining) {
      return {
        ...slot,
        action: "deferred",
        deferredBy: "budget",
        reason: `--max-cost: its maximum $${maxCost.toFixed(4)} is over the $${remaining.toFixed(4)} left of the budget`,
      };
    }
    remaining -= maxCost;
    return slot;
  });
}

/** Work whose maximum cost nothing bounds, and what would bound it. */
export interface UnboundedWork {
  slot: SlotKey;
  action: "candidate" | "judge";
  why: string;
}

export interface MaximumCost {
  /** The most the planned work can spend; null when any of it is unbounded. */
  usd: number | null;
  /** The work with an unknown maximum (a real model with no limit, or an unpriced one). */
  unbounded: UnboundedWork[];
}

/**
 * The most the planned work can spend: each candidate run and judgment at its maximum. What a person is asked to
 * confirm before a run starts from the viewer, and what `openeval plan` prints beside the estimate.
 */
export function maximumCost(slots: readonly PlannedSlot[], cost: WorkCost): MaximumCost {
  let usd = 0;
  const unbounded: UnboundedWork[] = [];
  for (const slot of slots) {
    if (slot.action !== "candidate" && slot.action !== "judge") continue;
    const maxCost = cost.maxCost(slot);
    if (maxCost === null) unbounded.push({ slot: toSlotKey(slot), action: slot.action, why: cost.whyUnknown(slot) });
    else usd += maxCost;
  }
  return { usd: unbounded.length > 0 ? null : usd, unbounded };
}

/**
 * The maximum in words, each distinct reason once.
 * @example describeMaximum({ usd: 0.5, unbounded: [] }) // "maximum cost: $0.5000"
 */
export function describeMaximum(maximum: MaximumCost): string {
  return maximum.usd !== null
    ? `maximum cost: $${maximum.usd.toFixed(4)}`
    : `maximum cost: unknown (${describeUnbounded(maximum.unbounded)})`;
}

/**
 * The work no limit bounds, and why, each distinct reason once.
 * @example describeUnbounded([{ …, why: "set candidate.maxCostUSD to bound it" }]) // "1 unbounded item of work: set candidate.maxCostUSD to bound it"
 */
export function describeUnbounded(unbounded: readonly UnboundedWork[]): string {
  const reasons = [...new Set(unbounded.map((work) => work.why))];
  return `${unbounded.length} unbounded ${unbounded.length === 1 ? "item" : "items"} of work: ${reasons.join("; ")}`;
}

/**
 * Median recorded cost of runs with the same candidate inputs (the fingerprint, limits included), else of the same
 * eval and model, else of the model, else unknown (null): runs made under the slot's own maxTokens, maxSteps or
 * maxCostUSD tell what it will spend better than runs cut at other limits. The recorded costs are grouped once:
 * filtering every recorded run for every slot made a plan quadratic (50,000 changed slots of a 50,000-slot run: 5·10⁹
 * filter calls).
 */
export function candidateCostEstimator(recorded: readonly EvalRunHead[]): (slot: PlannedSlot) => number | null {
  const costed = recorded.filter((run) => run.metrics?.cost.usd != null);
  const medians = (key: (run: EvalRunHead) => string) =>
    new Map(
      [...Map.groupBy(costed, key)].map(([group, runs]) => [group, median(runs.map((run) => run.metrics!.cost.usd!))]),
    );
  const byInputs = medians((run) => run.input.candidateFingerprint);
  const byCell = medians((run) => cellId(run.slot.evalId, run.slot.model));
  const byModel = medians((run) => run.slot.model);
  return (slot) =>
    byInputs.get(slot.candidateFingerprint) ??
    byCell.get(cellId(slot.evalId, slot.model)) ??
    byModel.get(slot.model) ??
    null;
}
