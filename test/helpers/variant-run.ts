// A recorded run of one real model with a current arm scoring 1 and a variant "worse" scoring 0, written through
// the results store (rows sealed as a runner seals them): for the verdict and viewer tests of variants.
import { join } from "node:path";
import { recordEvidence } from "../../packages/openeval/src/recording/index.ts";
import { loadBenchmark } from "../../packages/openeval/src/load/index.ts";
import { planSlots } from "../../packages/openeval/src/plan/index.ts";
import { ResultsStore, toSlotKey } from "../../packages/openeval/src/records/index.ts";
import { makeTempDir, minimalBenchmark, writeTree } from "./fixtures.ts";

/**
 * `settings`: more benchmark.ts keys, e.g. `gates: { score: { min: 0.5 } }`. `recorded`: each eval run gets a
 * recording (a judge can grade it again), instead of none.
 */
export async function recordedRun(settings = "", options: { recorded?: boolean } = {}) {
  const benchmark = await loadBenchmark(
    await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["p/m"], repetitions: 1, variants: { worse: { instructions: "Guess." } }, ${settings} };\n`,
      }),
    ),
  );
  const store = ResultsStore.open(join(await makeTempDir(), "run"), { create: true });
  store.writeRun({
    id: "r",
    name: "v",
    benchmarkDirectory: benchmark.directory,
    createdAt: "2026-12-01T10:00:00.000Z",
    opencodeVersion: "1.18.33",
    models: ["p/m"],
    repetitions: 1,
    evals: ["answer"],
  });
  for (const slot of planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots) {
    const id = `eval_${slot.variant}`;
    const time = { startedAt: "2026-12-01T10:00:00.000Z", completedAt: "2026-12-01T10:00:01.000Z", elapsedMs: 1000 };
    const evidence = options.recorded
      ? await recordEvidence({
          directory: join(store.directory, "eval-runs", id, "evidence"),
          prompt: "p",
          response: "42",
        })
      : null;
    store.saveEvalRun({
      id,
      runId: "r",
      slot: toSlotKey(slot),
      control: false,
      state: "completed",
      infrastructureError: false,
      error: null,
      ...time,
      input: {
        candidateFingerprint: slot.candidateFingerprint,
        prompt: "p",
        timeoutMs: 1,
        maxCostUSD: null,
        opencodeVersion: "1.18.33",
        isolation: "process",
      },
      evidence: evidence && { directory: `eval-runs/${id}/evidence`, hash: evidence.hash },
      metrics: null,
    });
    store.saveJudgeRun({
      id: `judge_${id}`,
      runId: "r",
      evalRunId: id,
      slot: toSlotKey(slot),
      kind: "code",
      state: "completed",
      judgeFingerprint: slot.judgeFingerprint,
      ...time,
      scores: { correct: { value: slot.variant === "worse" ? 0 : 1, source: "judge.ts" } },
      unscored: false,
      error: null,
      directory: `judge-runs/judge_${id}`,
    });
  }
  return { benchmark, store };
}
