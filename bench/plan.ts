// Measurement 4: `plan` time for a large benchmark (evals × models × repetitions), everything already recorded:
// generated eval folders, a store holding a finalized, sealed EvalRun + JudgeRun per slot over real evidence, then
// loadBenchmark and planBenchmark timed apart, with planBenchmark's parts (read the records' heads, decide the slots)
// beside it, and for reference the whole-record read and integrity check that the summary, the viewer and the runner
// make. Wall and CPU time both: on a loaded machine wall time is not the cost.
import { linkSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadBenchmark, planBenchmark } from "../packages/openeval/src/index.ts";
import type { BenchmarkDefinition } from "../packages/openeval/src/load/index.ts";
import { candidateFingerprint, judgeFingerprint, planSlots } from "../packages/openeval/src/plan/index.ts";
import { recordEvidence } from "../packages/openeval/src/recording/index.ts";
import { ResultsStore, newRunId, type EvalRun, type JudgeRun } from "../packages/openeval/src/records/index.ts";
import { readCheckedRecords, readPlanRecords } from "../packages/openeval/src/summary/index.ts";
import { OPENCODE_VERSION } from "../packages/openeval/src/util/versions.ts";
import { readCpuTime } from "./lib/cpu.ts";
import { recordedEvalRun } from "./lib/recorded-runs.ts";
import { now, round, summarize, type Summary } from "./lib/stats.ts";
import { millis, type Section } from "./lib/table.ts";
import { withTempDir, writeTree } from "./lib/temp.ts";

export interface PlanShape {
  evals: number;
  models: number;
  repetitions: number;
}

const PARTS = ["load", "plan", "readHeads", "planSlots", "planSlotsChanged", "readChecked"] as const;
type Part = (typeof PARTS)[number];

export interface PlanResult {
  shape: PlanShape;
  slots: number;
  /** Per part, wall ms and CPU ms (this process, user + system; 10 ms ticks) of each sample. */
  samples: Record<Part, { wallMs: number[]; cpuMs: number[] }>;
  /** Writing the recordings and the finalized rows (one EvalRun + one JudgeRun per slot), once. */
  writeStoreMs: number;
  summary: Record<Part, { wall: Summary; cpu: Summary }>;
  /** Slot count per planned action; every slot should be `reuse`. */
  actions: Record<string, number>;
  /** Set when a slot plans other work than reuse or a record fails its integrity check: the figure is not of a full reuse plan. */
  warning: string | null;
}

