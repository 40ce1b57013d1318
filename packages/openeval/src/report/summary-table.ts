// The human summary of a run: one row per model (score with completion bounds, cost, time), then what is open.
import { describeSlot } from "../plan/index.ts";
import type { RunSummary } from "../run/index.ts";
import { formatSeconds } from "./plain-reporter.ts";

export function formatSummary(summary: RunSummary): string {
  const header = ["model", "score", "judged", "cost", "time"];
  const rows = summary.models.map((model) => [
    model.model.startsWith("control/") ? `${model.model} (control)` : model.model,
    formatScore(model.score),
    `${model.judged}/${model.slots}`,
    model.costUSD === null ? "—" : `$${model.costUSD.toFixed(4)}`,
    formatSeconds(model.elapsedMs),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  const lines = [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];
  const unfinished = summary.open;
  if (unfinished.length > 0) {
    lines.push("", `${unfinished.length} slot${unfinished.length === 1 ? "" : "s"} not finished:`);
    for (const open of unfinished.slice(0, 20)) lines.push(`  ${describeSlot(open.slot)}: ${open.action} — ${open.reason}`);
    if (unfinished.length > 20) lines.push(`  … and ${unfinished.length - 20} more (openeval plan lists them all)`);
  }
  if (summary.outOfScope > 0) lines.push("", `${summary.outOfScope} slot${summary.outOfScope === 1 ? "" : "s"} outside the --only-* scope, not shown.`);
  lines.push("", `Results: ${summary.directory}`);
  return lines.join("\n");
}

function formatScore(score: { value: number | null; lower: number; upper: number }): string {
  if (score.value !== null) return `${score.value.toFixed(1)}%`;
  return `[${score.lower.toFixed(1)}–${score.upper.toFixed(1)}]% (incomplete)`;
}
