// readResults(): the scores, statistics and verdict of a recorded run, for scripts, the CLI and the viewer.
// Nothing is executed: the benchmark is loaded (no judge code runs) and the run's store is read.
import { resolve } from "node:path";
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { planSlots, type PlannedSlot, type PlanScope } from "../plan/index.ts";
import { readRunModels, ResultsStore, type BenchmarkRun, type EvalRun, type JudgeRun } from "../records/index.ts";
import { readCheckedRecords, type CheckedRecords } from "./checked-records.ts";
import type { RunSummary } from "./events.ts";
import { summarizeRun, type SummaryOptions } from "./summarize-run.ts";
import { resolveRunIsolation } from "./candidate-isolation.ts";
import { resolveRunVerification } from "./verification.ts";

export interface ReadResultsOptions {
  /** The benchmark the run belongs to; default: the folder recorded in the run. */
  benchmark?: string | BenchmarkDefinition;
  scope?: PlanScope;
  /** Variants that block besides current (`--variant`); without a scope, the summary holds current and these. */
  variants?: string[];
  selection?: SummaryOptions["selection"];
  /** The run's checked records, when the caller holds them as just read from this run's store (the viewer's index). */
  records?: CheckedRecords;
}

/**
 * @example
 * const results = await readResults("./results/2026-11-29T21-40-00.000Z-1a2b3c4d");
 * console.log(results.verdict.status, results.models.map((model) => [model.model, model.score.value]));
 */
export async function readResults(runDirectory: string, options: ReadResultsOptions = {}): Promise<RunSummary> {
  return (await readRecordedRun(runDirectory, options, false)).summary;
}

/** A recorded run's summary with the planned slots behind it (each with its active eval run and judge run), for snapshot. */
export async function readScoredRun(runDirectory: string, options: ReadResultsOptions = {}): Promise<{ run: BenchmarkRun; summary: RunSummary; slots: PlannedSlot<EvalRun, JudgeRun>[] }> {
  return readRecordedRun(runDirectory, options, true);
}

/** `withSlots`: plan the slots again beside the summary (the viewer's leaderboard, via readResults, does without). */
async function readRecordedRun(runDirectory: string, options: ReadResultsOptions, withSlots: boolean): Promise<{ run: BenchmarkRun; summary: RunSummary; slots: PlannedSlot<EvalRun, JudgeRun>[] }> {
  const directory = resolve(runDirectory);
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    const run = store.readRun();
    const source = options.benchmark ?? run.benchmarkDirectory;
    const benchmark = typeof source === "string" ? await loadBenchmark(source) : source;
    // Every model the run holds work for (the ones it started with, any added since), less those remove-models retired.
    const { active, retired } = readRunModels(store);
    const models = [...new Set([...active, ...store.evalRunModels()])].filter((model) => !retired.includes(model));
    const scope: PlanScope = options.scope ?? { replaceModels: models, ...(options.variants ? { variants: options.variants } : {}) };
    const verification = await resolveRunVerification(benchmark);
    // Where candidates ran is part of their fingerprints: a run made with one --isolation for every model says so in
    // its eval runs; otherwise each model's own setting (benchmark.ts, or the default) applies.
    const records = options.records ?? readCheckedRecords(store);
    const recorded = new Set(records.evalRuns.flatMap((evalRun) => (evalRun.input.isolation ? [evalRun.input.isolation] : [])));
    const isolation = await resolveRunIsolation(benchmark, models, recorded.size === 1 ? [...recorded][0] : undefined, { strict: false });
    const summary = await summarizeRun(benchmark, store, scope, run.id, { selection: options.selection, verificationImage: verification.imageFor, candidateRuntime: isolation.runtimeFor, settings: "recorded", records });
    const slots = withSlots ? planSlots(benchmark, records, scope, verification.imageFor, isolation.runtimeFor).slots.filter((slot) => slot.deferredBy !== "scope") : [];
    return { run, summary, slots };
  } finally {
    store.close();
  }
}
