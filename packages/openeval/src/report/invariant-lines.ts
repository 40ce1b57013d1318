// How every report says the run's invariants: each one's standing as its recorded evaluation found it (never run
// again to say so), with the last line of its output when it failed, and what it read.
import { describeStanding } from "../results/index.ts";
import type { InvariantReport, RunSummary } from "../summary/index.ts";

/** `no-todo: violated (exit code 1) — found TODO in e/er_1/app.ts`. */
export function invariantLine(report: InvariantReport): string {
  const said = report.status === "violated" || report.status === "unevaluable" ? lastLine(report) : "";
  return `${report.id}: ${describeStanding(report)}${said ? ` — ${said}` : ""}`;
}

/** The summary's "Invariants" block; empty when none is declared. */
export function invariantBlock(summary: Pick<RunSummary, "invariants">): string[] {
  const reports = summary.invariants ?? [];
  if (reports.length === 0) return [];
  const holding = reports.filter((report) => report.status === "holds").length;
  return [
    `Invariants: ${holding} of ${reports.length} hold (as recorded; reports never run them):`,
    ...reports.map((report) => `  ${invariantLine(report)}`),
  ];
}

/** The last line the command wrote, stderr first: what a failing check says about why. */
function lastLine(report: InvariantReport): string {
  const text = report.stderr.trim() || report.stdout.trim();
  return text.split("\n").at(-1)?.trim().slice(0, 200) ?? "";
}
