// Measurement 9: the runner's memory over a large run. Real OpenCode sessions (~5 s each) are too slow for 10,000
// slots, so every slot's candidate is already recorded (its fingerprint current, its recording real and shared by
// many slots) and none is judged yet: `runBenchmark` then reuses every candidate and code-judges every slot, so
// its store, planner, queue, progress log and summary all carry the full count. The runner runs in a process of its
// own; its resident set is sampled as slots finish and its peak (VmHWM) read when the run returns. No OpenCode
// process runs; the judge workers are processes of their own, not counted.
import { join, relative } from "node:path";
import { recordEvidence, runBenchmark, type EvidenceRef } from "../packages/openeval/src/index.ts";
import { loadBenchmark } from "../packages/openeval/src/load/index.ts";
import { candidateFingerprint } from "../packages/openeval/src/plan/index.ts";
import { newRunId, ResultsStore } from "../packages/openeval/src/records/index.ts";
import { OPENCODE_VERSION } from "../packages/openeval/src/util/versions.ts";
import { readProcessMemory } from "./lib/proc-memory.ts";
import { recordedEvalRun } from "./lib/recorded-runs.ts";
import { now, round } from "./lib/stats.ts";
import type { Section } from "./lib/table.ts";
import { withTempDir, writeTree } from "./lib/temp.ts";

const MODELS = ["provider-1/model-1", "provider-2/model-2", "provider-3/model-3", "provider-4/model-4"];
const REPETITIONS = 5;
/** Recordings the slots share (their evidence is real and passes the integrity check). */
const RECORDINGS = 8;
/** The runner's parallel work items (judge workers at once). */
const CONCURRENCY = 2;

export interface RunnerMemoryResult {
  slots: number;
  /** Slots per planned action in run.started (every one should be `judge`). */
  actions: Record<string, number>;
  judged: number;
  /** Judge runs that did not complete (should be 0). */
  failedJudgeRuns: number;
  wallMs: number;
  /** The runner process's resident set when 0 %, 10 %, … 100 % of the slots were judged. */
  rssByProgressMiB: { judged: number; rssMiB: number }[];
  /** Before runBenchmark was called (Bun plus the imported modules). */
  rssBeforeMiB: number;
  /** VmHWM (the peak so far) when the plan was made, when the first judge started (inputs frozen), when the last slot was judged, and when runBenchmark returned. */
  peakRssMiB: { planned: number; frozen: number; judged: number; returned: number };
  /** Writing the recorded eval runs, once. */
  setupMs: number;
}

/** What the runner's own process reports back. */
type ChildReport = Omit<RunnerMemoryResult, "slots" | "setupMs">;

