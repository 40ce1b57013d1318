// The results stage: the run's store and its records, run directories, and equal-weight aggregation.
export {
  BenchmarkRunSchema,
  CITATION_KINDS,
  CitationSchema,
  CriterionScoreSchema,
  EVAL_RUN_STATES,
  EvalRunSchema,
  JUDGE_RUN_STATES,
  JudgeRunSchema,
  SlotKeySchema,
  type BenchmarkRun,
  type Citation,
  type EarlyCheck,
  type CriterionScore,
  type EvalRun,
  type PreparationError,
  type EvalRunState,
  type JudgeRun,
  type JudgeRunState,
  type SlotKey,
} from "./schema.ts";
export { RunMetricsSchema, type RunMetrics } from "./run-metrics-schema.ts";
export { candidateName, slotId, toSlotKey, variantOf } from "./slot-key.ts";
export { ResultsStore, STORE_FILE, StoreError } from "./store.ts";
export { chooseRunDirectory, findLatestRun, newRunId, resultsRoot, type RunDirectoryChoice } from "./run-directory.ts";
export { aggregateScores, type Bounded, type EvalSummary, type ModelSummary, type SlotOutcome } from "./aggregate.ts";
export { scoreCategories, type CategoryModelScore, type CategoryScore } from "./category-scores.ts";
export { judgingOf, unionMs, type Interval } from "./active-time.ts";
export { scoreIntervals, compareModels, costAndTimeByModel, measureCostAndTime, type CostAndTime, type PairedComparison, type ScoreInterval, type SlotObservation } from "./statistics.ts";
export { passAtK, passHatK, summarizePassK, type PassK } from "./pass-at-k.ts";
export { evaluateGates, gateName, type GateResult } from "./gates.ts";
export { CONTRIBUTOR_IDS, resolveGate, type ContributorId, type GateSelection } from "./gate-selection.ts";
export { decideVerdict, exitCodeFor, verdictHeadline, type ContributorOutcome, type CriterionRef, type Verdict, type VerdictStatus } from "./verdict.ts";
export { buildBaseline, readBaseline, writeBaseline, type BaselineInput } from "./baseline.ts";
export type { Baseline } from "./baseline-schema.ts";
export type { SlotFingerprint } from "./regression.ts";
export { BaselineInvalidError, BaselineRefusedError, GateSelectionError, RunMaintenanceError } from "./errors.ts";
export { median } from "./numbers.ts";
export { readRedactionList, recordRedactions, REDACTION_LIST_FILE, toRedactionEntries, type RedactionEntry } from "./redaction-list.ts";
export { checkJudgeRunFile, checkRecords, JUDGE_FILES_MANIFEST, type IntegrityProblem } from "./integrity.ts";
export { baselineSummaries, compareSummaries, type ChangeStatus, type CriterionChange, type EvalChange, type ModelPairComparison, type ScoreChange } from "./compare.ts";
export { readInvocations, recordInvocationFinished, recordInvocationStarted, type Invocation } from "./progress.ts";
export type { InvocationFinished, InvocationStarted, PlannedWork } from "./progress-schema.ts";
export { readVerdictSettings, recordVerdictSettings, verdictSettingsOf, type VerdictSettings } from "./verdict-settings.ts";
export { MODELS_ADDED_EVENT, MODELS_RETIRED_EVENT, readRunModels, recordModelsAdded, recordModelsRetired, type RunModels } from "./run-models.ts";
export { capitalizeOutcome, describeOutcome, type EvalRunOutcome } from "./eval-run-outcome.ts";
