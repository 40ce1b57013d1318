import { describe, expect, it } from "vitest";
import { baselineSummaries, type Baseline } from "../results/index.ts";
import type { ModelResult, RunSummary } from "../summary/index.ts";
import { formatBaselineDeltas } from "./baseline-deltas.ts";
import { EMPTY_SUMMARY } from "./fixtures/empty-summary.ts";

function baseline(entries: { evalId: string; model: string; criteria: Record<string, number> }[]): Baseline {
  return {
    format: "openeval.baseline",
    version: 1,
    runId: "run-before",
    createdAt: "2026-12-01T10:00:00.000Z",
    verdict: "pass",
    acceptedFailing: false,
    gate: ["code-judge"],
    entries: entries.map((entry) => ({ ...entry, candidateFingerprints: [], judgeFingerprints: [] })),
  };
}

/** A run whose models score what `entries` say (its scores made the way baseline.json's are read back). */
function runScoring(entries: Parameters<typeof baseline>[0]): RunSummary {
  const models = baselineSummaries(baseline(entries)).map(
    (model) => ({ ...model, control: false, unsandboxed: false, failed: 0 }) as unknown as ModelResult,
  );
  return { ...EMPTY_SUMMARY, models } as unknown as RunSummary;
}

const BEFORE = baseline([
  { evalId: "fix-bug", model: "p/a", criteria: { tests: 1, style: 1 } },
  { evalId: "docs", model: "p/a", criteria: { clear: 0.5 } },
  { evalId: "fix-bug", model: "p/gone", criteria: { tests: 1 } },
]);

describe("formatBaselineDeltas", () => {
  it("gives each shared model's score before and now with Δ, and lists the evals that changed, regressions first", () => {
    const run = runScoring([
      { evalId: "fix-bug", model: "p/a", criteria: { tests: 0, style: 1 } },
      { evalId: "docs", model: "p/a", criteria: { clear: 1 } },
      { evalId: "fix-bug", model: "p/new", criteria: { tests: 1 } },
    ]);
    const text = formatBaselineDeltas(run, BEFORE);
    expect(text).toContain("### Against baseline\n\nBaseline: run `run-before`, set 2026-12-01T10:00:00.000Z.");
    // p/a: 75.0 before (mean of 1 and 0.5), 75.0 now (0.5 and 1): equal scores, one regression and one improvement.
    expect(text).toMatch(/^\| p\/a \| 75\.0 \| 75\.0 \| ±0\.0.* \| 1 \| 1 \|$/m);
    expect(text).toContain(
      "| model | eval | baseline | this run | Δ | change |\n| --- | --- | --- | --- | --- | --- |\n" +
        "| p/a | `fix-bug` | 100.0 | 50.0 | −50.0 | 🔻 regression |\n" +
        "| p/a | `docs` | 50.0 | 100.0 | +50.0 | 🔺 improvement |",
    );
    expect(text).toContain("Not in the baseline: p/new.");
    expect(text).toContain("In the baseline but not in this run: p/gone.");
  });

  it("says so when nothing changed, and when no model is shared", () => {
    const same = runScoring([
      { evalId: "fix-bug", model: "p/a", criteria: { tests: 1, style: 1 } },
      { evalId: "docs", model: "p/a", criteria: { clear: 0.5 } },
    ]);
    expect(formatBaselineDeltas(same, BEFORE)).toContain("No eval changed.");
    expect(formatBaselineDeltas(same, BEFORE)).not.toContain("| model | eval |");
    const other = runScoring([{ evalId: "fix-bug", model: "p/other", criteria: { tests: 1 } }]);
    expect(formatBaselineDeltas(other, BEFORE)).toContain("No model of this run is in the baseline.");
  });
});
