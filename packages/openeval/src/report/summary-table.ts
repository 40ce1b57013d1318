// The human summary of a run: one row per model (score with completion bounds and 95% CI, pass@k, candidate and
// judge cost apart and together, model-active and wall time), per-category scores when criteria have categories,
// the integrity check's findings, the verdict with each contributor and what failed it, then what is still open.
import { describeSlot } from "../plan/index.ts";
import { candidateName } from "../records/index.ts";
import { describeVerdict, formatVerdictWords } from "../results/index.ts";
import { describeInputChanges, type RunSummary } from "../summary/index.ts";
import { formatSeconds } from "./plain-reporter.ts";
import { integrityBlock } from "./integrity-findings.ts";
import { agreementBlock } from "./judge-agreement.ts";
import { reviewBlock } from "./review-lines.ts";
import { invariantBlock } from "./invariant-lines.ts";
import { adaptiveBlock } from "./adaptive-lines.ts";

export function formatSummary(summary: RunSummary): string {
  const header = [
    "model",
    "score",
    "95% CI",
    "pass@k",
    "judged",
    "cost (candidate + judge = total)",
    "time (model active / wall)",
  ];
  const rows = summary.models.map((model) => [
    `${candidateName(model)}${model.control ? " (control)" : model.unsandboxed ? " (unsandboxed)" : ""}`,
    formatScore(model.score),
    model.interval.interval
      ? `${model.interval.interval.lower.toFixed(1)}–${model.interval.interval.upper.toFixed(1)}`
      : "—",
    model.passK?.passAtK == null ? "—" : `${(100 * model.passK.passAtK).toFixed(0)}% (k=${model.passK.k})`,
    `${model.judged}/${model.slots}`,
    formatModelCost(model),
    `${formatSeconds(model.modelActiveMs)} / ${formatSeconds(model.elapsedMs)}`,
  ]);
  const lines = formatTable(header, rows);
  if (summary.models.some((model) => model.unsandboxed)) {
    lines.push(
      "(unsandboxed): ran on this machine as the current user (--isolation process); the agent could read and change what your user can.",
    );
  }
  for (const comparison of summary.comparisons) {
    const interval = comparison.interval
      ? ` (95% CI ${comparison.interval.lower.toFixed(1)} to ${comparison.interval.upper.toFixed(1)})`
      : "";
    lines.push(
      `${comparison.a} − ${comparison.b}: ${comparison.meanDifference === null ? "—" : `${comparison.meanDifference.toFixed(1)} points`}${interval}`,
    );
  }
  for (const entry of summary.variantComparisons) lines.push(...formatVariantComparison(entry));
  if (summary.categories.length > 0) lines.push("", "By category:", ...formatCategories(summary.categories));
  if (summary.engines?.length) lines.push("", `Engines: ${formatEngines(summary.engines)}`);
  if (summary.warnings.length > 0) lines.push("", "Warnings:", ...summary.warnings.map((warning) => `  ${warning}`));
  const reviews = reviewBlock(summary);
  if (reviews) lines.push("", `${reviews.title}:`, ...reviews.lines.map((line) => `  ${line}`));
  const integrity = integrityBlock(summary);
  if (integrity.length > 0) lines.push("", ...integrity);
  const agreement = agreementBlock(summary);
  if (agreement.length > 0) lines.push("", ...agreement);
  const invariants = invariantBlock(summary);
  if (invariants.length > 0) lines.push("", ...invariants);
  const adaptive = adaptiveBlock(summary);
  if (adaptive.length > 0) lines.push("", ...adaptive);
  lines.push("", ...formatVerdict(summary));
  if (summary.open.length > 0) {
    lines.push("", `${summary.open.length} slot${summary.open.length === 1 ? "" : "s"} not finished:`);
    for (const open of summary.open.slice(0, 20)) {
      const id = open.evalRunId ? ` [eval run ${open.evalRunId}]` : "";
      lines.push(`  ${describeSlot(open.slot)}${id}: ${open.action} — ${open.reason}`);
    }
    if (summary.open.length > 20) lines.push(`  … and ${summary.open.length - 20} more (openeval plan lists them all)`);
  }
  const filtered = describeFilter(summary);
  if (filtered) lines.push("", filtered);
  if (summary.integrity.length > 0) {
    lines.push(
      "",
      `${summary.integrity.length} record${summary.integrity.length === 1 ? "" : "s"} failed the integrity check (not scored; run openeval verify for the whole run):`,
    );
    for (const problem of summary.integrity) lines.push(`  ${problem.message}`);
  }
  for (const record of summary.inputChanges) {
    lines.push(
      "",
      `Changed while the run's candidates ran (${record.at}; graded with the frozen inputs): ${describeInputChanges(record.changes)}`,
    );
  }
  lines.push("", `Results: ${summary.directory}`);
  return lines.join("\n");
}

export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];
}

export const CATEGORY_HEADER = ["category", "model", "score", "95% CI", "criteria"];

