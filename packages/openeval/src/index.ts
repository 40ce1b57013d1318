// The public API of openeval: an explicit list (a test pins it). The CLI is a thin layer over these.
export { loadBenchmark, BenchmarkInvalidError, rubricCriteria } from "./load/index.ts";
export type {
  Benchmark,
  BenchmarkDefinition,
  CodeCriteria,
  EvalConfig,
  EvalConfig as Eval,
  EvalDefinition,
  LoadProblem,
} from "./load/index.ts";
export { recordEvidence, EvidenceError } from "./recording/index.ts";
export type {
  EvidenceRef,
  FileDiff,
  FileEntry,
  JudgeCase,
  JudgeContext,
  JudgeMetrics,
  JudgeToolCall,
  JudgeToolStatus,
  NativeMessage,
  NativeSession,
  RecordedEvent,
  RecordedFile,
  RecordEvidenceOptions,
  Revision,
  RunMetrics,
  ToolMetrics,
} from "./recording/index.ts";
export type { JudgeToolCall as ToolCall } from "./recording/index.ts";
export { criterionMean, isScored, judgeEvidence, VERIFICATION_IMAGE } from "./judge/index.ts";
export type { CodeScore, ScoreValue } from "./judge/index.ts";
export { addModels, mergeRuns, removeModels, runBenchmark, planBenchmark, snapshotRun } from "./run/index.ts";
export type {
  AddModelsOptions,
  MergedRuns,
  RemovedModels,
  RunSnapshot,
  PlanBenchmarkOptions,
  RunBenchmarkOptions,
} from "./run/index.ts";
export { readResults, reviewEvalRun, ReviewError } from "./summary/index.ts";
export type {
  ModelResult,
  ReadResultsOptions,
  ReviewedScore,
  ReviewOptions,
  ReviewResult,
  ReviewStanding,
  RunnerEvent,
  RunSummary,
  SlotIntegrityFindings,
} from "./summary/index.ts";
export type { ContributorOutcome, Verdict } from "./results/index.ts";
export type { Plan, PlannedSlot, PlanScope, SlotAction } from "./plan/index.ts";
export { readRecording } from "./recording/index.ts";
export type { JudgeEvidenceOptions, JudgeResult } from "./judge/index.ts";
export { resolveRun, RunNotFoundError } from "./records/index.ts";
export type {
  CriterionScore,
  EvalRun,
  IntegrityFinding,
  JudgeRun,
  Review,
  Reviewer,
  ReviewScore,
  ScoreReview,
} from "./records/index.ts";
export { compareRuns } from "./view/index.ts";
export type { ComparisonAnswer, CompareRunsOptions } from "./view/index.ts";
