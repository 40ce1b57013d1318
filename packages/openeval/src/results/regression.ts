// The regression check: every criterion cell that passed in the baseline and fails now. "Passed" is judged by
// today's thresholds for both sides (criterion-status.ts), so a changed gate min moves both runs alike.
import type { GateSettings } from "../load/index.ts";
import type { ModelSummary } from "./aggregate.ts";
import type { Baseline } from "./baseline-schema.ts";
import {
  caseCellEval,
  caseCriterionCells,
  cellName,
  criterionCells,
  criterionThreshold,
  judgeCriterion,
  type CriterionStatus,
} from "./criterion-status.ts";
import { candidateName } from "../records/index.ts";
import { isControlModel } from "../util/control-model.ts";

/** The fingerprints of one slot's active eval run and judgment. */
export interface SlotFingerprint {
  evalId: string;
  model: string;
  /** Absent for current. */
  variant?: string;
  candidateFingerprint: string;
  /** Null when the slot has no active judgment. */
  judgeFingerprint: string | null;
}

export interface RegressionReport {
  /** `<eval>/<model>/<criterion>` that passed in the baseline and fail now. */
  regressed: string[];
  /** Passed in the baseline; unresolved now. */
  unresolved: string[];
  /** Passed in the baseline; absent from this run (eval, model or criterion gone). */
  notCompared: string[];
  /** How many of the baseline's passes this run has (passing, regressed or unresolved now). */
  compared: number;
  /** `<eval>/<model>` judged with a different judge than the baseline (a regression there may be the judge's). */
  judgeChanged: string[];
  /** Regressed cells of criteria whose judges disagree too much to block (unreliable): advisory, not in `regressed`. */
  advisory: string[];
}

/**
 * Compares the current run's cells with the baseline's.
 * @example findRegressions(baseline, summaries, gates).regressed // ["fix-bug/openai/gpt-5/tests_pass"]
 */
export function findRegressions(
  baseline: Baseline,
  summaries: readonly ModelSummary[],
  gates: GateSettings | undefined,
  fingerprints: readonly SlotFingerprint[] = [],
  isAdvisory: (evalId: string, criterionId: string) => boolean = () => false,
): RegressionReport {
  const now = new Map<string, CriterionStatus>(
    [...criterionCells(summaries), ...caseCriterionCells(summaries)].map((cell) => [
      cellName(cell),
      judgeCriterion(cell.score, criterionThreshold(gates, cell.criterionId)),
    ]),
  );
  const report: RegressionReport = {
    regressed: [],
    unresolved: [],
    notCompared: [],
    compared: 0,
    judgeChanged: [],
    advisory: [],
  };
  // A baseline keeps its controls' scores (for report --compare), but controls never enter the verdict.
  for (const entry of baseline.entries.filter((candidate) => !isControlModel(candidate.model))) {
    // An eval with cases is compared as a whole and case by case: a case that passed and fails now regressed.
    const cells = [
      ...Object.entries(entry.criteria).map(([criterionId, value]) => ({ evalId: entry.evalId, criterionId, value })),
      ...Object.entries(entry.cases ?? {}).flatMap(([caseId, criteria]) =>
        Object.entries(criteria).map(([criterionId, value]) => ({
          evalId: caseCellEval(entry.evalId, caseId),
          criterionId,
          value,
        })),
      ),
    ];
    for (const { evalId, criterionId, value } of cells) {
      if (judgeCriterion({ value, lower: value, upper: value }, criterionThreshold(gates, criterionId)) !== "pass")
        continue;
      const name = cellName({ ...entry, evalId, criterionId });
      const status = now.get(name);
      if (status === "fail") (isAdvisory(entry.evalId, criterionId) ? report.advisory : report.regressed).push(name);
      else if (status === "unknown") report.unresolved.push(name);
      else if (status === undefined) report.notCompared.push(name);
      if (status !== undefined) report.compared++;
    }
    const judges = new Set(
      fingerprints
        .filter((slot) => slot.evalId === entry.evalId && candidateName(slot) === candidateName(entry))
        .flatMap((slot) => slot.judgeFingerprint ?? []),
    );
    if ([...judges].some((judge) => !entry.judgeFingerprints.includes(judge)))
      report.judgeChanged.push(`${entry.evalId}/${candidateName(entry)}`);
  }
  return report;
}
