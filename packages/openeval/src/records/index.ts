// The records every stage shares: the run's store and its record schemas, slot keys, run directories, the
// integrity check, progress and model events. The bottom of the journey: nothing here scores anything.
export {
  BenchmarkRunSchema,
  CITATION_KINDS,
  CitationSchema,
  CriterionScoreSchema,
  CRITERION_SOURCES,
  EVAL_RUN_STATES,
  EvalRunSchema,
  JUDGE_RUN_STATES,
  JudgeRunSchema,
  PanelJudgmentSchema,
  RuntimeIdentitySchema,
  SlotKeySchema,
  type BenchmarkRun,
  type Citation,
  type EarlyCheck,
  type CriterionScore,
  type CriterionSource,
  type EvalRun,
  type EvalRunFinding,
  type IntegrityFinding,
  type IntegrityCitation,
  type PreparationError,
  type RecordingIntegrityError,
  type RecordingMismatch,
  type EvalRunState,
  type JudgeRun,
  type JudgeRunState,
  type PanelJudgment,
  type RuntimeIdentity,
  type SlotKey,
} from "./schema.ts";
export { RunMetricsSchema, type RunMetrics } from "./run-metrics-schema.ts";
export {
  candidateName,
  cellId,
  groupByCandidate,
  sameSlot,
  slotId,
  toCandidateRef,
  toSlotKey,
  variantOf,
  type CandidateRef,
} from "./slot-key.ts";
export { ResultsStore, STORE_FILE, type StoreMarks } from "./store.ts";
export { RunNotFoundError, StoreError } from "./errors.ts";
export {
  chooseRunDirectory,
  findLatestRun,
  findRun,
  listRunIds,
  newRunId,
  resolveRun,
  resultsRoot,
  whileCreatingRun,
  type RunDirectoryChoice,
} from "./run-directory.ts";
export {
  readRedactionList,
  recordRedactions,
  REDACTION_LIST_FILE,
  toRedactionEntries,
  type RedactionEntry,
} from "./redaction-list.ts";
export {
  checkEvalRunRecord,
  checkJudgeRunFile,
  checkJudgeRunRecord,
  checkRecords,
  JUDGE_FILES_MANIFEST,
  type IntegrityProblem,
  type JudgedEvalRun,
} from "./integrity.ts";
export { readInvocations, recordInvocationFinished, recordInvocationStarted, type Invocation } from "./progress.ts";
export {
  INVOCATION_FINISHED,
  INVOCATION_STARTED,
  type InvocationFinished,
  type InvocationStarted,
  type PlannedWork,
} from "./progress-schema.ts";
export { readRuntimeIdentity, recordRuntimeIdentity, RUNTIME_RESOLVED_EVENT } from "./runtime-identity.ts";
export {
  MODELS_ADDED_EVENT,
  MODELS_RETIRED_EVENT,
  readRunModels,
  recordModelsAdded,
  recordModelsRetired,
  type RunModels,
} from "./run-models.ts";
export { capitalizeOutcome, describeOutcome, isJudgeable, type EvalRunOutcome } from "./eval-run-outcome.ts";
export { describeRecordingIntegrity } from "./recording-integrity.ts";
export { describeFinding } from "./eval-run-findings.ts";
export type { EvalRunHead, JudgeRunHead } from "./run-heads.ts";
export {
  creditsOf,
  RecordedWorkIndex,
  type ActiveWork,
  type ActiveWorkStatus,
  type ExpectedInputs,
} from "./active-work.ts";
export {
  checkFrozenPrograms,
  differencesOf,
  frozenInputProblems,
  FrozenManifestSchema,
  INPUTS_DIRECTORY,
  objectIntact,
  objectName,
  PROGRAMS_MANIFEST,
  readFrozenCase,
  readManifest,
  verifyFrozenInputs,
  type FrozenCase,
  type FrozenCheck,
  type FrozenFile,
  type FrozenPrograms,
} from "./frozen-inputs.ts";
export {
  REVIEW_FORMAT,
  REVIEW_SCORES,
  ReviewSchema,
  type Review,
  type Reviewer,
  type ReviewScore,
  type ScoreReview,
} from "./review-schema.ts";
export { readReviews, recordReview, REVIEW_RECORDED_EVENT, reviewFile, REVIEWS_DIRECTORY } from "./reviews.ts";
export {
  INVARIANT_STATUSES,
  InvariantEvaluationSchema,
  type InvariantEvaluation,
  type InvariantStatus,
} from "./invariant-result-schema.ts";
export {
  INVARIANT_EVALUATED_EVENT,
  latestInvariantEvaluations,
  newInvariantEvaluationId,
  readInvariantEvaluations,
  recordInvariantEvaluation,
} from "./invariant-results.ts";
