// `openeval calibrate --against-reviews` in words: per criterion and judge, κ with the people who reviewed, the
// true-positive and true-negative rates and the counts, then the judges below the threshold.
import type { ReviewCalibration } from "../summary/index.ts";
import { formatTable } from "./summary-table.ts";

const HEADER = ["eval", "criterion", "judge", "κ", "TPR", "TNR", "units", "tp/tn/fp/fn", "unresolved"];

export function formatReviewCalibration(calibration: ReviewCalibration): string {
  const lines = [
    `${calibration.labels} human label${calibration.labels === 1 ? "" : "s"} (the latest review of each reviewed criterion; ${calibration.unresolvedLabels} unresolved) in ${calibration.runDirectory}.`,
    "A score ≥ 0.5 is a pass on both sides; a pair where the review or the judge is unresolved is left out and counted.",
  ];
  if (calibration.judges.length > 0) {
    const number = (value: number | null) => (value === null ? "—" : value.toFixed(2));
    const rows = calibration.judges.map((judge) => [
      judge.evalId,
      judge.criterion,
      judge.judge,
      `${number(judge.kappa)}${judge.flagged ? " (below)" : ""}`,
      number(judge.truePositiveRate),
      number(judge.trueNegativeRate),
      String(judge.units),
      `${judge.truePositives}/${judge.trueNegatives}/${judge.falsePositives}/${judge.falseNegatives}`,
      String(judge.unresolved),
    ]);
    lines.push("", ...formatTable(HEADER, rows));
  }
  for (const problem of calibration.problems) lines.push(`integrity error: ${problem}`);
  const flagged = calibration.judges.filter((judge) => judge.flagged);
  lines.push(
    "",
    calibration.labels === 0
      ? 'No reviews to calibrate against: record some with `openeval review <run> <eval-run> --criterion <id> --score <…> --reason "…"`.'
      : flagged.length > 0
        ? `Below κ ${calibration.threshold} (judge.minAgreement): ${flagged.map((judge) => `${judge.evalId}/${judge.criterion} (${judge.judge}, κ ${judge.kappa!.toFixed(2)})`).join(", ")}`
        : `Every judge with at least ${calibration.minUnits} labelled units agrees with the reviews at κ ≥ ${calibration.threshold} (judge.minAgreement).`,
  );
  return lines.join("\n");
}
