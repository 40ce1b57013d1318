import { describe, expect, it } from "vitest";
import { findAll, parseXml } from "../../../../test/helpers/xml.ts";
import { decideVerdict } from "../results/index.ts";
import type { InvariantReport, RunSummary } from "../summary/index.ts";
import { formatJunit } from "./junit.ts";
import { formatMarkdownSummary } from "./markdown-summary.ts";
import { formatSummary } from "./summary-table.ts";
import { EMPTY_SUMMARY } from "./fixtures/empty-summary.ts";

const report = (
  id: string,
  status: InvariantReport["status"],
  extra: Partial<InvariantReport> = {},
): InvariantReport => ({
  id,
  description: null,
  argv: ["sh", `checks/${id}.sh`],
  over: "workspaces",
  status,
  reason: null,
  exitCode: status === "holds" ? 0 : status === "violated" ? 1 : null,
  stdout: "",
  stderr: "",
  logsTruncated: false,
  elapsedMs: 10,
  evaluation: null,
  ...extra,
});

function summaryWith(invariants: InvariantReport[]): RunSummary {
  return {
    ...EMPTY_SUMMARY,
    settingsNote: null,
    complete: true,
    invariants,
    verdict: decideVerdict({
      observations: [],
      criteria: {},
      invariants: {
        standings: invariants.map(({ id, status, exitCode, reason }) => ({ id, status, exitCode, reason })),
        manifestProblem: null,
      },
    }),
  };
}

describe("invariant reports", () => {
  const invariants = [
    report("cost-cap", "holds", { over: "summary" }),
    report("no-todo", "violated", { stderr: "scanning\nTODO left in e/er_1/app.ts\n" }),
    report("hangs", "unevaluable", { reason: "it did not finish within its timeoutMs (1000 ms) and was killed" }),
  ];
  const summary = summaryWith(invariants);

  it("the table lists each invariant's recorded standing with its last output line, and the verdict fails naming them", () => {
    const text = formatSummary(summary);
    expect(text).toContain(
      [
        "Invariants: 1 of 3 hold (as recorded; reports never run them):",
        "  cost-cap: holds",
        "  no-todo: violated (exit code 1) — TODO left in e/er_1/app.ts",
        "  hangs: unevaluable: it did not finish within its timeoutMs (1000 ms) and was killed",
      ].join("\n"),
    );
    expect(text).toContain("Verdict: fail");
    expect(text).toContain("  invariants fail — failing: no-todo, hangs");
  });

  it("Markdown and JUnit say the same: a line per invariant, the contributor's case failing with each as a property", () => {
    const markdown = formatMarkdownSummary(summary);
    expect(markdown).toContain("| invariants | fail | `no-todo`, `hangs` |");
    expect(markdown).toContain("**Invariants: 1 of 3 hold**");
    expect(markdown).toContain("- `no-todo`: violated (exit code 1) — TODO left in e/er_1/app.ts");
    const junit = parseXml(formatJunit(summary));
    const invariantsCase = findAll(junit, "testcase").find((element) => element.attributes.name === "invariants")!;
    expect(findAll(invariantsCase, "failure")[0]?.attributes.message).toBe("failing: no-todo, hangs");
    expect(
      findAll(invariantsCase, "property")
        .map((property) => [property.attributes.name, property.attributes.value])
        .filter(([name]) => name!.startsWith("invariant.")),
    ).toEqual([
      ["invariant.cost-cap", "cost-cap: holds"],
      ["invariant.no-todo", "no-todo: violated (exit code 1) — TODO left in e/er_1/app.ts"],
      ["invariant.hangs", "hangs: unevaluable: it did not finish within its timeoutMs (1000 ms) and was killed"],
    ]);
  });

  it("no invariants declared: no block, and the contributor is skipped saying so", () => {
    const none = summaryWith([]);
    expect(formatSummary(none)).not.toContain("Invariants:");
    expect(formatSummary(none)).toContain("  invariants skipped (no invariants declared)");
    expect(formatMarkdownSummary(none)).not.toContain("**Invariants");
  });
});