/** One row per category × model: the score over that category's criteria, with bounds and 95% CI. */
export function categoryRows(categories: RunSummary["categories"]): string[][] {
  return categories.flatMap((entry) =>
    entry.models.map((model) => [
      entry.category,
      candidateName(model),
      formatScore(model.score),
      model.interval ? `${model.interval.lower.toFixed(1)}–${model.interval.upper.toFixed(1)}` : "—",
      `${entry.criteria} in ${entry.evals} eval${entry.evals === 1 ? "" : "s"}`,
    ]),
  );
}

function formatCategories(categories: RunSummary["categories"]): string[] {
  return formatTable(CATEGORY_HEADER, categoryRows(categories));
}

/** A variant against current for the same model: the paired difference with its CI, then per eval and criterion counts. */
export function formatVariantComparison(entry: RunSummary["variantComparisons"][number]): string[] {
  const { paired, evals, counts } = entry.comparison;
  const interval = paired.interval
    ? ` (95% CI ${signed(paired.interval.lower)} to ${signed(paired.interval.upper)})`
    : paired.reason
      ? ` (no CI: ${paired.reason})`
      : "";
  const difference = paired.meanDifference === null ? "—" : `${signed(paired.meanDifference)} points`;
  const perEval = evals
    .map(
      (evaluation) =>
        `${evaluation.evalId} ${evaluation.difference === null ? evaluation.status : signed(100 * evaluation.difference)}`,
    )
    .join(", ");
  const criteria = `criteria: ${counts.improvement} improved, ${counts.regression} regressed, ${counts.unchanged} unchanged${counts.unresolved + counts.missing > 0 ? `, ${counts.unresolved + counts.missing} unresolved or missing` : ""}`;
  return [
    `${entry.comparison.b} vs current: ${difference}${interval} over ${paired.pairedEvals} paired eval(s); ${criteria}`,
    `  per eval: ${perEval}`,
  ];
}

function signed(value: number): string {
  return `${value > 0 ? "+" : ""}${value.toFixed(1)}`;
}

/** A scoped summary says so: its verdict covers only part of the benchmark. */
export function describeFilter(summary: Pick<RunSummary, "fingerprints" | "outOfScope">): string | null {
  if (summary.outOfScope === 0) return null;
  const inScope = summary.fingerprints.length;
  return `Filtered: this summary covers ${inScope} of ${inScope + summary.outOfScope} slots (--only-*); a filtered run cannot become a baseline.`;
}

function formatVerdict(summary: RunSummary): string[] {
  const { verdict } = summary;
  const lines = [`Verdict: ${formatVerdictWords(describeVerdict(verdict, summary.complete))}`];
  if (summary.settingsNote) lines.push(`  Note: ${summary.settingsNote}`);
  for (const contributor of verdict.contributors) {
    const failing = contributor.failing.length > 0 ? ` — failing: ${listSome(contributor.failing)}` : "";
    const unresolved = contributor.status === "unknown" ? ` — unresolved: ${listSome(contributor.unresolved)}` : "";
    // A contributor that checked nothing says so: its "pass" is over nothing.
    const detail = contributor.status === "skipped" || contributor.checked === 0 ? ` (${contributor.detail})` : "";
    lines.push(`  ${contributor.id.padEnd(10)} ${contributor.word}${failing}${unresolved}${detail}`);
  }
  return lines;
}

/**
 * Candidate and judge spend, apart and together. Unknown cost (no usage, or no pricing) reads "unknown", never $0;
 * a partly known sum is a lower bound.
 */
export function formatModelCost(model: RunSummary["models"][number]): string {
  const { unknownCost, executed } = model.costTime;
  if (executed === 0) return "—";
  if (model.totalCostUSD === null) return "unknown";
  const usd = (value: number) => `$${value.toFixed(4)}`;
  const candidate =
    model.costUSD === null
      ? "unknown"
      : unknownCost > 0
        ? `≥ ${usd(model.costUSD)} (${unknownCost} unknown)`
        : usd(model.costUSD);
  const judge = model.judgeCostUSD === null ? "unknown" : usd(model.judgeCostUSD);
  const partial = model.costUSD === null || unknownCost > 0 || model.judgeCostUSD === null;
  return `${candidate} + ${judge} = ${partial ? "≥ " : ""}${usd(model.totalCostUSD)}`;
}

function listSome(items: readonly string[]): string {
  return items.length <= 5 ? items.join(", ") : `${items.slice(0, 5).join(", ")} and ${items.length - 5} more`;
}

function formatScore(score: { value: number | null; lower: number; upper: number }): string {
  if (score.value !== null) return `${score.value.toFixed(1)}%`;
  return `[${score.lower.toFixed(1)}–${score.upper.toFixed(1)}]% (incomplete)`;
}

/** @example formatEngines([{ name: "a", evalRuns: 3, interrupted: 0 }, { name: "b", evalRuns: 2, interrupted: 1 }]) // "a 3 eval runs; b 2 eval runs (1 interrupted by the engine)" */
export function formatEngines(engines: NonNullable<RunSummary["engines"]>): string {
  return engines
    .map(
      ({ name, evalRuns, interrupted }) =>
        `${name} ${evalRuns} eval run${evalRuns === 1 ? "" : "s"}${interrupted > 0 ? ` (${interrupted} interrupted)` : ""}`,
    )
    .join("; ");
}