export async function measurePlan(
  shape: PlanShape,
  options: { repetitions: number; loads: number },
): Promise<PlanResult> {
  return withTempDir("plan", async (root) => {
    const models = Array.from({ length: shape.models }, (_, index) => `provider-${index + 1}/model-${index + 1}`);
    await writeTree(root, generateBenchmark(shape, models));

    const samples = Object.fromEntries(
      PARTS.map((part) => [part, { wallMs: [] as number[], cpuMs: [] as number[] }]),
    ) as PlanResult["samples"];
    const measure = async <T>(part: Part, fn: () => Promise<T> | T): Promise<T> => {
      const [start, cpu] = [now(), readCpuTime().selfMs];
      const value = await fn();
      samples[part].wallMs.push(round(now() - start));
      samples[part].cpuMs.push(round(readCpuTime().selfMs - cpu));
      return value;
    };
    let benchmark: BenchmarkDefinition | undefined;
    for (let index = 0; index < options.loads; index++) benchmark = await measure("load", () => loadBenchmark(root));

    const runDirectory = join(root, "results", newRunId());
    const start = now();
    const slots = await recordEverySlot(benchmark!, runDirectory);
    const writeStoreMs = round(now() - start);

    let actions: Record<string, number> = {};
    let changedActions: Record<string, number> = {};
    let problems = 0;
    for (let index = 0; index < options.repetitions; index++) {
      const plan = await measure("plan", () => planBenchmark({ benchmark: benchmark!, run: runDirectory }));
      actions = countActions(plan.slots.map((slot) => slot.action));
      problems = plan.integrity.length;

      // The same work in its parts, to show what the plan time is made of.
      const withStore =
        <T>(read: (store: ResultsStore) => T) =>
        () => {
          const store = ResultsStore.open(runDirectory, { readonly: true });
          try {
            return read(store);
          } finally {
            store.close();
          }
        };
      const recorded = await measure("readHeads", withStore(readPlanRecords));
      await measure("planSlots", () => planSlots(benchmark!, recorded));
      // Every candidate input changed (a new candidate timeout): every slot plans a candidate run with a cost estimate.
      const changed = {
        ...benchmark!,
        settings: { ...benchmark!.settings, candidate: { ...benchmark!.settings.candidate, timeoutMs: 99_000 } },
      };
      changedActions = countActions(
        (await measure("planSlotsChanged", () => planSlots(changed, recorded))).slots.map((slot) => slot.action),
      );
      // What a reader of whole records pays (the runner, the summary, the viewer): every row read and every manifest hashed.
      problems += (await measure("readChecked", withStore(readCheckedRecords))).integrity.length;
    }

    const reused = actions.reuse ?? 0;
    const warning =
      reused === slots && problems === 0 && changedActions.candidate === slots
        ? null
        : `WARNING: ${reused} of ${slots} slots plan as reuse (${JSON.stringify(actions)}), ${problems} records fail their integrity check, ${changedActions.candidate ?? 0} plan a candidate run once its inputs changed: not a measurement of full plans`;
    const summary = Object.fromEntries(
      PARTS.map((part) => [part, { wall: summarize(samples[part].wallMs), cpu: summarize(samples[part].cpuMs) }]),
    ) as PlanResult["summary"];
    return { shape, slots, samples, writeStoreMs, summary, actions, warning };
  });
}

/** benchmark.ts and `evals/eval-NNN/{prompt.md,judge.ts}`; each judge.ts differs, so each bundle is its own. */
function generateBenchmark(shape: PlanShape, models: string[]): Record<string, string> {
  // Process isolation: the recorded fingerprints are made with the process runtime, as the planner then computes them
  // (real-looking models default to containers, whose runtime fingerprint names the candidate image).
  const settings = {
    models,
    repetitions: shape.repetitions,
    judge: { timeoutMs: 60_000 },
    candidate: { timeoutMs: 120_000, isolation: "process" },
  };
  const files: Record<string, string> = { "benchmark.ts": `export default ${JSON.stringify(settings)};\n` };
  for (let n = 1; n <= shape.evals; n++) {
    const id = `eval-${String(n).padStart(3, "0")}`;
    files[`evals/${id}/prompt.md`] = `Reply with exactly WORD${n}.\n`;
    files[`evals/${id}/judge.ts`] =
      `export default ({ response }) => ({ scores: { correct_answer: response.text === "WORD${n}" } });\n`;
  }
  return files;
}

/**
 * Writes a finalized, judged EvalRun + JudgeRun for every slot, with the fingerprints the planner will compute and
 * real evidence: each eval's recording is written once by recordEvidence and hard-linked into every slot's evidence
 * folder, and every row is saved (and so sealed) by the store as a run saves it, so each slot passes the plan's
 * integrity check. The rows go in one transaction, as writing 100,000 rows one commit at a time took longer than the rest.
 */
