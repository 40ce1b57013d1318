// Which criteria a run's judges can be trusted on: Krippendorff's α per (eval, criterion) over the recordings a panel
// (or repeated gradings) judged, and the criteria whose α is under judge.minAgreement with enough recordings — the
// unreliable ones, whose failures are advisory unless judge.strict.
import type { AgreementSettings } from "../load/index.ts";
import type { PanelJudgment } from "../records/index.ts";
import { measureAgreement, type AgreementMeasure } from "./agreement.ts";

export interface CriterionAgreement extends AgreementMeasure {
  evalId: string;
  criterionId: string;
  /** The judge models whose judgments were compared, in first-seen order. */
  judges: string[];
  /** α below judge.minAgreement over at least judge.minAgreementUnits recordings. */
  unreliable: boolean;
}

/** One recording's active judgments (a judge run's panel), controls included: their right answers are known. */
export interface JudgedRecording {
  evalId: string;
  judgments: readonly Pick<PanelJudgment, "model" | "state" | "scores">[];
}

/**
 * @example judgeAgreement([{ evalId: "e", judgments: [a, b] }, …], agreementSettingsOf(settings))
 * // [{ evalId: "e", criterionId: "style", alpha: -0.5, units: 4, unreliable: true, … }]
 */
export function judgeAgreement(
  recordings: readonly JudgedRecording[],
  settings: AgreementSettings,
): CriterionAgreement[] {
  const byCriterion = new Map<
    string,
    { evalId: string; criterionId: string; units: number[][]; judges: Set<string> }
  >();
  for (const recording of recordings) {
    const completed = recording.judgments.filter((judgment) => judgment.state === "completed" && judgment.scores);
    if (completed.length < 2) continue;
    const criteria = new Set(completed.flatMap((judgment) => Object.keys(judgment.scores!)));
    for (const criterionId of criteria) {
      const key = `${recording.evalId}\u0000${criterionId}`;
      const entry = byCriterion.get(key) ?? { evalId: recording.evalId, criterionId, units: [], judges: new Set() };
      const given = completed.filter((judgment) => typeof judgment.scores![criterionId]?.value === "number");
      entry.units.push(given.map((judgment) => judgment.scores![criterionId]!.value!));
      for (const judgment of given) entry.judges.add(judgment.model);
      byCriterion.set(key, entry);
    }
  }
  return [...byCriterion.values()]
    .map(({ evalId, criterionId, units, judges }) => {
      const measure = measureAgreement(units, { subject: `${evalId}/${criterionId}` });
      const unreliable =
        measure.alpha !== null && measure.units >= settings.minUnits && measure.alpha < settings.minAgreement;
      return { evalId, criterionId, judges: [...judges], ...measure, unreliable };
    })
    .sort((a, b) => a.evalId.localeCompare(b.evalId) || a.criterionId.localeCompare(b.criterionId));
}
