// The judge stage: code judges in a separate timed process, score normalization, judgeEvidence().
export { judgeEvidence, type JudgeEvidenceOptions, type JudgeResult } from "./judge-evidence.ts";
export { runCodeJudge, type CodeJudgeExecution, type CodeJudgeRequest } from "./run-code-judge.ts";
export { normalizeJudgeOutput, meanCredit, JudgingError, type NormalizedOutput } from "./normalize.ts";
export { gradeEvalRun, judgeRunDirectory, type GradeRequest, type RubricGrader, type SourceOutcome } from "./grade-eval-run.ts";
export { createRubricGrader, judgeControls, SCRIPTED_JUDGE_MODEL, RUBRIC_FILES, readCallLog, type JudgeCredentials } from "./rubric/index.ts";
