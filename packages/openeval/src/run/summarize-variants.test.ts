// Only current blocks by default; a variant named with --variant blocks too (issue 19; the Crux evals seed).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { planSlots } from "../plan/index.ts";
import { ResultsStore, toSlotKey } from "../results/index.ts";
import { summarizeRun } from "./summarize-run.ts";

async function recordedRun() {
  const benchmark = await loadBenchmark(
    await writeTree(minimalBenchmark({ "benchmark.ts": `export default { models: ["p/m"], repetitions: 1, variants: { worse: { instructions: "Guess." } } };\n` })),
  );
  const store = ResultsStore.open(join(await makeTempDir(), "run"), { create: true });
  store.writeRun({ id: "r", name: "v", benchmarkDirectory: benchmark.directory, createdAt: "2026-12-01T10:00:00.000Z", opencodeVersion: "1.18.33", models: ["p/m"], repetitions: 1, evals: ["answer"] });
  for (const slot of planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots) {
    const id = `eval_${slot.variant ?? "current"}`;
    const time = { startedAt: "2026-12-01T10:00:00.000Z", completedAt: "2026-12-01T10:00:01.000Z", elapsedMs: 1000 };
    store.saveEvalRun({
      id, runId: "r", slot: toSlotKey(slot), control: false, state: "completed", infrastructureError: false, error: null, ...time,
      input: { candidateFingerprint: slot.candidateFingerprint, prompt: "p", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "1.18.33", isolation: "process" },
      evidence: null, metrics: null,
    });
    store.saveJudgeRun({
      id: `judge_${id}`, runId: "r", evalRunId: id, slot: toSlotKey(slot), kind: "code", state: "completed", judgeFingerprint: slot.judgeFingerprint, ...time,
      scores: { correct: { value: slot.variant ? 0 : 1, source: "judge.ts" } }, unscored: false, error: null, directory: `judge-runs/judge_${id}`,
    });
  }
  return { benchmark, store };
}

describe("the verdict with variants", () => {
  it("a failing variant does not fail the verdict unless --variant names it", async () => {
    const { benchmark, store } = await recordedRun();
    const byDefault = await summarizeRun(benchmark, store, {}, "r");
    expect(byDefault.models.map((row) => [row.variant ?? "current", row.score.value])).toEqual([["current", 100], ["worse", 0]]);
    expect(byDefault.complete).toBe(true);
    expect(byDefault.verdict.status).toBe("pass");
    const named = await summarizeRun(benchmark, store, { variants: ["worse"] }, "r");
    expect(named.verdict.status).toBe("fail");
    expect(named.verdict.contributors.find((contributor) => contributor.id === "code-judge")!.failing).toEqual(["answer/p/m [worse]/correct"]);
    store.close();
  });
});
