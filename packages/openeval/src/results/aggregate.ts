// Equal-weight aggregation: criterion = mean over repetitions, eval = mean of its criteria,
// model = 100 × mean of its evals. An eval with cases scores each case so (case = mean of its criteria over
// repetitions), and is the mean of its cases: each case weighs the same, and the eval as much as any other. Unresolved values (null, unscored, unjudged) give completion bounds —
// lower counts them as 0, upper as 1 — and the point score is null: never a silent number.
import { unionMs, type Interval } from "./active-time.ts";
import { mean, meanBounded } from "./numbers.ts";
import { groupByCandidate, type IntegrityFinding, type SlotKey } from "../records/index.ts";

export interface SlotOutcome extends SlotKey {
  /** Criterion id → credit (null = unresolved); null when the slot has no active judgment. */
  scores: Record<string, number | null> | null;
  /** The candidate's spend. */
  costUSD: number | null;
  elapsedMs: number | null;
  /** The active judgment's model spend (0 for code judges); null when unknown or not judged. */
  judgeCostUSD?: number | null;
  /** When the slot's candidate and judge were active. */
  intervals?: readonly Interval[];
  /** How long the candidate's model streamed its answers (metrics.timing.modelActiveMs); null when unknown. */
  modelActiveMs?: number | null;
  /** The active judgment's integrity findings; absent when it recorded none (graded before the check, or unjudged). */
  integrityFindings?: readonly IntegrityFinding[];
  /** Criteria whose credit a person's review decided, not a judge; absent when none. */
  reviewed?: readonly string[];
}

export interface Bounded {
  /** Null when anything inside is unresolved. */
  value: number | null;
  lower: number;
  upper: number;
}

export interface CaseSummary extends Bounded {
  caseId: string;
  criteria: Record<string, Bounded>;
}

export interface EvalSummary extends Bounded {
  evalId: string;
  /** Each criterion's mean over the eval's repetitions (over its cases' means, for an eval with cases). */
  criteria: Record<string, Bounded>;
  /** An eval with cases: each case's score, in first-seen order; absent for an eval without cases. */
  cases?: CaseSummary[];
}

export interface ModelSummary {
  model: string;
  /** One row per (model, variant): absent for current. */
  variant?: string;
  /** 0–100. */
  score: Bounded;
  evals: EvalSummary[];
  slots: number;
  judged: number;
  /** Candidate spend. */
  costUSD: number | null;
  /** Judge spend (rubric judge sessions; code judges spend nothing). */
  judgeCostUSD: number | null;
  /** Candidate and judge spend together; null when neither is known. */
  totalCostUSD: number | null;
  /** Wall time: the union of the intervals the model's candidates and judges ran (concurrent work counts once). */
  elapsedMs: number | null;
  /** Model-active time: the sum of its candidates' streaming time (docs/metrics.md); null when none is known. */
  modelActiveMs: number | null;
}

/** `criteria`: eval id → criterion ids known for it (declared, or seen in any judgment). */
export function aggregateScores(
  outcomes: readonly SlotOutcome[],
  criteria: Record<string, readonly string[]>,
): ModelSummary[] {
  return groupByCandidate(outcomes).map(({ candidate, items: mine }) => {
    // Grouped once, in first-seen order: a filter per eval was quadratic (1,000 evals × 5,000 slots per model).
    const evals = [...Map.groupBy(mine, (outcome) => outcome.evalId)].map(([evalId, repetitions]) =>
      summarizeEval(evalId, repetitions, criteria[evalId] ?? []),
    );
    const mean = meanBounded(evals);
    return {
      ...candidate,
      score: { value: mean.value === null ? null : 100 * mean.value, lower: 100 * mean.lower, upper: 100 * mean.upper },
      evals,
      slots: mine.length,
      judged: mine.filter((outcome) => outcome.scores !== null).length,
      ...spendOf(mine),
      elapsedMs: unionMs(mine.flatMap((outcome) => outcome.intervals ?? [])),
      modelActiveMs: sumKnown(mine.map((outcome) => outcome.modelActiveMs ?? null)),
    };
  });
}

function summarizeEval(evalId: string, outcomes: readonly SlotOutcome[], criterionIds: readonly string[]): EvalSummary {
  if (!outcomes.some((outcome) => outcome.case !== undefined))
    return { evalId, ...summarizeRepetitions(outcomes, criterionIds) };
  const cases = [...Map.groupBy(outcomes, (outcome) => outcome.case ?? "")].map(([caseId, repetitions]) => ({
    caseId,
    ...summarizeRepetitions(repetitions, criterionIds),
  }));
  if (criterionIds.length === 0) return { evalId, criteria: {}, value: null, lower: 0, upper: 1, cases };
  const criteria = Object.fromEntries(
    criterionIds.map((id) => [id, meanBounded(cases.map((item) => item.criteria[id]!))]),
  );
  return { evalId, criteria, ...meanBounded(cases), cases };
}

/** Criteria over one eval's (or one case's) repetitions, and their mean. */
function summarizeRepetitions(
  repetitions: readonly SlotOutcome[],
  criterionIds: readonly string[],
): Bounded & { criteria: Record<string, Bounded> } {
  if (criterionIds.length === 0) return { criteria: {}, value: null, lower: 0, upper: 1 };
  const criteria: Record<string, Bounded> = {};
  for (const id of criterionIds) {
    const values = repetitions.map((outcome) => (outcome.scores ? (outcome.scores[id] ?? null) : null));
    criteria[id] = {
      value: values.some((value) => value === null) ? null : mean(values as number[]),
      lower: mean(values.map((value) => value ?? 0)),
      upper: mean(values.map((value) => value ?? 1)),
    };
  }
  return { criteria, ...meanBounded(Object.values(criteria)) };
}

function spendOf(outcomes: readonly SlotOutcome[]): Pick<ModelSummary, "costUSD" | "judgeCostUSD" | "totalCostUSD"> {
  const costUSD = sumKnown(outcomes.map((outcome) => outcome.costUSD));
  const judgeCostUSD = sumKnown(outcomes.map((outcome) => outcome.judgeCostUSD ?? null));
  return { costUSD, judgeCostUSD, totalCostUSD: sumKnown([costUSD, judgeCostUSD]) };
}

function sumKnown(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
}

/** A slot's eval-level credit, as the viewer shows it: the mean of its criteria; null when any is unresolved or it has none. */
export function slotCredit(scores: Record<string, number | null> | null): number | null {
  if (!scores) return null;
  const values = Object.values(scores);
  if (values.length === 0 || values.some((value) => value === null)) return null;
  return mean(values as number[]);
}
