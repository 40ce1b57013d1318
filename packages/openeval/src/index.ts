// The public API of openeval: an explicit list (a test pins it). The CLI is a thin layer over these.
export { loadBenchmark, BenchmarkInvalidError } from "./load/index.ts";
export type { Benchmark, BenchmarkDefinition, EvalConfig, EvalDefinition, LoadProblem } from "./load/index.ts";
export { recordEvidence, EvidenceError } from "./recording/index.ts";
export type {
  EvidenceRef,
  FileDiff,
  FileEntry,
  JudgeContext,
  NativeEvent,
  NativeMessage,
  NativeSession,
  RecordEvidenceOptions,
  Revision,
  RunMetrics,
  ToolCall,
} from "./recording/index.ts";
export { judgeEvidence } from "./judge/index.ts";
export { runBenchmark, planBenchmark, readResults } from "./run/index.ts";
export type { ModelResult, PlanBenchmarkOptions, ReadResultsOptions, RunBenchmarkOptions, RunnerEvent, RunSummary } from "./run/index.ts";
export type { ContributorOutcome, Verdict } from "./results/index.ts";
export type { Plan, PlannedSlot, PlanScope, SlotAction } from "./plan/index.ts";
export { readRecording } from "./recording/index.ts";
export type { JudgeEvidenceOptions, JudgeResult } from "./judge/index.ts";
export type { CriterionScore, EvalRun } from "./results/schema.ts";
export { compareRuns } from "./view/index.ts";
export type { ComparisonAnswer, CompareRunsOptions } from "./view/index.ts";
