// `report --cases`: the score of each case of every eval with cases, one row per (eval, case), one column per
// candidate: each case is scored as an eval is (the mean of its criteria over repetitions).
import { candidateName } from "../records/index.ts";
import type { RunSummary } from "../summary/index.ts";
import { formatTable } from "./summary-table.ts";

/**
 * The per-case table, or a line saying no eval has cases.
 * @example formatCaseTable(summary) // "eval     case  p/m\n-------  ----  ------\nrefunds  late  100.0%\n…"
 */
export function formatCaseTable(summary: Pick<RunSummary, "models">): string {
  const rows = new Map<string, string[]>();
  const columns = summary.models.length;
  summary.models.forEach((model, column) => {
    for (const evaluation of model.evals) {
      for (const item of evaluation.cases ?? []) {
        const key = `${evaluation.evalId}\u0000${item.caseId}`;
        const row = rows.get(key) ?? [evaluation.evalId, item.caseId, ...Array<string>(columns).fill("—")];
        row[2 + column] = formatCaseScore(item);
        rows.set(key, row);
      }
    }
  });
  if (rows.size === 0) return "No eval of this run has cases.";
  return formatTable(["eval", "case", ...summary.models.map(candidateName)], [...rows.values()]).join("\n");
}

function formatCaseScore(score: { value: number | null; lower: number; upper: number }): string {
  if (score.value !== null) return `${(100 * score.value).toFixed(1)}%`;
  return `[${(100 * score.lower).toFixed(1)}–${(100 * score.upper).toFixed(1)}]%`;
}
