// A benchmark with one recorded run, written through the results store as a runner seals its rows (no model session):
// for journeys that read a finished run back (the CLI's summary, the viewer).
import { join } from "node:path";
import { loadBenchmark } from "../../packages/openeval/src/load/index.ts";
import { planSlots } from "../../packages/openeval/src/plan/index.ts";
import { recordEvidence } from "../../packages/openeval/src/recording/index.ts";
import { ResultsStore, toSlotKey, type IntegrityFinding } from "../../packages/openeval/src/records/index.ts";
import { minimalBenchmark, writeTree } from "./fixtures.ts";

export const RUN_ID = "2026-12-01T10-00-00.000Z-0000beef";

/**
 * A benchmark of `models` whose run RUN_ID holds every slot's eval run and judgment (`credit` of 1 or 0), except the
 * slots `unjudged` names; a judgment carries the integrity findings `findings` gives its slot (none: not checked).
 * With `response`, each eval run has a real recording answering it, so its judge.ts can grade it again (rejudge).
 */
export async function recordedBenchmark(
  models: string[],
  credit: (model: string) => number,
  unjudged: (repetition: number, model: string) => boolean = () => false,
  findings: (repetition: number, model: string) => IntegrityFinding[] | undefined = () => undefined,
  options: { response?: string } = {},
): Promise<string> {
  const directory = await writeTree(
    minimalBenchmark({
      "benchmark.ts": `export default { models: ${JSON.stringify(models)}, repetitions: 2, candidate: { isolation: "process" } };\n`,
      "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
      "evals/answer/controls/negative.json": JSON.stringify({ turns: [{ text: "pear" }] }),
    }),
  );
  const benchmark = await loadBenchmark(directory);
  const store = ResultsStore.open(join(directory, "results", RUN_ID), { create: true });
  store.writeRun({
    id: RUN_ID,
    name: "report",
    benchmarkDirectory: directory,
    createdAt: "2026-12-01T10:00:00.000Z",
    opencodeVersion: "1.18.33",
    models,
    repetitions: 2,
    evals: ["answer"],
  });
  for (const slot of planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots) {
    const id = `eval_${slot.model.replace("/", "_")}_${slot.repetition}`;
    const time = { startedAt: "2026-12-01T10:00:00.000Z", completedAt: "2026-12-01T10:00:01.000Z", elapsedMs: 1000 };
    const evidence =
      options.response === undefined
        ? null
        : await recordEvidence({
            directory: join(store.directory, "eval-runs", id, "evidence"),
            prompt: "Reply with exactly APPLE.",
            response: options.response,
          });
    store.saveEvalRun({
      id,
      runId: RUN_ID,
      slot: toSlotKey(slot),
      control: slot.model.startsWith("control/"),
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
    if (unjudged(slot.repetition, slot.model)) continue;
    const integrityFindings = findings(slot.repetition, slot.model);
    store.saveJudgeRun({
      id: `judge_${id}`,
      runId: RUN_ID,
      evalRunId: id,
      slot: toSlotKey(slot),
      kind: "code",
      state: "completed",
      judgeFingerprint: slot.judgeFingerprint,
      ...time,
      scores: { correct: { value: credit(slot.model), source: "judge.ts" } },
      unscored: false,
      error: null,
      directory: `judge-runs/judge_${id}`,
      ...(integrityFindings ? { integrityFindings } : {}),
    });
  }
  store.close();
  return directory;
}
