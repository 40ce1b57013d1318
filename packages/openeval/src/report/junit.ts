// JUnit XML for CI systems. First a suite for the verdict: one test case for the verdict itself (a failure when it
// fails, an error while it is incomplete, skipped when nothing was gated) and one per contributor. Then one suite per
// model (and variant), one test case per (eval, criterion) carrying its score, threshold and status as properties (and,
// for an eval with cases, one per case with its scores, failed where regression names the case): a
// failure when the verdict fails on that cell (a judge contributor or regression names it) or its criterion gate fails
// and the cell is below it; skipped while unresolved. Controls never enter the verdict, so their cells never fail a
// build: their properties still say a negative control scored 0. Per-category scores are the suite's properties.
import { candidateName } from "../records/index.ts";
import {
  DEFAULT_CRITERION_THRESHOLD,
  describeVerdict,
  formatVerdictWords,
  judgeCriterion,
  caseCellEval,
  type CaseSummary,
  type ContributorOutcome,
  type Verdict,
} from "../results/index.ts";
import type { ModelResult, RunSummary } from "../summary/index.ts";
import { findingLines } from "./integrity-findings.ts";
import { agreementLine } from "./judge-agreement.ts";
import { invariantLine } from "./invariant-lines.ts";

export function formatJunit(summary: RunSummary): string {
  const suites = [verdictSuite(summary), ...summary.models.map((model) => modelSuite(summary, model))];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="openeval ${escape(summary.runId)}">\n${suites.join("\n")}\n</testsuites>\n`;
}

function verdictSuite(summary: RunSummary): string {
  const words = describeVerdict(summary.verdict, summary.complete);
  const text = formatVerdictWords(words);
  const body = { pass: "", fail: failure(text), incomplete: error(text), "nothing gated": skipped(text) }[
    words.headline
  ];
  const verdict = testCase("openeval", "verdict", [["verdict", words.headline]], body);
  const cases = summary.verdict.contributors.map((contributor) =>
    contributorCase(contributor, propertiesOf(contributor, summary)),
  );
  return testSuite("openeval verdict", [verdict, ...cases], "");
}

/** Integrity's findings, each invariant's standing; a contributor's advisory failures, and llm-judge's unreliable criteria. */
function propertiesOf(contributor: ContributorOutcome, summary: RunSummary): [string, string][] {
  const advisory = (contributor.advisory ?? []).map((name, index): [string, string] => [`advisory.${index + 1}`, name]);
  const unreliable =
    contributor.id === "llm-judge"
      ? (summary.agreement ?? [])
          .filter((entry) => entry.unreliable)
          .map((entry, index): [string, string] => [`unreliable.${index + 1}`, agreementLine(entry)])
      : [];
  const invariants =
    contributor.id === "invariants"
      ? (summary.invariants ?? []).map((report): [string, string] => [`invariant.${report.id}`, invariantLine(report)])
      : [];
  return [
    ...(contributor.id === "integrity" ? findingProperties(summary) : []),
    ...invariants,
    ...advisory,
    ...unreliable,
  ];
}

/** `finding.<n>`: each integrity finding as the summary lists it (controls' too: they never fail the case). */
function findingProperties(summary: RunSummary): [string, string][] {
  return findingLines(summary.integrityFindings ?? []).map((line, index) => [`finding.${index + 1}`, line]);
}

/** Failed with what fails it, skipped while unresolved, not enabled or with nothing to check; the detail otherwise. */
function contributorCase(contributor: ContributorOutcome, extra: [string, string][] = []): string {
  const name = contributor.id;
  if (contributor.status === "skipped") return testCase("openeval.verdict", name, extra, skipped(contributor.detail));
  if (contributor.status === "pass" && contributor.checked === 0)
    return testCase("openeval.verdict", name, extra, skipped(`${contributor.word}: ${contributor.detail}`));
  const body =
    contributor.status === "fail"
      ? failure(`failing: ${contributor.failing.join(", ")}`)
      : contributor.status === "unknown"
        ? skipped(`unresolved: ${contributor.unresolved.join(", ")}`)
        : "";
  return testCase("openeval.verdict", name, [["detail", contributor.detail], ...extra], body);
}

function modelSuite(summary: RunSummary, model: ModelResult): string {
  const candidate = candidateName(model);
  const failingGates = new Set(
    summary.verdict.contributors.find((contributor) => contributor.id === "gates")?.failing ?? [],
  );
  const cases = model.evals.flatMap((evaluation) =>
    Object.entries(evaluation.criteria).map(([criterion, score]) => {
      const cell = `${evaluation.evalId}/${candidate}/${criterion}`;
      const threshold = thresholdOf(summary.verdict, criterion);
      const status = judgeCriterion(score, threshold);
      const value =
        score.value === null
          ? `unresolved [${score.lower.toFixed(3)}, ${score.upper.toFixed(3)}]`
          : score.value.toFixed(3);
      const properties: [string, string][] = [
        ["score", score.value === null ? "unresolved" : score.value.toFixed(3)],
        ...(score.value === null
          ? ([
              ["score.lower", score.lower.toFixed(3)],
              ["score.upper", score.upper.toFixed(3)],
            ] as [string, string][])
          : []),
        ["threshold", String(threshold)],
        ["status", status],
      ];
      const gate = `criteria.${criterion}.min`;
      const failedBy = [
        ...summary.verdict.contributors
          .filter((contributor) => contributor.failing.includes(cell))
          .map((contributor) => contributor.id),
        ...(failingGates.has(gate) && !model.control && status === "fail" ? [`the ${gate} gate`] : []),
      ];
      const body =
        failedBy.length > 0
          ? failure(`${criterion} scored ${value}, threshold ${threshold}: fails ${failedBy.join(", ")}`)
          : summary.verdict.contributors.some((contributor) => contributor.unresolved.includes(cell)) ||
              score.value === null
            ? skipped(`${criterion} is ${value}`)
            : "";
      return testCase(`${candidate}.${evaluation.evalId}`, criterion, properties, body);
    }),
  );
  const name = model.control ? `${candidate} (control)` : candidate;
  const caseCases = model.evals.flatMap((evaluation) =>
    (evaluation.cases ?? []).map((item) => caseTestCase(summary.verdict, candidate, evaluation.evalId, item)),
  );
  cases.push(...caseCases);
  const control: [string, string][] = model.control
    ? [["control", "a scripted control: never enters the verdict"]]
    : [];
  return testSuite(name, cases, properties([...control, ...categoryProperties(summary, candidate)], "    "));
}

/**
 * One test case per case of an eval with cases: its score and each criterion's as properties, skipped while
 * unresolved, failed where the verdict names one of its cells (a case that passed in the baseline and fails now).
 */
function caseTestCase(verdict: Verdict, candidate: string, evalId: string, item: CaseSummary): string {
  const cells = Object.keys(item.criteria).map(
    (criterion) => `${caseCellEval(evalId, item.caseId)}/${candidate}/${criterion}`,
  );
  const failedBy = verdict.contributors.flatMap((contributor) =>
    cells.filter((cell) => contributor.failing.includes(cell)).map((cell) => `${contributor.id} (${cell})`),
  );
  const format = (score: { value: number | null }) => (score.value === null ? "unresolved" : score.value.toFixed(3));
  const properties: [string, string][] = [
    ["score", format(item)],
    ...(item.value === null
      ? ([
          ["score.lower", item.lower.toFixed(3)],
          ["score.upper", item.upper.toFixed(3)],
        ] as [string, string][])
      : []),
    ...Object.entries(item.criteria).map(([id, score]): [string, string] => [`criterion.${id}`, format(score)]),
  ];
  const body =
    failedBy.length > 0
      ? failure(`case ${item.caseId} fails ${failedBy.join(", ")}`)
      : item.value === null
        ? skipped(`case ${item.caseId} is unresolved`)
        : "";
  return testCase(`${candidate}.${evalId}`, `case ${item.caseId}`, properties, body);
}

/** The criterion's pass mark as the verdict used it: its `gates.criteria.<id>.min` (evaluated as a gate), else the default. */
function thresholdOf(verdict: Verdict, criterion: string): number {
  return (
    verdict.gates.find((gate) => gate.id === `criteria.${criterion}.min`)?.threshold ?? DEFAULT_CRITERION_THRESHOLD
  );
}

/** `category.<name>.score` (0–100, or "unresolved"), `.lower`/`.upper` (completion bounds) and `.ci` when known. */
function categoryProperties(summary: RunSummary, candidate: string): [string, string][] {
  return summary.categories.flatMap((entry) => {
    const model = entry.models.find((row) => candidateName(row) === candidate);
    if (!model) return [];
    const { score, interval } = model;
    const values: [string, string][] = [
      ["score", score.value === null ? "unresolved" : score.value.toFixed(1)],
      ["lower", score.lower.toFixed(1)],
      ["upper", score.upper.toFixed(1)],
      ...(interval ? [["ci", `${interval.lower.toFixed(1)}–${interval.upper.toFixed(1)}`] as [string, string]] : []),
    ];
    return values.map(([key, value]): [string, string] => [`category.${entry.category}.${key}`, value]);
  });
}

function testSuite(name: string, cases: string[], suiteProperties: string): string {
  const count = (tag: string) => cases.filter((testCase) => testCase.includes(`<${tag} `)).length;
  return `  <testsuite name="${escape(name)}" tests="${cases.length}" failures="${count("failure")}" errors="${count("error")}" skipped="${count("skipped")}">\n${suiteProperties}${cases.join("\n")}\n  </testsuite>`;
}

function testCase(classname: string, name: string, caseProperties: [string, string][], body: string): string {
  const inner = `${properties(caseProperties, "      ")}${body ? `      ${body}\n` : ""}`;
  return `    <testcase classname="${escape(classname)}" name="${escape(name)}">${inner ? `\n${inner}    ` : ""}</testcase>`;
}

function properties(entries: [string, string][], indent: string): string {
  if (entries.length === 0) return "";
  const lines = entries.map(
    ([name, value]) => `${indent}  <property name="${escape(name)}" value="${escape(value)}"/>`,
  );
  return `${indent}<properties>\n${lines.join("\n")}\n${indent}</properties>\n`;
}

function failure(message: string): string {
  return `<failure message="${escape(message)}"/>`;
}

function error(message: string): string {
  return `<error message="${escape(message)}"/>`;
}

function skipped(message: string): string {
  return `<skipped message="${escape(message)}"/>`;
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
