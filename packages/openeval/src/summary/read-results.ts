// readResults(): the scores, statistics and verdict of a recorded run, for scripts, the CLI and the viewer.
// Nothing is executed and no engine is asked: the benchmark is loaded (no judge code runs) and the run's store is read,
// with the image ids its runner recorded (recorded-runtimes.ts). The same summary is what a runner records at its end
// for the viewer (recorded-summary.ts): both make it with summarizeRecordedRun.
import { resolve } from "node:path";
import { loadBenchmark, type BenchmarkDefinition, type Isolation } from "../load/index.ts";
import { planSlots, type PlannedSlot, type PlanScope } from "../plan/index.ts";
import {
  readRunModels,
  readRuntimeIdentity,
  ResultsStore,
  type BenchmarkRun,
  type EvalRun,
  type JudgeRun,
} from "../records/index.ts";
import { readCheckedRecords, type CheckedRecords } from "./checked-records.ts";
import type { RunSummary } from "./events.ts";
import { missingIdentityWarning, recordedRuntimes, type RecordedRuntimes } from "./recorded-runtimes.ts";
import { summarizeRun, type SummaryOptions } from "./summarize-run.ts";

export interface ReadResultsOptions {
  /** The benchmark the run belongs to; default: the folder recorded in the run. */
  benchmark?: string | BenchmarkDefinition;
  scope?: PlanScope;
  /** Variants that block besides current (`--variant`); without a scope, the summary holds current and these. */
  variants?: string[];
  selection?: SummaryOptions["selection"];
  /** The run's checked records, when the caller holds them as just read from this run's store. */
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
export async function readScoredRun(
  runDirectory: string,
  options: ReadResultsOptions = {},
): Promise<{ run: BenchmarkRun; summary: RunSummary; slots: PlannedSlot<EvalRun, JudgeRun>[] }> {
  return readRecordedRun(runDirectory, options, true);
}

/** What a recorded run's summary is decided from besides its rows and the benchmark: read from the store. */
export interface RecordedRunBasis {
  /** Every model the run holds work for (the ones it started with, any added since), less those remove-models retired. */
  models: string[];
  /** The one `--isolation` every eval run that says so recorded (a run made with it for all models); null otherwise. */
  isolation: Isolation | null;
}

export interface RecordedRunSummary {
  summary: RunSummary;
  /** The planned slots in scope, when asked for `withSlots`. */
  slots: PlannedSlot<EvalRun, JudgeRun>[];
  basis: RecordedRunBasis;
}

/**
 * The summary readResults gives for the run in `store` against `benchmark` (the one home of that decision: readResults,
 * snapshot and the summary a runner records for the viewer all come from here). `records`: the run's checked records
 * when the caller holds them as just read from `store`. `withSlots`: plan the slots again beside the summary.
 */
export async function summarizeRecordedRun(
  store: ResultsStore,
  benchmark: BenchmarkDefinition,
  options: Omit<ReadResultsOptions, "benchmark"> & { withSlots?: boolean } = {},
): Promise<RecordedRunSummary> {
  const records = options.records ?? readCheckedRecords(store);
  const basis = readRunBasis(store, records);
  const scope: PlanScope = options.scope ?? {
    replaceModels: basis.models,
    ...(options.variants ? { variants: options.variants } : {}),
  };
  const identity = readRuntimeIdentity(store);
  const runtimes: RecordedRuntimes = recordedRuntimes(benchmark, basis.isolation, identity);
  const summary = await summarizeRun(benchmark, store, scope, store.readRun().id, {
    selection: options.selection,
    ...runtimes,
    settings: "recorded",
    records,
  });
  summary.warnings.push(...missingIdentityWarning(benchmark, basis.models, runtimes, identity));
  const slots = options.withSlots
    ? planSlots(benchmark, records, scope, runtimes.verificationImage, runtimes.candidateRuntime).slots.filter(
        (slot) => slot.deferredBy !== "scope",
      )
    : [];
  return { summary, slots, basis };
}

function readRunBasis(store: ResultsStore, records: CheckedRecords): RecordedRunBasis {
  const { active, retired } = readRunModels(store);
  const models = [...new Set([...active, ...store.evalRunModels()])].filter((model) => !retired.includes(model));
  // Where candidates ran is part of their fingerprints: a run made with one --isolation for every model says so in
  // its eval runs; otherwise each model's own setting (benchmark.ts, or the default) applies.
  const recorded = new Set(
    records.evalRuns.flatMap((evalRun) => (evalRun.input.isolation ? [evalRun.input.isolation] : [])),
  );
  return { models, isolation: recorded.size === 1 ? [...recorded][0]! : null };
}

async function readRecordedRun(
  runDirectory: string,
  options: ReadResultsOptions,
  withSlots: boolean,
): Promise<{ run: BenchmarkRun; summary: RunSummary; slots: PlannedSlot<EvalRun, JudgeRun>[] }> {
  const directory = resolve(runDirectory);
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    const run = store.readRun();
    const source = options.benchmark ?? run.benchmarkDirectory;
    const benchmark = typeof source === "string" ? await loadBenchmark(source) : source;
    const { summary, slots } = await summarizeRecordedRun(store, benchmark, { ...options, withSlots });
    return { run, summary, slots };
  } finally {
    store.close();
  }
}
