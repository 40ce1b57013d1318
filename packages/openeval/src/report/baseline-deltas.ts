// The Markdown section `openeval report --markdown --against-baseline` appends to the summary: per model its score
// against baseline.json's with the paired difference and its 95% CI, then per eval what changed, so a pull request's
// comment says what got worse. The numbers are compareSummaries' (as `report --compare baseline`), not a second count.
import { candidateName } from "../records/index.ts";
import { baselineSummaries, compareSummaries, type Baseline, type ModelPairComparison } from "../results/index.ts";
import type { RunSummary } from "../summary/index.ts";

/** How an eval's change reads in the table, what got worse marked first. */
const CHANGE_WORDS = {
  regression: "🔻 regression",
  improvement: "🔺 improvement",
  unchanged: "unchanged",
  unresolved: "unresolved",
  missing: "missing",
} as const;

/**
 * The "Against baseline" section: each model of the run that baseline.json holds, b − a = this run − baseline.
 * @example formatMarkdownSummary(summary) + formatBaselineDeltas(summary, baseline)
 */
export function formatBaselineDeltas(summary: RunSummary, baseline: Baseline): string {
  const before = baselineSummaries(baseline);
  const beforeNames = before.map(candidateName);
  const pairs = summary.models.flatMap((model) => {
    const reference = before.find((candidate) => candidateName(candidate) === candidateName(model));
    return reference ? [compareSummaries(reference, model)] : [];
  });
  const runNames = summary.models.map(candidateName);
  const newModels = runNames.filter((name) => !beforeNames.includes(name));
  const goneModels = beforeNames.filter((name) => !runNames.includes(name));
  const lines = [
    "",
    "### Against baseline",
    "",
    `Baseline: run \`${baseline.runId}\`, set ${baseline.createdAt}. ` + "Points 0–100; Δ is this run − baseline.",
    "",
  ];
  if (pairs.length === 0) lines.push("No model of this run is in the baseline.");
  else {
    lines.push(
      "| model | baseline | this run | Δ (95% CI) | regressed | improved |",
      "| --- | --- | --- | --- | --- | --- |",
      ...pairs.map(modelRow),
    );
    const changed = pairs.flatMap((pair) =>
      pair.evals.filter((evaluation) => evaluation.status !== "unchanged").map((evaluation) => ({ pair, evaluation })),
    );
    lines.push("", changed.length === 0 ? "No eval changed." : `**Evals that changed (${changed.length})**`);
    if (changed.length > 0) {
      lines.push("", "| model | eval | baseline | this run | Δ | change |", "| --- | --- | --- | --- | --- | --- |");
      const order = Object.keys(CHANGE_WORDS);
      changed.sort((x, y) => order.indexOf(x.evaluation.status) - order.indexOf(y.evaluation.status));
      for (const { pair, evaluation } of changed) {
        const difference = evaluation.difference === null ? "—" : signedPoints(100 * evaluation.difference);
        lines.push(
          `| ${pair.b} | \`${evaluation.evalId}\` | ${credit(evaluation.a)} | ${credit(evaluation.b)} | ${difference} | ${CHANGE_WORDS[evaluation.status]} |`,
        );
      }
    }
  }
  if (newModels.length > 0) lines.push("", `Not in the baseline: ${newModels.join(", ")}.`);
  if (goneModels.length > 0) lines.push("", `In the baseline but not in this run: ${goneModels.join(", ")}.`);
  return `${lines.join("\n")}\n`;
}

function modelRow(pair: ModelPairComparison): string {
  const { paired } = pair;
  const difference = paired.meanDifference === null ? "—" : signedPoints(paired.meanDifference);
  const interval = paired.interval
    ? ` (${signedPoints(paired.interval.lower)} to ${signedPoints(paired.interval.upper)})`
    : "";
  return `| ${pair.b} | ${score(pair.scoreA)} | ${score(pair.scoreB)} | ${difference}${interval} | ${pair.counts.regression} | ${pair.counts.improvement} |`;
}

function score(bounded: { value: number | null; lower: number; upper: number }): string {
  return bounded.value === null
    ? `${bounded.lower.toFixed(1)}–${bounded.upper.toFixed(1)} (incomplete)`
    : bounded.value.toFixed(1);
}

function credit(value: number | null): string {
  return value === null ? "—" : (100 * value).toFixed(1);
}

/** Points with their sign (a true minus), ± for no change. */
function signedPoints(points: number): string {
  const rounded = Math.abs(points) < 0.05 ? 0 : points;
  return `${rounded > 0 ? "+" : rounded < 0 ? "−" : "±"}${Math.abs(rounded).toFixed(1)}`;
}
