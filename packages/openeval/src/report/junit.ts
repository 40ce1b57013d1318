// JUnit XML for CI systems: one test suite per model (and variant), one test case per (eval, criterion) with its score;
// a failing verdict contributor's cells are failures, unresolved ones are skipped with the reason.
import { candidateName } from "../results/index.ts";
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
    return `  <testsuite name="${escape(name)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="openeval ${escape(summary.runId)}">\n${suites.join("\n")}\n</testsuites>\n`;
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
