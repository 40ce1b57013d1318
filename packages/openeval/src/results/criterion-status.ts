// When a criterion passes or fails: the one definition verdict.ts, gates.ts and baseline.ts share.
// A cell is one (eval, model, criterion); its score is the mean over repetitions with completion bounds
// (aggregate.ts).
import type { GateSettings } from "../load/index.ts";
import type { Bounded, ModelSummary } from "./aggregate.ts";
import { meetsThreshold } from "./numbers.ts";
import { candidateName } from "../records/index.ts";

export type CriterionStatus = "pass" | "fail" | "unknown";

/** Without a `gates.criteria.<id>.min`, a criterion passes only with full credit in every repetition. */
export const DEFAULT_CRITERION_THRESHOLD = 1;

export interface CriterionCell {
  evalId: string;
  model: string;
  /** Absent for current. */
  variant?: string;
  criterionId: string;
  score: Bounded;
}

/**
 * The pass mark of a criterion: `gates.criteria.<id>.min` when benchmark.ts sets it, else 1.
 * @example criterionThreshold({ criteria: { tests_pass: { min: 0.8 } } }, "tests_pass") // 0.8
 */
export function criterionThreshold(gates: GateSettings | undefined, criterionId: string): number {
  return gates?.criteria?.[criterionId]?.min ?? DEFAULT_CRITERION_THRESHOLD;
}

/**
 * A resolved score passes when it meets the threshold and fails otherwise. An unresolved score never passes: it
 * fails when even its upper bound (unresolved counted as full credit) is short — no pending work can rescue it —
 * and is unknown otherwise. So a failure is always final.
 * @example judgeCriterion({ value: null, lower: 1 / 3, upper: 2 / 3 }, 1) // "fail" (one repetition already scored 0)
 */
export function judgeCriterion(score: Bounded, threshold: number): CriterionStatus {
  if (score.value !== null) return meetsThreshold(score.value, threshold) ? "pass" : "fail";
  return meetsThreshold(score.upper, threshold) ? "unknown" : "fail";
}

/**
 * The cell of one case of an eval with cases: named `<eval>[<case>]/<model>/<criterion>` where an eval's cell is
 * `<eval>/<model>/<criterion>`.
 */
export function caseCellEval(evalId: string, caseId: string): string {
  return `${evalId}[${caseId}]`;
}

/**
 * Every (eval, case, model, criterion) cell of the evals with cases, as criterion cells whose eval is named with its
 * case (caseCellEval), in summary order.
 */
export function caseCriterionCells(summaries: readonly ModelSummary[]): CriterionCell[] {
  return summaries.flatMap((summary) =>
    summary.evals.flatMap((evaluation) =>
      (evaluation.cases ?? []).flatMap((item) =>
        Object.entries(item.criteria).map(([criterionId, score]) => ({
          evalId: caseCellEval(evaluation.evalId, item.caseId),
          model: summary.model,
          ...(summary.variant === undefined ? {} : { variant: summary.variant }),
          criterionId,
          score,
        })),
      ),
    ),
  );
}

/**
 * Every (eval, model, criterion) cell of the aggregated summaries, in summary order.
 * @example criterionCells(aggregateScores(outcomes, criteria)).map(cellName) // ["a/m/x", …]
 */
export function criterionCells(summaries: readonly ModelSummary[]): CriterionCell[] {
  return summaries.flatMap((summary) =>
    summary.evals.flatMap((evaluation) =>
      Object.entries(evaluation.criteria).map(([criterionId, score]) => ({
        evalId: evaluation.evalId,
        model: summary.model,
        ...(summary.variant === undefined ? {} : { variant: summary.variant }),
        criterionId,
        score,
      })),
    ),
  );
}

/**
 * How a cell is named in contributor outcomes and refusals: `<eval>/<model>/<criterion>`, the model followed by
 * ` [variant]` for a variant's cell.
 * @example cellName({ evalId: "fix-bug", model: "openai/gpt-5", criterionId: "tests_pass" }) // "fix-bug/openai/gpt-5/tests_pass"
 */
export function cellName(cell: Pick<CriterionCell, "evalId" | "model" | "variant" | "criterionId">): string {
  return `${cell.evalId}/${candidateName(cell)}/${cell.criterionId}`;
}
