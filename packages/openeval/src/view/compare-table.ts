// `openeval report --compare` as text: per model pair the two scores and the paired difference with its 95% CI,
// then every criterion that changed (regressions first), so a CI job page shows what got worse at a glance.
// Pure (no Node modules): the viewer orders and formats changes with the same two helpers.
import type { ChangeStatus, ComparisonAnswer, ComparisonSide } from "./compare-types.ts";

/** How changes are listed: what got worse first, unchanged last. */
export const CHANGE_ORDER: Record<ChangeStatus, number> = {
  regression: 0,
  improvement: 1,
  unresolved: 2,
  missing: 3,
  unchanged: 4,
};

/** Every change status, in CHANGE_ORDER's order (the record names each one, so none is left out). */
export const CHANGE_STATUSES = Object.keys(CHANGE_ORDER) as ChangeStatus[];

export function formatComparison(answer: ComparisonAnswer): string {
  const lines = [`a: ${describeSide(answer.a)}`, `b: ${describeSide(answer.b)}`, "b − a in points (0–100)."];
  for (const pair of answer.pairs) {
    const paired = pair.paired;
    const interval = paired.interval
      ? ` (95% CI ${signed(paired.interval.lower)} to ${signed(paired.interval.upper)})`
      : paired.reason
        ? ` (no CI: ${paired.reason})`
        : "";
    lines.push(
      "",
      pair.a === pair.b ? `model ${pair.a}` : `a: ${pair.a}  vs  b: ${pair.b}`,
      `  score ${score(pair.scoreA)} → ${score(pair.scoreB)} · paired difference ${paired.meanDifference === null ? "—" : signed(paired.meanDifference)}${interval} over ${paired.pairedEvals} eval(s)`,
      `  ${pair.counts.regression} regression(s), ${pair.counts.improvement} improvement(s), ${pair.counts.unchanged} unchanged, ${pair.counts.unresolved} unresolved, ${pair.counts.missing} missing`,
    );
    const changed = pair.evals
      .flatMap((evaluation) => evaluation.criteria)
      .filter((criterion) => criterion.status !== "unchanged");
    if (changed.length === 0) continue;
    const rows = changed
      .sort((x, y) => CHANGE_ORDER[x.status] - CHANGE_ORDER[y.status] || (x.difference ?? 0) - (y.difference ?? 0))
      .map((criterion) => [
        criterion.status,
        `${criterion.evalId}/${criterion.criterionId}`,
        credit(criterion.a),
        credit(criterion.b),
        criterion.difference === null ? "—" : signed(100 * criterion.difference),
      ]);
    lines.push("", ...table(["change", "criterion", "a", "b", "b − a"], rows).map((line) => `  ${line}`));
  }
  return lines.join("\n");
}

function describeSide(side: ComparisonSide): string {
  return side.kind === "baseline"
    ? `baseline.json (set from run ${side.runId}, ${side.createdAt})`
    : `run ${side.runId} (${side.name}, ${side.createdAt})`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column >= 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];
}

function score(bounded: { value: number | null; lower: number; upper: number }): string {
  return bounded.value === null
    ? `[${bounded.lower.toFixed(1)}–${bounded.upper.toFixed(1)}]`
    : bounded.value.toFixed(1);
}

function credit(value: number | null): string {
  return value === null ? "—" : (100 * value).toFixed(1);
}

/** Points with their sign (a true minus), ± for no change. */
export function signed(points: number): string {
  const rounded = Math.abs(points) < 0.05 ? 0 : points;
  return `${rounded > 0 ? "+" : rounded < 0 ? "−" : "±"}${Math.abs(rounded).toFixed(1)}`;
}
