// The read side of a run: its records, checked, turned into scores, a summary, a verdict or a check — from the store,
// the evidence and the benchmark's files alone (no engine is asked, nothing is run). The runner, reports and the
// viewer all read a run through here.
export type {
  EngineCounts,
  ModelResult,
  ProviderBackoff,
  RunnerEvent,
  RunnerListener,
  RunSummary,
  SlotIntegrityFindings,
  WorkQueueState,
} from "./events.ts";
export { readResults, readScoredRun, summarizeRecordedRun, type ReadResultsOptions } from "./read-results.ts";
export {
  readRecordedSummary,
  recordSummary,
  SUMMARY_RECORDED_EVENT,
  toLeaderboardSummary,
  type LeaderboardSummary,
  type RecordedLeaderboard,
  type RowCounts,
} from "./recorded-summary.ts";
export { summarizeRun, type SummaryOptions } from "./summarize-run.ts";
export { BASELINE_FILE } from "../results/index.ts";
export { planAdaptively, type AdaptiveComparison, type AdaptiveProgress } from "./adaptive-rounds.ts";
export { benchmarkVersion } from "./benchmark-version.ts";
export {
  compareSources,
  describeInputChanges,
  hashSources,
  INPUTS_CHANGED_EVENT,
  INPUTS_TAMPERED_EVENT,
  NOT_BENCHMARK_SOURCE,
  recordedInputChanges,
  recordedInputProblems,
  type InputChange,
  type InputChangeRecord,
} from "./input-changes.ts";
export { verifyRun, type RunVerification } from "./verify-run.ts";
export { INDEXED, type IndexedEvalRun, type IndexedJudgeRun } from "./indexed-runs.ts";
export { recordedSlots, RecordedSlot } from "./recorded-slots.ts";
export {
  describeIntegrityProblems,
  readCheckedRecords,
  readCheckedRecordsSince,
  readPlanRecords,
  type CheckedRecords,
  type PlanRecords,
  type RecordKeeping,
} from "./checked-records.ts";
export {
  LatestReviews,
  type ReviewedJudgeRun,
  type ReviewedScore,
  type ReviewStanding,
} from "./apply-reviews.ts";
export { parseReviewScore, reviewEvalRun, type ReviewOptions, type ReviewResult } from "./review-eval-run.ts";
export { ReviewError } from "./errors.ts";
export {
  calibrateAgainstReviews,
  PASS_AT,
  type CalibrateAgainstReviewsOptions,
  type JudgeCalibration,
  type ReviewCalibration,
} from "./calibrate-against-reviews.ts";
export { readInvariantStandings, type InvariantReport } from "./invariant-standings.ts";
