// runBenchmark(): plan, then run each slot's work — candidate execution, then grading — recording everything in
// the run's store, and summarize. It emits lifecycle events and never prints.
import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { executeCandidate } from "../candidate/index.ts";
import { gradeEvalRun, gradeRubricUnavailable } from "../judge/index.ts";
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { planBenchmark, type PlannedSlot, type PlanScope } from "../plan/index.ts";
import { chooseRunDirectory } from "../results/run-directory.ts";
import type { BenchmarkRun, EvalRun } from "../results/schema.ts";
import { ResultsStore } from "../results/store.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";
import type { RunnerListener, RunSummary } from "./events.ts";
import { summarizeRun } from "./summarize-run.ts";

export interface RunBenchmarkOptions {
  /** A benchmark folder, or one already loaded. */
  benchmark: string | BenchmarkDefinition;
  /** Resume this run directory. */
  run?: string;
  /** Start a new run instead of resuming the latest. */
  new?: boolean;
  scope?: PlanScope;
  onEvent?: RunnerListener;
  signal?: AbortSignal;
}

/**
 * Runs (or resumes) a benchmark and returns its summary.
 * @example
 * const summary = await runBenchmark({ benchmark: "." , onEvent: (event) => console.error(event.type) });
 */
export async function runBenchmark(options: RunBenchmarkOptions): Promise<RunSummary> {
  const benchmark = typeof options.benchmark === "string" ? await loadBenchmark(options.benchmark) : options.benchmark;
  const scope = options.scope ?? {};
  const emit: RunnerListener = (event) => options.onEvent?.(event);
  const choice = chooseRunDirectory(benchmark.directory, { run: options.run, new: options.new });
  const store = ResultsStore.open(choice.directory, { create: true });
  const runId = basename(choice.directory);
  try {
    if (choice.created) store.writeRun(describeRun(runId, benchmark, scope));
    store.beat();
    const plan = planBenchmark(benchmark, { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() }, scope);
    emit({ type: "run.started", runId, directory: choice.directory, resumed: !choice.created, slots: plan.slots });

    const work = plan.slots.filter((slot) => slot.action === "candidate" || slot.action === "judge");
    const controls = work.some((slot) => slot.model.startsWith("control/")) ? await startControls(benchmark) : null;
    try {
      for (const slot of work) {
        if (options.signal?.aborted) break;
        await runSlot({ slot, benchmark, store, runId, controls, emit, signal: options.signal });
        store.beat();
      }
    } finally {
      await controls?.close();
    }
    const summary = summarizeRun(benchmark, store, scope, runId);
    emit({ type: "run.finished", runId, directory: choice.directory, summary });
    return summary;
  } finally {
    store.close();
  }
}

interface SlotContext {
  slot: PlannedSlot;
  benchmark: BenchmarkDefinition;
  store: ResultsStore;
  runId: string;
  controls: ControlServer | null;
  emit: RunnerListener;
  signal?: AbortSignal;
}

async function runSlot(context: SlotContext): Promise<void> {
  const { slot, benchmark, store, runId, emit } = context;
  const evaluation = benchmark.evals.find((candidate) => candidate.id === slot.evalId)!;
  const key = { evalId: slot.evalId, model: slot.model, repetition: slot.repetition };
  let evalRun: EvalRun | null = slot.evalRun;
  if (slot.action === "candidate") {
    const evalRunId = `eval_${randomUUID()}`;
    emit({ type: "candidate.started", slot: key, evalRunId });
    evalRun = await executeCandidate({
      runId,
      runDirectory: store.directory,
      evalRunId,
      slot: key,
      evaluation,
      settings: benchmark.settings,
      candidateFingerprint: slot.candidateFingerprint,
      controlBaseURL: context.controls?.baseURL(slot.evalId) ?? null,
      signal: context.signal,
      save: (record) => store.saveEvalRun(record),
    });
    emit({ type: "candidate.finished", slot: key, evalRun });
  }
  // Infrastructure errors and failed candidates are never judged (nor scored as 0): they wait for `retry`.
  if (!evalRun || evalRun.infrastructureError || evalRun.state === "failed" || evalRun.state === "interrupted" || !evalRun.evidence) return;
  const judgeRunId = `judge_${randomUUID()}`;
  emit({ type: "judge.started", slot: key, judgeRunId });
  const judgeRun = await gradeEvalRun(
    {
      runId,
      runDirectory: store.directory,
      judgeRunId,
      evalRun,
      evaluation,
      settings: benchmark.settings,
      judgeFingerprint: slot.judgeFingerprint,
      save: (record) => store.saveJudgeRun(record),
    },
    gradeRubricUnavailable,
  );
  emit({ type: "judge.finished", slot: key, judgeRun });
}

async function startControls(benchmark: BenchmarkDefinition): Promise<ControlServer> {
  return startControlServer({ controls: Object.fromEntries(benchmark.evals.map((evaluation) => [evaluation.id, evaluation.controls])) });
}

function describeRun(runId: string, benchmark: BenchmarkDefinition, scope: PlanScope): BenchmarkRun {
  return {
    id: runId,
    name: benchmark.name,
    benchmarkDirectory: benchmark.directory,
    createdAt: new Date().toISOString(),
    opencodeVersion: OPENCODE_VERSION,
    models: scope.models ?? benchmark.settings.models,
    repetitions: benchmark.settings.repetitions,
    evals: benchmark.evals.map((evaluation) => evaluation.id),
  };
}
