// The judge stage: code judges in a separate timed process, score normalization, judgeEvidence().
export { judgeEvidence, type JudgeEvidenceOptions, type JudgeResult } from "./judge-evidence.ts";
export { runCodeJudge, type CodeJudgeExecution, type CodeJudgeRequest } from "./run-code-judge.ts";
export { normalizeJudgeOutput, meanCredit, JudgingError, type NormalizedOutput } from "./normalize.ts";