const evalRunId = (n: number) => `eval_${n.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;

export async function measureRunnerMemory(options: { slots: number }): Promise<RunnerMemoryResult> {
  const evals = Math.max(1, Math.round(options.slots / (MODELS.length * REPETITIONS)));
  return withTempDir("runner-memory", async (root) => {
    const start = now();
    const runDirectory = await writeRecordedRun(root, evals);
    const setupMs = round(now() - start);
    const child = Bun.spawn([process.execPath, import.meta.filename, "--runner", root, runDirectory], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, exitCode] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    if (exitCode !== 0)
      throw new Error(`runner-memory: the runner process failed (exit ${exitCode}): ${stderr.slice(-2000)}`);
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as ChildReport;
    return { slots: evals * MODELS.length * REPETITIONS, setupMs, ...report };
  });
}

/** benchmark.ts (process isolation) and evals whose judge.ts checks the answer; every slot recorded, none judged. */
async function writeRecordedRun(root: string, evals: number): Promise<string> {
  const settings = {
    models: MODELS,
    repetitions: REPETITIONS,
    concurrency: CONCURRENCY,
    judge: { timeoutMs: 60_000 },
    candidate: { timeoutMs: 120_000, isolation: "process" },
  };
  const files: Record<string, string> = { "benchmark.ts": `export default ${JSON.stringify(settings)};\n` };
  for (let n = 1; n <= evals; n++) {
    const id = `eval-${String(n).padStart(4, "0")}`;
    files[`evals/${id}/prompt.md`] = `Reply with exactly APPLE (eval ${n}).\n`;
    files[`evals/${id}/judge.ts`] =
      `export default ({ response }) => ({ scores: { correct_answer: response.text === "APPLE" } });\n`;
  }
  await writeTree(root, files);
  const benchmark = await loadBenchmark(root);
  const runId = newRunId();
  const runDirectory = join(root, "results", runId);
  const store = ResultsStore.open(runDirectory, { create: true });
  try {
    store.writeRun({
      id: runId,
      name: benchmark.name,
      benchmarkDirectory: root,
      createdAt: new Date().toISOString(),
      opencodeVersion: OPENCODE_VERSION,
      models: MODELS,
      repetitions: REPETITIONS,
      evals: benchmark.evals.map((evaluation) => evaluation.id),
    });
    const recordings: EvidenceRef[] = [];
    for (let index = 0; index < RECORDINGS; index++)
      recordings.push(await record(join(runDirectory, "eval-runs", `recording-${index}`, "evidence"), index));
    let n = 0;
    for (const evaluation of benchmark.evals) {
      for (const model of MODELS) {
        const fingerprint = candidateFingerprint(evaluation, model, benchmark.settings);
        for (let repetition = 1; repetition <= REPETITIONS; repetition++) {
          const evidence = recordings[n % RECORDINGS]!;
          store.saveEvalRun(
            recordedEvalRun({
              id: evalRunId(n),
              runId,
              slot: { evalId: evaluation.id, model, variant: "current", repetition },
              candidateFingerprint: fingerprint,
              prompt: evaluation.prompt.text,
              timeoutMs: 120_000,
              evidence: { directory: relative(runDirectory, evidence.directory), hash: evidence.hash },
              startedAt: new Date(Date.UTC(2026, 0, 1) + n * 1_000),
            }),
          );
          n++;
        }
      }
    }
  } finally {
    store.close();
  }
  return runDirectory;
}

/** Even recordings answer right, odd ones wrong: half the slots pass. */
function record(directory: string, index: number): Promise<EvidenceRef> {
  return recordEvidence({
    directory,
    prompt: "Reply with exactly APPLE.",
    response: index % 2 === 0 ? "APPLE" : "apple",
    workspace: { initial: { "notes.txt": "todo\n" }, final: { "notes.txt": "todo\n" } },
  });
}

/** In the runner's own process: resume the recorded run, sampling this process's memory as slots are judged. */
async function runRecordedRun(benchmarkDirectory: string, runDirectory: string): Promise<ChildReport> {
  const memory = () => readProcessMemory("self") ?? { rssMiB: Number.NaN, peakRssMiB: Number.NaN };
  const rssBeforeMiB = memory().rssMiB;
  const actions: Record<string, number> = {};
  const rssByProgressMiB: ChildReport["rssByProgressMiB"] = [];
  let slots = 0;
  let judged = 0;
  let failedJudgeRuns = 0;
  const peakRssMiB = { planned: Number.NaN, frozen: Number.NaN, judged: Number.NaN, returned: Number.NaN };
  const start = now();
  await runBenchmark({
    benchmark: benchmarkDirectory,
    run: runDirectory,
    onEvent: (event) => {
      if (event.type === "run.started") {
        slots = event.slots.length;
        for (const slot of event.slots) actions[slot.action] = (actions[slot.action] ?? 0) + 1;
        const { rssMiB, peakRssMiB: peak } = memory();
        peakRssMiB.planned = peak;
        rssByProgressMiB.push({ judged: 0, rssMiB });
      }
      if (event.type === "judge.started" && Number.isNaN(peakRssMiB.frozen)) peakRssMiB.frozen = memory().peakRssMiB;
      if (event.type !== "judge.finished") return;
      judged++;
      if (event.judgeRun.state !== "completed") failedJudgeRuns++;
      if (judged % Math.max(1, Math.round(slots / 10)) === 0)
        rssByProgressMiB.push({ judged, rssMiB: memory().rssMiB });
      if (judged === slots) peakRssMiB.judged = memory().peakRssMiB;
    },
  });
  const wallMs = round(now() - start);
  peakRssMiB.returned = memory().peakRssMiB;
  return { actions, judged, failedJudgeRuns, wallMs, rssByProgressMiB, rssBeforeMiB, peakRssMiB };
}

export function sectionRunnerMemory(result: RunnerMemoryResult): Section {
  const warnings = [
    ...(result.actions.judge === result.slots
      ? []
      : [`WARNING: not every slot planned judge: ${JSON.stringify(result.actions)}`]),
    ...(result.failedJudgeRuns === 0 ? [] : [`WARNING: ${result.failedJudgeRuns} judge runs did not complete`]),
  ];
  return {
    title: `9. Runner memory: ${result.slots.toLocaleString("en-US")} slots, every candidate recorded and reused, every slot code-judged (runBenchmark resuming the run in its own process, concurrency ${CONCURRENCY}; no OpenCode process)`,
    columns: ["slots judged", "runner RSS MiB"],
    rows: [
      ["before runBenchmark", String(result.rssBeforeMiB)],
      ...result.rssByProgressMiB.map((sample) => [sample.judged.toLocaleString("en-US"), String(sample.rssMiB)]),
      ["peak (VmHWM) by the plan (recover, integrity check, plan)", String(result.peakRssMiB.planned)],
      ["peak (VmHWM) by the first judge started (inputs hashed and frozen)", String(result.peakRssMiB.frozen)],
      ["peak (VmHWM) by the last slot judged", String(result.peakRssMiB.judged)],
      ["peak (VmHWM) over the whole run (summary included)", String(result.peakRssMiB.returned)],
    ],
    notes: [
      `aim: peak < 200 MB · ${result.judged.toLocaleString("en-US")} judged in ${(result.wallMs / 1000).toFixed(1)} s · writing the recorded run took ${(result.setupMs / 1000).toFixed(1)} s`,
      ...warnings,
    ],
  };
}

if (import.meta.main) {
  if (process.argv[2] === "--runner") {
    console.log(JSON.stringify(await runRecordedRun(process.argv[3]!, process.argv[4]!)));
  } else {
    const { formatSection } = await import("./lib/table.ts");
    console.log(
      formatSection(sectionRunnerMemory(await measureRunnerMemory({ slots: Number(process.argv[2] ?? 10_000) }))),
    );
  }
}