async function recordEverySlot(benchmark: BenchmarkDefinition, runDirectory: string): Promise<number> {
  const runId = runDirectory.split("/").at(-1)!;
  const store = ResultsStore.open(runDirectory, { create: true });
  let evalRuns = 0;
  try {
    const { settings } = benchmark;
    store.writeRun({
      id: runId,
      name: benchmark.name,
      benchmarkDirectory: benchmark.directory,
      createdAt: new Date().toISOString(),
      opencodeVersion: OPENCODE_VERSION,
      models: settings.models,
      repetitions: settings.repetitions,
      evals: benchmark.evals.map((evaluation) => evaluation.id),
    });
    const recordings: { directory: string; hash: string }[] = [];
    for (const [index, evaluation] of benchmark.evals.entries()) {
      recordings.push(
        await recordEvidence({
          directory: join(runDirectory, "recordings", evaluation.id),
          prompt: evaluation.prompt.text,
          response: `WORD${index + 1}`,
        }),
      );
    }
    store.transaction(() => {
      for (const [index, evaluation] of benchmark.evals.entries()) {
        const judgeHash = judgeFingerprint(evaluation, settings);
        for (const model of settings.models) {
          const candidateHash = candidateFingerprint(evaluation, model, settings);
          for (let repetition = 1; repetition <= settings.repetitions; repetition++) {
            const id = `eval_${++evalRuns}`;
            const evidence = { directory: `eval-runs/${id}/evidence`, hash: recordings[index]!.hash };
            mkdirSync(join(runDirectory, evidence.directory), { recursive: true });
            linkSync(
              join(recordings[index]!.directory, "manifest.json"),
              join(runDirectory, evidence.directory, "manifest.json"),
            );
            const slot = { evalId: evaluation.id, model, variant: "current", repetition };
            const evalRun = recordedEvalRun({
              id,
              runId,
              slot,
              candidateFingerprint: candidateHash,
              prompt: evaluation.prompt.text,
              timeoutMs: settings.candidate.timeoutMs,
              evidence,
              startedAt: new Date(STARTED),
            });
            store.saveEvalRun(evalRun);
            store.saveJudgeRun(finishedJudgeRun(`judge_${evalRuns}`, evalRun, judgeHash));
          }
        }
      }
    });
  } finally {
    store.close();
  }
  return evalRuns;
}

const STARTED = "2026-01-01T00:00:00.000Z";
const COMPLETED = "2026-01-01T00:00:09.000Z";

function finishedJudgeRun(id: string, evalRun: EvalRun, judgeFingerprint: string): JudgeRun {
  return {
    id,
    runId: evalRun.runId,
    evalRunId: evalRun.id,
    slot: evalRun.slot,
    kind: "code",
    state: "completed",
    judgeFingerprint,
    startedAt: COMPLETED,
    completedAt: COMPLETED,
    elapsedMs: 150,
    scores: { correct_answer: { value: 1, source: "judge.ts" } },
    unscored: false,
    output: { scores: { correct_answer: true } },
    error: null,
    directory: `judge-runs/${id}`,
  };
}

function countActions(actions: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const action of actions) counts[action] = (counts[action] ?? 0) + 1;
  return counts;
}

export function sectionPlan(result: PlanResult): Section {
  const { summary, shape } = result;
  const row = (label: string, part: Part) => {
    const { wall, cpu } = summary[part];
    return [label, String(wall.n), millis(wall.min), millis(wall.median), millis(wall.max), millis(cpu.median)];
  };
  return {
    title: `4. plan time, large benchmark (${shape.evals} evals × ${shape.models} models × ${shape.repetitions} repetitions = ${result.slots} slots, all recorded)`,
    columns: ["", "n", "min ms", "median ms", "max ms", "median CPU ms"],
    rows: [
      ...(result.warning ? [[result.warning, "", "", "", "", ""]] : []),
      row("loadBenchmark (benchmark.ts, eval folders, bundle every judge.ts)", "load"),
      row("planBenchmark (loaded definition + run's store)", "plan"),
      row("  part: open store, read every eval run's and judge run's head (readPlanRecords)", "readHeads"),
      row("  part: planSlots (fingerprints, decide each slot)", "planSlots"),
      row("planSlots, every candidate input changed (every slot a candidate run, cost estimated)", "planSlotsChanged"),
      row(
        "reference: read every whole record and check its integrity (readCheckedRecords: the runner, summary, viewer)",
        "readChecked",
      ),
      ["reference: write the recordings and finalized rows once", "1", "", millis(result.writeStoreMs), "", ""],
    ],
    notes: [
      `actions: ${Object.entries(result.actions)
        .map(([action, count]) => `${action} ${count}`)
        .join(", ")}`,
      ...(result.warning ? [result.warning] : []),
    ],
  };
}
