// How every report says the integrity check's findings: one line per finding, naming the slot, its eval run, the
// severity the verdict gave it, and where in the recording it was seen.
import { candidateName, type IntegrityCitation } from "../records/index.ts";
import type { RunSummary, SlotIntegrityFindings } from "../summary/index.ts";

/** The summary's and Markdown's limit: the rest are in --json, JUnit and the viewer. */
const LISTED = 20;

/**
 * @example describeCitation({ kind: "tool", id: "call_1" }) // "tool call call_1"
 */
export function describeCitation(citation: IntegrityCitation): string {
  if (citation.kind === "tool") return `tool call ${citation.id}`;
  if (citation.kind === "file") return `the workspace diff (${citation.path} ${citation.change})`;
  return `refused connection #${citation.index + 1} of the egress log`;
}

/** One line per finding, its slot named as the verdict names it: `<eval>/<candidate>#<repetition> [eval run <id>] <severity> <kind> <subject>: <detail> (cites …)`. */
export function findingLines(entries: readonly SlotIntegrityFindings[]): string[] {
  return entries.flatMap((entry) =>
    entry.findings.map(
      (finding) =>
        `${entry.slot.evalId}/${candidateName(entry.slot)}#${entry.slot.repetition}${entry.control ? " (control)" : ""} [eval run ${entry.evalRunId}] ${finding.severity} ${finding.kind} ${finding.subject}: ${finding.detail} (cites ${describeCitation(finding.citation)})`,
    ),
  );
}

/** The summary's "Integrity" block; empty when nothing was found. */
export function integrityBlock(summary: Pick<RunSummary, "integrityFindings">): string[] {
  const lines = findingLines(summary.integrityFindings ?? []);
  if (lines.length === 0) return [];
  const failing = (summary.integrityFindings ?? []).flatMap((entry) =>
    entry.findings.filter((finding) => finding.severity === "fail" && !entry.control),
  ).length;
  return [
    `Integrity: ${lines.length} finding${lines.length === 1 ? "" : "s"} in ${summary.integrityFindings!.length} eval run${summary.integrityFindings!.length === 1 ? "" : "s"} (${failing} failing the verdict; controls never do):`,
    ...lines.slice(0, LISTED).map((line) => `  ${line}`),
    ...(lines.length > LISTED
      ? [`  … and ${lines.length - LISTED} more (openeval report --json, or openeval view, lists them all)`]
      : []),
  ];
}
