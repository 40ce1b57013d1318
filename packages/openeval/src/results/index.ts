// The results stage, the last of the journey: equal-weight aggregation, statistics, gates, the verdict and
// baselines, over the records (records/).
export {
  aggregateScores,
  slotCredit,
  type Bounded,
  type CaseSummary,
  type EvalSummary,
  type ModelSummary,
  type SlotOutcome,
} from "./aggregate.ts";
export { scoreCategories, type CategoryModelScore, type CategoryScore } from "./category-scores.ts";
export { activeIntervals, judgeCostOf, judgingOf, unionMs, type Interval } from "./active-time.ts";
export {
  scoreIntervals,
  compareModels,
  costAndTimeByModel,
  measureCostAndTime,
  type CostAndTime,
  type PairedComparison,
  type ScoreInterval,
  type SlotObservation,
} from "./statistics.ts";
export { passAtK, passHatK, summarizePassK, type PassK } from "./pass-at-k.ts";
export { evaluateGates, gateName, type GateResult } from "./gates.ts";
export { judgeAgreement, type CriterionAgreement, type JudgedRecording } from "./judge-agreement.ts";
export { krippendorffAlpha, measureAgreement, type AgreementLevel, type AgreementMeasure } from "./agreement.ts";
export { caseCellEval, DEFAULT_CRITERION_THRESHOLD, judgeCriterion } from "./criterion-status.ts";
export { CONTRIBUTOR_IDS, resolveGate, type ContributorId, type GateSelection } from "./gate-selection.ts";
export {
  decideVerdict,
  type ContributorOutcome,
  type ContributorStatus,
  type ContributorWord,
  type CriterionRef,
  type Verdict,
  type VerdictStatus,
} from "./verdict.ts";
export {
  describeStanding,
  invariantsContributor,
  type InvariantStanding,
  type InvariantsVerdictInput,
} from "./invariants-contributor.ts";
export {
  describeVerdict,
  exitCodeFor,
  formatVerdictWords,
  type VerdictHeadline,
  type VerdictWords,
} from "./verdict-words.ts";
export { BASELINE_FILE, buildBaseline, readBaseline, writeBaseline, type BaselineInput } from "./baseline.ts";
export {
  decideLook,
  lookAlpha,
  type ComparisonDecision,
  type SequentialLook,
  type SequentialOptions,
} from "./sequential-decision.ts";
export type { Baseline } from "./baseline-schema.ts";
export type { SlotFingerprint } from "./regression.ts";
export {
  BaselineInvalidError,
  BaselineMissingError,
  BaselineRefusedError,
  GateSelectionError,
  RunMaintenanceError,
} from "./errors.ts";
export {
  baselineSummaries,
  compareSummaries,
  type ChangeStatus,
  type CriterionChange,
  type EvalChange,
  type ModelPairComparison,
  type ScoreChange,
} from "./compare.ts";
export {
  readVerdictSettings,
  recordVerdictSettings,
  verdictSettingsOf,
  type VerdictSettings,
} from "./verdict-settings.ts";
export { cohensKappa, type BinaryAgreement, type LabelPair } from "./cohens-kappa.ts";
