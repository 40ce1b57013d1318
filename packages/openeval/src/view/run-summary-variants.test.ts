import { describe, expect, it } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import { buildRunIndex } from "./run-index.ts";
import { SummaryReader } from "./run-summary.ts";

describe("the viewer's overview with variants", () => {
  it("gives each variant's paired comparison with current, as the CLI summary does", async () => {
    const { store } = await recordedRun();
    const index = buildRunIndex(store.directory, store.readRun(), store.evalRuns(), store.judgeRuns(), null);
    const overview = await new SummaryReader().overview(index);
    expect(overview.leaderboard.map((row) => [row.variant ?? "current", row.score.value, row.verdict])).toEqual([["current", 100, "pass"], ["worse", 0, null]]);
    expect(overview.variantComparisons.map((entry) => [entry.variant, entry.comparison.b, entry.comparison.counts.regression, entry.comparison.evals[0]!.difference])).toEqual([
      ["worse", "p/m [worse]", 1, -1],
    ]);
    store.close();
  });
});
