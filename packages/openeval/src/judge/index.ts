// The judge stage: code judges in a separate timed process, score normalization, judgeEvidence().
export { judgeEvidence, type JudgeEvidenceOptions, type JudgeResult } from "./judge-evidence.ts";
export { CODE_JUDGE_FILES, runCodeJudge, type CodeJudgeExecution, type CodeJudgeRequest } from "./run-code-judge.ts";
export { bundleProgram } from "./bundle-program.ts";
export { stopCodeWorkers } from "./code-worker-pool.ts";
export {
  normalizeJudgeOutput,
  criterionMean,
  isScored,
  JudgingError,
  type CodeScore,
  type NormalizedOutput,
  type ScoreValue,
} from "./normalize.ts";
export {
  gradeEvalRun,
  judgeRunDirectory,
  JUDGE_RUN_FOLDERS,
  type GradeRequest,
  type RubricGrader,
} from "./grade-eval-run.ts";
export type { SourceOutcome, VerificationSetup } from "./judge-source.ts";
export {
  checkEarly,
  createRubricGrader,
  judgeControls,
  type EarlyCheckLimits,
  type EarlyCheckResult,
  type RubricGraderOptions,
  type RubricTask,
  type PanelRequest,
  judgeLabel,
  SCRIPTED_JUDGE_MODEL,
  RUBRIC_FILES,
  readCallLog,
  readJudgeSession,
  type JudgeCredentials,
} from "./rubric/index.ts";
export {
  buildVerificationImage,
  resolveVerificationImage,
  VERIFICATION_IMAGE,
  reapVerificationContainers,
  createVerificationApi,
  DEFAULT_VERIFICATION_LIMITS,
  VerificationError,
  RECEIPT_FILE,
  type VerificationImage,
  type BuildProgress,
} from "./verification/index.ts";
export { setUpVerification, resolveVerificationSetup } from "./verification-setup.ts";
export { integrityFindingsOf, TEST_CONFIG } from "./integrity/index.ts";
export {
  benchmarkEntries,
  evaluateInvariant,
  INVARIANT_LOG_BYTES,
  type EvaluateInvariantRequest,
  type InvariantInput,
  type InvariantOutcome,
} from "./evaluate-invariant.ts";
export { judgeCaseOf } from "./judge-case.ts";
