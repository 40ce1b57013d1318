// Integrity findings as the viewer shows them: a flag (how many, the worst severity) on matrix cells and the eval-run
// page, and each finding with where on the eval-run page its citation leads. Severities are the verdict's: benchmark.ts
// `integrity` as recorded with the run (results/verdict-settings.ts), else the defaults.
import { severityOf, type IntegritySettings } from "../load/index.ts";
import type { IntegrityFinding, ResultsStore } from "../records/index.ts";
import { readVerdictSettings } from "../results/index.ts";
import type { EvalRunDetail, IntegrityFindingView, IntegrityFlag, IntegrityTarget, ToolSummary } from "./api-types.ts";

/**
 * benchmark.ts `integrity` as the run's verdict was last decided with; undefined: the default severities. Settings
 * that no longer read leave the defaults: the run's pages still open, and its verdict note says what is wrong.
 */
export function readIntegritySettings(store: ResultsStore): IntegritySettings | undefined {
  try {
    return readVerdictSettings(store)?.integrity ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Counted from the findings the index keeps, never copied: a flag is made for the matrix page asked for.
 * @example flagFindings([{ kind: "network_refused", … }], undefined) // { findings: 1, severity: "warn" }
 */
export function flagFindings(
  findings: readonly IntegrityFinding[] | undefined,
  settings: IntegritySettings | undefined,
): IntegrityFlag | null {
  if (!findings || findings.length === 0) return null;
  const fails = findings.some((finding) => severityOf(finding.kind, settings) === "fail");
  return { findings: findings.length, severity: fails ? "fail" : "warn" };
}

/** Several slots' flags as one: their findings added up, "fail" when any of them fails. */
export function mergeFlags(flags: readonly (IntegrityFlag | null)[]): IntegrityFlag | null {
  const present = flags.filter((flag) => flag !== null);
  if (present.length === 0) return null;
  return {
    findings: present.reduce((sum, flag) => sum + flag.findings, 0),
    severity: present.some((flag) => flag.severity === "fail") ? "fail" : "warn",
  };
}

/** The eval-run page's findings: each with its severity and the tool call, diff entry or refusal it cites. */
export function toFindingViews(
  findings: readonly IntegrityFinding[],
  settings: IntegritySettings | undefined,
  page: Pick<EvalRunDetail, "tools" | "diff"> & { egressRefused: readonly (string | null)[] | undefined },
): IntegrityFindingView[] {
  const tools = new Map<string, ToolSummary>(page.tools.map((tool) => [tool.id, tool]));
  const targetOf = (citation: IntegrityFinding["citation"]): IntegrityTarget | null => {
    switch (citation.kind) {
      case "tool": {
        const tool = tools.get(citation.id);
        return tool ? { kind: "tool", focus: tool.id, sessionID: tool.sessionID, tool: tool.name } : null;
      }
      case "file": {
        const entry = page.diff.find((file) => file.path === citation.path);
        return entry ? { kind: "file", path: entry.path, status: entry.status } : null;
      }
      case "egress": {
        const refused = page.egressRefused ?? [];
        return citation.index < refused.length
          ? { kind: "egress", index: citation.index, host: refused[citation.index] ?? null }
          : null;
      }
    }
  };
  const views = findings.map(
    (finding): IntegrityFindingView => ({
      ...finding,
      severity: severityOf(finding.kind, settings),
      target: targetOf(finding.citation),
    }),
  );
  // Those that fail the verdict first; each group in the order the check found them.
  return [...views.filter((view) => view.severity === "fail"), ...views.filter((view) => view.severity !== "fail")];
}
