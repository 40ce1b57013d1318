// A Markdown summary for a CI job page: the verdict first, then the model table (and per-category scores when criteria
// have categories), the criteria people reviewed, the integrity check's findings, and what failed or is open.
import { candidateName } from "../records/index.ts";
import { describeVerdict, formatVerdictWords } from "../results/index.ts";
import { describeSlot } from "../plan/index.ts";
import type { RunSummary } from "../summary/index.ts";
import { reviewBlock } from "./review-lines.ts";
import {
  CATEGORY_HEADER,
  categoryRows,
  describeFilter,
  formatModelCost,
  formatVariantComparison,
} from "./summary-table.ts";
import { findingLines } from "./integrity-findings.ts";
import { agreementEffect, agreementLine } from "./judge-agreement.ts";
import { invariantLine } from "./invariant-lines.ts";
import { adaptiveBlock } from "./adaptive-lines.ts";

export function formatMarkdownSummary(summary: RunSummary): string {
  const { verdict } = summary;
  const words = describeVerdict(verdict, summary.complete);
  const icon = { pass: "✅", fail: "❌", incomplete: "⚠️", "nothing gated": "➖" }[words.headline];
  const lines = [
    `## ${icon} openeval: ${formatVerdictWords(words)}`,
    "",
    ...(describeFilter(summary) ? [`**${describeFilter(summary)}**`, ""] : []),
    "| model | score | 95% CI | judged | cost (candidate + judge = total) |",
    "| --- | --- | --- | --- | --- |",
    ...summary.models.map((model) => {
      const score =
        model.score.value === null
          ? `${model.score.lower.toFixed(1)}–${model.score.upper.toFixed(1)} (incomplete)`
          : `${model.score.value.toFixed(1)}%`;
      const interval = model.interval.interval
        ? `${model.interval.interval.lower.toFixed(1)}–${model.interval.interval.upper.toFixed(1)}`
        : "—";
      const cost = formatModelCost(model);
      return `| ${candidateName(model)}${model.control ? " (control)" : model.unsandboxed ? " (unsandboxed)" : ""} | ${score} | ${interval} | ${model.judged}/${model.slots} | ${cost} |`;
    }),
    ...(summary.categories.length > 0
      ? [
          "",
          "**By category**",
          "",
          markdownRow(CATEGORY_HEADER),
          markdownRow(CATEGORY_HEADER.map(() => "---")),
          ...categoryRows(summary.categories).map(markdownRow),
        ]
      : []),
    ...(summary.variantComparisons.length > 0
      ? [
          "",
          "**Variants against current**",
          "",
          ...summary.variantComparisons.flatMap((entry) =>
            formatVariantComparison(entry).map((line) => `- ${line.trim()}`),
          ),
        ]
      : []),
    "",
    "| contributor | status | failing |",
    "| --- | --- | --- |",
    ...verdict.contributors.map(
      (contributor) =>
        `| ${contributor.id} | ${contributor.word} | ${contributor.failing.map((item) => `\`${item}\``).join(", ") || "—"} |`,
    ),
  ];
  const reviews = reviewBlock(summary);
  if (reviews) {
    lines.push("", `<details><summary>${reviews.title}</summary>`, "");
    lines.push(...reviews.lines.map((line) => `- ${line}`), "", "</details>");
  }
  const findings = findingLines(summary.integrityFindings ?? []);
  if (findings.length > 0) {
    lines.push("", `<details><summary>Integrity: ${findings.length} finding(s)</summary>`, "");
    lines.push(...findings.map((line) => `- ${line}`), "", "</details>");
  }
  const invariants = summary.invariants ?? [];
  if (invariants.length > 0) {
    const holding = invariants.filter((report) => report.status === "holds").length;
    lines.push("", `**Invariants: ${holding} of ${invariants.length} hold**`, "");
    lines.push(...invariants.map((report) => `- ${invariantLine(report).replace(/^([^:]+):/, "`$1`:")}`));
  }
  const [adaptive, ...comparisons] = adaptiveBlock(summary);
  if (adaptive) lines.push("", `**${adaptive}**`, "", ...comparisons.map((line) => `- ${line.trim()}`));
  const agreement = summary.agreement ?? [];
  if (agreement.length > 0) {
    const unreliable = agreement.filter((entry) => entry.unreliable);
    const effect = agreementEffect(summary);
    if (effect) lines.push("", `**${effect}**`);
    lines.push(
      "",
      `<details><summary>Judge agreement: ${agreement.length} criterion(s), ${unreliable.length} unreliable</summary>`,
      "",
    );
    lines.push(...agreement.map((entry) => `- ${agreementLine(entry)}`), "", "</details>");
  }
  if (summary.open.length > 0) {
    lines.push("", `<details><summary>${summary.open.length} slot(s) not finished</summary>`, "");
    for (const open of summary.open) {
      const id = open.evalRunId ? ` (eval run \`${open.evalRunId}\`)` : "";
      lines.push(`- ${describeSlot(open.slot)}${id}: ${open.action} — ${open.reason}`);
    }
    lines.push("", "</details>");
  }
  return `${lines.join("\n")}\n`;
}

function markdownRow(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}
