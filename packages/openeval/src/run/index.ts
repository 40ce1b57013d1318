// The run orchestrator: plan → candidate → recording → judge → store → summary, as lifecycle events.
export { runBenchmark, type RunBenchmarkOptions } from "./run-benchmark.ts";
export type { RunnerEvent, RunnerListener, RunSummary } from "./events.ts";
export { planBenchmark, type PlanBenchmarkOptions } from "./plan-run.ts";
export { defaultConcurrency } from "./run-benchmark.ts";
export { readResults, type ReadResultsOptions } from "./read-results.ts";
export { BASELINE_FILE } from "./summarize-run.ts";
export { RunInProgressError } from "./recover.ts";
export type { ModelResult } from "./events.ts";
export { calibrateBenchmark, type CalibrationReport, type ControlCheck } from "./calibrate.ts";
export { benchmarkVersion } from "./benchmark-version.ts";
export { describeInputChanges, NOT_BENCHMARK_SOURCE, type InputChange, type InputChangeRecord } from "./input-changes.ts";
export { verifyRun, type RunVerification } from "./verify-run.ts";
export { describeIntegrityProblems, readCheckedRecords, readPlanRecords, type CheckedRecords, type PlanRecords } from "./checked-records.ts";
export { isJudgeable } from "./slot-work.ts";
export { addModels, type AddModelsOptions } from "./add-models.ts";
export { removeModels, type RemovedModels } from "./remove-models.ts";
export { mergeRuns, type MergedRuns } from "./merge-runs.ts";
export { snapshotRun, SNAPSHOTS_DIRECTORY, type RunSnapshot } from "./snapshot-run.ts";
