// runBenchmark(): recover, plan, then run all candidate and judge work through one queue, recording
// everything in the run's store, and summarize. It emits lifecycle events and never prints.
import { availableParallelism } from "node:os";
import { basename } from "node:path";
import type { ControlServer } from "@openeval/control-model";
import { checkModelOverride, earlyStopPolicy, loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { planSlots, type PlanScope } from "../plan/index.ts";
import { chooseRunDirectory } from "../results/index.ts";
import type { BenchmarkRun } from "../results/index.ts";
import { recordVerdictSettings, ResultsStore, verdictSettingsOf } from "../results/index.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";
import type { RunnerListener, RunSummary } from "./events.ts";
import { HEARTBEAT_INTERVAL_MS, recoverRun } from "./recover.ts";
import { createPreflight } from "./preflight.ts";
import { startControls } from "./start-controls.ts";
import { rubricJudgesFor, runCandidateWork, runJudgeWork, type SlotWork, type WorkContext } from "./slot-work.ts";
import { summarizeRun, type SummaryOptions } from "./summarize-run.ts";
import { reapOrphanedVerification, resolveRunVerification } from "./verification.ts";
import { runWorkQueue } from "./work-queue.ts";
import { isControlModel } from "../util/control-model.ts";

export interface RunBenchmarkOptions {
  /** A benchmark folder, or one already loaded. */
  benchmark: string | BenchmarkDefinition;
  /** Resume this run directory. */
  run?: string;
  /** Start a new run instead of resuming the latest. */
  new?: boolean;
  scope?: PlanScope;
  /** Parallel work items; default: benchmark.ts `concurrency`, else what the machine can hold. */
  concurrency?: number;
  /** Verdict contributor selection from the command line (--gate, --only, --no-llm-judge). */
  selection?: SummaryOptions["selection"];
  onEvent?: RunnerListener;
  signal?: AbortSignal;
}

/** About one OpenCode session per core: each keeps a core busy while it starts and runs tools. */
export function defaultConcurrency(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Runs (or resumes) a benchmark and returns its summary.
 * @example
 * const summary = await runBenchmark({ benchmark: ".", onEvent: (event) => console.error(event.type) });
 */
export async function runBenchmark(options: RunBenchmarkOptions): Promise<RunSummary> {
  const benchmark = typeof options.benchmark === "string" ? await loadBenchmark(options.benchmark) : options.benchmark;
  if (options.scope?.models) checkModelOverride(benchmark, options.scope.models);
  const scope = options.scope ?? {};
  const emit: RunnerListener = (event) => options.onEvent?.(event);
  const choice = chooseRunDirectory(benchmark.directory, { run: options.run, new: options.new });
  const store = ResultsStore.open(choice.directory, { create: true });
  const runId = basename(choice.directory);
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  try {
    await recoverRun(store);
    store.beat();
    heartbeat = setInterval(() => store.beat(), HEARTBEAT_INTERVAL_MS);
    if (choice.created) store.writeRun(describeRun(runId, benchmark, scope));
    const verification = await resolveRunVerification(benchmark);
    await reapOrphanedVerification(verification);
    const plan = planSlots(benchmark, { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() }, scope, verification.imageFor);
    emit({ type: "run.started", runId, directory: choice.directory, resumed: !choice.created, slots: plan.slots, estimateUSD: plan.estimate.usd });

    const concurrency = options.concurrency ?? benchmark.settings.concurrency ?? defaultConcurrency();
    const monitored = monitoredEvals(benchmark, concurrency, scope.finalOnly ?? false, emit);
    const work: SlotWork[] = plan.slots
      .filter((slot) => slot.action === "candidate" || slot.action === "judge")
      .map((slot) => ({
        kind: slot.action === "candidate" ? "candidate" : "judge",
        slot,
        evalRun: slot.evalRun,
        monitored: slot.action === "candidate" && monitored.has(slot.evalId),
      }));
    const scriptedJudge = benchmark.settings.judge.model !== undefined && isControlModel(benchmark.settings.judge.model);
    const controls: ControlServer | null = work.some((item) => isControlModel(item.slot.model) || scriptedJudge)
      ? await startControls(benchmark)
      : null;
    const context: WorkContext = {
      benchmark,
      store,
      runId,
      controls,
      emit,
      signal: options.signal,
      fresh: new Set(),
      ...rubricJudgesFor(controls),
      verification: verification.setup,
      preflight: createPreflight(benchmark),
    };
    try {
      await runWorkQueue(
        work,
        concurrency,
        (item, enqueue) => (item.kind === "candidate" ? runCandidateWork(item, context, enqueue) : item.kind === "check" ? item.check!() : runJudgeWork(item, context)),
        { signal: options.signal, onChange: (state) => emit({ type: "queue.changed", ...state }) },
      );
    } finally {
      await controls?.close();
    }
    // The verdict is decided with these settings: recorded so that readResults and the viewer decide it the same way later.
    recordVerdictSettings(store, verdictSettingsOf(benchmark.settings, options.selection));
    const summary = await summarizeRun(benchmark, store, scope, runId, { fresh: context.fresh, selection: options.selection, verificationImage: verification.imageFor });
    emit({ type: "run.finished", runId, directory: choice.directory, summary });
    return summary;
  } finally {
    clearInterval(heartbeat);
    store.close();
  }
}

/** Evals whose candidates get earlyStop checks in this invocation; says why when some are left to final grading. */
function monitoredEvals(benchmark: BenchmarkDefinition, concurrency: number, finalOnly: boolean, emit: RunnerListener): Set<string> {
  const withEarlyStop = benchmark.evals.filter((evaluation) => earlyStopPolicy(evaluation.settings.earlyStop) !== null).map((evaluation) => evaluation.id);
  if (withEarlyStop.length === 0 || finalOnly) return new Set();
  if (concurrency < 2) {
    emit({ type: "notice", message: `earlyStop is off for ${withEarlyStop.join(", ")}: checks need a second lane, and concurrency is ${concurrency}. Raise --concurrency to 2 or more to use it.` });
    return new Set();
  }
  return new Set(withEarlyStop);
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
