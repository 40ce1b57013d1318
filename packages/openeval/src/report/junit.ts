// JUnit XML for CI systems: one test suite per model (and variant), one test case per (eval, criterion) with its score;
// a failing verdict contributor's cells are failures, unresolved ones are skipped with the reason. Per-category scores
// (when criteria have categories) are the suite's properties: they are scores, not tests that pass or fail.
import { candidateName } from "../records/index.ts";
import type { RunSummary } from "../run/index.ts";

export function formatJunit(summary: RunSummary): string {
  const failing = new Set(summary.verdict.contributors.flatMap((contributor) => contributor.failing));
  const unresolved = new Set(summary.verdict.contributors.flatMap((contributor) => contributor.unresolved));
  const suites = summary.models.map((model) => {
    const candidate = candidateName(model);
    const cases = model.evals.flatMap((evaluation) =>
      Object.entries(evaluation.criteria).map(([criterion, score]) => {
        const cell = `${evaluation.evalId}/${candidate}/${criterion}`;
        const value = score.value === null ? `unresolved [${score.lower.toFixed(3)}, ${score.upper.toFixed(3)}]` : score.value.toFixed(3);
        const body = failing.has(cell)
          ? `<failure message="${escape(`${criterion} scored ${value}`)}"/>`
          : unresolved.has(cell) || score.value === null
            ? `<skipped message="${escape(`${criterion} is ${value}`)}"/>`
            : "";
        return `    <testcase classname="${escape(`${candidate}.${evaluation.evalId}`)}" name="${escape(criterion)}">${body}</testcase>`;
      }),
    );
    const failures = cases.filter((testCase) => testCase.includes("<failure")).length;
    const skipped = cases.filter((testCase) => testCase.includes("<skipped")).length;
    const name = model.control ? `${candidate} (control)` : candidate;
    const properties = categoryProperties(summary, candidate);
    return `  <testsuite name="${escape(name)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${properties}${cases.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="openeval ${escape(summary.runId)}">\n${suites.join("\n")}\n</testsuites>\n`;
}

/** `category.<name>.score` (0–100, or "unresolved"), `.lower`/`.upper` (completion bounds) and `.ci` when known. */
function categoryProperties(summary: RunSummary, candidate: string): string {
  const properties = summary.categories.flatMap((entry) => {
    const model = entry.models.find((row) => candidateName(row) === candidate);
    if (!model) return [];
    const { score, interval } = model;
    const values: [string, string][] = [
      ["score", score.value === null ? "unresolved" : score.value.toFixed(1)],
      ["lower", score.lower.toFixed(1)],
      ["upper", score.upper.toFixed(1)],
      ...(interval ? [["ci", `${interval.lower.toFixed(1)}–${interval.upper.toFixed(1)}`] as [string, string]] : []),
    ];
    return values.map(([key, value]) => `      <property name="${escape(`category.${entry.category}.${key}`)}" value="${escape(value)}"/>`);
  });
  return properties.length === 0 ? "" : `    <properties>\n${properties.join("\n")}\n    </properties>\n`;
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
